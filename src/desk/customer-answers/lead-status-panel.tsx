import { useId, useState, type FormEvent, type ReactNode } from 'react';
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
import { Button } from '../../ui/button.tsx';
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
 * The lead's status and its change as one control: the statuses as a radio group (the current one
 * marked), an optional note and one button. Keeping the current status with a note records the
 * note on the lead; keeping it without one changes nothing, which the group says.
 */
export function LeadStatusControl(props: {
  customerId: number;
  response: CustomerResponse;
  /** Which lead, when the customer has several ('Tabaluga vom 20.11.2026, 16:30'). */
  label?: string | undefined;
}) {
  const { response } = props;
  const setStatus = useSetLeadStatus(props.customerId);
  // null: nothing chosen yet, the current status is checked (and follows a change elsewhere).
  const [chosen, setChosen] = useState<LeadStatus | null>(null);
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState<string>();
  const [choiceError, setChoiceError] = useState<string>();
  const [done, setDone] = useState('');
  const saveErrorId = useId();
  const choiceErrorId = useId();
  const groupName = useId();
  const tooLong = note.trim().length > noteMaxLength;
  const failure = setStatus.isError ? saveError(setStatus.error) : {};
  const shownNoteError =
    noteError ??
    failure.note ??
    (tooLong ? `Die Notiz darf höchstens ${noteMaxLength} Zeichen lang sein.` : undefined);
  const checked = chosen ?? response.status;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (tooLong) {
      setNoteError(`Die Notiz darf höchstens ${noteMaxLength} Zeichen lang sein.`);
      return;
    }
    if (checked === response.status && note.trim() === '') {
      setChoiceError('Bitte einen anderen Status wählen oder eine Notiz schreiben.');
      return;
    }
    setNoteError(undefined);
    setChoiceError(undefined);
    setDone('');
    const status = checked;
    setStatus.mutate(
      { responseId: response.id, status, note },
      {
        onSuccess: () => {
          setNote('');
          setChosen(null);
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
    <form
      noValidate
      onSubmit={submit}
      aria-label={props.label ? `Status ändern: ${props.label}` : 'Status ändern'}
      className="mt-3"
    >
      <p className="text-slate-800">
        Aktueller Status:{' '}
        <strong className="font-semibold">{leadStatusLabels[response.status]}</strong>
      </p>
      <fieldset className="mt-3" aria-describedby={choiceError ? choiceErrorId : undefined}>
        <legend className="mb-1 font-medium text-slate-800">Neuer Status</legend>
        <div className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-2 xl:grid-cols-3">
          {leadStatuses.map((status) => (
            <label
              key={status}
              className="flex min-h-11 cursor-pointer items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-800 has-checked:border-brand-700 has-checked:bg-brand-50 has-checked:font-semibold has-focus-visible:outline-2 has-focus-visible:outline-brand-700"
            >
              <input
                type="radio"
                name={groupName}
                value={status}
                checked={checked === status}
                onChange={() => {
                  setChosen(status);
                  setChoiceError(undefined);
                  setDone('');
                }}
                className="size-4 shrink-0 accent-brand-700"
              />
              {status === response.status
                ? `${leadStatusLabels[status]} (aktuell)`
                : leadStatusLabels[status]}
            </label>
          ))}
        </div>
        {choiceError ? (
          <p id={choiceErrorId} className="mt-1 text-sm font-medium text-red-700">
            {choiceError}
          </p>
        ) : null}
      </fieldset>
      <TextAreaField
        label="Notiz zur Statusänderung (optional)"
        rows={2}
        className="mt-3"
        value={note}
        error={shownNoteError}
        onChange={(event) => {
          setNote(event.target.value);
          setNoteError(undefined);
          setChoiceError(undefined);
          if (setStatus.isError) setStatus.reset();
        }}
      />
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <Button
          type="submit"
          disabled={setStatus.isPending}
          aria-describedby={failure.save ? saveErrorId : undefined}
        >
          {setStatus.isPending ? 'Status wird gespeichert …' : 'Status ändern'}
        </Button>
        <p role="status" className="text-sm text-slate-700">
          {setStatus.isPending ? 'Wird gespeichert …' : done}
        </p>
      </div>
      {failure.save ? (
        <p id={saveErrorId} role="alert" className="mt-2 text-sm font-medium text-red-700">
          {failure.save}
        </p>
      ) : null}
    </form>
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
 * changed, done and opened again, each with who and when. With `title` (a customer with several
 * leads) it is a section of its own under that title; else the list of the 'Verlauf' card.
 */
export function LeadStatusHistory(props: {
  response: CustomerResponse;
  history: HistoryView;
  title?: string | undefined;
}) {
  const { response, history } = props;
  const steps = [
    ...(history.data ?? []).filter((change) => change.response_id === response.id).map(statusStep),
    ...(history.activity ?? [])
      .filter((entry) => entry.response_id === response.id)
      .map(activityStep),
  ].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  const list = history.isPending ? (
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
  );
  if (!props.title) return list;
  // Named apart from the lead's own section, which carries the same title.
  return (
    <section aria-label={`Verlauf: ${props.title}`} className="mt-4">
      <h3 className="font-semibold text-slate-900">{props.title}</h3>
      {list}
    </section>
  );
}
