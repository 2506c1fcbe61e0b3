import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import { useEffect, useId, useState } from 'react';
import { useFieldArray, useWatch } from 'react-hook-form';
import {
  questionFailureMessage,
  questionMessages,
  useAddQuestion,
  useUpdateQuestion,
  type QuestionRow,
} from '../api/questions.ts';
import { Button } from '../../ui/button.tsx';
import { useDiscardGuard } from '../shared/unsaved-changes.tsx';
import {
  CheckboxField,
  SelectField,
  TextAreaField,
  TextField,
  FieldError,
} from '../../ui/form-fields.tsx';
import { useZodForm } from '../../ui/use-zod-form.ts';
import {
  newQuestionValues,
  optionPlaceholder,
  questionChange,
  questionFormSchema,
  questionTypeOptions,
  questionValues,
  type QuestionFormValues,
} from './question-form.ts';

/** Add mode (blank, for this form) or edit mode (prefilled from the stored question). */
export type QuestionSidebarMode =
  | { kind: 'add'; formId: number; nextSequence: number }
  | { kind: 'edit'; question: QuestionRow; justAdded?: boolean };

/** Spec 9: the status message shows for 3000 ms. */
export const statusDuration = 3000;

function useFleetingStatus() {
  const [status, setStatus] = useState<string | null>(null);
  useEffect(() => {
    if (!status) return;
    const timer = window.setTimeout(() => setStatus(null), statusDuration);
    return () => window.clearTimeout(timer);
  }, [status]);
  return [status, setStatus] as const;
}

function QuestionForm(props: {
  mode: QuestionSidebarMode;
  onSaved: (row: QuestionRow) => void;
  onFailed: () => void;
  onDirtyChange: (dirty: boolean) => void;
}) {
  const { mode, onDirtyChange } = props;
  const optionsErrorId = `${useId()}-antworten-fehler`;
  const add = useAddQuestion();
  const update = useUpdateQuestion();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    control,
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting, isDirty },
  } = useZodForm(questionFormSchema, {
    defaultValues:
      mode.kind === 'add' ? newQuestionValues(mode.nextSequence) : questionValues(mode.question),
  });
  const { fields, append, remove } = useFieldArray({ control, name: 'options' });
  const type = useWatch({ control, name: 'type' });
  const isInput = type === 'input';
  const optionsError = errors.options?.root?.message ?? errors.options?.message;
  useEffect(() => onDirtyChange(isDirty), [isDirty, onDirtyChange]);

  const submit = async (values: QuestionFormValues) => {
    setFailure(null);
    const change = questionChange(values);
    try {
      const row =
        mode.kind === 'add'
          ? await add.mutateAsync({ ...change, form_id: mode.formId })
          : await update.mutateAsync({ id: mode.question.id, change });
      // Saved: what the form shows is stored, nothing to lose on closing.
      reset(values);
      props.onSaved(row);
    } catch (error) {
      // The form keeps its input; only the German message is shown, never the gateway's text.
      setFailure(questionFailureMessage(mode.kind === 'add' ? 'add' : 'update', error));
      props.onFailed();
    }
  };

  return (
    <form
      noValidate
      aria-label={mode.kind === 'add' ? 'Frage hinzufügen' : 'Frage bearbeiten'}
      onSubmit={(event) => void handleSubmit(submit)(event)}
      className="flex flex-col gap-4"
    >
      <TextField
        label="Position"
        type="number"
        min={1}
        step={1}
        inputMode="numeric"
        required
        data-autofocus
        error={errors.sequence?.message}
        {...register('sequence', { valueAsNumber: true })}
      />
      <TextAreaField
        label="Frage"
        rows={3}
        aria-required
        error={errors.question?.message}
        {...register('question')}
      />
      <SelectField
        label="Typ"
        options={questionTypeOptions}
        error={errors.type?.message}
        {...register('type')}
      />
      <fieldset
        aria-describedby={optionsError ? optionsErrorId : undefined}
        className="flex flex-col gap-3"
      >
        <legend className="mb-1 font-medium text-slate-800">
          {isInput ? 'Antworten (die erste ist der Platzhalter)' : 'Antworten'}
        </legend>
        {fields.map((field, index) => (
          <div key={field.id} className="flex items-end gap-2">
            <TextField
              label={`Antwort ${index + 1}`}
              placeholder={optionPlaceholder(type, index)}
              className="grow"
              error={errors.options?.[index]?.value?.message}
              {...register(`options.${index}.value`)}
            />
            {isInput ? null : (
              <Button
                variant="secondary"
                className="px-3"
                aria-label={`Entfernen (Antwort ${index + 1})`}
                onClick={() => remove(index)}
              >
                Entfernen
              </Button>
            )}
          </div>
        ))}
        <FieldError id={optionsErrorId} message={optionsError} />
        <Button variant="secondary" className="self-start" onClick={() => append({ value: '' })}>
          Antwort hinzufügen
        </Button>
      </fieldset>
      <CheckboxField
        label="Mehrere Antworten möglich (Mehrfachauswahl)"
        {...register('multipleAnswers')}
      />
      <TextAreaField
        label="Information (freiwillig)"
        rows={3}
        error={errors.information?.message}
        {...register('information')}
      />
      <TextAreaField
        label="Anmerkung (freiwillig)"
        rows={3}
        error={errors.custome_description?.message}
        {...register('custome_description')}
      />
      {failure ? (
        <p role="alert" className="rounded-lg border border-red-300 bg-red-50 p-3 text-red-900">
          {failure}
        </p>
      ) : null}
      <Button type="submit" disabled={isSubmitting} className="self-start">
        {mode.kind === 'add' ? 'Hinzufügen' : 'Speichern'}
      </Button>
    </form>
  );
}

