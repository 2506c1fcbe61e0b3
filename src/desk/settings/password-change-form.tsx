import { useState } from 'react';
import { passwordChangeFailure, useChangePassword } from '../api/account.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { useZodForm } from '../../ui/use-zod-form.ts';
import { NewPasswordFields } from '../shared/new-password-fields.tsx';
import { PasswordField } from '../shared/password-field.tsx';
import {
  passwordChangeError,
  passwordChangeSchema,
  type PasswordChangeValues,
} from './account-forms.ts';

const empty: PasswordChangeValues = { current: '', password: '', confirmation: '' };

/**
 * A new password, with the current one. Wrong current passwords count like failed sign-ins (the
 * server's throttle); after the change every other session of the account ends.
 */
export function PasswordChangeForm() {
  const change = useChangePassword();
  const [formError, setFormError] = useState<string | null>(null);
  const [changed, setChanged] = useState(false);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useZodForm(passwordChangeSchema, {
    defaultValues: empty,
  });

  const submit = async (values: PasswordChangeValues) => {
    setFormError(null);
    setChanged(false);
    try {
      await change.mutateAsync({ current: values.current, password: values.password });
    } catch (error) {
      const failure = passwordChangeFailure(error);
      console.warn('Passwort nicht geändert:', failure.kind);
      const { field, message } = passwordChangeError(failure);
      if (field === 'form') setFormError(message);
      else setError(field, { message }, { shouldFocus: true });
      return;
    }
    reset(empty);
    setChanged(true);
  };

  return (
    <form
      noValidate
      aria-label="Passwort ändern"
      className="flex max-w-md flex-col gap-4 rounded-lg bg-white p-6 shadow"
      onSubmit={(event) => void handleSubmit(submit)(event)}
    >
      <h2 className="text-lg font-semibold text-slate-900">Passwort ändern</h2>
      <PasswordField
        label="Aktuelles Passwort"
        autoComplete="current-password"
        aria-required
        error={errors.current?.message}
        {...register('current')}
      />
      <NewPasswordFields
        register={register}
        errors={errors}
        passwordLabel="Neues Passwort"
        confirmationLabel="Neues Passwort wiederholen"
      />
      {formError ? <Alert tone="error">{formError}</Alert> : null}
      {changed ? (
        <Alert tone="info">Passwort geändert. Auf anderen Geräten bist du jetzt abgemeldet.</Alert>
      ) : null}
      <Button type="submit" className="self-start" disabled={isSubmitting}>
        Passwort ändern
      </Button>
    </form>
  );
}
