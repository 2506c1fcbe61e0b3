import { questionnairePath, sitePaths } from '../domain/routes.ts';
import { siteConfig } from './site.ts';

export interface PageMeta {
  /** The page's own title; the agency's name is appended. */
  title: string;
  description: string;
  /** The route's canonical path, e.g. '/kontakt' for both /kontakt and /universa/kontakt. */
  path: string;
}

/**
 * Title and description of every public page, in one place: the page sets them in the browser,
 * and the build writes them into each page's HTML file (vite.config.ts), for link previews
 * (WhatsApp, Facebook, LinkedIn) and crawlers that do not run JavaScript.
 */
export const publicPages = {
  landing: {
    title: 'Kostenlose Versicherungsberatung und Angebote',
    description:
      'Persönliche, kostenlose Versicherungsberatung: Angebote für Kinder-Vorsorge, private Krankenversicherung und KFZ anfordern oder Tarife online beantragen.',
    path: sitePaths.landing,
  },
  tabaluga: {
    title: 'Tabaluga – Vorsorge für Ihre Kinder',
    description:
      'Kinder-Vorsorge mit Tabaluga: ein paar kurze Fragen beantworten und ein kostenloses, unverbindliches Angebot für die Zukunft Ihrer Kinder erhalten.',
    path: sitePaths.tabaluga,
  },
  pkv: {
    title: 'Private Krankenversicherung (PKV)',
    description:
      'Private Krankenversicherung nach Ihren Wünschen: wenige Fragen zu Ihrer Situation beantworten und ein kostenloses, unverbindliches PKV-Angebot erhalten.',
    path: sitePaths.pkv,
  },
  kfz: {
    title: 'KFZ-Versicherung: Rückruf anfordern',
    description:
      'KFZ-Versicherung wechseln und sparen: Fordern Sie einen kostenlosen Rückruf an. Wir vergleichen für Sie und beraten Sie persönlich und unverbindlich.',
    path: sitePaths.kfz,
  },
  contact: {
    title: 'Kostenlosen Versicherungscheck buchen',
    description:
      'Buchen Sie Ihren kostenlosen Versicherungscheck: Wir prüfen Ihre bestehenden Verträge und zeigen, wo Sie besser oder günstiger versichert sein können.',
    path: sitePaths.contact,
  },
  imprint: {
    title: 'Impressum',
    description: `Impressum und Statusinformationen nach § 15 VersVermV von ${siteConfig.agencyName}, gebundener Versicherungsvertreter nach § 34d Abs. 7 GewO.`,
    path: sitePaths.imprint,
  },
  privacy: {
    title: 'Datenschutzerklärung',
    description: `Wie ${siteConfig.agencyName} Ihre Daten bei Fragebögen, Rückruf- und Kontaktanfragen verarbeitet, was offline auf Ihrem Gerät gespeichert wird und welche Rechte Sie haben.`,
    path: sitePaths.privacy,
  },
  terms: {
    title: 'Allgemeine Geschäftsbedingungen',
    description: `Allgemeine Geschäftsbedingungen für die kostenlose Nutzung der Website, der Fragebögen und der Anfrageformulare von ${siteConfig.agencyName}.`,
    path: sitePaths.terms,
  },
  cookies: {
    title: 'Cookie-Richtlinie',
    description: `Welche Cookies und welchen Speicher auf Ihrem Gerät ${siteConfig.agencyName} nutzt, wofür und wie lange, und wie Sie Ihre Cookie-Einstellungen ändern.`,
    path: sitePaths.cookies,
  },
} as const satisfies Record<string, PageMeta>;

/**
 * Every public address with its page: the build writes one HTML file per address with the page's
 * metadata in its head (vite.config.ts), for hosts that serve static files.
 */
export const publicPageAddresses: { path: string; meta: PageMeta }[] = [
  ...Object.values(publicPages).map((meta) => ({ path: meta.path, meta })),
  { path: sitePaths.contactAlias, meta: publicPages.contact },
];

const questionnaireDescription =
  'Beantworten Sie ein paar kurze Fragen zu Ihrer Situation, und wir melden uns mit einem kostenlosen, unverbindlichen Versicherungsangebot bei Ihnen.';

/** A questionnaire opened by its id (the desk links new questionnaires to it). */
export function questionnairePage(id: string, valid: boolean): PageMeta {
  return {
    title: valid ? `Fragebogen ${id}` : 'Fragebogen nicht gefunden',
    description: questionnaireDescription,
    path: questionnairePath(id),
  };
}

/** A path the router does not know; its canonical URL is the path itself. */
export function notFoundPage(path: string): PageMeta {
  return {
    title: 'Seite nicht gefunden',
    description:
      'Diese Seite gibt es nicht oder nicht mehr. Über die Startseite finden Sie unsere Angebote zur Versicherung, das Kontaktformular und alle Rechtstexte.',
    path,
  };
}

export interface HeadTag {
  key: 'name' | 'property';
  name: string;
  value: string;
}

/** Everything a page puts into the document head, computed the same in browser and server. */
export function pageHead(meta: PageMeta): {
  title: string;
  description: string;
  canonical: string;
  tags: HeadTag[];
} {
  const title = `${meta.title} | ${siteConfig.agencyName}`;
  const url = `${siteConfig.siteUrl}${meta.path}`;
  const tag = (key: HeadTag['key'], name: string, value: string): HeadTag => ({ key, name, value });
  return {
    title,
    description: meta.description,
    canonical: url,
    tags: [
      tag('property', 'og:title', title),
      tag('property', 'og:description', meta.description),
      tag('property', 'og:url', url),
      tag('property', 'og:type', 'website'),
      tag('property', 'og:locale', 'de_DE'),
      tag('property', 'og:site_name', siteConfig.agencyName),
      tag('property', 'og:image', `${siteConfig.siteUrl}/icons/app-512.png`),
      tag('name', 'twitter:card', 'summary'),
      tag('name', 'twitter:title', title),
      tag('name', 'twitter:description', meta.description),
    ],
  };
}
