import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { passwordChangeFailure } from '../api/account.ts';
import { isInvalidRecoveryLink, useSetRecoveredPassword } from '../api/password-recovery.ts';
import { deskPaths, signinNoticePaths } from '../../domain/routes.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { useZodForm } from '../../ui/use-zod-form.ts';
import { DeskScreen } from '../shared/desk-screen.tsx';
import {
  newPasswordSchema,
  samePasswordMessage,
  weakPasswordMessage,
  type NewPasswordValues,
} from '../shared/new-password.ts';
import { NewPasswordFields } from '../shared/new-password-fields.tsx';
import { invalidLinkMessage } from './password-forms.ts';

const unreachableMessage =
  'Das Passwort konnte gerade nicht gespeichert werden. Bitte prüfe deine Internetverbindung und versuche es erneut.';

function InvalidLink() {
  return (
    <div className="flex flex-col gap-4">
      <Alert tone="error">{invalidLinkMessage}</Alert>
      <Link
        to={deskPaths.passwordForgotten}
        className="self-start font-semibold text-brand-800 underline"
      >
        Neuen Link anfordern
      </Link>
    </div>
  );
}

/**
 * Where the recovery link leads. The link is redeemed only when the new password is sent, so
 * opening it (or a mail scanner fetching it) uses nothing up. After success the recovery session
 * ends and the sign-in asks for the new password: that proves it works and leaves no session
 * behind that a shared computer could keep.
 */
export function PasswordNewPage() {
  const [query] = useSearchParams();
  const tokenHash = query.get('token_hash') ?? '';
  const looksValid = tokenHash.length > 0 && query.get('type') === 'recovery';
  const navigate = useNavigate();
  const setPassword = useSetRecoveredPassword(tokenHash);
  const [linkInvalid, setLinkInvalid] = useState(!looksValid);
  const [failure, setFailure] = useState<string | null>(null);

  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useZodForm(newPasswordSchema, {
    defaultValues: { password: '', confirmation: '' },
  });

  const submit = async (values: NewPasswordValues) => {
    setFailure(null);
    try {
      await setPassword.mutateAsync(values.password);
    } catch (error) {
      if (isInvalidRecoveryLink(error)) {
        setLinkInvalid(true);
        return;
      }
      const reason = passwordChangeFailure(error);
      console.warn('Neues Passwort nicht gespeichert:', reason.kind);
      if (reason.kind === 'weak') {
        setError('password', { message: weakPasswordMessage(reason.reasons) });
      } else if (reason.kind === 'same') {
        setError('password', { message: samePasswordMessage });
      } else if (reason.kind === 'session' || reason.kind === 'current-missing') {
        // The recovery session is over (its hour passed, or it was refreshed): only a new link
        // sets a password without the current one.
        setLinkInvalid(true);
      } else if (reason.kind === 'rate-limited') {
        setFailure('Zu viele Versuche. Bitte warte einige Minuten und versuche es dann erneut.');
      } else {
        setFailure(unreachableMessage);
      }
      return;
    }
    await navigate(signinNoticePaths.passwordChanged, { replace: true });
  };

  return (
    <DeskScreen
      heading="Neues Passwort festlegen"
      meta={{
        title: 'Neues Passwort – Survey Desk',
        description:
          'Ein neues Passwort für das Mitarbeiterkonto in Survey Desk festlegen, über den Link aus der E-Mail.',
        path: deskPaths.passwordNew,
      }}
    >
      <div className="max-w-md rounded-lg bg-white p-6 shadow">
        {linkInvalid ? (
          <InvalidLink />
        ) : (
          <form
            noValidate
            onSubmit={(event) => void handleSubmit(submit)(event)}
            className="flex flex-col gap-4"
            aria-label="Neues Passwort festlegen"
          >
            <NewPasswordFields
              register={register}
              errors={errors}
              passwordLabel="Neues Passwort"
              confirmationLabel="Neues Passwort wiederholen"
            />
            {failure ? <Alert tone="error">{failure}</Alert> : null}
            <Button type="submit" disabled={isSubmitting}>
              Passwort speichern
            </Button>
          </form>
        )}
      </div>
    </DeskScreen>
  );
}
