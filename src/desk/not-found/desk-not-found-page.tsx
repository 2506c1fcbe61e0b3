import { Link, useLocation } from 'react-router-dom';
import { useSession } from '../api/session.ts';
import { deskPaths } from '../../domain/routes.ts';
import { useNoindex } from '../../ui/use-noindex.ts';
import { DeskScreen } from '../shared/desk-screen.tsx';

/**
 * A desk address that does not exist (a typo, an old bookmark): a German 404 inside the desk's
 * own frame, without the public site's header and cookie banner, and with the way on that fits:
 * the dashboard for a signed-in account, the sign-in for everyone else.
 */
export function DeskNotFoundPage() {
  const { pathname } = useLocation();
  const { data } = useSession();
  useNoindex();
  const signedIn = Boolean(data?.session);
  return (
    <DeskScreen
      heading="Seite nicht gefunden"
      meta={{
        title: 'Seite nicht gefunden – Survey Desk',
        description:
          'Diese Adresse gibt es in Survey Desk nicht. Über das Dashboard oder die Anmeldung geht es weiter.',
        path: pathname,
      }}
    >
      <div className="max-w-xl space-y-4 rounded-lg bg-white p-6 shadow">
        <p className="text-slate-800">
          Diese Adresse gibt es in Survey Desk nicht. Vielleicht hat sich ein Tippfehler
          eingeschlichen, oder der Link ist veraltet.
        </p>
        <Link
          to={signedIn ? deskPaths.dashboard : deskPaths.signin}
          className="inline-block rounded-lg bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800"
        >
          {signedIn ? 'Zum Dashboard' : 'Zur Anmeldung'}
        </Link>
      </div>
    </DeskScreen>
  );
}
