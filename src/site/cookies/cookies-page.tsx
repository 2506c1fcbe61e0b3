// Legal text: a careful, complete starting point, not legal advice. The agent's lawyer reviews it
// before going live. Agent-specific details come from src/config/site.ts.
//
// The list of strictly necessary storage describes the code; keep it in step with
// src/ui/cookie-consent.ts (consent cookie), src/offline/outbox-db.ts (IndexedDB
// 'universa-offline'), src/offline/questionnaire-draft.ts, src/offline/device-settings.ts,
// src/app/pwa-notices.tsx, the desk session in src/desk/api/supabase-client.ts and the caches in sw/sw.ts. Should a statistics or marketing service
// ever be added, it must be listed here (name, provider, purpose, duration) before it goes live.

import { Link } from 'react-router-dom';
import { siteConfig } from '../../config/site.ts';
import { sitePaths } from '../../domain/routes.ts';
import { Island } from '../../islands/island.tsx';
import { CookieSettingsButton } from '../../ui/cookie-settings-button.tsx';
import { LegalPage, LegalSection, linkClass } from '../../ui/legal-text.tsx';
import { publicPages } from '../../config/page-meta.ts';
import { usePageMeta } from '../../ui/use-page-meta.ts';

interface StoredItem {
  label: string;
  /** The name in the browser's storage, as the browser's developer tools show it. */
  technicalName?: string;
  /** Where in the browser it lives. */
  kind: string;
  purpose: string;
  duration: string;
}

const { cookieName, expiresAfterDays } = siteConfig.cookieConsent;

const strictlyNecessary: readonly StoredItem[] = [
  {
    label: 'Ihre Cookie-Auswahl',
    technicalName: cookieName,
    kind: 'Cookie',
    purpose:
      'Speichert Ihre Auswahl in den Cookie-Einstellungen: die gewählten Kategorien, den Zeitpunkt, eine zufällig erzeugte Kennung und die Fassung der Einstellungen.',
    duration: `${expiresAfterDays} Tage`,
  },
  {
    label: 'Warteschlange gesendeter Anfragen',
    technicalName: 'universa-offline › outbox',
    kind: 'IndexedDB',
    purpose:
      'Anfragen, die Sie abgesendet haben, bis sie bei uns angekommen sind. So geht ohne Internetverbindung keine Anfrage verloren.',
    duration:
      'Bis unser Server den Empfang bestätigt. Eine abgelehnte Anfrage bleibt, bis sie erneut gesendet oder gelöscht wird.',
  },
  {
    label: 'Gespeicherte Fragebögen',
    technicalName: 'universa-offline › definitions, fragebogen-definitionen',
    kind: 'IndexedDB und Cache',
    purpose:
      'Die Fragen und Antwortmöglichkeiten der Fragebögen, damit sie auch offline öffnen. Keine personenbezogenen Daten.',
    duration: 'Bis zur nächsten Aktualisierung des Fragebogens',
  },
  {
    label: 'Entwurf eines Fragebogens',
    technicalName: 'fragebogen-entwurf:<Nummer des Fragebogens>',
    kind: 'Local Storage',
    purpose:
      'Ihre Antworten in einem noch nicht abgesendeten Fragebogen, damit sie beim Neuladen der Seite erhalten bleiben; ohne Kontaktdaten und ohne die Geburtsdaten Ihrer Kinder. Im Kiosk-Modus wird kein Entwurf gespeichert.',
    duration:
      'Bis zum Absenden. Ein Entwurf, der älter als 24 Stunden ist, wird nicht mehr verwendet und beim nächsten Aufruf gelöscht.',
  },
  {
    label: 'Geräteeinstellungen',
    technicalName:
      'geraet:kiosk-modus, geraet:offline-simulation, geraet:kiosk-pin-versuche, universa-offline › settings',
    kind: 'Local Storage und IndexedDB',
    purpose:
      'Geräteeinstellungen: ob der Kiosk-Modus oder die Offline-Simulation eingeschaltet ist, im Kiosk-Modus der mit der PIN gesicherte Schlüssel und die Zahl der PIN-Eingaben. Keine personenbezogenen Daten.',
    duration: 'Bis die Einstellung ausgeschaltet wird',
  },
  {
    label: 'Hinweis zur Installation',
    technicalName: 'hinweis:installieren-gesehen',
    kind: 'Local Storage',
    purpose:
      'Nur auf iPhone und iPad: dass Sie den Hinweis zur Installation geschlossen haben, damit er nicht erneut erscheint.',
    duration: 'Bis Sie die Websitedaten löschen',
  },
  {
    label: 'Dateien für die Offline-Nutzung',
    technicalName: 'Precache des Service Workers, dokumente, bilder',
    kind: 'Cache (Service Worker)',
    purpose:
      'Die Dateien dieser Website, Informationsblätter (PDF) und Bilder, damit die Website auch offline funktioniert.',
    duration: 'Bis zur nächsten Version; Dokumente und Bilder höchstens 30 Tage',
  },
  {
    label: 'Anmeldung im Mitarbeiterbereich',
    technicalName: 'user',
    kind: 'Local Storage',
    purpose:
      'Nur für unsere Mitarbeitenden: die Anmeldung im Bereich „Survey Desk“ (Zugangs- und Erneuerungsschlüssel der Sitzung, E-Mail-Adresse des Kontos).',
    duration: 'Bis zur Abmeldung',
  },
];

