import { describe, expect, it } from 'vitest';
import { isValidEmail, maxEmailLength, maxEmailLocalPartLength, normalizeEmail } from './email.ts';

const label = (length: number) => 'a'.repeat(length);

describe('normalizeEmail', () => {
  it('trims surrounding whitespace and lower-cases', () => {
    expect(normalizeEmail('  Max.Mustermann@Example.DE \t\n')).toBe('max.mustermann@example.de');
  });

  it('leaves an already normal address alone', () => {
    expect(normalizeEmail('max@example.de')).toBe('max@example.de');
  });

  it('turns whitespace only into the empty string', () => {
    expect(normalizeEmail('   ')).toBe('');
  });
});

describe('isValidEmail', () => {
  it.each([
    'max@example.de',
    'max.mustermann@example.de',
    'max+versicherung@example.de',
    'm@example.de',
    'a1@b2.de',
    'max@mail.example.co.uk',
    'max@my-domain.de',
    'max@1und1.de',
    'max@xn--mller-kva.de',
  ])('accepts %s', (email) => {
    expect(isValidEmail(email)).toBe(true);
  });

  describe('normalizes before checking', () => {
    it('ignores surrounding whitespace', () => {
      expect(isValidEmail('  max@example.de  ')).toBe(true);
    });

    it('ignores case, including in the top-level label', () => {
      expect(isValidEmail('MAX@EXAMPLE.DE')).toBe(true);
    });

    it('rejects empty and whitespace-only values', () => {
      expect(isValidEmail('')).toBe(false);
      expect(isValidEmail('   ')).toBe(false);
    });

    it('rejects whitespace inside the address', () => {
      expect(isValidEmail('max mustermann@example.de')).toBe(false);
      expect(isValidEmail('max@exam ple.de')).toBe(false);
    });
  });

  describe('the @ sign', () => {
    it('must be present', () => {
      expect(isValidEmail('max.example.de')).toBe(false);
    });

    it('must occur only once', () => {
      expect(isValidEmail('max@mustermann@example.de')).toBe(false);
      expect(isValidEmail('max@@example.de')).toBe(false);
    });

    it('must not be at the start', () => {
      expect(isValidEmail('@example.de')).toBe(false);
    });

    it('must not be at the end', () => {
      expect(isValidEmail('max@')).toBe(false);
    });

    it('rejects a lone @', () => {
      expect(isValidEmail('@')).toBe(false);
    });
  });

  describe('local part', () => {
    it.each([...`!#$%&'*+-/=?^_\`{|}~`])('accepts the RFC 5322 symbol %s', (symbol) => {
      expect(isValidEmail(`a${symbol}b@example.de`)).toBe(true);
    });

    it.each([...'"(),:;<>[\\]'])('rejects the special character %s', (symbol) => {
      expect(isValidEmail(`a${symbol}b@example.de`)).toBe(false);
    });

    it('accepts a symbol at either end', () => {
      expect(isValidEmail('_max_@example.de')).toBe(true);
    });

    it('accepts single dots between characters', () => {
      expect(isValidEmail('a.b.c@example.de')).toBe(true);
    });

    it('rejects a leading dot', () => {
      expect(isValidEmail('.max@example.de')).toBe(false);
    });

    it('rejects a trailing dot', () => {
      expect(isValidEmail('max.@example.de')).toBe(false);
    });

    it('rejects double dots', () => {
      expect(isValidEmail('max..mustermann@example.de')).toBe(false);
    });

    it('rejects a dot-only local part', () => {
      expect(isValidEmail('.@example.de')).toBe(false);
    });

    it('rejects non-ASCII letters', () => {
      expect(isValidEmail('jörg@example.de')).toBe(false);
    });

    it(`accepts ${maxEmailLocalPartLength} characters and rejects one more (RFC 5321)`, () => {
      expect(isValidEmail(`${label(64)}@example.de`)).toBe(true);
      expect(isValidEmail(`${label(65)}@example.de`)).toBe(false);
    });
  });

  describe('domain', () => {
    it('needs at least two labels', () => {
      expect(isValidEmail('max@localhost')).toBe(false);
      expect(isValidEmail('max@example.de')).toBe(true);
    });

    it('rejects empty labels', () => {
      expect(isValidEmail('max@.example.de')).toBe(false);
      expect(isValidEmail('max@example.de.')).toBe(false);
      expect(isValidEmail('max@example..de')).toBe(false);
      expect(isValidEmail('max@.de')).toBe(false);
      expect(isValidEmail('max@example.')).toBe(false);
    });

    it('rejects characters other than letters, digits, dots and hyphens', () => {
      expect(isValidEmail('max@exa_mple.de')).toBe(false);
      expect(isValidEmail('max@exa+mple.de')).toBe(false);
      expect(isValidEmail('max@[127.0.0.1]')).toBe(false);
    });

    it('accepts non-ASCII letters below the top level (internationalized domains)', () => {
      expect(isValidEmail('max@müller.de')).toBe(true);
      expect(isValidEmail('MAX@MÜLLER.DE')).toBe(true);
    });

    it('accepts a hyphen inside a label', () => {
      expect(isValidEmail('max@a-b.de')).toBe(true);
      expect(isValidEmail('max@a--b.de')).toBe(true);
    });

    it('rejects a label starting with a hyphen', () => {
      expect(isValidEmail('max@-example.de')).toBe(false);
      expect(isValidEmail('max@mail.-example.de')).toBe(false);
    });

    it('rejects a label ending with a hyphen', () => {
      expect(isValidEmail('max@example-.de')).toBe(false);
      expect(isValidEmail('max@mail-.example.de')).toBe(false);
    });

    it('rejects a hyphen-only label', () => {
      expect(isValidEmail('max@-.de')).toBe(false);
    });

    it('accepts one-character labels below the top level', () => {
      expect(isValidEmail('max@a.de')).toBe(true);
      expect(isValidEmail('max@a.b.de')).toBe(true);
    });

    it('accepts a label of 63 characters and rejects 64', () => {
      expect(isValidEmail(`max@${label(63)}.de`)).toBe(true);
      expect(isValidEmail(`max@${label(64)}.de`)).toBe(false);
      expect(isValidEmail(`max@${label(63)}.${label(63)}.de`)).toBe(true);
      expect(isValidEmail(`max@mail.${label(64)}.de`)).toBe(false);
    });
  });

  describe('top-level label', () => {
    it('accepts 2 letters and rejects 1', () => {
      expect(isValidEmail('max@example.de')).toBe(true);
      expect(isValidEmail('max@example.d')).toBe(false);
    });

    it('accepts 24 letters and rejects 25', () => {
      expect(isValidEmail(`max@example.${'a'.repeat(24)}`)).toBe(true);
      expect(isValidEmail(`max@example.${'a'.repeat(25)}`)).toBe(false);
    });

    it('rejects digits', () => {
      expect(isValidEmail('max@example.d3')).toBe(false);
      expect(isValidEmail('max@example.123')).toBe(false);
      expect(isValidEmail('max@127.0.0.1')).toBe(false);
    });

    it('rejects hyphens', () => {
      expect(isValidEmail('max@example.d-e')).toBe(false);
    });

    it('rejects non-ASCII letters', () => {
      expect(isValidEmail('max@example.dü')).toBe(false);
    });
  });

  describe('total length (RFC 5321)', () => {
    // 64 + '@' + 63 + '.' + 63 + '.' + 58 + '.de' = 254 characters
    const build = (lastLabel: number) =>
      `${label(64)}@${label(63)}.${label(63)}.${label(lastLabel)}.de`;

    it(`accepts ${maxEmailLength} characters and rejects one more`, () => {
      expect(build(58)).toHaveLength(254);
      expect(isValidEmail(build(58))).toBe(true);
      expect(build(59)).toHaveLength(255);
      expect(isValidEmail(build(59))).toBe(false);
    });

    it('measures the trimmed value', () => {
      expect(isValidEmail(`  ${build(58)}  `)).toBe(true);
    });
  });
});
