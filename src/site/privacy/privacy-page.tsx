// Legal text: a careful, complete starting point, not legal advice. The agent's lawyer reviews it
// before going live. Every agent-specific detail comes from src/config/site.ts.
//
// Keep section 7 (storage on the device) in step with the code it describes: the outbox and the
// stored questionnaires in src/offline/outbox-db.ts, the draft in
// src/offline/questionnaire-draft.ts (24 hours, answers only, none in kiosk mode), the device settings in
// src/offline/device-settings.ts, kiosk mode's encryption in src/offline/lead-seal.ts, the
// install hint in src/app/pwa-notices.tsx and the caches in sw/sw.ts. The PKV paragraph in
// section 2 holds only while the PKV questionnaire (editable in Survey Desk) asks no health
// questions.

import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { siteConfig } from '../../config/site.ts';
import { sitePaths } from '../../domain/routes.ts';
import { Island } from '../../islands/island.tsx';
import { CookieSettingsButton } from '../../ui/cookie-settings-button.tsx';
import {
  AddressBlock,
  ExternalLink,
  LegalPage,
  LegalSection,
  linkClass,
  MailLink,
  OrganisationAddress,
  PhoneLink,
} from '../../ui/legal-text.tsx';
import { publicPages } from '../../config/page-meta.ts';
import { usePageMeta } from '../../ui/use-page-meta.ts';

function Subheading({ children }: { children: ReactNode }) {
  return <h3 className="pt-2 font-semibold text-slate-900">{children}</h3>;
}

const bulletList = 'list-disc space-y-2 pl-6';

