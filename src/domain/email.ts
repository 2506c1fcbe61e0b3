// RFC 5321 caps a forward path at 256 octets including the angle brackets (so 254 for the
// address) and a local part at 64; longer addresses are refused by mail servers anyway.
export const maxEmailLength = 254;
export const maxEmailLocalPartLength = 64;

// RFC 5322 dot-atom: runs of atext separated by single dots, which also rules out a leading
// or trailing dot and double dots. Only lower case is listed because the value is normalized.
const localPartPattern = /^[a-z0-9!#$%&'*+\-/=?^_`{|}~]+(?:\.[a-z0-9!#$%&'*+\-/=?^_`{|}~]+)*$/;

// Labels below the top level may hold non-ASCII letters so that internationalized domains
// (e.g. müller.de) typed as the visitor sees them pass; the top level must be ASCII letters.
const domainLabelPattern = /^[\p{L}0-9](?:[\p{L}0-9-]{0,61}[\p{L}0-9])?$/u;
const topLevelLabelPattern = /^[a-z]{2,24}$/;

export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}

export function isValidEmail(value: string): boolean {
  const email = normalizeEmail(value);
  if (email.length > maxEmailLength) return false;

  const at = email.indexOf('@');
  if (at <= 0 || at === email.length - 1 || at !== email.lastIndexOf('@')) return false;

  return isValidLocalPart(email.slice(0, at)) && isValidDomain(email.slice(at + 1));
}

function isValidLocalPart(localPart: string): boolean {
  return localPart.length <= maxEmailLocalPartLength && localPartPattern.test(localPart);
}

function isValidDomain(domain: string): boolean {
  const labels = domain.split('.');
  const topLevel = labels.at(-1) ?? '';
  return (
    labels.length >= 2 &&
    labels.every((label) => domainLabelPattern.test(label)) &&
    topLevelLabelPattern.test(topLevel)
  );
}
