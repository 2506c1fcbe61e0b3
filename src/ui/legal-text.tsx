// Building blocks of the legal pages (Impressum, Datenschutzerklärung, AGB, Cookie-Richtlinie):
// one look for their sections, links and address blocks. What only one page needs stays there.

import type { CSSProperties, ReactNode } from 'react';
import {
  siteConfig,
  type Organisation,
  type PhoneNumber,
  type PostalAddress,
} from '../config/site.ts';
import { PageHeader } from './page-header.tsx';

export const linkClass =
  'font-medium text-brand-700 underline underline-offset-2 hover:text-brand-900 break-words';

/** The frame of a legal page: heading with introduction, the sections, and the date of the text. */
export function LegalPage({
  title,
  intro,
  children,
}: {
  title: string;
  /** Short introduction under the heading. */
  intro: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="py-8">
      <PageHeader title={title}>{intro}</PageHeader>

      <div className="max-w-3xl space-y-10">
        {children}

        <p className="text-sm text-slate-600">Stand: {siteConfig.legalPagesAsOf}</p>
      </div>
    </div>
  );
}

export interface LegalSectionProps {
  id: string;
  title: string;
  /** Space between the blocks of the section; off where a section holds one numbered list. */
  spaced?: boolean;
  className?: string;
  style?: CSSProperties;
  children: ReactNode;
}

export function LegalSection({
  id,
  title,
  spaced = true,
  className,
  style,
  children,
}: LegalSectionProps) {
  return (
    <section aria-labelledby={id} className={className} style={style}>
      <h2 id={id} className="text-xl font-semibold text-brand-800">
        {title}
      </h2>
      <div
        className={
          spaced
            ? 'mt-3 space-y-3 leading-relaxed text-slate-700'
            : 'mt-3 leading-relaxed text-slate-700'
        }
      >
        {children}
      </div>
    </section>
  );
}

export function ExternalLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a href={href} target="_blank" rel="noopener" className={linkClass}>
      {children}
      <span className="sr-only"> (öffnet in neuem Tab)</span>
    </a>
  );
}

export function MailLink({ address }: { address: string }) {
  return (
    <a href={`mailto:${address}`} className={linkClass}>
      {address}
    </a>
  );
}

export function PhoneLink({ phone }: { phone: PhoneNumber }) {
  return (
    <a href={`tel:${phone.href}`} className={linkClass}>
      {phone.display}
    </a>
  );
}

/** "Telefon: 030 …" with the number's note, such as a price hint, in brackets. */
export function PhoneLine({ label, phone }: { label: string; phone: PhoneNumber }) {
  return (
    <>
      {label}: <PhoneLink phone={phone} />
      {phone.note ? ` (${phone.note})` : null}
    </>
  );
}

/** Name in bold, the owner if given, street and town; `children` add lines, each from a <br />. */
export function AddressBlock({
  name,
  owner,
  address,
  children,
}: {
  name: string;
  owner?: string;
  address: PostalAddress;
  children?: ReactNode;
}) {
  return (
    <address className="not-italic">
      <strong className="font-semibold text-slate-900">{name}</strong>
      {owner ? (
        <>
          <br />
          Inhaber: {owner}
        </>
      ) : null}
      <br />
      {address.street}
      <br />
      {address.postcode} {address.city}
      {children}
    </address>
  );
}

/** Name, address and whatever contact details the organisation has, as one address block. */
export function OrganisationAddress({ organisation }: { organisation: Organisation }) {
  const { name, address, phone, email, website } = organisation;
  return (
    <AddressBlock name={name} address={address}>
      {phone ? (
        <>
          <br />
          <PhoneLine label="Telefon" phone={phone} />
        </>
      ) : null}
      {email ? (
        <>
          <br />
          E-Mail: <MailLink address={email} />
        </>
      ) : null}
      {website ? (
        <>
          <br />
          Internet: <ExternalLink href={website.href}>{website.label}</ExternalLink>
        </>
      ) : null}
    </AddressBlock>
  );
}
