/** A postal address; `street` may also hold a PO box ("Postfach 08 06 32"). */
export interface PostalAddress {
  street: string;
  postcode: string;
  city: string;
}

/** As dialled (`tel:` links) and as displayed; `note` carries a price hint, for example. */
export interface PhoneNumber {
  href: string;
  display: string;
  note?: string;
}

export interface LinkTarget {
  href: string;
  /** German text of the link. */
  label: string;
}

/** An organisation named on the legal pages: insurer, chamber, register, ombudsman, authority. */
export interface Organisation {
  name: string;
  address: PostalAddress;
  phone?: PhoneNumber;
  email?: string;
  website?: LinkTarget;
}

/** A service provider that processes data on the agent's behalf (Art. 28 DSGVO). */
export interface Processor {
  name: string;
  address: PostalAddress;
  /** What it does for us, completing "Der Dienstleister …" in German. */
  purpose: string;
  /** Where the data is processed, e.g. 'Deutschland' or 'EU (Frankfurt am Main)'. */
  location: string;
}

export interface SiteConfig {
  /** Name shown in the header and as the provider in the Impressum. */
  agencyName: string;
  /** The owner (Inhaber) who runs the agency; named as provider and as controller. */
  agentName: string;
  /** Legal form as stated in the Impressum, e.g. 'Einzelunternehmen' or 'e. K.'. */
  legalForm: string;
  /** The insurer the agent is tied to (gebundener Versicherungsvertreter, § 34d Abs. 7 GewO). */
  company: string;
  /**
   * Every insurer the agent works for, with the address the § 15 VersVermV status information
   * needs. The first one is `company`. Several are allowed only if their products do not compete.
   */
  tiedInsurers: readonly [Organisation, ...Organisation[]];
  address: PostalAddress;
  /** As dialled (`tel:` links) and as displayed. */
  phone: PhoneNumber;
  /** Leave out when there is no fax; the Impressum then shows none. */
  fax?: PhoneNumber;
  email: string;
  /** Vermittlerregister number (DIHK). */
  registerNumber: string;
  /** The register where the entry can be checked (§ 11a GewO, kept by the DIHK). */
  intermediaryRegister: Organisation & { website: LinkTarget };
  /** The IHK that registered the agent (Registrierungsstelle). */
  registrationChamber: Organisation;
  /** Umsatzsteuer-Identifikationsnummer (§ 27a UStG); only if one was issued. */
  vatId?: string;
  /** Whether advice on the brokered products is offered (§ 15 Abs. 1 VersVermV, § 61 VVG). */
  adviceOffered: boolean;
  remuneration: {
    /** Kind of remuneration, e.g. 'Provision, die im Versicherungsbeitrag enthalten ist'. */
    kind: string;
    /** Who pays it, as a complete German sentence. */
    source: string;
  };
  /**
   * Holdings above 10 % of voting rights or capital (§ 15 Abs. 1 VersVermV): the agent's in
   * insurers, and insurers' (or their parents') in the agent. Empty lists mean none.
   */
  holdings: { inInsurers: readonly string[]; heldByInsurers: readonly string[] };
  /** Out-of-court complaint and arbitration bodies (§ 214 VVG). */
  complaintBodies: readonly (Organisation & { website: LinkTarget })[];
  /**
   * The statement under § 36 VSBG. Obligatory only for traders with more than ten employees,
   * but the Impressum states the agent's position either way. `statement` is shown as written.
   */
  consumerDisputeResolution: { participates: boolean; statement: string };
  /** Statutes cited on the legal pages, at gesetze-im-internet.de. */
  lawLinks: {
    gewo34d: LinkTarget;
    vvg: LinkTarget;
    versVermV: LinkTarget;
    vsbg: LinkTarget;
  };
  dataProtection: {
    /** The supervisory authority of the agent's Bundesland (Art. 77 DSGVO). */
    authority: Organisation & { website: LinkTarget };
    /** Only if one is appointed (Art. 37 DSGVO, § 38 BDSG). */
    officer?: { name: string; email: string; address?: PostalAddress };
    processors: readonly Processor[];
  };
  /**
   * The consent tool's cookie as the legal pages describe it; must match `cookie` in
   * src/ui/cookie-consent.ts (vanilla-cookieconsent).
   */
  cookieConsent: { cookieName: string; expiresAfterDays: number };
  /** "Stand" shown on the Impressum, Datenschutz, AGB and Cookies pages. */
  legalPagesAsOf: string;
  /** External pages linked from the landing page, the privacy page and Survey Desk. */
  externalLinks: {
    liabilityInsurance: LinkTarget;
    dentalInsurance: LinkTarget;
    publicHealthInsurer: LinkTarget;
    insurerPrivacyPolicy: LinkTarget;
    support: LinkTarget;
  };
  /** The public address of the site, for canonical URLs and social previews (no trailing slash). */
  siteUrl: string;
}

