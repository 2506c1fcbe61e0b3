import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';
import { useId, useState, type ReactNode } from 'react';
import type { CustomerResponse } from '../api/customers.ts';
import {
  noteMaxLength,
  useSetLeadStatus,
  type LeadActivity,
  type LeadStatusChange,
} from '../api/lead-status.ts';
import { errorCode } from '../api/staff.ts';
import { berlinDateTime } from '../../domain/calendar.ts';
import { leadStatuses, leadStatusLabels, type LeadStatus } from '../../domain/lead-status.ts';
import { TextAreaField } from '../../ui/form-fields.tsx';
import { LoadError } from '../../ui/load-error.tsx';

/** What went wrong with a change, in German; a refused note is the note field's error. */
function saveError(error: unknown): { note?: string; save?: string } {
  switch (errorCode(error)) {
    case '22023':
      return { note: `Die Notiz darf höchstens ${noteMaxLength} Zeichen lang sein.` };
    case '42501':
      return { save: 'Keine Berechtigung, den Status zu ändern.' };
    case 'P0002':
      return { save: 'Diesen Lead gibt es nicht mehr. Bitte lade die Seite neu.' };
    default:
      return { save: 'Der Status konnte nicht gespeichert werden. Bitte versuche es erneut.' };
  }
}

/**
 * The lead's current status and its change: an optional note, then one choice in the menu saves
 * the status with that note. Choosing the current status keeps a note on the lead without
 * changing it, so it is offered only once a note is written.
 */
export function LeadStatusControl(props: { customerId: number; response: CustomerResponse }) {
  const { response } = props;
  const setStatus = useSetLeadStatus(props.customerId);
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState<string>();
  const [done, setDone] = useState('');
  const errorId = useId();
  const currentId = useId();
  const tooLong = note.trim().length > noteMaxLength;
  const failure = setStatus.isError ? saveError(setStatus.error) : {};
  const shownNoteError =
    noteError ??
    failure.note ??
    (tooLong ? `Die Notiz darf höchstens ${noteMaxLength} Zeichen lang sein.` : undefined);

  const choose = (status: LeadStatus) => {
    if (tooLong) {
      setNoteError(`Die Notiz darf höchstens ${noteMaxLength} Zeichen lang sein.`);
      return;
    }
    setNoteError(undefined);
    setDone('');
    setStatus.mutate(
      { responseId: response.id, status, note },
      {
        onSuccess: () => {
          setNote('');
          setDone(
            status === response.status
              ? 'Notiz gespeichert.'
              : `Status auf „${leadStatusLabels[status]}“ gesetzt.`,
          );
        },
      },
    );
  };

  return (
    <div className="mt-4 rounded-md border border-slate-200 bg-slate-50 p-4">
      <p id={currentId} className="text-slate-800">
        Status: <strong className="font-semibold">{leadStatusLabels[response.status]}</strong>
      </p>
      <TextAreaField
        label="Notiz zur Statusänderung (optional)"
        rows={2}
        className="mt-3"
        value={note}
        error={shownNoteError}
        onChange={(event) => {
          setNote(event.target.value);
          setNoteError(undefined);
          if (setStatus.isError) setStatus.reset();
        }}
      />
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <Menu as="div" className="relative">
          <MenuButton
            disabled={setStatus.isPending}
            aria-describedby={[currentId, failure.save ? errorId : ''].filter(Boolean).join(' ')}
            className="inline-flex min-h-11 items-center justify-center gap-2 rounded-lg border border-brand-700 bg-white px-5 py-2.5 font-semibold text-brand-800 hover:bg-brand-50 disabled:cursor-not-allowed disabled:border-slate-300 disabled:text-slate-500"
          >
            {setStatus.isPending ? 'Status wird gespeichert …' : 'Status ändern'}
            <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
              <path
                d="M5.5 7.5 10 12l4.5-4.5"
                stroke="currentColor"
                strokeWidth="1.5"
                fill="none"
              />
            </svg>
          </MenuButton>
          <MenuItems
            anchor="bottom start"
            className="z-50 mt-1 w-72 rounded-md border border-slate-200 bg-white py-2 text-slate-800 shadow-lg focus:outline-none"
          >
            {leadStatuses.map((status) => {
              const current = status === response.status;
              return (
                <MenuItem key={status} disabled={current && note.trim() === ''}>
                  <button
                    type="button"
                    onClick={() => choose(status)}
                    className="block w-full px-4 py-2 text-left text-sm data-disabled:text-slate-600 data-focus:bg-slate-100"
                  >
                    {current
                      ? note.trim()
                        ? `${leadStatusLabels[status]} (aktuell) – nur Notiz speichern`
                        : `${leadStatusLabels[status]} (aktuell)`
                      : leadStatusLabels[status]}
                  </button>
                </MenuItem>
              );
            })}
          </MenuItems>
        </Menu>
        <p role="status" className="text-sm text-slate-700">
          {setStatus.isPending ? 'Wird gespeichert …' : done}
        </p>
      </div>
      {failure.save ? (
        <p id={errorId} role="alert" className="mt-2 text-sm font-medium text-red-700">
          {failure.save}
        </p>
      ) : null}
    </div>
  );
}

