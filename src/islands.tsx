import { islandRegistry } from './island-registry.ts';
import { startIslands } from './islands/start-islands.ts';
import { startCookieConsent } from './ui/cookie-consent.ts';

// The entry of a prerendered public page (src/islands/load-after-paint.ts loads it after the
// first paint). The page is never hydrated as a whole: its text and links stay the HTML the
// build wrote, links between pages are ordinary navigations (the service worker serves every
// prerendered page). Only the interactive parts run code, each `<Island>` (src/islands/) on its
// own: a React island in a React root of its own, a plain DOM island (the header's status, the
// notices, the cookie button) without React, which loads only with the first React island that
// starts. Plus what no element shows: the consent banner (vanilla-cookieconsent, no React) and
// the device's background work (start-app.ts). The app shell (index.html, main.tsx) is unchanged.
startIslands(islandRegistry);

// The consent banner for a visitor who has not chosen yet, and the device's background work:
// the questionnaires kept on the device, the outbox's sender once a lead waits.
void startCookieConsent().catch(() => undefined);
void import('./app/start-app.ts').then(
  ({ startApp }) => startApp(),
  () => undefined,
);
