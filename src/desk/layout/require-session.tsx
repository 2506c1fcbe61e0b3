import type { ReactNode } from 'react';
import { Link, Navigate, useLocation } from 'react-router-dom';
import { useSession } from '../api/session.ts';
import { useMyRole } from '../api/staff.ts';
import { deskPaths, signinPathFor } from '../../domain/routes.ts';
import { Alert } from '../../ui/alert.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { PageLoading } from '../../ui/page-loading.tsx';

/** Spec 2: staff screens tell a signed-out visitor to sign in (shown by the guard and on the sign-in page). */
export const notSignedInMessage = 'Du bist nicht angemeldet. Bitte melde dich an.';

/** Shown instead of a staff screen to an account no admin has enabled yet. */
export const pendingAccountMessage =
  'Dein Konto ist noch nicht freigeschaltet. Eine Administratorin oder ein Administrator muss es erst freigeben; bis dahin siehst du keine Kundendaten. Bitte versuche es später noch einmal.';

/**
 * A pending account has signed in but sees no staff screen: the database would refuse it every
 * row anyway, and an empty table would look like "no customers".
 */
function RequireEnabled({ children }: { children: ReactNode }) {
  const { data: role, isPending, isError } = useMyRole();
  if (isPending) return <PageLoading />;
  // A failed look-up leaves the decision to the database rather than locking the desk.
  if (isError || (role && role !== 'pending')) return children;
  return (
    <div className="py-8">
      <PageHeader title="Freischaltung ausstehend" />
      <Alert tone="info">{pendingAccountMessage}</Alert>
    </div>
  );
}

/**
 * A staff screen without a session shows the spec's not-signed-in message and goes to the
 * sign-in, which repeats the message and brings the user back here afterwards. An expired access
 * token never gets here: supabase-js refreshes it; only a refused refresh ends the session.
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const location = useLocation();
  const { data, isPending } = useSession();
  if (isPending) return <PageLoading />;
  if (data?.session) return <RequireEnabled>{children}</RequireEnabled>;
  return (
    <div className="py-8">
      <Alert tone="info">
        {notSignedInMessage}{' '}
        <Link to={deskPaths.signin} className="font-semibold underline">
          Zur Anmeldung
        </Link>
      </Alert>
      <Navigate
        to={signinPathFor(location, data?.lost ?? false)}
        replace
        state={{ from: location }}
      />
    </div>
  );
}
