import type { ReactNode } from 'react';
import type { FollowUp } from '../api/follow-ups.ts';
import { berlinDateTime } from '../../domain/calendar.ts';
import { Button } from '../../ui/button.tsx';

/** One open follow-up: when (overdue marked), text, assignee, and 'Erledigt'. */
export function FollowUpItem(props: {
  item: FollowUp;
  /** Above the text, e.g. the link to the customer. */
  heading?: ReactNode;
  onDone: () => void;
  busy: boolean;
}) {
  const { item } = props;
  return (
    <li className="flex flex-wrap items-start justify-between gap-3 py-3">
      <div className="min-w-0 flex-1">
        {props.heading}
        <p className="text-sm text-slate-700">
          <time dateTime={item.due_at}>{berlinDateTime(item.due_at)} Uhr</time>
          {item.overdue ? (
            <span className="ml-2 rounded bg-red-100 px-1.5 py-0.5 text-xs font-semibold text-red-900">
              überfällig
            </span>
          ) : null}
        </p>
        {item.body ? <p className="break-words text-slate-900">{item.body}</p> : null}
        <p className="text-sm text-slate-700">
          Zuständig: {item.assignee_name ?? 'niemand (offen für alle)'}
        </p>
      </div>
      <Button
        variant="secondary"
        disabled={props.busy}
        onClick={props.onDone}
        aria-label={`Erledigt: ${item.body || 'Wiedervorlage'} (${item.customer_name})`}
      >
        Erledigt
      </Button>
    </li>
  );
}
