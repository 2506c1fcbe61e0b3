import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useSupabase } from '../api/supabase-context.ts';
import { deskPaths } from '../../domain/routes.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { TextField } from '../../ui/form-fields.tsx';
import { useZodForm } from '../../ui/use-zod-form.ts';
import { DeskScreen } from '../shared/desk-screen.tsx';
import {
  signupFailure,
  signupFailureMessages,
  signupSchema,
  type SignupFailure,
  type SignupValues,
} from './signup-form.ts';
import { NewPasswordFields } from '../shared/new-password-fields.tsx';

function ThankYou() {
  return (
    <div role="status" className="max-w-md rounded-lg bg-white p-6 shadow">
      <p className="text-lg font-semibold text-slate-900">Vielen Dank für Ihre Registrierung!</p>
      <p className="mt-2 text-slate-700">
        Bitte überprüfen Sie Ihre E-Mail-Adresse und bestätigen Sie diese, um Ihr Konto zu
        aktivieren.
      </p>
      <p className="mt-2 text-slate-700">Wir freuen uns, Sie an Bord zu haben.</p>
      <p className="mt-4 text-sm text-slate-700">
        Nach der Bestätigung prüft ein Admin die Registrierung und schaltet das Konto frei; darüber
        informiert eine E-Mail.{' '}
        <Link to={deskPaths.signin} className="font-semibold text-brand-800 underline">
          Zur Anmeldung
        </Link>
      </p>
    </div>
  );
}

export function SignupPage() {
  const supabase = useSupabase();
  const [failure, setFailure] = useState<SignupFailure | null>(null);
  const signUp = useMutation({
    mutationFn: async (values: { email: string; password: string }) => {
      const { error } = await supabase.auth.signUp(values);
      if (error) throw error;
    },
  });

  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useZodForm(signupSchema, {
    defaultValues: { email: '', password: '', confirmation: '' },
  });

  const submit = async (values: SignupValues) => {
    setFailure(null);
    try {
      await signUp.mutateAsync({ email: values.email.trim(), password: values.password });
    } catch (error) {
      const reason = signupFailure(error);
      // Only the kind of failure, never the address.
      console.warn('Registrierung fehlgeschlagen:', reason);
      setFailure(reason);
    }
  };

  return (
    <DeskScreen
      heading="Registrieren"
      meta={{
        title: 'Registrieren – Survey Desk',
        description:
          'Ein neues Mitarbeiterkonto für Survey Desk anlegen: mit E-Mail-Adresse und Passwort registrieren; nach der Freischaltung durch die Agentur geht es los.',
        path: deskPaths.signup,
      }}
    >
      {signUp.isSuccess ? (
        <ThankYou />
      ) : (
        <div className="max-w-md rounded-lg bg-white p-6 shadow">
          <form
            noValidate
            onSubmit={(event) => void handleSubmit(submit)(event)}
            className="flex flex-col gap-4"
            aria-label="Registrieren"
          >
            <TextField
              label="E-Mail-Adresse"
              type="email"
              autoComplete="email"
              aria-required
              error={errors.email?.message}
              {...register('email')}
            />
            <NewPasswordFields
              register={register}
              errors={errors}
              passwordLabel="Passwort"
              confirmationLabel="Passwort bestätigen"
            />
            {failure ? <Alert tone="error">{signupFailureMessages[failure]}</Alert> : null}
            <Button type="submit" disabled={isSubmitting}>
              Registrieren
            </Button>
          </form>
          <p className="mt-4 text-sm text-slate-700">
            Schon registriert?{' '}
            <Link to={deskPaths.signin} className="font-semibold text-brand-800 underline">
              Zur Anmeldung
            </Link>
          </p>
        </div>
      )}
    </DeskScreen>
  );
}
