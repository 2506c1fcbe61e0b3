import { useState } from 'react';
import { useCompleteFollowUp, useCustomerFollowUps } from '../api/follow-ups.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { LoadError } from '../../ui/load-error.tsx';
import { FollowUpDialog, type FollowUpSubject } from './follow-up-dialog.tsx';
import { FollowUpItem } from './follow-up-item.tsx';
import { panelClass } from './panel.ts';

/**
 * 'Wiedervorlagen' in the sidebar and on the lead page: the customer's open follow-ups, done with
 * one click. On the lead page a new one belongs to a lead (`lead`), so its 'Verlauf' shows it.
 */
export function CustomerFollowUps(props: {
  customerId: number;
  customerName: string;
  lead?: { responseId: number; label: string } | undefined;
  /** On the lead page: a card of its own with a second-level heading. */
  card?: boolean;
}) {
  const followUps = useCustomerFollowUps(props.customerId);
  const complete = useCompleteFollowUp();
  const [subject, setSubject] = useState<FollowUpSubject | null>(null);
  const Heading = props.card ? 'h2' : 'h3';
  return (
    <section
      aria-labelledby="kunde-wiedervorlagen"
      className={props.card ? panelClass : 'mt-6 border-t border-slate-200 pt-5'}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Heading id="kunde-wiedervorlagen" className="text-lg font-semibold text-slate-900">
          Wiedervorlagen
        </Heading>
        <Button
          variant="secondary"
          onClick={() =>
            setSubject({
              customerId: props.customerId,
              responseId: props.lead?.responseId ?? null,
              label: props.lead
                ? `${props.customerName} · ${props.lead.label}`
                : props.customerName,
            })
          }
        >
          Wiedervorlage anlegen
        </Button>
      </div>
      {followUps.isPending ? (
        <p role="status" className="mt-2 text-slate-700">
          Wiedervorlagen werden geladen …
        </p>
      ) : followUps.isError ? (
        <LoadError framed={false} onRetry={followUps.refetch}>
          Die Wiedervorlagen konnten nicht geladen werden.
        </LoadError>
      ) : followUps.data.length === 0 ? (
        <p className="mt-2 text-slate-700">Keine offenen Wiedervorlagen.</p>
      ) : (
        <ul className="divide-y divide-slate-200">
          {followUps.data.map((item) => (
            <FollowUpItem
              key={item.id}
              item={item}
              busy={complete.isPending && complete.variables === item.id}
              onDone={() => complete.mutate(item.id)}
            />
          ))}
        </ul>
      )}
      {complete.isError ? (
        <Alert tone="error">
          Die Wiedervorlage konnte nicht erledigt werden. Bitte versuche es erneut.
        </Alert>
      ) : null}
      <FollowUpDialog subject={subject} onClose={() => setSubject(null)} />
    </section>
  );
}
