import {
  Menu,
  MenuButton,
  MenuHeading,
  MenuItem,
  MenuItems,
  MenuSection,
  Popover,
  PopoverButton,
  PopoverPanel,
} from '@headlessui/react';
import { lazy, Suspense, useEffect } from 'react';
import { Link, matchPath, NavLink, Outlet, useLocation } from 'react-router-dom';
import {
  useFollowUpCounts,
  useWorkListPage,
  workListShown,
  type ListedFollowUp,
} from '../api/follow-ups.ts';
import { useSession } from '../api/session.ts';
import { useMyRole, useStaffAccounts } from '../api/staff.ts';
import { useUnreadSupportCount } from '../api/support.ts';
import { berlinDateTime } from '../../domain/calendar.ts';
import { deskBase, deskCustomerAnswersPath, deskPaths } from '../../domain/routes.ts';
import { followUpListPath } from '../shared/follow-ups-view.ts';
import { SkipLink } from '../../ui/skip-link.tsx';
import { DeskProviders } from './desk-providers.tsx';
import { NavigationProgress } from '../../app/navigation-progress.tsx';
import { RequireSession } from './require-session.tsx';

const UpdatePrompt = lazy(async () => ({
  default: (await import('../../app/pwa-notices.tsx')).UpdatePrompt,
}));

/**
 * Survey Desk installs as its own app (start /surveydesk, scope /surveydesk): while a desk
 * screen is open, the page points at the desk's manifest instead of the public one.
 */
function useDeskManifest() {
  useEffect(() => {
    const link = document.querySelector<HTMLLinkElement>('link[rel="manifest"]');
    if (!link) return;
    const publicHref = link.getAttribute('href');
    link.setAttribute('href', '/surveydesk.webmanifest');
    return () => {
      if (publicHref) link.setAttribute('href', publicHref);
    };
  }, []);
}

const navLinks = [
  { to: deskPaths.dashboard, label: 'Dashboard' },
  { to: deskPaths.customers, label: 'Kunden' },
  { to: deskPaths.followUps, label: 'Wiedervorlagen' },
  { to: deskPaths.questionnaires, label: 'Fragebogen' },
  { to: deskPaths.analysis, label: 'Analyse' },
  { to: deskPaths.support, label: 'Support' },
] as const;

const iconButton =
  'inline-flex h-10 w-10 items-center justify-center rounded-md text-brand-100 hover:bg-brand-700 hover:text-white';

const dropdown =
  'absolute right-0 top-12 z-50 w-56 rounded-md border border-slate-200 bg-white py-2 text-slate-700 shadow-lg';

/** The screens a signed-out visitor may open: sign-in, registration and password recovery. */
const openPaths = [
  deskPaths.signin,
  deskPaths.signup,
  deskPaths.passwordForgotten,
  deskPaths.passwordNew,
];

const isSignedOutScreen = (pathname: string) => openPaths.some((path) => matchPath(path, pathname));

/** The desk's own addresses; any other below /surveydesk is the desk's 404, open to everyone. */
const screenPaths = [deskBase, ...Object.values(deskPaths)];

const isUnguarded = (pathname: string) =>
  isSignedOutScreen(pathname) || !screenPaths.some((path) => matchPath(path, pathname));

function GuardedOutlet() {
  const { pathname } = useLocation();
  if (isUnguarded(pathname)) return <Outlet />;
  return (
    <RequireSession>
      <Outlet />
    </RequireSession>
  );
}

