import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react';
import { useState } from 'react';
import { formSaveFailure, useCreateForm, type DeskForm } from '../api/forms.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { TextAreaField, TextField } from '../../ui/form-fields.tsx';
import { useZodForm } from '../../ui/use-zod-form.ts';
import { newFormSchema, type NewFormValues } from '../shared/form-details-schema.ts';
import { useDiscardGuard } from '../shared/unsaved-changes.tsx';

export const formCreatedMessage = (title: string) =>
  `Der Fragebogen „${title}“ wurde angelegt. Du findest ihn in der Liste, sobald du diese Seitenleiste schließt.`;

/** The right-hand sidebar 'Fragebogen hinzufügen': title and description of a new form. */
export function AddQuestionnaireSidebar({ open, onClose }: { open: boolean; onClose: () => void }) {
  const create = useCreateForm();
  const [created, setCreated] = useState<DeskForm | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting, isDirty },
  } = useZodForm(newFormSchema, {
    defaultValues: { title: '', description: '' },
  });

  // Escape, a click outside and 'Schließen' ask before typed input is dropped.
  const { requestLeave, dialog } = useDiscardGuard(isDirty, 'am neuen Fragebogen');
  const close = () =>
    requestLeave(() => {
      setCreated(null);
      setFailure(null);
      reset();
      onClose();
    });

  const submit = async (values: NewFormValues) => {
    setCreated(null);
    setFailure(null);
    try {
      setCreated(await create.mutateAsync(values));
      reset();
    } catch (error) {
      const { field, message } = formSaveFailure(error);
      if (field) setError(field, { message }, { shouldFocus: true });
      else setFailure(message);
    }
  };

  return (
    <Dialog open={open} onClose={close} className="relative z-50">
      <DialogBackdrop className="fixed inset-0 bg-slate-900/40" />
      <div className="fixed inset-0 flex justify-end">
        <DialogPanel className="flex h-full w-full max-w-sm flex-col overflow-y-auto bg-white p-6 shadow-xl">
          <div className="mb-6 flex items-start justify-between gap-4">
            <DialogTitle as="h2" className="text-xl font-bold text-slate-900">
              Fragebogen hinzufügen
            </DialogTitle>
            <Button variant="secondary" className="px-3" onClick={close}>
              Schließen
            </Button>
          </div>
          <form
            noValidate
            aria-label="Fragebogen hinzufügen"
            onSubmit={(event) => void handleSubmit(submit)(event)}
            className="flex flex-col gap-4"
          >
            <TextField
              label="Titel"
              required
              // Headless UI focuses this field, not the close button, when the sidebar opens.
              data-autofocus
              autoComplete="off"
              error={errors.title?.message}
              {...register('title')}
            />
            <TextAreaField
              label="Beschreibung"
              aria-required
              error={errors.description?.message}
              {...register('description')}
            />
            {created ? <Alert tone="info">{formCreatedMessage(created.title)}</Alert> : null}
            {failure ? <Alert tone="error">{failure}</Alert> : null}
            <Button type="submit" disabled={isSubmitting} className="self-start">
              {isSubmitting ? 'Wird gespeichert …' : 'Speichern'}
            </Button>
          </form>
          {dialog}
        </DialogPanel>
      </div>
    </Dialog>
  );
}
