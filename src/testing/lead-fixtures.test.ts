import { describe, expect, it } from 'vitest';
import { parseSubmission } from '../domain/submission.ts';
import { contactLead, kfzLead, questionnaireLead } from './lead-fixtures.ts';

const today = () => new Date('2026-11-23T12:00:00');

describe('lead fixtures', () => {
  it.each([
    ['questionnaire', questionnaireLead],
    ['kfz', kfzLead],
    ['contact', contactLead],
  ])('a %s lead is accepted by the hub rules as it is', (source, build) => {
    const parsed = parseSubmission(build(), today);
    expect(parsed.success ? parsed.data.source : parsed.issues).toBe(source);
  });

  it('makes a new client_id and e-mail address per call', () => {
    const [a, b] = [questionnaireLead(), questionnaireLead()];
    expect(a.client_id).not.toBe(b.client_id);
    expect(a.email).not.toBe(b.email);
  });

  it('lets a test override any field, also with an invalid value', () => {
    const lead = questionnaireLead({ email: 'kein-at-zeichen', form_id: 'eins' });
    expect(lead).toMatchObject({
      email: 'kein-at-zeichen',
      form_id: 'eins',
      source: 'questionnaire',
    });
    expect(parseSubmission(lead, today).success).toBe(false);
  });
});
