import { describe, expect, it } from 'vitest';
import { deskLink, digestMail, isLate, leadMail, type LeadMailFacts } from './lead-mail-content.ts';

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
    expect(mail.text).toContain('- PKV: Erika Muster (25.11.2026, 11:00, Rückruf: Abends)');
    expect(mail.text).toContain(
      '- PKV: Otto Muster (erfasst 25.11.2026, 10:00 auf dem Messe-Tablet, eingegangen 27.11.2026, 09:00)',
    );
  });
});