/**
 * The right-hand question sidebar (24rem). After adding, it stays open in edit mode of the new
 * question, so a second click saves it rather than adding it twice. Closing lets the panel read
 * the list again.
 */
export function QuestionSidebar(props: {
  mode: QuestionSidebarMode | null;
  onModeChange: (mode: QuestionSidebarMode) => void;
  onClose: () => void;
}) {
  const { mode } = props;
  const [status, setStatus] = useFleetingStatus();
  const title = mode?.kind === 'edit' ? 'Frage bearbeiten' : 'Frage hinzufügen';
  // A question just added keeps its form (and the focus on its button) as it turns into an edit.
  const formKey = mode?.kind === 'edit' && !mode.justAdded ? `frage-${mode.question.id}` : 'neu';

  const [dirty, setDirty] = useState(false);
  const { requestLeave, dialog } = useDiscardGuard(dirty, 'an dieser Frage');
  const close = () =>
    requestLeave(() => {
      setStatus(null);
      setDirty(false);
      props.onClose();
    });

  return (
    <Dialog open={mode !== null} onClose={close} className="relative z-50">
      <div className="fixed inset-0 bg-slate-900/40" aria-hidden="true" />
      <div className="fixed inset-y-0 right-0 flex max-w-full">
        <DialogPanel className="flex h-full w-96 max-w-full flex-col overflow-y-auto bg-white p-6 shadow-xl">
          <div className="mb-4 flex items-start justify-between gap-4">
            <DialogTitle as="h2" className="text-xl font-bold text-slate-900">
              {title}
            </DialogTitle>
            <Button variant="secondary" className="px-3" onClick={close}>
              Schließen
            </Button>
          </div>
          {mode ? (
            <QuestionForm
              key={formKey}
              mode={mode}
              onSaved={(row) => {
                // Clean from this render on: the form's own isDirty reaches us an effect later,
                // and an Escape pressed as the message appears must not ask about saved input.
                setDirty(false);
                setStatus(questionMessages.saved);
                if (mode.kind === 'add') {
                  props.onModeChange({ kind: 'edit', question: row, justAdded: true });
                }
              }}
              onFailed={() => setStatus(null)}
              onDirtyChange={setDirty}
            />
          ) : null}
          <p role="status" className="mt-4 font-medium text-green-800">
            {status}
          </p>
          {dialog}
        </DialogPanel>
      </div>
    </Dialog>
  );
}
