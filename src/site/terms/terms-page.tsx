// Legal text: a careful, complete starting point, not legal advice. The agent's lawyer reviews it
// before going live. Every agent-specific detail comes from src/config/site.ts.
//
// Two choices on purpose: consent to advertising is NOT given by accepting these terms (a consent
// hidden in terms is invalid, Art. 7 Abs. 2 DSGVO, § 7 UWG), so § 4 only describes contact about
// the visitor's own request and points to the separate checkbox. And the venue clause in § 7
// binds merchants only (§ 38 ZPO); consumers keep their statutory venue, § 215 VVG included.

import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { siteConfig } from '../../config/site.ts';
import { sitePaths } from '../../domain/routes.ts';
import { LegalPage, LegalSection, linkClass, MailLink } from '../../ui/legal-text.tsx';
import { publicPages } from '../../config/page-meta.ts';
import { usePageMeta } from '../../ui/use-page-meta.ts';

/** Paragraphs numbered "(1)", "(2)", … as German terms are usually cited. */
function Paragraphs({ children }: { children: ReactNode[] }) {
  return (
    <ol className="space-y-3">
      {children.map((child, index) => (
        <li key={index} className="flex gap-3">
          <span className="shrink-0 text-slate-600">({index + 1})</span>
          <div>{child}</div>
        </li>
      ))}
    </ol>
  );
}

