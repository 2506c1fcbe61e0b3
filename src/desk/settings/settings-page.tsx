import type { User } from '@supabase/supabase-js';
import { useSession } from '../api/session.ts';
import { deskPaths } from '../../domain/routes.ts';
import { TextField } from '../../ui/form-fields.tsx';
import { DeskScreen } from '../shared/desk-screen.tsx';
import { NameForm } from './name-form.tsx';
import { PasswordChangeForm } from './password-change-form.tsx';

const yesNo = (value: boolean) => (value ? 'Ja' : 'Nein');

/**
 * Spec 2: e-mail, e-mail verified and phone verified from the user's metadata. GoTrue fills
 * user_metadata with these only for some sign-up paths, so the account's own fields stand in.
 */
function accountFields(user: User) {
  const meta = user.user_metadata as Partial<
    Record<'email' | 'email_verified' | 'phone_verified', unknown>
  >;
  const flag = (value: unknown, fallback: boolean) =>
    typeof value === 'boolean' ? value : fallback;
  return [
    {
      label: 'E-Mail-Adresse',
      value: typeof meta.email === 'string' ? meta.email : (user.email ?? ''),
    },
    {
      label: 'E-Mail bestätigt',
      value: yesNo(flag(meta.email_verified, Boolean(user.email_confirmed_at))),
    },
    {
      label: 'Telefon bestätigt',
      value: yesNo(flag(meta.phone_verified, Boolean(user.phone_confirmed_at))),
    },
  ];
}

export function SettingsPage() {
  const { data } = useSession();
  const user = data?.session?.user;
  return (
    <DeskScreen
      heading="Einstellungen"
      meta={{
        title: 'Einstellungen – Survey Desk',
        description:
          'Kontoeinstellungen in Survey Desk: E-Mail-Adresse und Bestätigungsstatus deines Mitarbeiterkontos, dein Anzeigename und dein Passwort.',
        path: deskPaths.settings,
      }}
    >
      {user ? (
        <div className="flex flex-col gap-6">
          <form
            aria-label="Konto"
            className="flex max-w-md flex-col gap-4 rounded-lg bg-white p-6 shadow"
            onSubmit={(event) => event.preventDefault()}
          >
            {accountFields(user).map((field) => (
              <TextField key={field.label} label={field.label} value={field.value} readOnly />
            ))}
          </form>
          <NameForm />
          <PasswordChangeForm />
        </div>
      ) : null}
    </DeskScreen>
  );
}
