import { describe, expect, it } from 'vitest';
import { customerDataExport } from '../api/person-rights.ts';
import { customerDataDocument } from './customer-data-document.ts';

// The readable document's line for the questionnaire's optional box: named as what it is, and
// for a KFZ or contact lead (whose form sends true without asking) not a bare 'Ja'.
const lead = (source: string, offerInfo: boolean) => ({
  id: source === 'kfz' ? 2 : 1,
  client_id: `lead-${source}`,
  source,
  form_title: source === 'questionnaire' ? 'Tabaluga' : null,
  received_at: '2026-11-20T15:30:00Z',
  offer_info: offerInfo,
  answers: [],
  status_history: [],
  notification_mails: [],
});

const exported = customerDataExport.parse({
  exported_at: '2026-11-28T10:00:00Z',
  customer: {
    id: 7,
    first_name: 'Erika',
    last_name: 'Muster',
    email: 'erika@example.de',
    phone: null,
    adress: null,
    postcode: null,
    city: null,
    created_at: '2026-11-01T10:00:00Z',
    updated_at: '2026-11-01T10:00:00Z',
  },
  leads: [lead('questionnaire', false), lead('kfz', true)],
  notes: [],
  follow_ups: [],
  consent_records: [],
  support_messages: [],
  access_log: [],
});

describe('customerDataDocument', () => {
  it('names the box for further offers and says a KFZ lead’s true was sent unasked', () => {
    const html = customerDataDocument(exported);
    const [questionnaire, kfz] = html.split('<article>').slice(1);
    expect(questionnaire).toContain(
      '<dt>Weitere Angebote erwünscht (freiwillig)</dt><dd>Nein</dd>',
    );
    expect(kfz).toContain(
      '<dt>Weitere Angebote erwünscht (freiwillig)</dt><dd>Ja (vom Formular ohne Nachfrage gesendet)</dd>',
    );
    expect(html).not.toContain('Einwilligung in Angebote');
  });
});
