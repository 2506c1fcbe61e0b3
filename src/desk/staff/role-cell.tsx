import { useId, useState } from 'react';
import {
  errorCode,
  lastAdminCode,
  staffRoleLabels,
  staffRoles,
  useSetStaffRole,
  type StaffAccount,
  type StaffRole,
} from '../api/staff.ts';
import { Button } from '../../ui/button.tsx';

export const lastAdminMessage =
  'Der letzte Admin kann nicht entfernt oder herabgestuft werden. Ernenne zuerst ein weiteres Konto zum Admin.';
export const saveFailedMessage =
  'Die Rolle konnte nicht gespeichert werden. Bitte versuche es erneut.';

/**
 * An account's role as a menu with its own save button. A refused change (the last admin, a
 * failed call) shows why and puts the menu back on the role the database holds, so the screen
 * never shows a role the account does not have.
 */
export function RoleCell({ account }: { account: StaffAccount }) {
  const id = useId();
  const errorId = `${id}-fehler`;
  const [role, setRole] = useState<StaffRole>(account.role);
  const setStaffRole = useSetStaffRole();
  const failure = setStaffRole.error
    ? errorCode(setStaffRole.error) === lastAdminCode
      ? lastAdminMessage
      : saveFailedMessage
    : null;

  return (
    <form
      className="flex flex-wrap items-center gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        setStaffRole.mutate(
          { userId: account.user_id, role },
          { onError: () => setRole(account.role) },
        );
      }}
    >
      <label htmlFor={id} className="sr-only">
        Rolle für {account.email}
      </label>
      <select
        id={id}
        value={role}
        onChange={(event) => setRole(event.target.value as StaffRole)}
        aria-describedby={failure ? errorId : undefined}
        className="min-h-11 rounded-lg border border-slate-400 bg-white px-3 py-2 text-base text-slate-900"
      >
        {staffRoles.map((value) => (
          <option key={value} value={value}>
            {staffRoleLabels[value]}
          </option>
        ))}
      </select>
      <Button
        type="submit"
        variant="secondary"
        disabled={setStaffRole.isPending}
        aria-label={`Rolle für ${account.email} speichern`}
      >
        Speichern
      </Button>
      {failure ? (
        <p id={errorId} role="alert" className="w-full text-sm font-medium text-red-800">
          {failure}
        </p>
      ) : null}
    </form>
  );
}
