import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link, NavLink, Outlet } from 'react-router-dom';
import { SkipLink } from '../ui/skip-link.tsx';
import { NavigationProgress } from './navigation-progress.tsx';

const UpdatePrompt = lazy(async () => ({
  default: (await import('./pwa-notices.tsx')).UpdatePrompt,
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
  { to: '/surveydesk/dashboard', label: 'Dashboard' },
  { to: '/surveydesk/customer', label: 'Kunden' },
  { to: '/surveydesk/question', label: 'Fragebogen' },
  { to: '/surveydesk/analyse', label: 'Analyse' },
  { to: '/surveydesk/support', label: 'Support' },
] as const;

type Menu = 'navigation' | 'notifications' | 'user';

const iconButton =
  'inline-flex h-10 w-10 items-center justify-center rounded-md text-brand-100 hover:bg-brand-700 hover:text-white';

const dropdown =
  'absolute right-0 top-12 z-50 w-56 rounded-md border border-slate-200 bg-white py-2 text-slate-700 shadow-lg';

export function DeskLayout() {
  const [openMenu, setOpenMenu] = useState<Menu | null>(null);
  const headerRef = useRef<HTMLElement>(null);

  const toggle = (menu: Menu) => setOpenMenu((current) => (current === menu ? null : menu));
  const close = () => setOpenMenu(null);

  // A dropdown that stays open after the user clicked elsewhere or pressed Escape would cover
  // the page; listeners exist only while something is open.
  useEffect(() => {
    if (openMenu === null) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!headerRef.current?.contains(event.target as Node)) setOpenMenu(null);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpenMenu(null);
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [openMenu]);

  useDeskManifest();

  return (
    <div className="min-h-dvh bg-slate-100 pt-[75px]">
      <SkipLink targetId="inhalt" />
      <Suspense fallback={null}>
        <UpdatePrompt />
      </Suspense>
      <NavigationProgress />
      <header ref={headerRef} className="fixed inset-x-0 top-0 z-40 bg-brand-800 text-white shadow">
        <nav
          aria-label="Survey Desk"
          className="mx-auto flex min-h-[60px] max-w-7xl flex-wrap items-center gap-2 px-4"
        >
          <Link to="/surveydesk/dashboard" className="mr-4 font-semibold text-white">
            Survey Desk
          </Link>

          <button
            type="button"
            className={`${iconButton} sm:hidden`}
            aria-expanded={openMenu === 'navigation'}
            aria-controls="desk-navigation"
            aria-label={openMenu === 'navigation' ? 'Menü schließen' : 'Menü öffnen'}
            onClick={() => toggle('navigation')}
          >
            <svg aria-hidden="true" viewBox="0 0 24 24" className="h-6 w-6" fill="none">
              <path
                d="M4 6h16M4 12h16M4 18h16"
                stroke="currentColor"
                strokeWidth="2"
                strokeLinecap="round"
              />
            </svg>
          </button>

          <ul
            id="desk-navigation"
            className={`${openMenu === 'navigation' ? 'flex' : 'hidden'} order-last w-full flex-col gap-1 pb-3 sm:order-none sm:flex sm:w-auto sm:flex-row sm:pb-0`}
          >
            {navLinks.map((link) => (
              <li key={link.to}>
                <NavLink
                  to={link.to}
                  onClick={close}
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
          </ul>

          <div className="relative ml-auto flex items-center gap-1">
            <button
              type="button"
              className={iconButton}
              aria-expanded={openMenu === 'notifications'}
              aria-controls="desk-notifications"
              aria-label="Benachrichtigungen"
              onClick={() => toggle('notifications')}
            >
              <svg aria-hidden="true" viewBox="0 0 24 24" className="h-6 w-6" fill="none">
                <path
                  d="M18 16V11a6 6 0 1 0-12 0v5l-2 2h16l-2-2ZM10 20a2 2 0 0 0 4 0"
                  stroke="currentColor"
                  strokeWidth="2"
                  strokeLinejoin="round"
                />
              </svg>
            </button>
            <div id="desk-notifications" hidden={openMenu !== 'notifications'} className={dropdown}>
              <p className="px-4 py-2 text-sm">Keine Nachrichten</p>
            </div>

            <button
              type="button"
              className={iconButton}
              aria-expanded={openMenu === 'user'}
              aria-controls="desk-user-menu"
              aria-label="Benutzermenü"
              onClick={() => toggle('user')}
            >
              <svg aria-hidden="true" viewBox="0 0 24 24" className="h-6 w-6" fill="none">
                <circle cx="12" cy="8" r="4" stroke="currentColor" strokeWidth="2" />
                <path d="M4 21a8 8 0 0 1 16 0" stroke="currentColor" strokeWidth="2" />
              </svg>
            </button>
            <ul id="desk-user-menu" hidden={openMenu !== 'user'} className={dropdown}>
              <li>
                <Link
                  to="/surveydesk/settings"
                  onClick={close}
                  className="block px-4 py-2 text-sm hover:bg-slate-100"
                >
                  Einstellungen
                </Link>
              </li>
              <li>
                {/* The sign-in screen signs the current user out when it opens (spec). */}
                <Link
                  to="/surveydesk/signin"
                  onClick={close}
                  className="block px-4 py-2 text-sm hover:bg-slate-100"
                >
                  Abmelden
                </Link>
              </li>
            </ul>
          </div>
        </nav>
      </header>

      <main id="inhalt" tabIndex={-1} className="mx-auto max-w-7xl px-4 pb-16">
        <Outlet />
      </main>
    </div>
  );
}
