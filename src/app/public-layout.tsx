import { lazy, Suspense, useEffect } from 'react';
import { Link, Outlet } from 'react-router-dom';
import { siteConfig } from '../config/site.ts';
import { sitePaths } from '../domain/routes.ts';
import { startCookieConsent } from '../ui/cookie-consent.ts';
import { SkipLink } from '../ui/skip-link.tsx';
import { useHydrated } from '../ui/use-hydrated.ts';
import { Island } from '../islands/island.tsx';
import { PrerenderedDeviceStatus } from './device-status-markup.tsx';
import { NavigationProgress } from './navigation-progress.tsx';
import { SimulationBannerSlot } from './simulation-banner.tsx';

// The app shell's status element (React) arrives after the first paint; until then, and on a
// prerendered page for good, the markup the build writes stands in (device-status-dom.ts takes
// it over there).
const DeviceStatus = lazy(async () => ({
  default: (await import('./device-status.tsx')).DeviceStatus,
}));
// Service worker registration, the update prompt and the iPad hint: none is needed to paint.
const UpdatePrompt = lazy(async () => ({
  default: (await import('./pwa-notices.tsx')).UpdatePrompt,
}));
const InstallHint = lazy(async () => ({
  default: (await import('./pwa-notices.tsx')).InstallHint,
}));

const footerLinks = [
  { to: sitePaths.imprint, label: 'Impressum' },
  { to: sitePaths.privacy, label: 'Datenschutz' },
  { to: sitePaths.terms, label: 'AGB' },
  { to: sitePaths.cookies, label: 'Cookies' },
  { to: sitePaths.contact, label: 'Kontakt' },
] as const;

/**
 * The public pages' header, main area and footer. A prerendered page (the build's island-pages
 * plugin) is never hydrated: its islands (src/islands.tsx) start the status, notices, consent banner and
 * background work. In the app shell (a questionnaire by its own address, offline fallbacks) this
 * layout runs as a React component and starts them itself.
 */
export function PublicLayout() {
  const hydrated = useHydrated();
  // The consent banner is loaded after the first paint; it stays until the visitor chose.
  // The device's background work starts then too, from this shell rather than from the status
  // element, and never in Survey Desk, which works online only.
  useEffect(() => {
    void startCookieConsent().catch(() => undefined);
    void import('./start-app.ts').then(
      ({ startApp }) => startApp(),
      () => undefined,
    );
  }, []);

  return (
    // The spec's shell reserves 75px at the top; the fixed header lives inside that space.
    <div className="flex min-h-dvh flex-col pt-[75px]">
      <SkipLink targetId="inhalt" />
      <NavigationProgress />
      <header className="group/header fixed inset-x-0 top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur">
        <div className="mx-auto flex h-[60px] max-w-5xl items-center justify-between gap-4 px-4">
          <Link
            to={sitePaths.landing}
            className="flex min-w-0 items-center gap-2 font-semibold text-brand-800 no-underline"
          >
            <img src="/favicon.svg" alt="" width="32" height="32" />
            {/* On a phone the agent's number needs the room; the logo stays, the name is still
                the link's name. */}
            <span className="[overflow-wrap:anywhere] max-sm:sr-only">{siteConfig.agencyName}</span>
          </Link>
          <div className="flex items-center gap-3 sm:gap-4">
            {/* The agent's number on every screen: on a phone a tap calls it. */}
            <a
              href={`tel:${siteConfig.phone.href}`}
              className="inline-flex min-h-11 shrink-0 items-center gap-1.5 text-sm font-semibold whitespace-nowrap text-brand-800 hover:text-brand-700"
            >
              <svg
                aria-hidden="true"
                viewBox="0 0 24 24"
                width="18"
                height="18"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
                strokeLinecap="round"
                strokeLinejoin="round"
              >
                <path d="M22 16.9v3a2 2 0 0 1-2.2 2 19.8 19.8 0 0 1-8.6-3.1 19.5 19.5 0 0 1-6-6A19.8 19.8 0 0 1 2.1 4.2 2 2 0 0 1 4.1 2h3a2 2 0 0 1 2 1.7c.1.9.4 1.8.7 2.7a2 2 0 0 1-.5 2.1L8 9.8a16 16 0 0 0 6 6l1.3-1.3a2 2 0 0 1 2.1-.4c.9.3 1.8.6 2.7.7a2 2 0 0 1 1.7 2z" />
              </svg>
              <span className="sr-only md:not-sr-only">Telefon: </span>
              {/* While the status says more than "Online", a phone shows the icon alone. */}
              <span className="max-sm:group-has-[[data-detailed]]/header:sr-only">
                {siteConfig.phone.display}
              </span>
            </a>
            <Island name="device-status">
              {hydrated ? (
                <Suspense fallback={<PrerenderedDeviceStatus />}>
                  <DeviceStatus />
                </Suspense>
              ) : (
                <PrerenderedDeviceStatus />
              )}
            </Island>
          </div>
        </div>
      </header>
      <SimulationBannerSlot />

      <Island name="pwa-notices">
        {hydrated && (
          <Suspense fallback={null}>
            <UpdatePrompt />
            <InstallHint />
          </Suspense>
        )}
      </Island>

      <main id="inhalt" tabIndex={-1} className="mx-auto w-full max-w-5xl flex-1 px-4 pb-16">
        <Outlet />
      </main>

      <footer className="border-t border-slate-200 bg-white">
        <div className="mx-auto flex max-w-5xl flex-col gap-4 px-4 py-8 text-sm text-slate-600 sm:flex-row sm:items-start sm:justify-between">
          <address className="not-italic">
            <strong className="font-semibold text-slate-800">{siteConfig.agencyName}</strong>
            <br />
            {siteConfig.address.street}, {siteConfig.address.postcode} {siteConfig.address.city}
            <br />
            <a href={`mailto:${siteConfig.email}`} className="hover:text-brand-700">
              {siteConfig.email}
            </a>
          </address>
          <nav aria-label="Rechtliches">
            <ul className="flex flex-wrap gap-x-5 gap-y-2">
              {footerLinks.map((link) => (
                <li key={link.to}>
                  <Link
                    to={link.to}
                    className="underline-offset-4 hover:text-brand-700 hover:underline"
                  >
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        </div>
      </footer>
    </div>
  );
}