function UserMenu() {
  const { data } = useSession();
  const email = data?.session?.user.email;
  const isAdmin = useMyRole().data === 'admin';

  return (
    <Menu as="div" className="contents">
      <MenuButton className={iconButton} aria-label="Benutzermenü">
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-6 w-6" fill="none">
          <circle cx="12" cy="8" r="4" stroke="currentColor" strokeWidth="2" />
          <path d="M4 21a8 8 0 0 1 16 0" stroke="currentColor" strokeWidth="2" />
        </svg>
      </MenuButton>
      <MenuItems id="desk-user-menu" className={`${dropdown} focus:outline-none`}>
        <MenuSection>
          {email ? (
            <MenuHeading className="border-b border-slate-200 px-4 pb-2 text-xs text-slate-600">
              Angemeldet als{' '}
              <span className="block truncate font-medium text-slate-800">{email}</span>
            </MenuHeading>
          ) : null}
          <MenuItem
            as={Link}
            to={deskPaths.settings}
            className="block px-4 py-2 text-sm data-focus:bg-slate-100"
          >
            Einstellungen
          </MenuItem>
          {isAdmin ? (
            <MenuItem
              as={Link}
              to={deskPaths.staff}
              className="block px-4 py-2 text-sm data-focus:bg-slate-100"
            >
              Mitarbeiter
            </MenuItem>
          ) : null}
          <MenuItem
            as={Link}
            // The sign-in screen signs out as it opens, so the session ends only after the
            // guarded screen is gone; ending it here first would let that screen's guard send the
            // user to the sign-in with a way back to it (a race the e2e run showed).
            to={deskPaths.signin}
            replace
            className="block px-4 py-2 text-sm data-focus:bg-slate-100"
          >
            Abmelden
          </MenuItem>
        </MenuSection>
      </MenuItems>
    </Menu>
  );
}

/** The unread support messages an admin has not read yet; always 0 for anyone else. */
function useUnreadSupport(): number {
  const isAdmin = useMyRole().data === 'admin';
  const { data } = useUnreadSupportCount(isAdmin);
  return isAdmin ? (data ?? 0) : 0;
}

const unreadSupportText = (count: number) =>
  count === 1 ? '1 ungelesene Support-Nachricht' : `${count} ungelesene Support-Nachrichten`;

/** The caller's and nobody's follow-ups overdue and due today; none for a pending account. */
function useDueFollowUpCounts(): { overdue: number; today: number } {
  const role = useMyRole().data;
  const enabled = role === 'staff' || role === 'admin';
  const { data } = useFollowUpCounts(enabled);
  return enabled
    ? { overdue: data?.overdue ?? 0, today: data?.today ?? 0 }
    : { overdue: 0, today: 0 };
}

const dueFollowUpsText = (count: number) =>
  count === 1 ? '1 fällige Wiedervorlage' : `${count} fällige Wiedervorlagen`;

/** The bell's accessible name: what its number is made of, in German. */
export function notificationsLabel(dueFollowUps: number, unreadSupport: number): string {
  const parts = [
    dueFollowUps > 0 ? dueFollowUpsText(dueFollowUps) : '',
    unreadSupport > 0 ? unreadSupportText(unreadSupport) : '',
  ].filter(Boolean);
  return parts.length ? `Benachrichtigungen: ${parts.join(', ')}` : 'Benachrichtigungen';
}

/** One follow-up in the bell's short list: customer, time, text; opens the lead. */
function BellFollowUp({ item, onNavigate }: { item: ListedFollowUp; onNavigate: () => void }) {
  const path = deskCustomerAnswersPath(item.customer_id);
  return (
    <li>
      <Link
        to={item.response_id === null ? path : `${path}#anfrage-${item.response_id}`}
        onClick={onNavigate}
        className="block rounded px-1 py-1 hover:bg-slate-100"
      >
        <span className="block truncate font-semibold text-brand-800 underline">
          {item.customer_name || 'Kunde ohne Namen'}
        </span>
        <span className="block truncate text-xs text-slate-700">
          <time dateTime={item.due_at}>{berlinDateTime(item.due_at)} Uhr</time>
          {item.body ? ` · ${item.body}` : null}
        </span>
      </Link>
    </li>
  );
}

/**
 * What needs the person now: a few of their (and nobody's) follow-ups due today and the oldest
 * overdue ones, each opening its lead, and the way to the whole list of each. Read when the bell
 * opens; the dashboard shares the queries.
 */
