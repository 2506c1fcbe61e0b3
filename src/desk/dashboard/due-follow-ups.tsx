import { useState } from 'react';
import { Link } from 'react-router-dom';
import {
  useCompleteFollowUp,
  useDueFollowUps,
  useReopenFollowUp,
  type FollowUp,
} from '../api/follow-ups.ts';
import { deskCustomerAnswersPath, deskPaths } from '../../domain/routes.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { LoadError } from '../../ui/load-error.tsx';
import { FollowUpItem } from '../shared/follow-up-item.tsx';

/**
 * 'Heute fällig': the account's and the unassigned open follow-ups due by the end of today in
 * Berlin, the overdue first; each done with one click. The bell counts the same list.
 */
export function DueFollowUps() {
  const due = useDueFollowUps();
  const complete = useCompleteFollowUp();
  const reopen = useReopenFollowUp();
  // The last one marked done, for 'Rückgängig' (a click on the wrong line).
  const [lastDone, setLastDone] = useState<FollowUp | null>(null);
  return (
    <section
      aria-labelledby="karte-heute-faellig"
      aria-busy={due.isPending}
      className="rounded-lg bg-white p-5 shadow"
    >
      <h2 id="karte-heute-faellig" className="mb-3 text-base font-semibold text-slate-700">
        Heute fällig
      </h2>
      {due.isPending ? (
        <div className="space-y-2" aria-hidden="true">
          <div className="h-6 w-1/3 animate-pulse rounded bg-slate-200" />
          <div className="h-4 w-2/3 animate-pulse rounded bg-slate-200" />
        </div>
      ) : due.isError ? (
        <LoadError framed={false} onRetry={due.refetch}>
          Die Wiedervorlagen konnten nicht geladen werden.
        </LoadError>
      ) : due.data.length === 0 ? (
        <p className="text-slate-700">Nichts fällig.</p>
      ) : (
        <ul className="divide-y divide-slate-200">
          {due.data.map((item) => (
            <FollowUpItem
              key={item.id}
              item={item}
              busy={complete.isPending && complete.variables === item.id}
              onDone={() => {
                setLastDone(item);
                complete.mutate(item.id);
              }}
              heading={
                <p className="flex flex-wrap gap-x-3">
                  <Link
                    to={`${deskPaths.customers}?id=${item.customer_id}`}
                    className="font-semibold text-brand-800 underline"
                  >
                    {item.customer_name || 'Kunde ohne Namen'}
                  </Link>
                  <Link
                    to={deskCustomerAnswersPath(item.customer_id)}
                    className="text-sm text-brand-800 underline"
                    aria-label={`Antworten von ${item.customer_name}`}
                  >
                    Antworten
                  </Link>
                </p>
              }
            />
          ))}
        </ul>
      )}
      {lastDone && !complete.isError ? (
        <div role="status" className="mt-3 flex flex-wrap items-center gap-3 text-slate-800">
          <span>
            Erledigt: {lastDone.body || 'Wiedervorlage'} ({lastDone.customer_name})
          </span>
          <Button
            variant="secondary"
            disabled={reopen.isPending}
            onClick={() => {
              reopen.mutate(lastDone.id);
              setLastDone(null);
            }}
          >
            Rückgängig
          </Button>
        </div>
      ) : null}
      {complete.isError ? (
        <Alert tone="error">
          Die Wiedervorlage konnte nicht erledigt werden. Bitte versuche es erneut.
        </Alert>
      ) : null}
    </section>
  );
}
