import { describe, expect, it } from 'vitest';
import { createContactRequestSchema, kfzRequestSchema } from './contact-forms.ts';
import { buildContactSubmission, buildKfzSubmission } from './lead-submissions.ts';
import { parseSubmission } from './submission.ts';

const today = () => new Date('2026-03-15T12:00:00');
const context = {
  clientId: '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b',
  now: new Date('2026-03-15T11:00:00.000Z'),
  cookieConsent: { choice: 'necessary', version: '2026-11-22' },
};

describe('KFZ lead', () => {
  const values = kfzRequestSchema.parse({
    first_name: 'Zoë',
    last_name: "O'Brien",
    email: 'ZOE@Example.de',
    phone: '+49 171 1234567',
    call_time: 'Abends',
    terms_accepted: true,
    data_processing_consent: true,
  });

  it('goes to form 1 with no answers, offer_info true and the consent record', () => {
    const lead = buildKfzSubmission(values, context);
    expect(lead).toMatchObject({
      client_id: context.clientId,
      form_id: 1,
      source: 'kfz',
      answers: [],
      email: 'zoe@example.de',
      call_time: 'Abends',
      offer_info: true,
      create_user: "Zoë O'Brien",
      create_date: '2026-03-15T11:00:00.000Z',
      consent_version: '2026-11-22',
      cookie_consent: 'necessary',
      cookie_consent_version: '2026-11-22',
    });
  });

  it('is accepted by the hub rules as it is', () => {
    const parsed = parseSubmission(buildKfzSubmission(values, context), today);
    expect(parsed.success).toBe(true);
  });

  it('leaves the cookie fields out before any choice', () => {
    const lead = buildKfzSubmission(values, { ...context, cookieConsent: undefined });
    expect(lead).not.toHaveProperty('cookie_consent');
  });
});

describe('contact page lead', () => {
  it('carries every field the old page dropped, and the hub accepts it', () => {
    const values = createContactRequestSchema(today).parse({
      salutation: 'Frau',
      title: 'Dr.',
      birthdate: '1980-02-29',
      first_name: 'Änne',
      last_name: 'Groß',
      adress: 'Am Markt 3',
      postcode: '04109',
      city: 'Leipzig',
      email: 'aenne@example.de',
      phone: '0341 123456',
      call_time: 'Morgens',
      existing_customer: true,
      message: 'Bitte morgens anrufen.',
      terms_accepted: true,
      data_processing_consent: true,
    });
    const lead = buildContactSubmission(values, context);
    expect(lead).toMatchObject({
      source: 'contact',
      form_id: 1,
      offer_info: true,
      salutation: 'Frau',
      title: 'Dr.',
      birthdate: '1980-02-29',
      existing_customer: true,
      message: 'Bitte morgens anrufen.',
    });
    const parsed = parseSubmission(lead, today);
    expect(parsed.success && parsed.data).toMatchObject({
      birthdate: '1980-02-29',
      salutation: 'Frau',
      existing_customer: true,
    });
  });
});
