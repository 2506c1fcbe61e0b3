import { describe, expect, it } from 'vitest';
import { mailtoHref, telHref } from './contact-links.ts';

describe('telHref', () => {
  it('dials a German number in its international form, whatever the spacing', () => {
    expect(telHref('0171 2345678')).toBe('tel:+491712345678');
    expect(telHref('+49 171/234 56-78')).toBe('tel:+491712345678');
    expect(telHref('(0171) 234 56 78')).toBe('tel:+491712345678');
    expect(telHref('0049 171 2345678')).toBe('tel:+491712345678');
  });

  it('keeps a foreign number foreign and a number without prefix as it is', () => {
    expect(telHref('+43 1 234567')).toBe('tel:+431234567');
    expect(telHref('2345678')).toBe('tel:2345678');
  });

  it('gives no link without a digit', () => {
    expect(telHref(null)).toBeNull();
    expect(telHref('')).toBeNull();
    expect(telHref(' - / ')).toBeNull();
  });
});

describe('mailtoHref', () => {
  it('links the address', () => {
    expect(mailtoHref('anna.mueller@example.de')).toBe('mailto:anna.mueller@example.de');
  });

  it('encodes what would start a subject or a second recipient', () => {
    expect(mailtoHref('a?subject=x&b@example.de')).toBe('mailto:a%3Fsubject%3Dx%26b@example.de');
  });

  it('gives no link without an address', () => {
    expect(mailtoHref('  ')).toBeNull();
    expect(mailtoHref(null)).toBeNull();
  });
});
