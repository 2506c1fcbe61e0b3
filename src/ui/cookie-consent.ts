import type { CookieConsentConfig } from 'vanilla-cookieconsent';
import { siteConfig } from '../config/site.ts';
import { sitePaths } from '../domain/routes.ts';

/** Which text of the consent banner the visitor saw; stored with every lead. */
export const COOKIE_CONSENT_VERSION = '2026-11-22';
/** The consent tool's cookie; strictly necessary, written only once the visitor chose. */
export const CONSENT_COOKIE = siteConfig.cookieConsent.cookieName;

const config: CookieConsentConfig = {
  // Name and lifetime come from the site config, which the cookie page describes too.
  cookie: {
    name: CONSENT_COOKIE,
    expiresAfterDays: siteConfig.cookieConsent.expiresAfterDays,
    sameSite: 'Lax',
  },
  // A new revision asks again: a changed text needs a new consent.
  revision: 1,
  // The library hides itself from automated browsers (navigator.webdriver); the banner is part
  // of what the browser tests check, so it shows for every visitor.
  hideFromBots: false,
  guiOptions: {
    // 'Alle ablehnen' on the first layer, as easy and as visible as 'Alle akzeptieren'. A bar at
    // the bottom, low enough to leave the page's heading and first action visible
    // (cookie-consent.css makes it compact on a phone).
    consentModal: { layout: 'bar', position: 'bottom', equalWeightButtons: true },
    preferencesModal: { layout: 'box', equalWeightButtons: true },
  },
  // On a phone the text scrolls within three lines (cookie-consent.css): reachable by keyboard too.
  onModalReady: ({ modalName, modal }) => {
    if (modalName !== 'consentModal' || !window.matchMedia('(max-width: 640px)').matches) return;
    modal.querySelector('#cm__desc')?.setAttribute('tabindex', '0');
  },
  categories: {
    necessary: { enabled: true, readOnly: true },
    preferences: {},
    statistics: {},
    marketing: {},
  },
  language: {
    default: 'de',
    translations: {
      de: {
        consentModal: {
          title: 'Ihre Privatsphäre',
          // The same text in two short blocks: one long paragraph would be the largest paint of
          // a short page on a phone, the banner's text instead of the page's own.
          description:
            '<span class="cc-desc-part">Wir speichern auf Ihrem Gerät nur, was für diese Website nötig ist, zum Beispiel Ihre Anfrage, bis sie bei uns angekommen ist.</span> <span class="cc-desc-part">Statistik und Marketing nutzen wir nur mit Ihrer Einwilligung. Sie können Ihre Wahl jederzeit unter „Cookies“ ändern.</span>',
          acceptAllBtn: 'Alle akzeptieren',
          acceptNecessaryBtn: 'Alle ablehnen',
          showPreferencesBtn: 'Einstellungen',
          footer: `<a href="${sitePaths.privacy}">Datenschutz</a> <a href="${sitePaths.imprint}">Impressum</a>`,
        },
        preferencesModal: {
          title: 'Cookie-Einstellungen',
          acceptAllBtn: 'Alle akzeptieren',
          acceptNecessaryBtn: 'Alle ablehnen',
          savePreferencesBtn: 'Auswahl speichern',
          closeIconLabel: 'Schließen',
          sections: [
            {
              title: 'Unbedingt erforderlich',
              description:
                'Ihre Anfrage bis zum Versand, gespeicherte Fragebögen, ein Entwurf für 24 Stunden, Geräteeinstellungen und Ihre Auswahl hier. Ohne diese Speicherung funktioniert die Website nicht; sie lässt sich nicht abschalten.',
              linkedCategory: 'necessary',
            },
            {
              title: 'Präferenzen',
              description: 'Merkt sich Einstellungen, die Ihnen die Nutzung erleichtern.',
              linkedCategory: 'preferences',
            },
            {
              title: 'Statistik',
              description:
                'Hilft uns zu verstehen, wie die Website genutzt wird. Derzeit setzen wir keine Statistikdienste ein.',
              linkedCategory: 'statistics',
            },
            {
              title: 'Marketing',
              description:
                'Für Werbung auf anderen Websites. Derzeit setzen wir keine Marketingdienste ein.',
              linkedCategory: 'marketing',
            },
            {
              title: 'Mehr Informationen',
              description: `Einzelheiten finden Sie in der <a href="${sitePaths.privacy}">Datenschutzerklärung</a> und unter <a href="${sitePaths.cookies}">Cookies</a>.`,
            },
          ],
        },
      },
    },
  },
};

