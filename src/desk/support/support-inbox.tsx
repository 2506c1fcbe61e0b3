import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  inboxLimit,
  supportFilters,
  useSetSupportMessageState,
  useSupportInbox,
  useUnreadSupportCount,
  type InboxMessage,
  type SupportFilter,
  type SupportStateChange,
} from '../api/support.ts';
import { berlinDateTime } from '../../domain/calendar.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { LoadError } from '../../ui/load-error.tsx';

const filterLabels: Record<SupportFilter, string> = { offen: 'Offen', erledigt: 'Erledigt' };
const listLabels: Record<SupportFilter, string> = {
  offen: 'Offene Support-Nachrichten',
  erledigt: 'Erledigte Support-Nachrichten',
};
const emptyTexts: Record<SupportFilter, string> = {
  offen: 'Keine Nachrichten',
  erledigt: 'Keine erledigten Nachrichten',
};

export const supportChangeFailedMessage =
  'Die Nachricht konnte nicht geändert werden. Bitte lade die Seite neu und versuche es erneut.';

/** The filter as the address holds it (`?nachrichten=erledigt`), so a reload keeps it. */
function useInboxFilter() {
  const [params, setParams] = useSearchParams();
  const filter: SupportFilter = params.get('nachrichten') === 'erledigt' ? 'erledigt' : 'offen';
  const change = (next: SupportFilter) =>
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (next === 'offen') updated.delete('nachrichten');
        else updated.set('nachrichten', next);
        return updated;
      },
      { replace: true },
    );
  return [filter, change] as const;
}

const readButtonId = (id: number) => `support-${id}-gelesen`;
const doneButtonId = (id: number) => `support-${id}-erledigt`;
const undoButtonId = 'support-rueckgaengig';

/** What the last "Erledigt" or "Wieder öffnen" did, so that it can be taken back. */
interface LastChange {
  message: InboxMessage;
  done: boolean;
}

function MessageItem(props: {
  message: InboxMessage;
  busy: boolean;
  onChange: (change: SupportStateChange) => void;
}) {
  const { message, busy, onChange } = props;
  const titleId = `support-${message.id}-titel`;
  const timeId = `support-${message.id}-zeit`;
  const unread = message.read_at === null;
  const done = message.done_at !== null;
  const state = done ? 'Erledigt' : unread ? 'Ungelesen' : 'Gelesen';

  return (
    <li>
      <article
        aria-labelledby={`${titleId} ${timeId}`}
        className={`rounded-lg border bg-white p-4 shadow-sm ${
          unread ? 'border-l-4 border-brand-700' : 'border-slate-200'
        }`}
      >
        <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
          <h3
            id={titleId}
            className={`text-lg text-slate-900 ${unread ? 'font-bold' : 'font-semibold'}`}
          >
            {message.name}
          </h3>
          <span
            className={`rounded-full px-2 py-0.5 text-xs font-semibold ${
              unread ? 'bg-brand-700 text-white' : 'bg-slate-200 text-slate-800'
            }`}
          >
            {state}
          </span>
        </div>
        <p className="mt-1 text-sm text-slate-700">
          <a href={`mailto:${message.email}`} className="text-brand-800 underline">
            {message.email}
          </a>
          {' · '}
          <time id={timeId} dateTime={message.created_at}>
            {berlinDateTime(message.created_at)}
          </time>
          {done && message.done_at ? <> · erledigt am {berlinDateTime(message.done_at)}</> : null}
        </p>
        <p className="mt-3 break-words whitespace-pre-wrap text-slate-900">{message.message}</p>
        <div className="mt-4 flex flex-wrap gap-2">
          {done ? null : (
            <Button
              id={readButtonId(message.id)}
              variant="secondary"
              disabled={busy}
              aria-describedby={titleId}
              onClick={() => onChange({ id: message.id, read: unread })}
            >
              {unread ? 'Als gelesen markieren' : 'Als ungelesen markieren'}
            </Button>
          )}
          <Button
            id={doneButtonId(message.id)}
            variant={done ? 'secondary' : 'primary'}
            disabled={busy}
            aria-describedby={titleId}
            onClick={() => onChange({ id: message.id, done: !done })}
          >
            {done ? 'Wieder öffnen' : 'Erledigt'}
          </Button>
        </div>
      </article>
    </li>
  );
}

/**
 * The admins' inbox of the support form's messages: open ones (unread on top) or settled ones,
 * each marked read or done and back. Rendered for admins only; the database shows nobody else a
 * message anyway.
 */
