// The customer's phone number and e-mail address as links: staff call back from the desk on a
// phone or a softphone, and write from their mail program.

/**
 * A `tel:` address for a German number as it was typed ("0171 234 56-78", "+49 (171) 2345678",
 * "0049 171 2345678"): the international form without spaces, "tel:+491712345678", so that a
 * phone abroad or a softphone dials it too. A number without a national prefix keeps its digits.
 * Null when there is no digit to dial.
 */
export function telHref(phone: string | null | undefined): string | null {
  const kept = (phone ?? '').replace(/[^0-9+]/g, '');
  const digits = kept.replace(/\+/g, '');
  if (!digits) return null;
  if (kept.startsWith('+')) return `tel:+${digits}`;
  if (digits.startsWith('00')) return `tel:+${digits.slice(2)}`;
  if (digits.startsWith('0')) return `tel:+49${digits.slice(1)}`;
  return `tel:${digits}`;
}

/** A `mailto:` address; the address is encoded, so '?' or '&' in it cannot add a subject. */
export function mailtoHref(email: string | null | undefined): string | null {
  const address = (email ?? '').trim();
  if (!address) return null;
  return `mailto:${encodeURIComponent(address).replace(/%40/g, '@')}`;
}