let loaded: Promise<typeof import('vanilla-cookieconsent')> | undefined;

/** Loads the consent tool, its stylesheet and the phone layout, and starts it, once. */
function loadCookieConsent(): Promise<typeof import('vanilla-cookieconsent')> {
  loaded ??= (async () => {
    // The stylesheets come with the banner, not with the page: they must not hold up its paint.
    const [consent] = await Promise.all([
      import('vanilla-cookieconsent'),
      import('vanilla-cookieconsent/dist/cookieconsent.css'),
    ]);
    // After the tool's own rules, which it overrides on a phone.
    await import('./cookie-consent.css');
    await consent.run(config);
    return consent;
  })();
  return loaded;
}

/**
 * Resolves once the page has loaded and painted and the browser is idle: the banner's code then
 * does not compete with the page's own code and paint on a slow phone.
 */
function afterPageLoad(): Promise<void> {
  return new Promise((resolve) => {
    const whenIdle = () => {
      if ('requestIdleCallback' in window) requestIdleCallback(() => resolve(), { timeout: 2_000 });
      else setTimeout(resolve, 200);
    };
    if (document.readyState === 'complete') whenIdle();
    else window.addEventListener('load', whenIdle, { once: true });
  });
}

let started: Promise<typeof import('vanilla-cookieconsent') | undefined> | undefined;

/**
 * Shows the banner once the page is loaded, if the visitor has not chosen yet (or chose about an
 * older revision of the text). After a choice the tool's code is not loaded at all: the page
 * reads the choice from the cookie (readCookieChoice), and 'Cookie-Einstellungen' loads it.
 */
export function startCookieConsent(): Promise<typeof import('vanilla-cookieconsent') | undefined> {
  started ??=
    readStoredConsent()?.revision === config.revision
      ? Promise.resolve(undefined)
      : afterPageLoad().then(loadCookieConsent);
  return started;
}

/** Opens the second layer, where each category can be switched; asked for, so at once. */
export async function openCookieSettings(): Promise<void> {
  const consent = await loadCookieConsent();
  consent.showPreferences();
}

/** The tool's cookie as it stored it: the categories chosen and the revision they were for. */
function readStoredConsent(): { categories: string[]; revision: unknown } | undefined {
  if (typeof document === 'undefined') return undefined;
  const raw = document.cookie
    .split('; ')
    .find((part) => part.startsWith(`${CONSENT_COOKIE}=`))
    ?.slice(CONSENT_COOKIE.length + 1);
  if (!raw) return undefined;
  try {
    const value = JSON.parse(decodeURIComponent(raw)) as {
      categories?: unknown;
      revision?: unknown;
    };
    return Array.isArray(value.categories)
      ? { categories: value.categories.map(String), revision: value.revision }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The visitor's cookie choice as stored by the tool, read from its cookie without loading the
 * tool: 'necessary,statistics', or undefined before any choice.
 */
export function readCookieChoice(): string | undefined {
  return readStoredConsent()?.categories.join(',');
}

/** The choice and the banner's text version, as stored with a lead; undefined before a choice. */
export function currentCookieConsent(): { choice: string; version: string } | undefined {
  const choice = readCookieChoice();
  return choice ? { choice, version: COOKIE_CONSENT_VERSION } : undefined;
}
