// Legal text: a careful, complete starting point, not legal advice. The agent's lawyer reviews it
// before going live. Every agent-specific detail comes from src/config/site.ts.
//
// The spec's link to the EU online dispute resolution platform is left out on purpose: the
// platform was shut down on 20 July 2025 (Regulation (EU) 2024/3228) and a dead link draws
// warning letters. The § 36 VSBG statement takes its place (docs/design.md section 9).

import { siteConfig } from '../../config/site.ts';
import {
  AddressBlock,
  ExternalLink,
  LegalPage,
  LegalSection,
  type LegalSectionProps,
  MailLink,
  OrganisationAddress,
  PhoneLine,
} from '../../ui/legal-text.tsx';
import { publicPages } from '../../config/page-meta.ts';
import { usePageMeta } from '../../ui/use-page-meta.ts';

/** A section with the slide-down of imprint-page.css. */
function ImprintSection({
  index,
  ...props
}: Omit<LegalSectionProps, 'className' | 'style'> & {
  /** Position on the page: later sections start their slide-down a little later. */
  index: number;
}) {
  return (
    <LegalSection
      {...props}
      className="imprint-section"
      style={{ animationDelay: `${Math.min(index, 8) * 60}ms` }}
    />
  );
}

function insurerNames(): string {
  const names = siteConfig.tiedInsurers.map((insurer) => insurer.name);
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} und ${names.at(-1)!}`;
}

function HoldingsText() {
  const { inInsurers, heldByInsurers } = siteConfig.holdings;
  return (
    <>
      <p>
        {inInsurers.length === 0
          ? 'Wir halten keine direkte oder indirekte Beteiligung von mehr als 10 % der Stimmrechte oder des Kapitals an einem Versicherungsunternehmen.'
          : `Wir halten eine direkte oder indirekte Beteiligung von mehr als 10 % der Stimmrechte oder des Kapitals an: ${inInsurers.join(', ')}.`}
      </p>
      <p>
        {heldByInsurers.length === 0
          ? 'Kein Versicherungsunternehmen und kein Mutterunternehmen eines Versicherungsunternehmens hält eine direkte oder indirekte Beteiligung von mehr als 10 % der Stimmrechte oder des Kapitals an uns.'
          : `Eine direkte oder indirekte Beteiligung von mehr als 10 % der Stimmrechte oder des Kapitals an uns halten: ${heldByInsurers.join(', ')}.`}
      </p>
    </>
  );
}

export function ImprintPage() {
  usePageMeta(publicPages.imprint);

  const {
    agencyName,
    agentName,
    legalForm,
    address,
    phone,
    fax,
    email,
    vatId,
    registerNumber,
    intermediaryRegister,
    registrationChamber,
    tiedInsurers,
    complaintBodies,
    consumerDisputeResolution,
    lawLinks,
    remuneration,
  } = siteConfig;
  const insurers = insurerNames();
  const several = tiedInsurers.length > 1;

  return (
    <LegalPage title="Impressum" intro={<p>Angaben gemäß § 5 Digitale-Dienste-Gesetz (DDG)</p>}>
      <ImprintSection id="anbieter" title="Anbieter" index={0}>
        <AddressBlock name={agencyName} owner={agentName} address={address}>
          <br />
          Deutschland
        </AddressBlock>
        <p>
          <PhoneLine label="Telefon" phone={phone} />
          {fax ? (
            <>
              <br />
              <PhoneLine label="Telefax" phone={fax} />
            </>
          ) : null}
          <br />
          E-Mail: <MailLink address={email} />
        </p>
        <p>Rechtsform: {legalForm}</p>
        {vatId ? <p>Umsatzsteuer-Identifikationsnummer nach § 27a UStG: {vatId}</p> : null}
        <p>
          Verantwortlich für den Inhalt nach § 18 Abs. 2 Medienstaatsvertrag (MStV): {agentName},
          Anschrift wie oben.
        </p>
      </ImprintSection>

      <ImprintSection id="berufsbezeichnung" title="Berufsbezeichnung und Status" index={1}>
        <p>
          Berufsbezeichnung: Versicherungsvertreter (verliehen in der Bundesrepublik Deutschland).
        </p>
        <p>
          {agentName} ist <strong>gebundener Versicherungsvertreter nach § 34d Abs. 7 GewO</strong>{' '}
          und vermittelt ausschließlich Versicherungsprodukte{' '}
          {several ? 'der folgenden Versicherungsunternehmen' : 'des folgenden Versicherers'}:
        </p>
        <ul className="space-y-3">
          {tiedInsurers.map((insurer) => (
            <li key={insurer.name}>
              <OrganisationAddress organisation={insurer} />
            </li>
          ))}
        </ul>
        <p>
          Die uneingeschränkte Haftung für unsere Vermittlungstätigkeit {several ? 'haben' : 'hat'}{' '}
          {insurers} übernommen. Eine Erlaubnis nach § 34d Abs. 1 GewO ist deshalb nicht
          erforderlich.
        </p>
      </ImprintSection>

      <ImprintSection id="vermittlerregister" title="Eintragung im Vermittlerregister" index={2}>
        <p>
          Registrierungsnummer im Vermittlerregister: <strong>{registerNumber}</strong>
        </p>
        <p>
          Sie können die Eintragung überprüfen, indem Sie im Vermittlerregister unter{' '}
          <ExternalLink href={intermediaryRegister.website.href}>
            {intermediaryRegister.website.label}
          </ExternalLink>{' '}
          nach dieser Registrierungsnummer suchen, oder bei der gemeinsamen Registerstelle nach §
          11a Abs. 1 GewO:
        </p>
        <OrganisationAddress organisation={intermediaryRegister} />
      </ImprintSection>

      <ImprintSection id="registrierungsstelle" title="Registrierungsstelle" index={3}>
        <p>
          Zuständig für unsere Registrierung als gebundener Versicherungsvertreter ist die
          Industrie- und Handelskammer:
        </p>
        <OrganisationAddress organisation={registrationChamber} />
      </ImprintSection>

      <ImprintSection id="berufsrecht" title="Berufsrechtliche Regelungen" index={4}>
        <p>Für unsere Tätigkeit gelten insbesondere:</p>
        <ul className="list-disc space-y-1 pl-6">
          <li>
            <ExternalLink href={lawLinks.gewo34d.href}>{lawLinks.gewo34d.label}</ExternalLink>
          </li>
          <li>
            <ExternalLink href={lawLinks.vvg.href}>{lawLinks.vvg.label}</ExternalLink>
          </li>
          <li>
            <ExternalLink href={lawLinks.versVermV.href}>{lawLinks.versVermV.label}</ExternalLink>
          </li>
        </ul>
        <p>
          Sie können die Regelungen kostenlos auf der vom Bundesministerium der Justiz
          bereitgestellten Internetseite{' '}
          <ExternalLink href="https://www.gesetze-im-internet.de">
            www.gesetze-im-internet.de
          </ExternalLink>{' '}
          einsehen.
        </p>
      </ImprintSection>

      <ImprintSection
        id="nachhaltigkeit"
        title="Nachhaltigkeitsbezogene Offenlegung (Verordnung (EU) 2019/2088)"
        index={5}
      >
        <p>
          Wir verfolgen keine eigene Strategie zur Einbeziehung von Nachhaltigkeitsrisiken in unsere
          Beratung (Art. 3 der Verordnung). Wir vermitteln ausschließlich Produkte von {insurers};
          wie Nachhaltigkeitsrisiken bei einem Produkt berücksichtigt werden, entnehmen Sie bitte
          den vorvertraglichen Informationen des Versicherers zu diesem Produkt.
        </p>
        <p>
          Unsere Vergütung hängt nicht davon ab, ob und in welchem Umfang Nachhaltigkeitsrisiken bei
          einem Produkt bestehen oder berücksichtigt werden (Art. 5 der Verordnung). Sie richtet
          sich nach der Art der Vergütung, die unten in den Statusinformationen genannt ist.
        </p>
      </ImprintSection>

      <ImprintSection id="schlichtung" title="Außergerichtliche Schlichtungsstellen" index={6}>
        <p>
          Bei Beschwerden über uns oder über die Vermittlung eines Versicherungsvertrags können Sie
          sich an die folgenden Schlichtungsstellen wenden. Das Verfahren ist für Verbraucherinnen
          und Verbraucher kostenfrei; Ihr Recht, die Gerichte anzurufen, bleibt unberührt.
        </p>
        <ul className="space-y-4">
          {complaintBodies.map((body) => (
            <li key={body.name}>
              <OrganisationAddress organisation={body} />
            </li>
          ))}
        </ul>
        <p>Selbstverständlich können Sie sich mit jeder Beschwerde auch direkt an uns wenden.</p>
      </ImprintSection>

      <ImprintSection id="verbraucherstreitbeilegung" title="Verbraucherstreitbeilegung" index={7}>
        <p>
          Hinweis nach <ExternalLink href={lawLinks.vsbg.href}>{lawLinks.vsbg.label}</ExternalLink>:{' '}
          {consumerDisputeResolution.statement}
        </p>
        {consumerDisputeResolution.participates ? null : (
          <p>
            Die Möglichkeit, sich an die oben genannten Schlichtungsstellen nach § 214 VVG zu
            wenden, bleibt davon unberührt.
          </p>
        )}
      </ImprintSection>

      <ImprintSection
        id="statusinformationen"
        title="Statusinformationen nach § 15 VersVermV"
        index={8}
      >
        <p>
          Diese Angaben erhalten Sie beim ersten Geschäftskontakt zusätzlich in Textform von uns.
        </p>
        <dl className="space-y-4">
          <div>
            <dt className="font-semibold text-slate-900">Name und Anschrift</dt>
            <dd>
              {agencyName}, Inhaber {agentName}, {address.street}, {address.postcode} {address.city}
            </dd>
          </div>
          <div>
            <dt className="font-semibold text-slate-900">Status</dt>
            <dd>
              Gebundener Versicherungsvertreter nach § 34d Abs. 7 GewO, tätig ausschließlich für{' '}
              {tiedInsurers
                .map(
                  (insurer) =>
                    `${insurer.name}, ${insurer.address.street}, ${insurer.address.postcode} ${insurer.address.city}`,
                )
                .join('; ')}
            </dd>
          </div>
          <div>
            <dt className="font-semibold text-slate-900">Registrierungsnummer und Überprüfung</dt>
            <dd>
              {registerNumber}. Die Eintragung lässt sich im Vermittlerregister unter{' '}
              <ExternalLink href={intermediaryRegister.website.href}>
                {intermediaryRegister.website.label}
              </ExternalLink>{' '}
              überprüfen oder bei der gemeinsamen Registerstelle: {intermediaryRegister.name},{' '}
              {intermediaryRegister.address.street}, {intermediaryRegister.address.postcode}{' '}
              {intermediaryRegister.address.city}
              {intermediaryRegister.phone ? `, Telefon ${intermediaryRegister.phone.display}` : ''}.
            </dd>
          </div>
          <div>
            <dt className="font-semibold text-slate-900">Beratung</dt>
            <dd>
              {siteConfig.adviceOffered
                ? 'Wir bieten Ihnen zu den von uns vermittelten Versicherungsprodukten eine Beratung an.'
                : 'Wir bieten zu den von uns vermittelten Versicherungsprodukten keine Beratung an.'}
            </dd>
          </div>
          <div>
            <dt className="font-semibold text-slate-900">Art und Quelle der Vergütung</dt>
            <dd>
              {remuneration.kind}. {remuneration.source}
            </dd>
          </div>
          <div>
            <dt className="font-semibold text-slate-900">Beteiligungen</dt>
            <dd className="space-y-2">
              <HoldingsText />
            </dd>
          </div>
          <div>
            <dt className="font-semibold text-slate-900">Schlichtungsstellen</dt>
            <dd>
              <ul className="list-disc space-y-1 pl-6">
                {complaintBodies.map((body) => (
                  <li key={body.name}>
                    {body.name}, {body.address.street}, {body.address.postcode} {body.address.city},{' '}
                    <ExternalLink href={body.website.href}>{body.website.label}</ExternalLink>
                  </li>
                ))}
              </ul>
            </dd>
          </div>
        </dl>
      </ImprintSection>
    </LegalPage>
  );
}