export interface HistoryView {
  data?: LeadStatusChange[] | undefined;
  /** Mails and follow-ups about the customer's leads (lead_activity), shown among the changes. */
  activity?: LeadActivity[] | undefined;
  isPending: boolean;
  isError: boolean;
  refetch: () => unknown;
}

type HistoryStep = { at: string; key: string; content: ReactNode };

function statusStep(change: LeadStatusChange): HistoryStep {
  return {
    at: change.changed_at,
    key: `status-${change.id}`,
    content: (
      <>
        <span className="font-medium">{leadStatusLabels[change.status]}</span> –{' '}
        <time dateTime={change.changed_at}>{berlinDateTime(change.changed_at)}</time> –{' '}
        {change.changed_by_name ?? 'Gelöschtes Konto'}
        {change.note ? (
          <span className="block whitespace-pre-wrap text-slate-700">Notiz: {change.note}</span>
        ) : null}
      </>
    ),
  };
}

const activityTitles: Record<LeadActivity['kind'], string> = {
  mail_sent: 'Benachrichtigung gesendet',
  follow_up_created: 'Wiedervorlage angelegt',
  follow_up_changed: 'Wiedervorlage geändert',
  follow_up_done: 'Wiedervorlage erledigt',
  follow_up_reopened: 'Wiedervorlage wieder geöffnet',
};

/** What a change set, field by field: the new text, assignee and due time. */
function changedValues(entry: LeadActivity): string {
  const parts: string[] = [];
  for (const field of entry.changed ?? []) {
    if (field === 'body') parts.push(`Text: „${entry.body ?? ''}“`);
    if (field === 'assignee') parts.push(`Zuständig: ${entry.assignee_name ?? 'niemand'}`);
    if (field === 'due_at' && entry.due_at) parts.push(`Fällig: ${berlinDateTime(entry.due_at)}`);
  }
  return parts.join(' · ');
}

/**
 * A change or a reopening of a follow-up, as a sentence: 'Wiedervorlage geändert von Paula Puls
 * am 21.11.2026, 10:20', then what it set (or, when opened again, which follow-up it is).
 */
function followUpChangeStep(entry: LeadActivity, index: number): HistoryStep {
  const details =
    entry.kind === 'follow_up_changed'
      ? changedValues(entry)
      : `${entry.body ?? ''}${entry.due_at ? ` (fällig ${berlinDateTime(entry.due_at)})` : ''}`;
  return {
    at: entry.at,
    key: `${entry.kind}-${index}`,
    content: (
      <>
        <span className="font-medium">{activityTitles[entry.kind]}</span> von{' '}
        {entry.by_name ?? 'einem Dienst oder gelöschten Konto'} am{' '}
        <time dateTime={entry.at}>{berlinDateTime(entry.at)}</time>
        {details ? (
          <span className="block whitespace-pre-wrap text-slate-700">{details}</span>
        ) : null}
      </>
    ),
  };
}

function activityStep(entry: LeadActivity, index: number): HistoryStep {
  if (entry.kind === 'follow_up_changed' || entry.kind === 'follow_up_reopened') {
    return followUpChangeStep(entry, index);
  }
  const who =
    entry.kind === 'mail_sent'
      ? 'an die Agentur'
      : (entry.by_name ??
        (entry.kind === 'follow_up_created' ? 'automatisch' : 'Gelöschtes Konto'));
  return {
    at: entry.at,
    key: `${entry.kind}-${index}`,
    content: (
      <>
        <span className="font-medium">{activityTitles[entry.kind]}</span> –{' '}
        <time dateTime={entry.at}>{berlinDateTime(entry.at)}</time> – {who}
        {entry.body ? (
          <span className="block whitespace-pre-wrap text-slate-700">
            {entry.body}
            {entry.due_at ? ` (fällig ${berlinDateTime(entry.due_at)})` : ''}
          </span>
        ) : null}
      </>
    ),
  };
}

/**
 * The lead's way so far: its arrival as 'Neu' (the lead records it, no change does), then, by
 * time, every status change with who and the note, the new-lead mail and the follow-ups made,
 * changed, done and opened again, each with who and when.
 */
export function LeadStatusHistory(props: { response: CustomerResponse; history: HistoryView }) {
  const { response, history } = props;
  const headingId = useId();
  const steps = [
    ...(history.data ?? []).filter((change) => change.response_id === response.id).map(statusStep),
    ...(history.activity ?? [])
      .filter((entry) => entry.response_id === response.id)
      .map(activityStep),
  ].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  return (
    <section aria-labelledby={headingId} className="mt-4">
      <h3 id={headingId} className="text-lg font-semibold text-slate-900">
        Verlauf
      </h3>
      {history.isPending ? (
        <p role="status" className="mt-1 text-slate-700">
          Verlauf wird geladen …
        </p>
      ) : history.isError ? (
        <LoadError framed={false} onRetry={history.refetch}>
          Der Verlauf konnte nicht geladen werden.
        </LoadError>
      ) : (
        <ol className="mt-1 divide-y divide-slate-100">
          <li className="py-2">
            <span className="font-medium">{leadStatusLabels.new}</span> –{' '}
            <time dateTime={response.received_at}>{berlinDateTime(response.received_at)}</time> –
            Eingang
          </li>
          {steps.map((step) => (
            <li key={step.key} className="py-2">
              {step.content}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
