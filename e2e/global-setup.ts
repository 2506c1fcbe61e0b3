import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const consentedStatePath = path.resolve('.tmp/e2e-consented-state.json');

/**
 * Most journeys are about forms, not the consent banner: they start as a visitor who already
 * chose 'Alle ablehnen'. The consent tests start without this state. The cookie is the one the
 * consent tool writes, with a fresh expiry, so it is valid on any day the tests run.
 */
export default function globalSetup() {
  const now = Date.now();
  const value = {
    categories: ['necessary'],
    revision: 1,
    data: null,
    consentTimestamp: new Date(now).toISOString(),
    consentId: '00000000-0000-4000-8000-000000000000',
    services: { necessary: [], preferences: [], statistics: [], marketing: [] },
    languageCode: 'de',
    lastConsentTimestamp: new Date(now).toISOString(),
    expirationTime: now + 365 * 24 * 60 * 60 * 1000,
  };
  mkdirSync(path.dirname(consentedStatePath), { recursive: true });
  writeFileSync(
    consentedStatePath,
    JSON.stringify({
      cookies: [
        {
          name: 'cc_cookie',
          value: encodeURIComponent(JSON.stringify(value)),
          domain: '127.0.0.1',
          path: '/',
          expires: Math.floor(value.expirationTime / 1000),
          httpOnly: false,
          secure: false,
          sameSite: 'Lax',
        },
      ],
      origins: [],
    }),
  );
}