export function PrivacyPage() {
  usePageMeta(publicPages.privacy);

  const {
    agencyName,
    agentName,
    address,
    phone,
    email,
    company,
    tiedInsurers,
    dataProtection,
    cookieConsent,
    externalLinks,
  } = siteConfig;
  const insurers = tiedInsurers.map((insurer) => insurer.name).join(', ');

  return (
    <LegalPage
      title="Datenschutzerklärung"
      intro={
        <p>
          Hier informieren wir Sie nach Art. 13 der Datenschutz-Grundverordnung (DSGVO) darüber,
          welche personenbezogenen Daten wir verarbeiten, wenn Sie diese Website nutzen und uns eine
          Anfrage senden, wozu und auf welcher Rechtsgrundlage wir das tun und welche Rechte Sie
          haben.
        </p>
      }
    >
      <LegalSection id="verantwortlicher" title="1. Verantwortlicher">
        <p>Verantwortlich für die Datenverarbeitung auf dieser Website ist:</p>
        <AddressBlock name={agencyName} owner={agentName} address={address}>
          <br />
          Telefon: <PhoneLink phone={phone} />
          <br />
          E-Mail: <MailLink address={email} />
        </AddressBlock>
        {dataProtection.officer ? (
          <p>
            Unseren Datenschutzbeauftragten, {dataProtection.officer.name}, erreichen Sie unter{' '}
            <MailLink address={dataProtection.officer.email} />
            {dataProtection.officer.address
              ? ` oder per Post: ${dataProtection.officer.address.street}, ${dataProtection.officer.address.postcode} ${dataProtection.officer.address.city}`
              : ''}
            .
          </p>
        ) : (
          <p>
            Einen Datenschutzbeauftragten haben wir nicht benannt, weil wir nach Art. 37 DSGVO und §
            38 BDSG nicht dazu verpflichtet sind. Mit Fragen zum Datenschutz wenden Sie sich bitte
            direkt an uns.
          </p>
        )}
        <p>
          Stellen Sie über einen Link auf unserer Website einen Online-Antrag bei einem Versicherer
          oder einer Krankenkasse, verarbeitet der jeweilige Anbieter Ihre Daten in eigener
          Verantwortung. Für die {company} gelten deren{' '}
          <ExternalLink href={externalLinks.insurerPrivacyPolicy.href}>
            {externalLinks.insurerPrivacyPolicy.label}
          </ExternalLink>
          .
        </p>
      </LegalSection>

      <LegalSection id="zwecke" title="2. Welche Daten wir zu welchen Zwecken verarbeiten">
        <Subheading>Aufruf der Website</Subheading>
        <p>
          Beim Aufruf einer Seite erhält unser Server technisch bedingt Ihre IP-Adresse. Wir nutzen
          sie nur kurzzeitig im Arbeitsspeicher, um die Seite auszuliefern und übermäßig viele
          Anfragen abzuwehren, und schreiben sie nicht in unsere Protokolle. Diese enthalten nur die
          Art des Abrufs, die aufgerufene Adresse ohne Suchparameter und das Ergebnis. Damit die
          Website auch ohne Internetverbindung funktioniert, werden einige Daten auf Ihrem Gerät
          gespeichert; dazu Abschnitt 7.
        </p>

        <Subheading>Ihre Anfrage</Subheading>
        <p>
          Wenn Sie einen Fragebogen ausfüllen, einen Rückruf zur Kfz-Versicherung anfordern oder das
          Kontaktformular nutzen, verarbeiten wir Ihre Angaben, um Ihnen ein individuelles Angebot
          zu erstellen, Sie zu beraten und Sie wie gewünscht zu kontaktieren. Je nach Formular sind
          das:
        </p>
        <ul className={bulletList}>
          <li>Vor- und Nachname, Telefonnummer und E-Mail-Adresse;</li>
          <li>Anschrift (Straße und Hausnummer, Postleitzahl, Ort);</li>
          <li>
            im Kontaktformular zusätzlich Anrede, Titel, Geburtsdatum, gewünschte Rückrufzeit, ob
            Sie bereits Kunde sind, und Ihre Nachricht; im Kfz-Formular die gewünschte Rückrufzeit;
          </li>
          <li>
            Ihre Antworten im Fragebogen, im Fragebogen zur Kindervorsorge auch die Geburtsdaten der
            Kinder, die Sie absichern möchten;
          </li>
          <li>
            der Zeitpunkt, zu dem Sie die Anfrage erstellt haben und zu dem sie bei uns eingegangen
            ist.
          </li>
        </ul>
        <p>
          <strong className="font-semibold text-slate-900">Private Krankenversicherung:</strong> Der
          Fragebogen zur privaten Krankenversicherung fragt keine Gesundheitsdaten ab, sondern nur
          Angaben zu Beschäftigung, bisheriger Versicherung, gewünschten Leistungen, Selbstbehalt,
          Geburtsjahr und gewünschtem Versicherungsbeginn. Bitte machen Sie auch im freien Textfeld
          keine Angaben zu Ihrer Gesundheit. Gesundheitsangaben, die für einen Antrag nötig sind,
          besprechen wir persönlich mit Ihnen und verarbeiten sie nur mit Ihrer ausdrücklichen
          Einwilligung (Art. 9 Abs. 2 lit. a DSGVO).
        </p>

        <Subheading>Bearbeitung Ihrer Anfrage</Subheading>
        <p>
          Damit wir Sie wie gewünscht erreichen, vermerken wir intern, wie weit Ihre Anfrage
          bearbeitet ist (zum Beispiel „Kontaktiert“ oder „Angebot gesendet“), wer von uns das wann
          eingetragen hat, kurze Notizen zum Gespräch und Termine für die Wiedervorlage, etwa Ihren
          gewünschten Rückrufzeitraum. Über eine neue Anfrage benachrichtigt uns eine interne E-Mail
          an unser eigenes Postfach; sie enthält nur das Formular, Ihren Namen und Ihren
          Rückrufwunsch, nicht Ihre Antworten, Ihre E-Mail-Adresse oder Telefonnummer. Diese
          Vermerke gehören zu Ihren Daten: Sie sind Teil jeder Auskunft und werden mit Ihren Daten
          gelöscht.
        </p>

        <Subheading>Information über weitere Angebote</Subheading>
        <p>
          Nur wenn Sie dem gesondert zugestimmt haben, informieren wir Sie per Telefon, E-Mail oder
          Post über weitere Versicherungsangebote, die zu Ihnen passen.
        </p>

        <Subheading>Nachweis Ihrer Einwilligungen</Subheading>
        <p>
          Mit jeder Anfrage speichern wir, welche Fassung des Einwilligungstexts Ihnen angezeigt
          wurde, welche Kästchen Sie angekreuzt haben und wann das war. So können wir nachweisen,
          dass Sie eingewilligt haben (Art. 7 Abs. 1 DSGVO).
        </p>

        <Subheading>Pflichtangaben und automatisierte Entscheidungen</Subheading>
        <p>
          Die als Pflichtfeld gekennzeichneten Angaben brauchen wir, um Ihre Anfrage zu bearbeiten.
          Gesetzlich oder vertraglich verpflichtet sind Sie dazu nicht; ohne diese Angaben können
          wir Ihnen über das Formular aber kein Angebot erstellen. Sie erreichen uns jederzeit auch
          telefonisch oder per E-Mail. Eine automatisierte Entscheidung einschließlich Profiling
          (Art. 22 DSGVO) findet nicht statt.
        </p>
      </LegalSection>

      <LegalSection id="rechtsgrundlagen" title="3. Rechtsgrundlagen">
        <ul className={bulletList}>
          <li>
            <strong className="font-semibold text-slate-900">
              Einwilligung (Art. 6 Abs. 1 lit. a DSGVO):
            </strong>{' '}
            für die Verarbeitung Ihrer Angaben, in die Sie im Formular eingewilligt haben, für die
            Weitergabe an Versicherer und Partner, für Informationen über weitere Angebote (bei
            Werbung per Telefon oder E-Mail zusammen mit § 7 Abs. 2 UWG) und für Cookies und
            ähnliche Techniken, die nicht unbedingt erforderlich sind (zusammen mit § 25 Abs. 1
            TDDDG). Gesundheitsdaten verarbeiten wir nur mit ausdrücklicher Einwilligung nach Art. 9
            Abs. 2 lit. a DSGVO.
          </li>
          <li>
            <strong className="font-semibold text-slate-900">
              Vorvertragliche Maßnahmen (Art. 6 Abs. 1 lit. b DSGVO):
            </strong>{' '}
            für die Bearbeitung Ihrer Anfrage, die Erstellung eines Angebots, die Beratung und den
            von Ihnen gewünschten Rückruf.
          </li>
          <li>
            <strong className="font-semibold text-slate-900">
              Berechtigte Interessen (Art. 6 Abs. 1 lit. f DSGVO):
            </strong>{' '}
            für den sicheren und stabilen Betrieb der Website, die Abwehr von Missbrauch, den
            Nachweis erteilter Einwilligungen und die Geltendmachung oder Abwehr von
            Rechtsansprüchen. Unser berechtigtes Interesse liegt in genau diesen Zwecken.
          </li>
          <li>
            <strong className="font-semibold text-slate-900">
              Rechtliche Verpflichtung (Art. 6 Abs. 1 lit. c DSGVO):
            </strong>{' '}
            soweit wir gesetzlich verpflichtet sind, Daten aufzubewahren oder eine Einwilligung zu
            dokumentieren (etwa nach § 7a UWG).
          </li>
          <li>
            <strong className="font-semibold text-slate-900">
              Speicherung auf Ihrem Gerät (§ 25 TDDDG):
            </strong>{' '}
            ohne Einwilligung nur, soweit sie unbedingt erforderlich ist (§ 25 Abs. 2 Nr. 2 TDDDG,
            siehe Abschnitt 7), sonst nur mit Ihrer Einwilligung (§ 25 Abs. 1 TDDDG).
          </li>
        </ul>
      </LegalSection>

      <LegalSection id="speicherdauer" title="4. Speicherdauer und Löschung">
        <ul className={bulletList}>
          <li>
            Daten, die wir zur Kundengewinnung und für Werbung verarbeiten, insbesondere Ihre
            Anfrage und Ihre Antworten, löschen wir, sobald wir sie für diesen Zweck nicht mehr
            brauchen, spätestens aber fünf Jahre nach Ihrem letzten Kontakt mit uns (Ihrer letzten
            Anfrage). Dann löscht unser System Ihre Kundendaten mit allen Anfragen und Antworten
            automatisch; es prüft das täglich.
          </li>
          <li>
            Widerrufen Sie eine Einwilligung, löschen wir die Daten, die wir allein auf dieser
            Grundlage verarbeitet haben, soweit keine andere Rechtsgrundlage besteht.
          </li>
          <li>
            Den Nachweis Ihrer Einwilligung (Fassung des Texts, angekreuzte Kästchen, Zeitpunkt)
            bewahren wir so lange auf, wie wir die Einwilligung nachweisen können müssen. Für eine
            Einwilligung in Telefonwerbung sind das nach § 7a Abs. 2 UWG fünf Jahre ab ihrer
            Erteilung und nach jeder Verwendung. Haben Sie in Angebote eingewilligt und wird Ihre
            Anfrage gelöscht, bleibt davon nur dieser Nachweis: ohne Namen und Anschrift, Ihre
            E-Mail-Adresse und Telefonnummer nur als Prüfwert (SHA-256-Hashwert), mit dem wir Ihre
            Einwilligung bestätigen, Sie aber nicht erreichen können. Er wird fünf Jahre nach dem
            Löschen der Anfrage automatisch gelöscht.
          </li>
          <li>
            Kommt ein Versicherungsvertrag zustande, bewahren wir die dafür nötigen Unterlagen so
            lange auf, wie es gesetzliche Aufbewahrungspflichten, insbesondere nach Handels- und
            Steuerrecht, vorschreiben. Ihre Kundendaten sind dann von der automatischen Löschung
            ausgenommen, bis diese Pflichten enden.
          </li>
          <li>
            Protokolleinträge darüber, wer bei uns Kundendaten angesehen, geändert, exportiert oder
            gelöscht hat, löschen wir nach einem Jahr automatisch.
          </li>
          <li>
            Was auf Ihrem Gerät gespeichert ist und wann es gelöscht wird, steht in Abschnitt 7.
          </li>
        </ul>
      </LegalSection>

      <LegalSection id="empfaenger" title="5. Empfänger Ihrer Daten">
        <ul className={bulletList}>
          <li>
            In unserer Agentur erhalten nur die Mitarbeitenden Zugriff, die Ihre Anfrage bearbeiten.
          </li>
          <li>
            An {insurers} oder an Kooperationspartner, die Sie in unserem Auftrag beraten oder
            zurückrufen, geben wir Ihre Daten nur weiter, wenn Sie darin eingewilligt haben.
          </li>
          <li>
            Dienstleister, die in unserem Auftrag Daten verarbeiten (Auftragsverarbeiter nach Art.
            28 DSGVO), dürfen sie nur nach unserer Weisung und nicht für eigene Zwecke verwenden.
            Das sind:
            <ul className="mt-2 list-[circle] space-y-2 pl-6">
              {dataProtection.processors.map((processor) => (
                <li key={processor.name}>
                  {processor.name}, {processor.address.street}, {processor.address.postcode}{' '}
                  {processor.address.city}: Der Dienstleister {processor.purpose}. Ort der
                  Verarbeitung: {processor.location}.
                </li>
              ))}
            </ul>
          </li>
          <li>
            Behörden und Gerichte erhalten Daten nur, wenn wir gesetzlich dazu verpflichtet sind.
          </li>
        </ul>
        <p>Wir verkaufen Ihre Daten nicht.</p>
      </LegalSection>

      <LegalSection id="cookies" title="6. Cookies und Einwilligungs-Tool">
        <p>
          Für Ihre Einwilligung in Cookies und ähnliche Techniken nutzen wir das
          Open-Source-Werkzeug CookieConsent (vanilla-cookieconsent). Es wird von unserem eigenen
          Server ausgeliefert; dabei werden keine Daten an Dritte übertragen. Beim ersten Besuch
          können Sie mit „Alle akzeptieren“ oder „Alle ablehnen“ wählen oder in den Einstellungen
          einzelne Kategorien auswählen:
        </p>
        <ul className={bulletList}>
          <li>
            <strong className="font-semibold text-slate-900">Unbedingt erforderlich:</strong> immer
            aktiv, weil die Website ohne sie nicht wie gewünscht funktioniert (Abschnitt 7).
          </li>
          <li>
            <strong className="font-semibold text-slate-900">Präferenzen:</strong> merken sich
            Einstellungen, die über das unbedingt Erforderliche hinausgehen.
          </li>
          <li>
            <strong className="font-semibold text-slate-900">Statistik:</strong> helfen zu
            verstehen, wie die Website genutzt wird.
          </li>
          <li>
            <strong className="font-semibold text-slate-900">Marketing:</strong> dienen dazu, Ihnen
            Werbung anzuzeigen oder deren Erfolg zu messen.
          </li>
        </ul>
        <p>
          Präferenzen, Statistik und Marketing setzen wir nur mit Ihrer Einwilligung ein. Derzeit
          verwenden wir in diesen Kategorien keine Cookies und keine Dienste. Sollte sich das
          ändern, fragen wir Sie vorher und ergänzen diese Erklärung.
        </p>
        <p>
          Ihre Auswahl speichern wir für {cookieConsent.expiresAfterDays} Tage im Cookie{' '}
          <code className="rounded bg-slate-100 px-1">{cookieConsent.cookieName}</code> auf Ihrem
          Gerät. Es enthält die gewählten Kategorien, den Zeitpunkt, eine zufällig erzeugte Kennung
          und die Fassung der Einstellungen. Senden Sie uns eine Anfrage, übertragen wir die
          gewählten Kategorien und die Fassung der Einstellungen mit der Anfrage, als Nachweis Ihrer
          Einwilligung. Rechtsgrundlage ist § 25 Abs. 2 Nr. 2 TDDDG und Art. 6 Abs. 1 lit. c in
          Verbindung mit Art. 7 Abs. 1 DSGVO. Alle Einzelheiten finden Sie auf unserer Seite{' '}
          <Link to={sitePaths.cookies} className={linkClass}>
            Cookies
          </Link>
          .
        </p>
      </LegalSection>

      <LegalSection
        id="speicherung-geraet"
        title="7. Speicherung auf Ihrem Gerät ohne Einwilligung (§ 25 Abs. 2 Nr. 2 TDDDG)"
      >
        <p>
          Damit Sie Fragebögen und Formulare auch bei schlechter oder fehlender Internetverbindung
          nutzen können, etwa an unserem Messestand, speichert diese Website einige Daten in Ihrem
          Browser (IndexedDB, Local Storage und Cache). Diese Speicherung ist unbedingt
          erforderlich, damit wir den von Ihnen ausdrücklich gewünschten Dienst bereitstellen
          können, und braucht deshalb nach § 25 Abs. 2 Nr. 2 TDDDG keine Einwilligung. Die Daten
          verlassen Ihr Gerät nur, wenn Sie eine Anfrage absenden. Im Einzelnen:
        </p>
        <ul className={bulletList}>
          <li>
            <strong className="font-semibold text-slate-900">
              Warteschlange gesendeter Anfragen (IndexedDB):
            </strong>{' '}
            Jede Anfrage wird beim Absenden zuerst auf dem Gerät gespeichert und dann an uns
            übertragen. Ohne Verbindung wartet sie dort, bis die Verbindung zurückkehrt. Sobald
            unser Server den Empfang bestätigt hat, wird sie auf dem Gerät gelöscht. Lehnt der
            Server eine Anfrage ab, etwa wegen einer ungültigen Angabe, bleibt sie gespeichert, bis
            sie erneut gesendet oder auf dem Gerät gelöscht wird.
          </li>
          <li>
            <strong className="font-semibold text-slate-900">
              Verschlüsselung im Kiosk-Modus (Messe-Tablet):
            </strong>{' '}
            Auf unserem Tablet am Messestand wird jede wartende Anfrage verschlüsselt gespeichert
            (AES-256-GCM). Der Schlüssel dazu ist mit einer PIN gesichert, die nur unsere
            Mitarbeitenden kennen (abgeleitet mit PBKDF2-SHA-256 und 600.000 Durchläufen). Ohne die
            PIN lässt sich keine Ihrer Angaben aus dem Speicher des Geräts lesen; unverschlüsselt
            bleiben nur eine zufällige Kennung der Anfrage, die Art des Formulars und Zeitpunkte.
            Nach einem Neustart sendet das Tablet erst, wenn die PIN eingegeben wurde. Wird die PIN
            vergessen, kann niemand die wartenden Anfragen mehr lesen; sie werden dann gelöscht. Auf
            Ihrem eigenen Gerät gilt das nicht: Dort wartet eine Anfrage nur, bis die Verbindung
            zurückkehrt.
          </li>
          <li>
            <strong className="font-semibold text-slate-900">
              Gespeicherte Fragebögen (IndexedDB und Cache):
            </strong>{' '}
            die Fragen und Antwortmöglichkeiten der Fragebögen, damit sie auch offline geöffnet
            werden können. Sie enthalten keine personenbezogenen Daten. Ebenso werden die
            Programmdateien der Website, Informationsblätter (PDF) und Bilder zwischengespeichert
            und bei einer neuen Version ersetzt.
          </li>
          <li>
            <strong className="font-semibold text-slate-900">
              Entwurf eines Fragebogens (Local Storage):
            </strong>{' '}
            Ihre Antworten in einem noch nicht abgesendeten Fragebogen, damit sie beim Neuladen der
            Seite nicht verloren gehen. Kontaktdaten (Name, Anschrift, Telefonnummer,
            E-Mail-Adresse) und die Geburtsdaten Ihrer Kinder werden im Entwurf nicht gespeichert;
            Sie geben sie nach dem Neuladen erneut ein. Der Entwurf wird beim Absenden gelöscht. Ein
            Entwurf, der älter als 24 Stunden ist, wird nicht mehr verwendet und beim nächsten
            Aufruf des Fragebogens gelöscht. Im Kiosk-Modus, etwa auf unserem Tablet am Messestand,
            werden keine Entwürfe gespeichert.
          </li>
          <li>
            <strong className="font-semibold text-slate-900">
              Geräteeinstellungen (Local Storage und IndexedDB):
            </strong>{' '}
            ob auf dem Gerät der Kiosk-Modus oder die Offline-Simulation eingeschaltet ist, im
            Kiosk-Modus außerdem der mit der PIN gesicherte Schlüssel und die Zahl der PIN-Eingaben.
            Sie enthalten keine personenbezogenen Daten und bleiben gespeichert, bis sie
            ausgeschaltet werden.
          </li>
          <li>
            <strong className="font-semibold text-slate-900">Hinweis zur Installation:</strong> auf
            iPhone und iPad ein Vermerk, dass Sie den Hinweis zur Installation geschlossen haben,
            damit er nicht erneut erscheint.
          </li>
          <li>
            <strong className="font-semibold text-slate-900">
              Anmeldung im Mitarbeiterbereich (Local Storage):
            </strong>{' '}
            nur für unsere Mitarbeitenden: unter dem Schlüssel{' '}
            <code className="rounded bg-slate-100 px-1">user</code> die Sitzung im Bereich „Survey
            Desk“ (Zugangsschlüssel und E-Mail-Adresse des Kontos), bis zur Abmeldung.
          </li>
          <li>
            <strong className="font-semibold text-slate-900">Ihre Cookie-Auswahl:</strong> das
            Cookie <code className="rounded bg-slate-100 px-1">{cookieConsent.cookieName}</code>{' '}
            (Abschnitt 6).
          </li>
        </ul>
        <p>
          Mit jeder Anfrage wird außerdem gespeichert, welche Fassung des Einwilligungstexts
          angezeigt wurde und welche Kästchen angekreuzt waren. Diese Angaben werden mit der Anfrage
          übertragen und dienen dem Nachweis Ihrer Einwilligung (Art. 7 Abs. 1 DSGVO).
        </p>
        <p>
          Sie können alle diese Daten jederzeit über die Einstellungen Ihres Browsers löschen
          („Websitedaten löschen“). Anfragen, die noch auf die Übertragung warten, gehen dabei
          verloren.
        </p>
      </LegalSection>

      <LegalSection id="sicherheit" title="8. Sicherheit Ihrer Daten">
        <ul className={bulletList}>
          <li>
            Die Übertragung zwischen Ihrem Gerät und unserem Server ist per TLS verschlüsselt
            (erkennbar an „https://“ in der Adresszeile).
          </li>
          <li>
            Zugriff auf Anfragen haben nur berechtigte Mitarbeitende mit persönlichem Zugang. Neue
            Zugänge sind gesperrt, bis sie freigeschaltet werden, und jeder Zugang sieht nur, was er
            für seine Aufgabe braucht.
          </li>
          <li>
            Auf gemeinsam genutzten Geräten im Kiosk-Modus wird der Fragebogen nach jeder Anfrage
            und nach drei Minuten ohne Eingabe geleert, damit die nächste Person Ihre Angaben nicht
            sieht. Noch nicht gesendete Anfragen sind dort verschlüsselt gespeichert (Abschnitt 7).
          </li>
          <li>
            Wir prüfen unsere technischen und organisatorischen Maßnahmen regelmäßig und passen sie
            dem Stand der Technik an (Art. 32 DSGVO).
          </li>
        </ul>
      </LegalSection>

      <LegalSection id="rechte" title="9. Ihre Rechte">
        <p>Sie haben jederzeit das Recht,</p>
        <ul className={bulletList}>
          <li>Auskunft über Ihre bei uns gespeicherten Daten zu erhalten (Art. 15 DSGVO);</li>
          <li>unrichtige Daten berichtigen zu lassen (Art. 16 DSGVO);</li>
          <li>die Löschung Ihrer Daten zu verlangen (Art. 17 DSGVO);</li>
          <li>die Einschränkung der Verarbeitung zu verlangen (Art. 18 DSGVO);</li>
          <li>
            Ihre Daten, die Sie uns bereitgestellt haben, in einem gängigen, maschinenlesbaren
            Format zu erhalten oder an einen anderen Verantwortlichen übermitteln zu lassen (Art. 20
            DSGVO);
          </li>
          <li>der Verarbeitung zu widersprechen (Art. 21 DSGVO, siehe unten);</li>
          <li>
            eine erteilte Einwilligung jederzeit mit Wirkung für die Zukunft zu widerrufen (Art. 7
            Abs. 3 DSGVO, siehe Abschnitt 11);
          </li>
          <li>
            sich bei einer Datenschutz-Aufsichtsbehörde zu beschweren (Art. 77 DSGVO). Für uns
            zuständig ist:
          </li>
        </ul>
        <OrganisationAddress organisation={dataProtection.authority} />
        <div className="rounded-lg border border-brand-200 bg-white p-4">
          <Subheading>Widerspruchsrecht nach Art. 21 DSGVO</Subheading>
          <p className="mt-2">
            Verarbeiten wir Ihre Daten auf Grund berechtigter Interessen (Art. 6 Abs. 1 lit. f
            DSGVO), können Sie dem aus Gründen, die sich aus Ihrer besonderen Situation ergeben,
            jederzeit widersprechen. Wir verarbeiten die Daten dann nicht mehr, es sei denn, wir
            können zwingende schutzwürdige Gründe nachweisen, die Ihre Interessen, Rechte und
            Freiheiten überwiegen, oder die Verarbeitung dient der Geltendmachung, Ausübung oder
            Verteidigung von Rechtsansprüchen.
          </p>
          <p className="mt-2">
            Verarbeiten wir Ihre Daten für Direktwerbung, können Sie dem jederzeit ohne Angabe von
            Gründen widersprechen; wir verwenden Ihre Daten dann nicht mehr für diesen Zweck.
          </p>
        </div>
        <p>
          Um Ihre Rechte auszuüben, genügt eine formlose Nachricht an die in Abschnitt 1 genannten
          Kontaktdaten, etwa per E-Mail an <MailLink address={email} />.
        </p>
        <div className="rounded-lg border border-brand-200 bg-white p-4">
          <Subheading>So beantworten wir Ihre Anfrage</Subheading>
          <ul className={`${bulletList} mt-2`}>
            <li>
              Auskunft und Datenübertragbarkeit: Sie erhalten alles, was wir über Sie gespeichert
              haben (Ihre Kontaktdaten, jede Anfrage mit Ihren Antworten und Ihren Einwilligungen,
              interne Nachrichten, die Sie nennen, und wann wer in unserer Agentur auf Ihre Daten
              zugegriffen hat), als JSON-Datei zur Übertragung und als datiertes Dokument zum Lesen.
            </li>
            <li>
              Löschung: Wir löschen Ihre Kontaktdaten, alle Ihre Anfragen mit Ihren Antworten und
              entfernen Ihren Namen, Ihre E-Mail-Adresse und Telefonnummer aus internen Nachrichten
              und protokollierten Suchbegriffen. Aufbewahrt werden nur: der Nachweis einer
              Einwilligung in Werbung (§ 7a UWG) fünf Jahre lang, ohne Ihren Namen, Ihre
              E-Mail-Adresse und Telefonnummer nur als nicht lesbarer Prüfwert (SHA-256); der
              Nachweis, dass und wann gelöscht wurde, ohne Ihre Daten; Gesamtzahlen unserer
              Auswertungen, die keine Person erkennen lassen.
            </li>
            <li>
              Schicken Sie später erneut eine Anfrage, etwa von einem Messe-Tablet, das noch offline
              war, wird sie als neue Anfrage gespeichert; gelöschte Daten kehren nicht zurück.
            </li>
            <li>
              Zugriffsprotokoll: Wer in unserer Agentur Ihre Daten öffnet, ändert, exportiert oder
              löscht und wonach gesucht wurde, protokolliert die Datenbank selbst; die Einträge
              werden nach einem Jahr gelöscht.
            </li>
          </ul>
        </div>
      </LegalSection>

      <LegalSection id="drittlaender" title="10. Verarbeitung in der EU und in Drittländern">
        <p>
          Wir und unsere Dienstleister verarbeiten Ihre Daten in der Europäischen Union bzw. im
          Europäischen Wirtschaftsraum (EU/EWR), an den in Abschnitt 5 genannten Orten. In Länder
          außerhalb der EU/des EWR (Drittländer) übermitteln wir personenbezogene Daten nur, wenn
          die Voraussetzungen der Art. 44 bis 49 DSGVO erfüllt sind, insbesondere wenn die
          EU-Kommission für das Land ein angemessenes Datenschutzniveau festgestellt hat (Art. 45
          DSGVO) oder geeignete Garantien wie die EU-Standardvertragsklauseln vereinbart sind (Art.
          46 Abs. 2 lit. c DSGVO). Derzeit findet keine solche Übermittlung statt.
        </p>
      </LegalSection>

      <LegalSection id="einwilligung" title="11. Einwilligung und Widerruf">
        <p>
          Ihre Einwilligungen sind freiwillig. Die Einwilligung in Informationen über weitere
          Angebote ist von den übrigen Erklärungen getrennt; ob Sie sie erteilen, hat keinen
          Einfluss darauf, wie wir Ihre Anfrage bearbeiten.
        </p>
        <p>
          Sie können jede Einwilligung jederzeit ohne Angabe von Gründen mit Wirkung für die Zukunft
          widerrufen, ebenso einfach, wie Sie sie erteilt haben: per E-Mail an{' '}
          <MailLink address={email} />, telefonisch unter {phone.display} oder per Post an die
          Anschrift in Abschnitt 1. Die Rechtmäßigkeit der bis zum Widerruf erfolgten Verarbeitung
          bleibt unberührt (Art. 7 Abs. 3 DSGVO).
        </p>
        <p>Ihre Einwilligung in Cookies ändern oder widerrufen Sie hier:</p>
        <Island name="cookie-settings">
          <CookieSettingsButton />
        </Island>
      </LegalSection>
    </LegalPage>
  );
}
