import type { Customer } from '../api/customers.ts';
import { mailtoHref, telHref } from '../../domain/contact-links.ts';

const linkClass =
  'inline-flex min-h-11 items-center font-medium text-brand-800 underline underline-offset-2';

/**
 * Call or write the customer from the sidebar: the stored number and address as links (the
 * form below edits them; the links follow what is saved).
 */
export function CustomerContactLinks(props: { customer: Pick<Customer, 'phone' | 'email'> }) {
  const tel = telHref(props.customer.phone);
  const mailto = mailtoHref(props.customer.email);
  if (!tel && !mailto) return null;
  return (
    <ul aria-label="Kontakt" className="mb-4 flex flex-wrap gap-x-6">
      {tel ? (
        <li>
          <a href={tel} className={linkClass}>
            Anrufen: {props.customer.phone}
          </a>
        </li>
      ) : null}
      {mailto ? (
        <li>
          <a href={mailto} className={linkClass}>
            E-Mail schreiben: {props.customer.email}
          </a>
        </li>
      ) : null}
    </ul>
  );
}
