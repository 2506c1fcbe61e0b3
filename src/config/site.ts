export interface SiteConfig {
  /** Name shown in the header and as the provider in the Impressum. */
  agencyName: string;
  agentName: string;
  /** The insurer the agent is tied to (gebundener Versicherungsvertreter, § 34d Abs. 7 GewO). */
  company: string;
  address: { street: string; postcode: string; city: string };
  /** As dialled (`tel:` links) and as displayed. */
  phone: { href: string; display: string };
  email: string;
  /** Vermittlerregister number (DIHK). */
  registerNumber: string;
}

// SAMPLE VALUES: placeholders until the agent's real details are known. All of them are invented
// (the e-mail uses the reserved `.example` domain) and must be replaced before going live.
export const siteConfig: SiteConfig = {
  agencyName: 'Versicherungsagentur Mustermann',
  agentName: 'Max Mustermann',
  company: 'Muster Versicherung AG',
  address: { street: 'Musterstraße 1', postcode: '12345', city: 'Musterstadt' },
  phone: { href: '+4930123456789', display: '030 123456789' },
  email: 'kontakt@agentur-mustermann.example',
  registerNumber: 'D-XXXX-XXXXX-XX',
};
