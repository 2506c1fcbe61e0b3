import { useId } from 'react';
import { berlinMinute } from '../../domain/calendar.ts';
import type { LeadContactChange } from '../../domain/lead-contact.ts';
import { Button } from '../../ui/button.tsx';

/**
 * Tells staff that the newest lead says something else than the customer record, field by field
 * (old → new), and offers to put the lead's details into the form. A lead never changes a known
 * customer by itself: whoever sends a form may type any name to any address.
 */
export function LeadChangesNotice(props: {
  typedAt: string;
  changes: LeadContactChange[];
  takenOver: boolean;
  onTakeOver: () => void;
}) {
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950"
    >
      <h3 id={headingId} className="font-semibold">
        Neue Angaben aus der Anfrage vom{' '}
        <time dateTime={props.typedAt}>{berlinMinute(props.typedAt)}</time>
      </h3>
      <ul className="mt-2 flex flex-col gap-1">
        {props.changes.map((change) => (
          <li key={change.field}>
            <span className="font-medium">{change.label}:</span>{' '}
            {change.before ?? <span className="italic">leer</span>}
            <span aria-hidden="true"> → </span>
            <span className="sr-only"> wird zu </span>
            {change.after}
          </li>
        ))}
      </ul>
      {props.takenOver ? (
        <p role="status" className="mt-3">
          Übernommen. Prüfe die Angaben und speichere sie.
        </p>
      ) : (
        <Button variant="secondary" className="mt-3" onClick={props.onTakeOver}>
          Angaben übernehmen
        </Button>
      )}
    </section>
  );
}