// SAMPLE VALUE (see below): the insurer the agent is tied to, named once for `company` as well.
const tiedInsurer: Organisation = {
  name: 'Muster Versicherung AG',
  address: { street: 'Versicherungsplatz 1', postcode: '12345', city: 'Musterstadt' },
};

// SAMPLE VALUES: placeholders until the agent's real details are known. All of them are invented
// (the e-mail and web addresses use the reserved `.example` domain) and must be replaced before
// going live. The one exception is marked below: public bodies with their real, published details.
export const siteConfig: SiteConfig = {
  agencyName: 'Versicherungsagentur Mustermann',
  agentName: 'Max Mustermann',
  legalForm: 'Einzelunternehmen',
  company: tiedInsurer.name,
  tiedInsurers: [tiedInsurer],
  address: { street: 'Musterstraße 1', postcode: '12345', city: 'Musterstadt' },
  phone: { href: '+4930123456789', display: '030 123456789' },
  fax: { href: '+4930123456780', display: '030 123456780' },
  email: 'kontakt@agentur-mustermann.example',
  registerNumber: 'D-XXXX-XXXXX-XX',
  registrationChamber: {
    name: 'IHK Musterstadt',
    address: { street: 'Kammerplatz 1', postcode: '12345', city: 'Musterstadt' },
    website: { href: 'https://www.ihk-musterstadt.example', label: 'www.ihk-musterstadt.example' },
  },
  // No VAT id in the sample: insurance brokerage is VAT-exempt (§ 4 Nr. 11 UStG), so many agents
  // have none. Add `vatId: 'DE…'` if one was issued.
  adviceOffered: true,
  remuneration: {
    kind: 'Provision, die im Versicherungsbeitrag enthalten ist',
    source:
      'Die Provision zahlt der Versicherer, dessen Vertrag wir vermitteln. Ein gesondertes Honorar zahlen Sie uns nicht.',
  },
  holdings: { inInsurers: [], heldByInsurers: [] },
  consumerDisputeResolution: {
    participates: true,
    statement:
      'Wir sind bereit, an Streitbeilegungsverfahren vor den oben genannten Schlichtungsstellen teilzunehmen (Versicherungsombudsmann e.V. und Ombudsmann Private Kranken- und Pflegeversicherung).',
  },
  dataProtection: {
    // SAMPLE: the sample phone number is a Berlin one, so the sample Bundesland is Berlin. Name
    // the authority of the Bundesland where the agency has its seat.
    authority: {
      name: 'Berliner Beauftragte für Datenschutz und Informationsfreiheit',
      address: { street: 'Alt-Moabit 59–61', postcode: '10555', city: 'Berlin' },
      email: 'mailbox@datenschutz-berlin.de',
      website: { href: 'https://www.datenschutz-berlin.de', label: 'www.datenschutz-berlin.de' },
    },
    // No data protection officer in the sample (a small agency is usually not obliged to appoint
    // one). If there is one, add `officer: { name, email }`; the privacy page then names them.
    processors: [
      {
        name: 'Muster Hosting GmbH',
        address: { street: 'Serverweg 2', postcode: '12345', city: 'Musterstadt' },
        purpose:
          'betreibt die Server, auf denen diese Website läuft und Ihre Anfragen gespeichert werden',
        location: 'Deutschland',
      },
    ],
  },
  cookieConsent: { cookieName: 'cc_cookie', expiresAfterDays: 365 },
  legalPagesAsOf: 'November 2026',
  externalLinks: {
    liabilityInsurance: {
      href: 'https://www.muster-versicherung.example/privathaftpflicht/online-beantragen',
      label: 'Private Haftpflichtversicherung',
    },
    dentalInsurance: {
      href: 'https://www.muster-versicherung.example/zahnzusatz/online-beantragen',
      label: 'Zahnzusatzversicherung',
    },
    publicHealthInsurer: {
      href: 'https://www.muster-krankenkasse.example/mitglied-werden',
      label: 'Gesetzliche Krankenversicherung bei der Muster Krankenkasse',
    },
    insurerPrivacyPolicy: {
      href: 'https://www.muster-versicherung.example/datenschutz',
      label: 'Datenschutzhinweise der Muster Versicherung AG',
    },
    support: {
      href: 'https://support.agentur-mustermann.example',
      label: 'Support und Dokumentation',
    },
  },
  siteUrl: 'https://www.agentur-mustermann.example',

  // NOT SAMPLES: public bodies and statutes with their real, published details (as of 2026).
  // Check them against the bodies' own websites before going live; they change rarely.
  intermediaryRegister: {
    name: 'Deutsche Industrie- und Handelskammer (DIHK)',
    address: { street: 'Breite Straße 29', postcode: '10178', city: 'Berlin' },
    phone: {
      href: '+491806005850',
      display: '0180 6005850',
      note: '20 Cent je Anruf aus dem deutschen Festnetz, höchstens 60 Cent je Anruf aus Mobilfunknetzen',
    },
    website: { href: 'https://www.vermittlerregister.info', label: 'www.vermittlerregister.info' },
  },
  complaintBodies: [
    {
      name: 'Versicherungsombudsmann e.V.',
      address: { street: 'Postfach 08 06 32', postcode: '10006', city: 'Berlin' },
      phone: {
        href: '+498003696000',
        display: '0800 3696000',
        note: 'kostenfrei aus deutschen Telefonnetzen',
      },
      email: 'beschwerde@versicherungsombudsmann.de',
      website: {
        href: 'https://www.versicherungsombudsmann.de',
        label: 'www.versicherungsombudsmann.de',
      },
    },
    {
      name: 'Ombudsmann Private Kranken- und Pflegeversicherung',
      address: { street: 'Postfach 06 02 22', postcode: '10052', city: 'Berlin' },
      phone: {
        href: '+498002550444',
        display: '0800 2550444',
        note: 'kostenfrei aus deutschen Telefonnetzen',
      },
      email: 'ombudsmann@pkv-ombudsmann.de',
      website: { href: 'https://www.pkv-ombudsmann.de', label: 'www.pkv-ombudsmann.de' },
    },
  ],
  lawLinks: {
    gewo34d: {
      href: 'https://www.gesetze-im-internet.de/gewo/__34d.html',
      label: '§ 34d Gewerbeordnung (GewO)',
    },
    vvg: {
      href: 'https://www.gesetze-im-internet.de/vvg_2008/',
      label: 'Versicherungsvertragsgesetz (VVG), §§ 59–68',
    },
    versVermV: {
      href: 'https://www.gesetze-im-internet.de/versvermv_2018/',
      label: 'Versicherungsvermittlungsverordnung (VersVermV)',
    },
    vsbg: {
      href: 'https://www.gesetze-im-internet.de/vsbg/__36.html',
      label: '§ 36 Verbraucherstreitbeilegungsgesetz (VSBG)',
    },
  },
};