export function SupportInbox() {
  const [filter, setFilter] = useInboxFilter();
  const inbox = useSupportInbox(filter);
  const unread = useUnreadSupportCount(true);
  const setState = useSetSupportMessageState();
  const [lastChange, setLastChange] = useState<LastChange | null>(null);
  const [status, setStatus] = useState('');
  // A marked message moves (unread to read) or leaves the list (done), and a moved or removed
  // node loses the keyboard focus. The change's status text renders the list as the database now
  // has it (the mutation settles only after the lists were read again); after that render the
  // focus goes where it fits.
  const focusTarget = useRef<string | null>(null);
  useEffect(() => {
    if (!focusTarget.current) return;
    document.getElementById(focusTarget.current)?.focus();
    focusTarget.current = null;
  });

  const change = (message: InboxMessage, next: SupportStateChange, undo = false) => {
    setStatus('');
    setState.mutate(next, {
      onSuccess: () => {
        if (next.done === undefined) {
          setStatus(
            next.read
              ? `Als gelesen markiert: Nachricht von ${message.name}.`
              : `Als ungelesen markiert: Nachricht von ${message.name}.`,
          );
          focusTarget.current = readButtonId(message.id);
          return;
        }
        if (undo) {
          setLastChange(null);
          setStatus(`Rückgängig gemacht: Nachricht von ${message.name}.`);
          focusTarget.current = doneButtonId(message.id);
          return;
        }
        setLastChange({ message, done: next.done });
        setStatus(
          next.done
            ? `Erledigt: Nachricht von ${message.name}.`
            : `Wieder geöffnet: Nachricht von ${message.name}.`,
        );
        focusTarget.current = undoButtonId;
      },
    });
  };

  const busyId = setState.isPending ? setState.variables?.id : undefined;
  const unreadCount = unread.data ?? 0;

  return (
    <section aria-labelledby="support-nachrichten" className="mb-8 space-y-4">
      <div className="flex flex-wrap items-baseline gap-x-3">
        <h2 id="support-nachrichten" className="text-xl font-semibold text-slate-900">
          Support-Nachrichten
        </h2>
        {unread.isSuccess ? (
          <p className="text-sm text-slate-700">
            {unreadCount === 0
              ? 'Alle gelesen'
              : unreadCount === 1
                ? '1 ungelesen'
                : `${unreadCount} ungelesen`}
          </p>
        ) : null}
      </div>

      <div role="group" aria-label="Nachrichten anzeigen" className="flex gap-2">
        {supportFilters.map((value) => (
          <Button
            key={value}
            variant={value === filter ? 'primary' : 'secondary'}
            aria-pressed={value === filter}
            onClick={() => {
              setLastChange(null);
              setStatus('');
              setFilter(value);
            }}
          >
            {filterLabels[value]}
          </Button>
        ))}
      </div>

      <div className="flex flex-wrap items-center gap-3">
        <p role="status" className="text-sm text-slate-800 empty:hidden">
          {status}
        </p>
        {lastChange ? (
          <Button
            id={undoButtonId}
            variant="ghost"
            disabled={setState.isPending}
            onClick={() =>
              change(
                lastChange.message,
                { id: lastChange.message.id, done: !lastChange.done },
                true,
              )
            }
          >
            Rückgängig
          </Button>
        ) : null}
      </div>
      {setState.isError ? <Alert tone="error">{supportChangeFailedMessage}</Alert> : null}

      {inbox.isPending ? (
        <p role="status" className="rounded-lg bg-white p-4 text-slate-700 shadow">
          Nachrichten werden geladen …
        </p>
      ) : inbox.isError ? (
        <LoadError onRetry={inbox.refetch}>
          Die Support-Nachrichten konnten nicht geladen werden.
        </LoadError>
      ) : inbox.data.messages.length === 0 ? (
        <p className="rounded-lg bg-white p-4 text-slate-700 shadow">{emptyTexts[filter]}</p>
      ) : (
        <>
          {inbox.data.total > inbox.data.messages.length ? (
            <p className="text-sm text-slate-700">
              Gezeigt werden die neuesten {inboxLimit} von {inbox.data.total} Nachrichten.
            </p>
          ) : null}
          <ul aria-label={listLabels[filter]} className="space-y-3">
            {inbox.data.messages.map((message) => (
              <MessageItem
                key={message.id}
                message={message}
                busy={busyId === message.id}
                onChange={(next) => change(message, next)}
              />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
