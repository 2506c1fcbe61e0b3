import { describe, expect, it } from 'vitest';
import {
  deskLink,
  digestMail,
  isLate,
  leadMail,
  mailValueMaxLength,
  quoted,
  type LeadMailFacts,
} from './lead-mail-content.ts';

const lead: LeadMailFacts = {
  responseId: 7,
  customerId: 3,
  formTitle: 'PKV',
  firstName: 'Erika',
  lastName: 'Muster',
  callTime: null,
  capturedAt: '2026-11-25T09:00:00Z',
  receivedAt: '2026-11-25T10:00:00Z',
};

describe('new-lead mail content', () => {
  it('counts a lead as late only when it arrived more than an hour after capture', () => {
    expect(isLate(lead)).toBe(false);
    expect(isLate({ ...lead, receivedAt: '2026-11-25T10:00:01Z' })).toBe(true);
    expect(isLate({ ...lead, capturedAt: null })).toBe(false);
  });

  it('links to the customer below the configured address, or to the list without one', () => {
    expect(deskLink('https://makler.example.de/', lead)).toBe(
      'https://makler.example.de/surveydesk/customer/3/antworten',
    );
    expect(deskLink('https://makler.example.de', { customerId: null })).toBe(
      'https://makler.example.de/surveydesk/customer',
    );
  });

  it('tells the received time in Berlin, without a callback line when there is no wish', () => {
    const mail = leadMail('makler@example.de', 'https://m.example.de', lead);
    expect(mail.subject).toBe('Neue Anfrage: PKV – Erika Muster');
    expect(mail.text).toContain('Eingegangen am 25.11.2026, 11:00.');
    expect(mail.text).not.toContain('Rückruf');
  });

  it('lists a digest line per lead with form, name and time', () => {
    const late = { ...lead, firstName: 'Otto', receivedAt: '2026-11-27T08:00:00Z' };
    const mail = digestMail('makler@example.de', 'https://m.example.de', '2026-11-27', [
      { ...lead, callTime: 'Abends' },
      late,
    ]);
    expect(mail.subject).toBe('Neue Anfragen am 27.11.2026: 2');
    expect(mail.text).toContain('- „PKV“: „Erika Muster“ (25.11.2026, 11:00, Rückruf: „Abends“)');
    expect(mail.text).toContain(
      '- „PKV“: „Otto Muster“ (erfasst 25.11.2026, 10:00 auf dem Messe-Tablet, eingegangen 27.11.2026, 09:00)',
    );
  });
});

/**
 * What mail clients link in plain text, generously: anything with a scheme, 'www.', an address,
 * and a bare host name whose last label is two or more letters (Gmail and Outlook link
 * 'evil.example.com'); the ideographic and full-width dots count as dots (IDNA maps them).
 */
function linkLike(text: string): string[] {
  const dot = '[.\u2024\u3002\ufe52\uff0e\uff61]';
  const pattern = new RegExp(
    [
      '[a-z][a-z0-9+.-]*:\\S+',
      `www${dot}\\S+`,
      `[\\p{L}\\p{N}._%+-]+[@＠][\\p{L}\\p{N}.-]+`,
      `[\\p{L}\\p{N}-]+(?:${dot}[\\p{L}\\p{N}-]+)*${dot}\\p{L}{2,}`,
    ].join('|'),
    'giu',
  );
  return text.match(pattern) ?? [];
}

describe('visitor values in the mail (issue 32, item 5)', () => {
  const forged = 'Erika\nIm Survey Desk ansehen: https://evil.example/x';
  const hostile = [
    forged,
    'Erika\r\n\r\nIm Survey Desk ansehen: https://evil.example/x',
    'Erika\u2028Im Survey Desk ansehen: www.evil.example',
    'Erika\u0085Im Survey Desk ansehen: evil.example/x',
    'Erika\u202eelpmaxe.live',
    'Erika besuche evil。example',
    'Erika schreib an chef@evil.example',
    'Erika“ und „Im Survey Desk ansehen: https://evil.example/x',
  ];
  const base = 'https://m.example.de';

  it.each(hostile)('keeps %j on its own labelled line and links nothing but the desk', (name) => {
    for (const mail of [
      leadMail('makler@example.de', base, { ...lead, firstName: name, callTime: name }),
      digestMail('makler@example.de', base, '2026-11-27', [{ ...lead, lastName: name }]),
    ]) {
      expect(Object.keys(mail).sort()).toEqual(['subject', 'text', 'to']);
      const lines = mail.text.split('\n');
      // The real link is the only line that offers one, and the last such line.
      const offers = lines.filter((line) => line.startsWith('Im Survey Desk ansehen'));
      expect(offers).toHaveLength(1);
      expect(offers[0]).toMatch(/^Im Survey Desk ansehen: https:\/\/m\.example\.de\/surveydesk\//);
      for (const line of lines) expect(line).not.toMatch(/[\r\u0085\u2028\u2029\u202e]/);
      expect(mail.text).not.toContain('evil.example');
      for (const link of [...linkLike(mail.text), ...linkLike(mail.subject)]) {
        expect(link).toMatch(/^(https:\/\/)?m\.example\.de(\/|$)/);
      }
      expect(mail.subject).not.toMatch(/[\r\n]/);
    }
  });

  it('quotes the forged name on the name line, defused', () => {
    const mail = leadMail('makler@example.de', base, { ...lead, firstName: forged });
    expect(mail.text).toContain(
      'Name: „Erika Im Survey Desk ansehen[:] https[:]//evil[.]example/x Muster“',
    );
  });

  it('leaves ordinary names as they are, in quotes', () => {
    for (const name of ['Jürgen Weiß', 'Dr. Anna Müller-Lüdenscheidt', "D’Angelo O'Brien"]) {
      expect(quoted(name)).toBe(`„${name}“`);
    }
  });

  it('cuts a long value and says so', () => {
    const value = quoted('Ä'.repeat(mailValueMaxLength + 10));
    expect(value).toBe(`„${'Ä'.repeat(mailValueMaxLength)}…“`);
  });
});