function StoredItems({ items }: { items: readonly StoredItem[] }) {
  return (
    <ul className="space-y-3">
      {items.map((item) => (
        <li key={item.label} className="rounded-lg border border-slate-200 bg-white p-4">
          <h3 className="font-semibold text-slate-900">{item.label}</h3>
          <dl className="mt-2 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[9rem_1fr]">
            {item.technicalName ? (
              <>
                <dt className="font-semibold text-slate-700">Name</dt>
                <dd className="font-mono break-words">{item.technicalName}</dd>
              </>
            ) : null}
            <dt className="font-semibold text-slate-700">Art</dt>
            <dd>{item.kind}</dd>
            <dt className="font-semibold text-slate-700">Zweck</dt>
            <dd>{item.purpose}</dd>
            <dt className="font-semibold text-slate-700">Speicherdauer</dt>
            <dd>{item.duration}</dd>
          </dl>
        </li>
      ))}
    </ul>
  );
}

export function CookiesPage() {
  usePageMeta(publicPages.cookies);

  return (
    <LegalPage
      title="Cookie-Richtlinie"
      intro={
        <p>
          Welche Cookies und ähnlichen Techniken wir einsetzen, wofür und wie lange, und wie Sie
          Ihre Auswahl jederzeit ändern.
        </p>
      }
    >
      <LegalSection id="ueberblick" title="Cookies und ähnliche Techniken">
        <p>
          Cookies sind kleine Textdateien, die Ihr Browser speichert. Ähnlich funktionieren der
          Local Storage, die IndexedDB und der Cache Ihres Browsers, in denen eine Website Daten auf
          Ihrem Gerät ablegen kann. Wir nutzen diese Techniken nur, soweit es für die Website
          unbedingt erforderlich ist, und alles Weitere nur mit Ihrer Einwilligung (§ 25 TDDDG).
        </p>
        <p>
          Ihre Einwilligung holen wir mit dem Open-Source-Werkzeug CookieConsent
          (vanilla-cookieconsent) ein, das von unserem eigenen Server ausgeliefert wird. Die
          Kategorien im Einzelnen:
        </p>
      </LegalSection>

      <LegalSection id="erforderlich" title="Unbedingt erforderlich">
        <p>
          Diese Speicherung ist nötig, damit die Website wie von Ihnen gewünscht funktioniert, auch
          ohne Internetverbindung. Sie braucht nach § 25 Abs. 2 Nr. 2 TDDDG keine Einwilligung und
          lässt sich in den Cookie-Einstellungen nicht abschalten. Die Daten verlassen Ihr Gerät
          nur, wenn Sie eine Anfrage absenden.
        </p>
        <StoredItems items={strictlyNecessary} />
      </LegalSection>

      <LegalSection id="praeferenzen" title="Präferenzen">
        <p>
          Präferenz-Cookies merken sich Einstellungen, die über das unbedingt Erforderliche
          hinausgehen. Wir setzen sie nur mit Ihrer Einwilligung ein.{' '}
          <strong className="font-semibold text-slate-900">
            Derzeit verwenden wir keine Präferenz-Cookies.
          </strong>
        </p>
      </LegalSection>

      <LegalSection id="statistik" title="Statistik">
        <p>
          Statistik-Cookies helfen zu verstehen, wie Besucherinnen und Besucher die Website nutzen.
          Wir setzen sie nur mit Ihrer Einwilligung ein.{' '}
          <strong className="font-semibold text-slate-900">
            Derzeit verwenden wir keine Statistik-Cookies und keine Statistikdienste.
          </strong>
        </p>
      </LegalSection>

      <LegalSection id="marketing" title="Marketing">
        <p>
          Marketing-Cookies dienen dazu, Werbung anzuzeigen oder deren Erfolg zu messen, auch auf
          anderen Websites. Wir setzen sie nur mit Ihrer Einwilligung ein.{' '}
          <strong className="font-semibold text-slate-900">
            Derzeit verwenden wir keine Marketing-Cookies und keine Marketingdienste.
          </strong>
        </p>
        <p>
          Sollten wir künftig Dienste dieser Kategorien einsetzen, fragen wir Sie vorher nach Ihrer
          Einwilligung und nennen sie hier mit Anbieter, Zweck und Speicherdauer.
        </p>
      </LegalSection>

      <LegalSection id="widerruf" title="Einwilligung ändern oder widerrufen">
        <p>
          Sie können Ihre Auswahl jederzeit ändern und eine Einwilligung mit Wirkung für die Zukunft
          widerrufen, ebenso einfach, wie Sie sie erteilt haben. Die Rechtmäßigkeit der bis dahin
          erfolgten Verarbeitung bleibt unberührt (Art. 7 Abs. 3 DSGVO).
        </p>
        <Island name="cookie-settings">
          <CookieSettingsButton />
        </Island>
        <p>
          Außerdem können Sie Cookies und Websitedaten jederzeit in den Einstellungen Ihres Browsers
          löschen. Anfragen, die dann noch auf Ihrem Gerät auf die Übertragung warten, gehen dabei
          verloren. Mehr zur Verarbeitung Ihrer Daten lesen Sie in unserer{' '}
          <Link to={sitePaths.privacy} className={linkClass}>
            Datenschutzerklärung
          </Link>
          .
        </p>
      </LegalSection>
    </LegalPage>
  );
}
