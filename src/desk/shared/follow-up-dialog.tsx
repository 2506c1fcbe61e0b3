import { useId, useState } from 'react';
import { useCreateFollowUp } from '../api/follow-ups.ts';
import { berlinToday } from '../../domain/calendar.ts';
import { useSession } from '../api/session.ts';
import { useStaffDirectory, type StaffDirectoryEntry } from '../api/staff-directory.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { SelectField, TextAreaField, TextField } from '../../ui/form-fields.tsx';
import { LoadError } from '../../ui/load-error.tsx';
import { Modal, ModalDescription, ModalTitle } from '../../ui/modal.tsx';
import { useZodForm } from '../../ui/use-zod-form.ts';
import {
  assigneeRefused,
  followUpBodyMax,
  followUpDefaults,
  followUpDue,
  followUpFormSchema,
  followUpSaveProblem,
  quickChoices,
  type FollowUpFormValues,
} from './follow-up-form.ts';

/** What the follow-up is about: a customer, and maybe one of their leads. */
export interface FollowUpSubject {
  customerId: number;
  responseId: number | null;
  /** Shown in the dialog's description, e.g. the customer's name or the lead's form. */
  label: string;
}

function FollowUpForm(props: {
  subject: FollowUpSubject;
  staff: StaffDirectoryEntry[];
  me: string | undefined;
  onClose: () => void;
}) {
  const { subject, staff, me } = props;
  const create = useCreateFollowUp();
  const choicesId = useId();
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    watch,
    formState: { errors, isSubmitting },
  } = useZodForm(followUpFormSchema, {
    defaultValues: followUpDefaults(staff.some((s) => s.user_id === me) ? me : undefined),
  });
  // Read when the dialog opens: 'Heute 16 Uhr' is offered only while it is still ahead.
  const [choices] = useState(() => quickChoices());
  const [day, time] = watch(['day', 'time']);

  const submit = async (values: FollowUpFormValues) => {
    try {
      await create.mutateAsync({
        customerId: subject.customerId,
        responseId: subject.responseId,
        body: values.body,
        ...followUpDue(values),
      });
      props.onClose();
    } catch (error) {
      // The input stays; an assignee refused by the database is that field's error.
      const problem = followUpSaveProblem(error);
      if (problem === assigneeRefused) setError('assignee', { message: problem });
      else setError('root', { message: problem });
    }
  };

  const options = [
    { value: '', label: 'Niemand (offen für alle)' },
    ...staff.map((member) => ({
      value: member.user_id,
      label: member.user_id === me ? `${member.name} (ich)` : member.name,
    })),
  ];

  return (
    <form
      noValidate
      aria-label="Wiedervorlage anlegen"
      onSubmit={(event) => void handleSubmit(submit)(event)}
      className="flex flex-col gap-4"
    >
      <div role="group" aria-labelledby={choicesId}>
        <p id={choicesId} className="mb-1 font-medium text-slate-800">
          Schnellauswahl
        </p>
        <div className="flex flex-wrap gap-2">
          {choices.map((choice) => (
            <button
              key={choice.label}
              type="button"
              aria-pressed={day === choice.day && time === choice.time}
              onClick={() => {
                const options = { shouldDirty: true, shouldValidate: true } as const;
                setValue('day', choice.day, options);
                setValue('time', choice.time, options);
              }}
              className="inline-flex min-h-11 items-center rounded-full border border-slate-400 bg-white px-4 py-2 text-sm font-medium text-slate-800 hover:bg-slate-100 aria-pressed:border-brand-700 aria-pressed:bg-brand-50 aria-pressed:text-brand-900"
            >
              {choice.label}
            </button>
          ))}
        </div>
      </div>
      <div className="grid grid-cols-2 gap-4">
        <TextField
          label="Datum (Berlin)"
          type="date"
          required
          min={berlinToday()}
          error={errors.day?.message}
          {...register('day')}
        />
        <TextField
          label="Uhrzeit (Berlin)"
          type="time"
          required
          error={errors.time?.message}
          {...register('time')}
        />
      </div>
      <SelectField
        label="Zuständig"
        options={options}
        error={errors.assignee?.message}
        {...register('assignee')}
      />
      <TextAreaField
        label="Text"
        rows={3}
        maxLength={followUpBodyMax}
        error={errors.body?.message}
        {...register('body')}
      />
      {errors.root?.message ? <Alert tone="error">{errors.root.message}</Alert> : null}
      <div className="flex flex-wrap justify-end gap-3">
        <Button variant="secondary" onClick={props.onClose}>
          Abbrechen
        </Button>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Speichern …' : 'Speichern'}
        </Button>
      </div>
    </form>
  );
}

/**
 * 'Wiedervorlage anlegen': a dialog with quick choices, day and time in Berlin (the next slot in
 * working hours at first, nothing in the past), assignee and text.
 */
export function FollowUpDialog(props: { subject: FollowUpSubject | null; onClose: () => void }) {
  const { subject } = props;
  const staff = useStaffDirectory();
  const { data: session } = useSession();
  const me = session?.session?.user.id;
  return (
    <Modal open={subject !== null} onClose={props.onClose} onTop>
      <ModalTitle className="mb-1">Wiedervorlage anlegen</ModalTitle>
      <ModalDescription className="mb-4 text-slate-700">{subject?.label}</ModalDescription>
      {staff.isPending ? (
        <p role="status" className="text-slate-700">
          Mitarbeiter werden geladen …
        </p>
      ) : staff.isError ? (
        <LoadError framed={false} onRetry={staff.refetch}>
          Die Mitarbeiter konnten nicht geladen werden.
        </LoadError>
      ) : subject ? (
        <FollowUpForm subject={subject} staff={staff.data} me={me} onClose={props.onClose} />
      ) : null}
    </Modal>
  );
}
