import type { ReactNode } from 'react';
import { Link, Navigate, useLocation } from 'react-router-dom';
import { useSession } from '../api/desk-session.ts';
import { notSignedInMessage } from '../desk/signin/signin-form.ts';
import { deskPaths, signinPathFor } from '../domain/routes.ts';
import { Alert } from '../ui/alert.tsx';
import { PageLoading } from '../ui/page-loading.tsx';

/**
 * A staff screen without a session shows the spec's not-signed-in message and goes to the
 * sign-in, which repeats the message and brings the user back here afterwards. An expired access
 * token never gets here: supabase-js refreshes it; only a refused refresh ends the session.
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const location = useLocation();
  const { data, isPending } = useSession();
  if (isPending) return <PageLoading />;
  if (data?.session) return children;
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
