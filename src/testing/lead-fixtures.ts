// Leads for tests and benchmarks, one builder per kind, valid by the hub's rules unless a test
// overrides a field to make it otherwise. Unit tests, the e2e journeys and the benchmarks all build
// their leads here, so a rule change is followed in one place. Every call makes a new client_id
// and e-mail address, so leads never collide in a shared database.

let counter = 0;

/** A unique address per call: tests share one hub without resetting its database. */
export function uniqueEmail(prefix: string): string {
  counter += 1;
  return `${prefix}.${counter}.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@example.de`;
}

const fixedTime = '2026-11-22T09:00:00.000Z';

function person(prefix: string) {
  return {
    first_name: 'Jürgen',
    last_name: 'Weiß',
    email: uniqueEmail(prefix),
    phone: '+49 30 123456',
    terms_accepted: true,
    data_processing_consent: true,
    consent_version: '2026-11-01',
    create_date: fixedTime,
    changed_date: fixedTime,
    captured_at: fixedTime,
  };
}

/** A Tabaluga questionnaire lead (form 1) with three answers and the full contact step. */
export function questionnaireLead<T extends Record<string, unknown>>(overrides?: T) {
  return {
    client_id: crypto.randomUUID(),
    form_id: 1,
    source: 'questionnaire' as const,
    answers: [
      { question_id: 1, answer: 'Zwei' },
      { question_id: 2, answer: '2019-05-01, 2021-09-14' },
      { question_id: 3, answer: '50 €' },
    ],
    ...person('juergen.weiss'),
    adress: 'Hauptstraße 1',
    postcode: '10115',
    city: 'Berlin',
    offer_info: true,
    ...(overrides as T),
  };
}

/** A KFZ callback request: no answers, offer_info true as the spec has it. */
export function kfzLead<T extends Record<string, unknown>>(overrides?: T) {
  return {
    client_id: crypto.randomUUID(),
    form_id: 1,
    source: 'kfz' as const,
    answers: [],
    ...person('kfz'),
    call_time: 'Nachmittags',
    offer_info: true,
    ...(overrides as T),
  };
}

/** A booking of the free insurance check, with the contact page's extra fields. */
export function contactLead<T extends Record<string, unknown>>(overrides?: T) {
  return {
    client_id: crypto.randomUUID(),
    form_id: 1,
    source: 'contact' as const,
    answers: [],
    ...person('kontakt'),
    salutation: 'Herr',
    title: 'Dr.',
    birthdate: '1980-02-29',
    call_time: 'Abends',
    existing_customer: false,
    message: 'Bitte prüfen Sie meine Hausratversicherung.',
    offer_info: true,
    ...(overrides as T),
  };
}
