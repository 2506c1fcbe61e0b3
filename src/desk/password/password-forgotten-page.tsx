import { useState } from 'react';
import { Link } from 'react-router-dom';
import {
  recoveryRequestFailure,
  useRequestRecovery,
  type RecoveryRequestFailure,
} from '../api/password-recovery.ts';
import { deskPaths } from '../../domain/routes.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { TextField } from '../../ui/form-fields.tsx';
import { useZodForm } from '../../ui/use-zod-form.ts';
import { DeskScreen } from '../shared/desk-screen.tsx';
import {
  forgottenSchema,
  recoveryRequestFailureMessages,
  recoverySentMessage,
  type ForgottenValues,
} from './password-forms.ts';

export function PasswordForgottenPage() {
  const request = useRequestRecovery();
  const [failure, setFailure] = useState<RecoveryRequestFailure | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useZodForm(forgottenSchema, {
    defaultValues: { email: '' },
  });

  const submit = async (values: ForgottenValues) => {
    setFailure(null);
    try {
      await request.mutateAsync(values.email.trim());
    } catch (error) {
      const reason = recoveryRequestFailure(error);
      // Only the kind of failure, never the address.
      console.warn('Link zum Zurücksetzen nicht angefordert:', reason);
      setFailure(reason);
    }
  };

  return (
    <DeskScreen
      heading="Passwort vergessen"
      meta={{
        title: 'Passwort vergessen – Survey Desk',
        description:
          'Passwort für Survey Desk vergessen? Mit der E-Mail-Adresse des Mitarbeiterkontos einen Link anfordern und ein neues Passwort festlegen.',
        path: deskPaths.passwordForgotten,
      }}
    >
      <div className="max-w-md rounded-lg bg-white p-6 shadow">
        {request.isSuccess ? (
          <div role="status" className="flex flex-col gap-2 text-slate-800">
            <p className="font-semibold">{recoverySentMessage}</p>
            <p>
              Bitte öffne den Link in der E-Mail; er ist eine Stunde gültig. Keine E-Mail
              angekommen? Sieh im Spam-Ordner nach oder fordere nach einer Minute einen neuen Link
              an.
            </p>
          </div>
        ) : (
          <form
            noValidate
            onSubmit={(event) => void handleSubmit(submit)(event)}
            className="flex flex-col gap-4"
            aria-label="Link zum Zurücksetzen anfordern"
          >
            <p className="text-slate-700">
              Gib die E-Mail-Adresse deines Kontos ein. Wir schicken dir einen Link, mit dem du ein
              neues Passwort festlegst.
            </p>
            <TextField
              label="E-Mail-Adresse"
              type="email"
              autoComplete="username"
              aria-required
              error={
                errors.email?.message ??
                (failure === 'invalid-email' ? recoveryRequestFailureMessages[failure] : undefined)
              }
              {...register('email')}
            />
            {failure && failure !== 'invalid-email' ? (
              <Alert tone="error">{recoveryRequestFailureMessages[failure]}</Alert>
            ) : null}
            <Button type="submit" disabled={isSubmitting}>
              Link anfordern
            </Button>
          </form>
        )}
        <p className="mt-4 text-sm text-slate-700">
          <Link to={deskPaths.signin} className="font-semibold text-brand-800 underline">
            Zurück zur Anmeldung
          </Link>
        </p>
      </div>
    </DeskScreen>
  );
}
