import { useEffect, useState } from 'react';
import {
  NoteFixedError,
  noteEditable,
  noteFixedMessage,
  useAddCustomerNote,
  useCustomerNotes,
  useDeleteCustomerNote,
  useEditCustomerNote,
  type CustomerNote,
} from '../api/customer-notes.ts';
import { berlinDateTime } from '../../domain/calendar.ts';
import { Button } from '../../ui/button.tsx';
import { Modal, ModalActions, ModalDescription, ModalTitle } from '../../ui/modal.tsx';
import { TextAreaField } from '../../ui/form-fields.tsx';
import { LoadError } from '../../ui/load-error.tsx';
import { useZodForm } from '../../ui/use-zod-form.ts';
import { panelClass } from './panel.ts';
import { noteFormSchema, type NoteFormValues } from './customer-note-form.ts';

/** The clock the edit buttons follow: a note's 15 minutes run out while the sidebar is open. */
function useMinuteClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function NoteForm(props: {
  label: string;
  submitLabel: string;
  initial: string;
  onSave: (body: string) => Promise<void>;
  onCancel?: () => void;
}) {
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useZodForm(noteFormSchema, {
    defaultValues: { body: props.initial },
  });
  const submit = async (values: NoteFormValues) => {
    try {
      await props.onSave(values.body);
      reset({ body: '' });
    } catch (error) {
      setError('body', {
        message:
          error instanceof NoteFixedError
            ? noteFixedMessage
            : 'Die Notiz wurde nicht gespeichert. Bitte versuche es erneut.',
      });
    }
  };
  return (
    <form
      noValidate
      onSubmit={(event) => void handleSubmit(submit)(event)}
      className="flex flex-col gap-2"
    >
      <TextAreaField
        label={props.label}
        rows={3}
        maxLength={2000}
        error={errors.body?.message}
        {...register('body')}
      />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Speichern …' : props.submitLabel}
        </Button>
        {props.onCancel ? (
          <Button variant="secondary" onClick={props.onCancel}>
            Abbrechen
          </Button>
        ) : null}
      </div>
    </form>
  );
}

/** Asks before the own note is deleted; a note past its 15 minutes is kept by the database. */
function NoteDeleteDialog(props: {
  note: CustomerNote | null;
  customerId: number;
  onClose: () => void;
}) {
  const remove = useDeleteCustomerNote(props.customerId);
  const close = () => {
    remove.reset();
    props.onClose();
  };
  return (
    <Modal open={props.note !== null} onClose={close} role="alertdialog" onTop>
      <ModalTitle>Notiz löschen?</ModalTitle>
      <ModalDescription>
        „{props.note?.body}“ wird gelöscht. Das lässt sich nicht rückgängig machen.
      </ModalDescription>
      {remove.error ? (
        <p
          role="alert"
          className="mb-4 rounded-lg border border-red-300 bg-red-50 p-3 text-red-900"
        >
          {remove.error instanceof NoteFixedError
            ? noteFixedMessage
            : 'Die Notiz wurde nicht gelöscht. Bitte versuche es erneut.'}
        </p>
      ) : null}
      <ModalActions>
        {/* The harmless choice first: Enter right after opening deletes nothing. */}
        <Button variant="secondary" onClick={close} data-autofocus>
          Abbrechen
        </Button>
        <button
          type="button"
          disabled={remove.isPending || props.note === null}
          onClick={() => {
            if (props.note) remove.mutate(props.note.id, { onSuccess: close });
          }}
          className="inline-flex min-h-11 items-center justify-center rounded-lg bg-red-700 px-5 py-2.5 font-semibold text-white hover:bg-red-800 disabled:cursor-not-allowed disabled:bg-slate-400"
        >
          {remove.isPending ? 'Wird gelöscht …' : 'Löschen'}
        </button>
      </ModalActions>
    </Modal>
  );
}

function NoteItem(props: {
  note: CustomerNote;
  customerId: number;
  now: number;
  onDelete: (note: CustomerNote) => void;
}) {
  const { note } = props;
  const edit = useEditCustomerNote(props.customerId);
  const [editing, setEditing] = useState(false);
  const editable = noteEditable(note, props.now);
  return (
    <li className="py-3">
      <p className="text-sm text-slate-700">
        <span className="font-medium text-slate-800">{note.author_name ?? 'Gelöschtes Konto'}</span>
        {' · '}
        <time dateTime={note.created_at}>{berlinDateTime(note.created_at)} Uhr</time>
        {note.updated_at ? (
          <span title={`bearbeitet ${berlinDateTime(note.updated_at)} Uhr`}> · bearbeitet</span>
        ) : null}
      </p>
      {editing ? (
        <NoteForm
          label="Notiz bearbeiten"
          submitLabel="Speichern"
          initial={note.body}
          onSave={async (body) => {
            await edit.mutateAsync({ id: note.id, body });
            setEditing(false);
          }}
          onCancel={() => setEditing(false)}
        />
      ) : (
        <>
          <p className="break-words whitespace-pre-line text-slate-900">{note.body}</p>
          {editable ? (
            <div className="flex flex-wrap gap-x-6">
              <Button variant="ghost" className="px-0" onClick={() => setEditing(true)}>
                Bearbeiten
              </Button>
              <Button
                variant="ghost"
                className="px-0 text-red-800"
                aria-label={`Notiz löschen: ${note.body.slice(0, 60)}`}
                onClick={() => props.onDelete(note)}
              >
                Löschen
              </Button>
            </div>
          ) : null}
        </>
      )}
    </li>
  );
}

/**
 * 'Notizen' in the sidebar and on the lead page: newest first, author and time; own notes can be
 * changed or deleted for 15 minutes (the database's rule), deleting after a question.
 */
export function CustomerNotes(props: {
  customerId: number;
  /** On the lead page: a card of its own with a second-level heading. */
  card?: boolean;
}) {
  const notes = useCustomerNotes(props.customerId);
  const add = useAddCustomerNote(props.customerId);
  const now = useMinuteClock();
  const [deleting, setDeleting] = useState<CustomerNote | null>(null);
  const Heading = props.card ? 'h2' : 'h3';
  return (
    <section
      aria-labelledby="kunde-notizen"
      className={props.card ? panelClass : 'mt-6 border-t border-slate-200 pt-5'}
    >
      <Heading id="kunde-notizen" className="mb-2 text-lg font-semibold text-slate-900">
        Notizen
      </Heading>
      <NoteForm
        label="Neue Notiz"
        submitLabel="Notiz hinzufügen"
        initial=""
        onSave={(body) => add.mutateAsync(body)}
      />
      {notes.isPending ? (
        <p role="status" className="mt-2 text-slate-700">
          Notizen werden geladen …
        </p>
      ) : notes.isError ? (
        <LoadError framed={false} onRetry={notes.refetch}>
          Die Notizen konnten nicht geladen werden.
        </LoadError>
      ) : notes.data.length === 0 ? (
        <p className="mt-2 text-slate-700">Noch keine Notizen.</p>
      ) : (
        <ul className="divide-y divide-slate-200">
          {notes.data.map((note) => (
            <NoteItem
              key={note.id}
              note={note}
              customerId={props.customerId}
              now={now}
              onDelete={setDeleting}
            />
          ))}
        </ul>
      )}
      <NoteDeleteDialog
        note={deleting}
        customerId={props.customerId}
        onClose={() => setDeleting(null)}
      />
    </section>
  );
}