function DueFollowUpsNotice(props: { overdue: number; today: number; onNavigate: () => void }) {
  const today = useWorkListPage('today', props.today > 0);
  const overdue = useWorkListPage('overdue', props.overdue > 0);
  // Today's first, then the oldest overdue, a handful in all.
  const todayRows = (today.data?.rows ?? []).slice(0, 3);
  const overdueRows = (overdue.data?.rows ?? []).slice(0, workListShown - todayRows.length);
  const groups = [
    {
      key: 'today',
      count: props.today,
      label: `${props.today} heute fällig`,
      rows: todayRows,
      to: followUpListPath({ due: 'today' }),
    },
    {
      key: 'overdue',
      count: props.overdue,
      label: `${props.overdue} überfällig`,
      rows: overdueRows,
      to: followUpListPath({ due: 'overdue' }),
    },
  ].filter((group) => group.count > 0);
  return (
    <div className="px-4 py-2">
      <p className="font-medium text-slate-800">{dueFollowUpsText(props.overdue + props.today)}</p>
      {groups.map((group) => (
        <div key={group.key} className="mt-2">
          <p className="text-xs font-semibold tracking-wide text-slate-600 uppercase">
            {group.label}
          </p>
          {group.rows.length ? (
            <ul className="mt-1 space-y-0.5">
              {group.rows.map((item) => (
                <BellFollowUp key={item.id} item={item} onNavigate={props.onNavigate} />
              ))}
            </ul>
          ) : null}
          <Link
            to={group.to}
            onClick={props.onNavigate}
            className="mt-1 inline-block font-semibold text-brand-800 underline"
          >
            {group.key === 'today' ? 'Alle heute fälligen anzeigen' : 'Alle überfälligen anzeigen'}
          </Link>
        </div>
      ))}
    </div>
  );
}

/**
 * Spec 2: 'Keine Nachrichten'. Every enabled account is told what of its follow-ups needs it
 * now; an admin also about unread support messages and about accounts that wait to be enabled,
 * each with the way to the screen where it is dealt with.
 */
function Notifications({ onNavigate }: { onNavigate: () => void }) {
  const isAdmin = useMyRole().data === 'admin';
  const { data: accounts } = useStaffAccounts(isAdmin);
  const unreadSupport = useUnreadSupport();
  const due = useDueFollowUpCounts();
  const dueFollowUps = due.overdue + due.today;
  const waiting = isAdmin ? (accounts ?? []).filter((account) => account.role === 'pending') : [];
  if (waiting.length === 0 && unreadSupport === 0 && dueFollowUps === 0) {
    return <p className="px-4 py-2 text-sm">Keine Nachrichten</p>;
  }
  return (
    <div className="divide-y divide-slate-200 text-sm">
      {dueFollowUps > 0 ? (
        <DueFollowUpsNotice overdue={due.overdue} today={due.today} onNavigate={onNavigate} />
      ) : null}
      {unreadSupport > 0 ? (
        <div className="px-4 py-2">
          <p className="font-medium text-slate-800">{unreadSupportText(unreadSupport)}</p>
          <Link
            to={deskPaths.support}
            onClick={onNavigate}
            className="mt-1 inline-block font-semibold text-brand-800 underline"
          >
            Zu den Support-Nachrichten
          </Link>
        </div>
      ) : null}
      {waiting.length > 0 ? (
        <div className="px-4 py-2">
          <p className="font-medium text-slate-800">
            {waiting.length === 1
              ? '1 Konto wartet auf Freischaltung:'
              : `${waiting.length} Konten warten auf Freischaltung:`}
          </p>
          <ul className="my-2 space-y-1">
            {waiting.map((account) => (
              <li key={account.user_id} className="truncate">
                {account.email}
              </li>
            ))}
          </ul>
          <Link
            to={deskPaths.staff}
            onClick={onNavigate}
            className="font-semibold text-brand-800 underline"
          >
            Zu den Mitarbeitern
          </Link>
        </div>
      ) : null}
    </div>
  );
}

/** The bell: due follow-ups for every enabled account plus, for admins, unread support messages. */
function NotificationsButton() {
  const unreadSupport = useUnreadSupport();
  const due = useDueFollowUpCounts();
  const dueFollowUps = due.overdue + due.today;
  const count = unreadSupport + dueFollowUps;
  return (
    <PopoverButton
      className={`${iconButton} relative`}
      aria-label={notificationsLabel(dueFollowUps, unreadSupport)}
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" className="h-6 w-6" fill="none">
        <path
          d="M18 16V11a6 6 0 1 0-12 0v5l-2 2h16l-2-2ZM10 20a2 2 0 0 0 4 0"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinejoin="round"
        />
      </svg>
      {count > 0 ? (
        <span
          aria-hidden="true"
          className="absolute -top-0.5 -right-0.5 min-w-5 rounded-full bg-red-700 px-1 text-center text-xs leading-5 font-bold text-white"
        >
          {count > 99 ? '99+' : count}
        </span>
      ) : null}
    </PopoverButton>
  );
}

