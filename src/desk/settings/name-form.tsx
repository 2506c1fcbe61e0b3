import { useEffect, useState } from 'react';
import { useOwnDisplayName, useSetDisplayName } from '../api/account.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { TextField } from '../../ui/form-fields.tsx';
import { LoadError } from '../../ui/load-error.tsx';
import { useZodForm } from '../../ui/use-zod-form.ts';
import { errorCode } from '../api/staff.ts';
import { displayNameMessages, nameSchema, type NameValues } from './account-forms.ts';

/** Why the database refused a name, in German; undefined when it was not the name. */
function refusal(error: unknown): string | undefined {
  switch (errorCode(error)) {
    case '23505':
      return displayNameMessages.taken;
    case '22001':
      return displayNameMessages.tooLong;
    case '22023':
      return `${displayNameMessages.address} ${displayNameMessages.lineBreak}`;
    default:
      return undefined;
  }
}

/** The account's display name, which colleagues see in histories, follow-ups and notes. */
export function NameForm() {
  const current = useOwnDisplayName();
  const save = useSetDisplayName();
  const [saved, setSaved] = useState(false);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useZodForm(nameSchema, { defaultValues: { name: '' } });

  useEffect(() => {
    if (current.data !== undefined) reset({ name: current.data ?? '' });
  }, [current.data, reset]);

  const submit = async (values: NameValues) => {
    setSaved(false);
    try {
      await save.mutateAsync(values.name);
      setSaved(true);
    } catch (error) {
      setError('name', {
        message:
          refusal(error) ??
          'Der Name konnte nicht gespeichert werden. Bitte prüfe deine Internetverbindung und versuche es erneut.',
      });
    }
  };

  if (current.isError) {
    return (
      <LoadError onRetry={() => void current.refetch()}>
        Dein Name konnte nicht geladen werden.
      </LoadError>
    );
  }
  return (
    <form
      noValidate
      aria-label="Name"
      className="flex max-w-md flex-col gap-4 rounded-lg bg-white p-6 shadow"
      onSubmit={(event) => void handleSubmit(submit)(event)}
    >
      <h2 className="text-lg font-semibold text-slate-900">Name</h2>
      <TextField
        label="Anzeigename"
        autoComplete="name"
        hint="So sehen dich Kolleginnen und Kollegen, z. B. in Verläufen und Notizen. Leer lassen, um deine E-Mail-Adresse zu zeigen. Eine E-Mail-Adresse oder den Namen eines anderen Kontos kannst du nicht wählen."
        disabled={current.isPending}
        error={errors.name?.message}
        {...register('name', { onChange: () => setSaved(false) })}
      />
      {saved ? <Alert tone="info">Name gespeichert.</Alert> : null}
      <Button type="submit" className="self-start" disabled={isSubmitting || current.isPending}>
        Name speichern
      </Button>
    </form>
  );
}
