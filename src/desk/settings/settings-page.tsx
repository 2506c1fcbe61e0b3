import type { User } from '@supabase/supabase-js';
import { useSession } from '../api/session.ts';
import { staffRoleLabels, useMyRole, type StaffRole } from '../api/staff.ts';
import { berlinDate } from '../../domain/calendar.ts';
import { deskPaths } from '../../domain/routes.ts';
import { TextField } from '../../ui/form-fields.tsx';
import { DeskScreen } from '../shared/desk-screen.tsx';
import { NameForm } from './name-form.tsx';
import { PasswordChangeForm } from './password-change-form.tsx';

/**
 * What a person wants to know about their own account: the address they sign in with, their
 * role and since when the account exists. The spec's "e-mail verified" and "phone verified" are
 * left out (docs/spec-deviations.md): a signed-in account has confirmed its address, and the desk
 * has no phone numbers for accounts. The name is the form below.
 */
export function accountFields(user: User, role: StaffRole | null | undefined) {
  return [
    { label: 'E-Mail-Adresse', value: user.email ?? '' },
    { label: 'Rolle', value: role ? staffRoleLabels[role] : '' },
    { label: 'Konto seit', value: user.created_at ? berlinDate(user.created_at) : '' },
  ];
}

export function SettingsPage() {
  const { data } = useSession();
  const { data: role } = useMyRole();
  const user = data?.session?.user;
  return (
    <DeskScreen
      heading="Einstellungen"
      meta={{
        title: 'Einstellungen – Survey Desk',
        description:
          'Kontoeinstellungen in Survey Desk: E-Mail-Adresse, Rolle und Alter deines Mitarbeiterkontos, dein Anzeigename und dein Passwort.',
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
            <h2 className="text-lg font-semibold text-slate-900">Konto</h2>
            {accountFields(user, role).map((field) => (
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