/** The desk's screens; on a phone they fold behind a button, from `sm` on they always show. */
function DeskNavigation() {
  return (
    <Popover className="contents">
      {({ open }) => (
        <>
          <PopoverButton
            className={`${iconButton} sm:hidden`}
            aria-label={open ? 'Menü schließen' : 'Menü öffnen'}
          >
            <svg aria-hidden="true" viewBox="0 0 24 24" className="h-6 w-6" fill="none">
              <path
                d="M4 6h16M4 12h16M4 18h16"
                stroke="currentColor"
                strokeWidth="2"
                strokeLinecap="round"
              />
            </svg>
          </PopoverButton>

          <PopoverPanel
            static
            as="ul"
            id="desk-navigation"
            className={`${open ? 'flex' : 'hidden'} order-last w-full flex-col gap-1 pb-3 sm:order-none sm:flex sm:w-auto sm:flex-row sm:pb-0`}
          >
            {({ close }) => (
              <>
                {navLinks.map((link) => (
                  <li key={link.to}>
                    <NavLink
                      to={link.to}
                      onClick={() => close()}
                      className={({ isActive }) =>
                        `block rounded-md px-3 py-2 text-sm font-medium ${
                          isActive ? 'bg-brand-900 text-white' : 'text-brand-100 hover:bg-brand-700'
                        }`
                      }
                    >
                      {link.label}
                    </NavLink>
                  </li>
                ))}
              </>
            )}
          </PopoverPanel>
        </>
      )}
    </Popover>
  );
}

/** The bell and the user menu, at the header's right end. */
function DeskTools() {
  return (
    <div className="relative ml-auto flex items-center gap-1">
      <Popover className="contents">
        <NotificationsButton />
        <PopoverPanel id="desk-notifications" className={`${dropdown} w-80!`}>
          {({ close }) => <Notifications onNavigate={() => close()} />}
        </PopoverPanel>
      </Popover>

      <UserMenu />
    </div>
  );
}

/**
 * Whether the header shows the desk's navigation, bell and user menu: only to a signed-in
 * account, and never on the screens a signed-out visitor uses (sign-in, registration, password),
 * where they would lead nowhere but back to the sign-in.
 */
function useSignedInShell(): boolean {
  const { pathname } = useLocation();
  const { data } = useSession();
  return Boolean(data?.session) && !isSignedOutScreen(pathname);
}

export function DeskLayout() {
  return (
    <DeskProviders>
      <DeskShell />
    </DeskProviders>
  );
}

// The header's menus are Headless UI's: each closes on Escape (focus back on its button), on a
// click elsewhere, and when another opens. Their wrappers use `contents`, so the buttons and
// panels stay items of the header's flex layout.
function DeskShell() {
  useDeskManifest();
  const signedIn = useSignedInShell();

  return (
    <div className="min-h-dvh bg-slate-100 pt-[75px]">
      <SkipLink targetId="inhalt" />
      <Suspense fallback={null}>
        <UpdatePrompt />
      </Suspense>
      <NavigationProgress />
      <header className="fixed inset-x-0 top-0 z-40 bg-brand-800 text-white shadow">
        <nav
          aria-label="Survey Desk"
          className="mx-auto flex min-h-[60px] max-w-7xl flex-wrap items-center gap-2 px-4"
        >
          <Link to={deskPaths.dashboard} className="mr-4 font-semibold text-white">
            Survey Desk
          </Link>

          {signedIn ? <DeskNavigation /> : null}
          {signedIn ? <DeskTools /> : null}
        </nav>
      </header>

      <main id="inhalt" tabIndex={-1} className="mx-auto max-w-7xl px-4 pb-16">
        <GuardedOutlet />
      </main>
    </div>
  );
}