export function TermsPage() {
  usePageMeta(publicPages.terms);

  const { agencyName, agentName, address, email, siteUrl, tiedInsurers } = siteConfig;
  const insurers = tiedInsurers.map((insurer) => insurer.name).join(', ');

  return (
    <LegalPage
      title="Allgemeine Geschäftsbedingungen"
      intro={<p>für die Nutzung dieser Website, der Fragebögen und der Anfrageformulare</p>}
    >
      <LegalSection
        spaced={false}
        id="vertragsschluss"
        title="§ 1 Geltungsbereich und Vertragsschluss"
      >
        <Paragraphs>
          {[
            <>
              Diese Allgemeinen Geschäftsbedingungen (AGB) gelten für die Nutzung der Website{' '}
              {siteUrl.replace(/^https?:\/\//, '')} einschließlich der Fragebögen, des
              Rückrufformulars zur Kfz-Versicherung und des Kontaktformulars. Anbieter ist{' '}
              {agencyName}, Inhaber {agentName}, {address.street}, {address.postcode} {address.city}{' '}
              („wir“), gebundener Versicherungsvertreter nach § 34d Abs. 7 GewO für {insurers}.
            </>,
            <>
              Wenn Sie ein Formular absenden und dabei diese AGB akzeptieren, kommt zwischen Ihnen
              und uns ein unentgeltlicher Nutzungsvertrag zustande. Gegenstand ist die Bearbeitung
              Ihrer Anfrage: Wir erstellen Ihnen ein unverbindliches Angebot, beraten Sie dazu oder
              rufen Sie wie gewünscht zurück.
            </>,
            <>
              Über diese Website wird kein Versicherungsvertrag geschlossen. Ihre Angaben sind eine
              unverbindliche Anfrage. Ein Versicherungsvertrag kommt erst zustande, wenn Sie nach
              der Beratung einen Antrag stellen und der Versicherer ihn annimmt; dafür gelten
              ausschließlich die Versicherungsbedingungen und Vertragsinformationen des
              Versicherers.
            </>,
            <>
              Stellen Sie über einen Link auf dieser Website einen Online-Antrag direkt bei einem
              Versicherer oder einer Krankenkasse, schließen Sie den Vertrag unmittelbar mit diesem
              Anbieter; es gelten dessen Bedingungen.
            </>,
          ]}
        </Paragraphs>
      </LegalSection>

      <LegalSection spaced={false} id="nutzung" title="§ 2 Nutzung der Website">
        <Paragraphs>
          {[
            <>
              Die Nutzung der Website, die Bearbeitung Ihrer Anfrage, das Angebot und die Beratung
              dazu sind für Sie kostenlos und unverbindlich. Kommt ein Versicherungsvertrag
              zustande, erhalten wir vom Versicherer eine Provision, die im Versicherungsbeitrag
              enthalten ist (siehe{' '}
              <Link to={sitePaths.imprint} className={linkClass}>
                Impressum
              </Link>
              , Statusinformationen).
            </>,
            <>
              Die Formulare richten sich an volljährige Personen. Bitte machen Sie wahrheitsgemäße
              Angaben und geben Sie Daten anderer Personen nur an, wenn Sie dazu berechtigt sind,
              etwa als sorgeberechtigter Elternteil für Ihre Kinder.
            </>,
            <>
              Ohne Internetverbindung wird Ihre Anfrage zunächst auf Ihrem Gerät gespeichert und
              übertragen, sobald wieder eine Verbindung besteht. Bei uns eingegangen ist sie erst
              dann; die Website zeigt Ihnen an, ob Ihre Anfrage gesendet wurde oder noch wartet.
              Löschen Sie vorher die Websitedaten Ihres Browsers, geht die wartende Anfrage
              verloren.
            </>,
            <>
              Wir bemühen uns, die Website ständig verfügbar zu halten, schulden dies aber nicht.
              Wir dürfen Inhalte und Funktionen der Website jederzeit ändern oder einstellen.
            </>,
            <>
              Es ist nicht gestattet, die Website missbräuchlich zu nutzen, insbesondere
              automatisiert massenhaft Anfragen zu senden oder Anfragen unter falschem Namen zu
              stellen.
            </>,
          ]}
        </Paragraphs>
      </LegalSection>

      <LegalSection spaced={false} id="datenschutz" title="§ 3 Datenschutz">
        <Paragraphs>
          {[
            <>
              Wir verarbeiten Ihre personenbezogenen Daten nach den geltenden
              Datenschutzvorschriften, insbesondere der Datenschutz-Grundverordnung (DSGVO). Welche
              Daten wir wozu verarbeiten und welche Rechte Sie haben, erfahren Sie in unserer{' '}
              <Link to={sitePaths.privacy} className={linkClass}>
                Datenschutzerklärung
              </Link>
              .
            </>,
            <>
              Einwilligungen in die Verarbeitung Ihrer Daten erteilen Sie nicht mit diesen AGB,
              sondern gesondert im jeweiligen Formular. Sie können sie jederzeit mit Wirkung für die
              Zukunft widerrufen.
            </>,
          ]}
        </Paragraphs>
      </LegalSection>

      <LegalSection
        spaced={false}
        id="kontaktaufnahme"
        title="§ 4 Kontaktaufnahme per Telefon, E-Mail und Post"
      >
        <Paragraphs>
          {[
            <>
              Um Ihre Anfrage zu bearbeiten, nehmen wir über die Kontaktdaten, die Sie angegeben
              haben, per Telefon, E-Mail oder Post Kontakt mit Ihnen auf, insbesondere um Ihr
              Angebot zu besprechen und Sie zu beraten. Haben Sie eine Rückrufzeit gewählt, richten
              wir uns möglichst danach.
            </>,
            <>
              Über weitere Angebote, die über Ihre Anfrage hinausgehen, informieren wir Sie per
              Telefon, E-Mail oder Post nur, wenn Sie dazu gesondert und ausdrücklich eingewilligt
              haben. Diese Einwilligung ist nicht Teil dieser AGB und keine Voraussetzung dafür,
              dass wir Ihre Anfrage bearbeiten.
            </>,
            <>
              Sie können der Kontaktaufnahme jederzeit widersprechen und eine Einwilligung jederzeit
              widerrufen, zum Beispiel per E-Mail an <MailLink address={email} />. Danach nehmen wir
              keinen Kontakt mehr mit Ihnen auf; Ihre Anfrage können wir dann gegebenenfalls nicht
              weiter bearbeiten.
            </>,
          ]}
        </Paragraphs>
      </LegalSection>

      <LegalSection spaced={false} id="haftung" title="§ 5 Haftung">
        <Paragraphs>
          {[
            <>
              Wir haften unbeschränkt bei Vorsatz und grober Fahrlässigkeit, bei Verletzung des
              Lebens, des Körpers oder der Gesundheit, nach dem Produkthaftungsgesetz sowie im
              Umfang einer übernommenen Garantie.
            </>,
            <>
              Bei leichter Fahrlässigkeit haften wir nur für die Verletzung einer wesentlichen
              Vertragspflicht, also einer Pflicht, deren Erfüllung die ordnungsgemäße Durchführung
              des Vertrags überhaupt erst ermöglicht und auf deren Einhaltung Sie regelmäßig
              vertrauen dürfen. In diesem Fall ist die Haftung auf den vorhersehbaren,
              vertragstypischen Schaden begrenzt.
            </>,
            <>
              Für Pflichtverletzungen bei der Vermittlung von Versicherungen und der Beratung dazu
              gelten die gesetzlichen Vorschriften, insbesondere §§ 59 bis 68 VVG; sie werden durch
              diese AGB nicht eingeschränkt. Für unsere Vermittlungstätigkeit haftet nach § 34d Abs.
              7 GewO auch {insurers}.
            </>,
            <>
              Die Inhalte dieser Website sind allgemeine Informationen. Sie ersetzen nicht die
              persönliche Beratung, in der wir Ihre Wünsche und Bedürfnisse erfragen.
            </>,
            <>
              Für die Inhalte verlinkter Websites Dritter sind deren Anbieter verantwortlich. Wir
              haben die verlinkten Seiten bei der Verlinkung auf erkennbare Rechtsverstöße geprüft;
              werden uns solche bekannt, entfernen wir den Link.
            </>,
          ]}
        </Paragraphs>
      </LegalSection>

      <LegalSection spaced={false} id="aenderungen" title="§ 6 Änderungen dieser AGB">
        <Paragraphs>
          {[
            <>
              Wir können diese AGB für die Zukunft ändern, etwa wenn neue Funktionen hinzukommen
              oder sich die Rechtslage ändert. Die jeweils aktuelle Fassung finden Sie auf dieser
              Seite.
            </>,
            <>
              Für jede Anfrage gilt die Fassung, die Sie beim Absenden akzeptiert haben. Änderungen
              gelten nur für Anfragen, die Sie danach senden.
            </>,
          ]}
        </Paragraphs>
      </LegalSection>

      <LegalSection
        spaced={false}
        id="recht-gerichtsstand"
        title="§ 7 Anwendbares Recht und Gerichtsstand"
      >
        <Paragraphs>
          {[
            <>
              Es gilt das Recht der Bundesrepublik Deutschland. Sind Sie Verbraucherin oder
              Verbraucher mit gewöhnlichem Aufenthalt in einem anderen Staat, bleibt Ihnen der
              Schutz der zwingenden Bestimmungen des Rechts dieses Staates erhalten.
            </>,
            <>
              Sind Sie Kaufmann, eine juristische Person des öffentlichen Rechts oder ein
              öffentlich-rechtliches Sondervermögen, ist Gerichtsstand für alle Streitigkeiten aus
              diesem Vertrag unser Geschäftssitz in {address.city}.
            </>,
            <>
              Für Verbraucherinnen und Verbraucher gelten die gesetzlichen Gerichtsstände. Für
              Klagen aus der Versicherungsvermittlung ist insbesondere auch das Gericht an Ihrem
              Wohnsitz zuständig (§ 215 VVG).
            </>,
            <>
              Angaben zu außergerichtlichen Schlichtungsstellen und zur Verbraucherstreitbeilegung
              finden Sie im{' '}
              <Link to={sitePaths.imprint} className={linkClass}>
                Impressum
              </Link>
              .
            </>,
          ]}
        </Paragraphs>
      </LegalSection>
    </LegalPage>
  );
}
