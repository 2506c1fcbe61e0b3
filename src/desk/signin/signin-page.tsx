import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams, type Location } from 'react-router-dom';
import { signInFailure, signOut, useSignIn, type SignInFailure } from '../api/session.ts';
import { useSupabase } from '../api/supabase-context.ts';
import { deskPaths, sessionExpiredReason, signinQuery } from '../../domain/routes.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { TextField } from '../../ui/form-fields.tsx';
import { useZodForm } from '../../ui/use-zod-form.ts';
import { DeskScreen } from '../shared/desk-screen.tsx';
import { PasswordField } from '../shared/password-field.tsx';
import { notSignedInMessage } from '../layout/require-session.tsx';
import {
  returnPath,
  signinFailureMessages,
  signinSchema,
  type SigninValues,
} from './signin-form.ts';

function useNotice(): { tone: 'info' | 'error'; text: string } | null {
  const [query] = useSearchParams();
  if (query.get('bestaetigt') === '1')
    return { tone: 'info', text: 'E-Mail bestätigt – bitte anmelden' };
  if (query.get('bestaetigung') === 'ungueltig') {
    return {
      tone: 'error',
      text: 'Der Bestätigungslink ist ungültig oder schon benutzt. Bitte melde dich an; ist deine E-Mail-Adresse noch nicht bestätigt, registriere dich erneut.',
    };
  }
  if (query.get('passwort') === 'neu') {
    return {
      tone: 'info',
      text: 'Passwort geändert – bitte melde dich mit dem neuen Passwort an.',
    };
  }
  if (query.get(signinQuery.reason) === sessionExpiredReason) {
    return { tone: 'info', text: 'Deine Sitzung ist abgelaufen. Bitte melde dich erneut an.' };
  }
  if (query.has(signinQuery.returnTo)) return { tone: 'info', text: notSignedInMessage };
  return null;
}

export function SigninPage() {
  const supabase = useSupabase();
  const navigate = useNavigate();
  const location = useLocation() as Location<{ from?: Location } | null>;
  const [query] = useSearchParams();
  const notice = useNotice();
  const signIn = useSignIn();
  const [failure, setFailure] = useState<SignInFailure | null>(null);

  // Spec: opening the sign-in signs the current user out. A submit waits for that to finish, so
  // the new session can never be removed by the old one's sign-out.
  const signedOut = useRef<Promise<void>>(Promise.resolve());
  useEffect(() => {
    signedOut.current = signOut(supabase);
  }, [supabase]);

  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useZodForm(signinSchema, {
    defaultValues: { email: '', password: '' },
  });

  const submit = async (values: SigninValues) => {
    setFailure(null);
    await signedOut.current;
    try {
      await signIn.mutateAsync({ email: values.email.trim(), password: values.password });
    } catch (error) {
      const reason = signInFailure(error);
      // Spec 8 logs the failure; only its kind, never the address.
      console.warn('Anmeldung fehlgeschlagen:', reason);
      setFailure(reason);
      return;
    }
    const from = location.state?.from;
    const wanted = query.get(signinQuery.returnTo) ?? (from ? from.pathname + from.search : null);
    await navigate(returnPath(wanted), { replace: true });
  };

  return (
    <DeskScreen
      heading="Anmelden"
      meta={{
        title: 'Anmelden – Survey Desk',
        description:
          'Anmeldung für Mitarbeiterinnen und Mitarbeiter: Mit E-Mail-Adresse und Passwort anmelden und Kunden, Fragebögen und Analysen in Survey Desk verwalten.',
        path: deskPaths.signin,
      }}
    >
      <div className="max-w-md rounded-lg bg-white p-6 shadow">
        {notice ? (
          <div className="mb-4">
            <Alert tone={notice.tone}>{notice.text}</Alert>
          </div>
        ) : null}
        <form
          noValidate
          onSubmit={(event) => void handleSubmit(submit)(event)}
          className="flex flex-col gap-4"
          aria-label="Anmelden"
        >
          <TextField
            label="E-Mail-Adresse"
            type="email"
            autoComplete="username"
            aria-required
            error={errors.email?.message}
            {...register('email')}
          />
          <PasswordField
            label="Passwort"
            autoComplete="current-password"
            aria-required
            error={errors.password?.message}
            {...register('password')}
          />
          {failure ? <Alert tone="error">{signinFailureMessages[failure]}</Alert> : null}
          <Button type="submit" disabled={isSubmitting}>
            Login
          </Button>
        </form>
        <p className="mt-4 text-sm text-slate-700">
          <Link to={deskPaths.passwordForgotten} className="font-semibold text-brand-800 underline">
            Passwort vergessen?
          </Link>
        </p>
        <p className="mt-2 text-sm text-slate-700">
          Noch kein Konto?{' '}
          <Link to={deskPaths.signup} className="font-semibold text-brand-800 underline">
            Registrieren
          </Link>
        </p>
      </div>
    </DeskScreen>
  );
}
