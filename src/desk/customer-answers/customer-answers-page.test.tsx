// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Customer, CustomerResponse } from '../api/customers.ts';
import type { LeadActivity, LeadStatusChange } from '../api/lead-status.ts';
import { CustomerAnswersPage } from './customer-answers-page.tsx';

// The answers page against stand-ins for its reads (the status control's own behaviour is
// lead-status-panel.test.tsx's).
type Query<T> = { data?: T; isPending: boolean; isError: boolean; refetch: () => void };

const state = vi.hoisted(() => ({
  customer: {} as Query<Customer | null>,
  responses: {} as Query<CustomerResponse[]>,
  history: {} as Query<LeadStatusChange[]>,
  activity: {} as Query<LeadActivity[]>,
}));

vi.mock('../api/customers.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../api/customers.ts')>()),
  useCustomer: () => state.customer,
  useCustomerResponses: () => state.responses,
}));

vi.mock('../api/lead-status.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../api/lead-status.ts')>()),
  useLeadStatusHistory: () => state.history,
  useLeadActivity: () => state.activity,
  useSetLeadStatus: () => ({ mutate: vi.fn(), reset: vi.fn(), isPending: false, isError: false }),
}));

// Follow-ups and notes have their own tests (customer-follow-ups.test.tsx,
// customer-notes.test.tsx); here stand-ins show where they sit and what they were given.
vi.mock('../shared/customer-follow-ups.tsx', () => ({
  CustomerFollowUps: (props: {
    customerId: number;
    customerName: string;
    lead?: { responseId: number; label: string };
  }) => (
    <section aria-label="Wiedervorlagen">
      {`${props.customerId}/${props.lead?.responseId ?? '-'}: ${props.customerName} · ${props.lead?.label ?? ''}`}
    </section>
  ),
}));
vi.mock('../shared/customer-notes.tsx', () => ({
  CustomerNotes: (props: { customerId: number }) => (
    <section aria-label="Notizen">{`Notizen zu ${props.customerId}`}</section>
  ),
}));

const loaded = <T,>(data: T): Query<T> => ({
  data,
  isPending: false,
  isError: false,
  refetch: vi.fn(),
});

const customer: Customer = {
  id: 7,
  first_name: 'Erika',
  last_name: 'Muster',
  email: 'erika@example.de',
  phone: '040 123456',
  adress: 'Hafenstraße 1',
  postcode: '20095',
  city: 'Hamburg',
  created_at: '2026-11-01T10:00:00Z',
  updated_at: '2026-11-01T10:00:00Z',
};

const response: CustomerResponse = {
  id: 31,
  form_id: 1,
  source: 'questionnaire',
  channel: 'fair_tablet',
  create_date: '2026-11-20T08:00:00Z',
  captured_at: '2026-11-20T08:00:00Z',
  received_at: '2026-11-20T15:30:00Z',
  offer_info: true,
  terms_accepted: true,
  data_processing_consent: true,
  consent_version: '2026-11-01',
  cookie_consent: 'necessary',
  cookie_consent_version: '2026-11-22',
  salutation: null,
  title: null,
  birthdate: null,
  call_time: null,
  existing_customer: null,
  message: null,
  // As typed with this lead: not what the customer record says now.
  first_name: 'Erika',
  last_name: 'Mustermann',
  email: 'erika@example.de',
  phone: '0171 2345678',
  adress: 'Messeweg 3',
  postcode: '20095',
  city: 'Hamburg',
  status: 'contacted',
  forms: { title: 'Tabaluga' },
  answers: [
    {
      id: 1,
      answer: 'Eins',
      question_text: 'Wie viele Kinder?',
      question_id: 1,
      questions: { question: 'Wie viele Kinder möchten Sie absichern?', sequence: 1 },
    },
    {
      id: 2,
      answer: 'Ja',
      question_text: 'Haben Sie schon einen Sparplan?',
      question_id: null,
      questions: null,
    },
  ],
};

function renderPage(id = '7') {
  render(
    <MemoryRouter initialEntries={[`/surveydesk/customer/${id}/antworten`]}>
      <Routes>
        <Route path="/surveydesk/customer/:id/antworten" element={<CustomerAnswersPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

const entry = (section: HTMLElement, term: string) =>
  within(section).getByText(term, { selector: 'dt' }).nextElementSibling?.textContent;

beforeEach(() => {
  state.customer = loaded(customer);
  state.responses = loaded([response]);
  state.history = loaded([
    {
      id: 5,
      response_id: 31,
      status: 'contacted',
      note: 'Rückruf Dienstag',
      changed_at: '2026-11-21T09:15:00Z',
      changed_by_name: 'Paula Puls',
    },
    {
      id: 6,
      response_id: 99,
      status: 'closed',
      note: null,
      changed_at: '2026-11-21T10:00:00Z',
      changed_by_name: null,
    },
  ]);
  state.activity = loaded([
    {
      response_id: 31,
      kind: 'mail_sent',
      at: '2026-11-20T15:31:00Z',
      by_name: null,
      body: null,
      due_at: null,
      assignee_name: null,
      changed: null,
    },
    {
      response_id: 31,
      kind: 'follow_up_created',
      at: '2026-11-20T15:30:30Z',
      by_name: null,
      body: 'Rückruf gewünscht: Morgens (8–12 Uhr)',
      due_at: '2026-11-23T07:00:00Z',
      assignee_name: null,
      changed: null,
    },
    {
      response_id: 31,
      kind: 'follow_up_done',
      at: '2026-11-21T09:20:00Z',
      by_name: 'Paula Puls',
      body: 'Rückruf gewünscht: Morgens (8–12 Uhr)',
      due_at: '2026-11-23T07:00:00Z',
      assignee_name: null,
      changed: null,
    },
    {
      response_id: 31,
      kind: 'follow_up_changed',
      at: '2026-11-21T09:17:00Z',
      by_name: 'Anna Admin',
      body: 'Rückruf am Dienstag',
      due_at: '2026-11-25T10:00:00Z',
      assignee_name: 'Paula Puls',
      changed: ['body', 'assignee', 'due_at'],
    },
    {
      response_id: 31,
      kind: 'follow_up_changed',
      at: '2026-11-21T09:18:00Z',
      by_name: null,
      body: 'Rückruf am Dienstag',
      due_at: '2026-11-25T10:00:00Z',
      assignee_name: null,
      changed: ['assignee'],
    },
    {
      response_id: 31,
      kind: 'follow_up_reopened',
      at: '2026-11-21T09:25:00Z',
      by_name: 'Anna Admin',
      body: 'Rückruf am Dienstag',
      due_at: '2026-11-25T10:00:00Z',
      assignee_name: null,
      changed: null,
    },
    {
      response_id: 99,
      kind: 'mail_sent',
      at: '2026-11-21T10:00:00Z',
      by_name: null,
      body: null,
      due_at: null,
      assignee_name: null,
      changed: null,
    },
  ]);
});
afterEach(cleanup);

describe('CustomerAnswersPage', () => {
  it('shows each response with its source, consent record and answers', () => {
    renderPage();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(
      'Antworten von Erika Muster',
    );
    const section = screen.getByRole('region', { name: /^Tabaluga vom/ });
    expect(entry(section, 'Quelle')).toBe('Fragebogen · Messe-Tablet');
    expect(entry(section, 'Erfasst am')).toMatch(/20\.11\.2026/);
    expect(entry(section, 'Datenschutz eingewilligt')).toBe('Ja');
    expect(entry(section, 'Cookie-Auswahl')).toBe('Unbedingt erforderlich (Version 2026-11-22)');
    // The questionnaire's optional box, named as what it is.
    expect(entry(section, 'Weitere Angebote erwünscht (freiwillig)')).toBe('Ja');
    expect(within(section).queryByText(/Angebot gewünscht/)).toBeNull();
    // What the visitor was asked, not today's wording of the question, which is noted.
    const reworded = within(section).getByText('Wie viele Kinder?', {
      exact: false,
      selector: 'dt',
    });
    expect(reworded.textContent).toBe(
      'Wie viele Kinder?Frage inzwischen geändert, heute: „Wie viele Kinder möchten Sie absichern?“',
    );
    expect(reworded.nextElementSibling?.textContent).toBe('Eins');
    // A deleted question still names what was asked.
    const deleted = within(section).getByText('Haben Sie schon einen Sparplan?', {
      exact: false,
      selector: 'dt',
    });
    expect(deleted.textContent).toBe('Haben Sie schon einen Sparplan?Frage inzwischen gelöscht');
    expect(deleted.nextElementSibling?.textContent).toBe('Ja');
    expect(screen.getByRole('link', { name: /Zurück zu den Kunden/ }).getAttribute('href')).toBe(
      '/surveydesk/customer',
    );
  });

  it('sets what the visitor sent beside what the office does with it, the answers first', () => {
    renderPage();
    const lead = screen.getByRole('region', { name: /^Tabaluga vom/ });
    const contact = screen.getByRole('region', { name: 'Kontaktdaten' });
    const work = ['Status', 'Wiedervorlagen', 'Notizen', 'Verlauf'].map((name) =>
      screen.getByRole('region', { name }),
    );
    // Two columns: contact and lead on one side, the office's work in order on the other.
    const [left, right] = [contact.parentElement!, work[0]!.parentElement!];
    expect(left).not.toBe(right);
    expect(left.parentElement).toBe(right.parentElement);
    expect(left.parentElement!.className).toContain('lg:grid-cols-');
    expect(lead.parentElement).toBe(left);
    expect(work.every((region) => region.parentElement === right)).toBe(true);
    // The answers come first in the lead, before its contact details and consents.
    const headings = within(lead)
      .getAllByRole('heading', { level: 3 })
      .map((heading) => heading.textContent);
    expect(headings).toEqual([
      'Antworten',
      'Kontaktdaten dieser Anfrage',
      'Herkunft und Einwilligungen',
    ]);
  });

  it('shows the customer’s saved contact details with links to call and write', () => {
    renderPage();
    const contact = screen.getByRole('region', { name: 'Kontaktdaten' });
    expect(entry(contact, 'Name')).toBe('Erika Muster');
    expect(within(contact).getByRole('link', { name: '040 123456' }).getAttribute('href')).toBe(
      'tel:+4940123456',
    );
    expect(
      within(contact).getByRole('link', { name: 'erika@example.de' }).getAttribute('href'),
    ).toBe('mailto:erika@example.de');
    expect(entry(contact, 'Anschrift')).toBe('Hafenstraße 1, 20095 Hamburg');
    expect(
      within(contact).getByRole('link', { name: 'Kundendaten bearbeiten' }).getAttribute('href'),
    ).toBe('/surveydesk/customer?id=7');
  });

  it('shows each lead’s status and its history from the arrival on, with who and when, follow-up changes included', () => {
    renderPage();
    const status = screen.getByRole('region', { name: 'Status' });
    expect(within(status).getByText(/^Aktueller Status:/).textContent).toBe(
      'Aktueller Status: Kontaktiert',
    );
    expect(within(status).getByRole('button', { name: 'Status ändern' })).toBeTruthy();
    expect(within(status).getByLabelText('Notiz zur Statusänderung (optional)')).toBeTruthy();
    const history = screen.getByRole('region', { name: 'Verlauf' });
    // Only this lead's changes; Berlin time (UTC+1 in November).
    expect([...history.querySelectorAll('li')].map((item) => item.textContent)).toEqual([
      'Neu – 20.11.2026, 16:30 – Eingang',
      'Wiedervorlage angelegt – 20.11.2026, 16:30 – automatischRückruf gewünscht: Morgens (8–12 Uhr) (fällig 23.11.2026, 08:00)',
      'Benachrichtigung gesendet – 20.11.2026, 16:31 – an die Agentur',
      'Kontaktiert – 21.11.2026, 10:15 – Paula PulsNotiz: Rückruf Dienstag',
      'Wiedervorlage geändert von Anna Admin am 21.11.2026, 10:17Text: „Rückruf am Dienstag“ · Zuständig: Paula Puls · Fällig: 25.11.2026, 11:00',
      'Wiedervorlage geändert von einem Dienst oder gelöschten Konto am 21.11.2026, 10:18Zuständig: niemand',
      'Wiedervorlage erledigt – 21.11.2026, 10:20 – Paula PulsRückruf gewünscht: Morgens (8–12 Uhr) (fällig 23.11.2026, 08:00)',
      'Wiedervorlage wieder geöffnet von Anna Admin am 21.11.2026, 10:25Rückruf am Dienstag (fällig 25.11.2026, 11:00)',
    ]);
  });

  it('shows a German error with a retry when the history cannot be read', () => {
    state.activity = { isPending: false, isError: true, refetch: vi.fn() };
    renderPage();
    const history = screen.getByRole('region', { name: 'Verlauf' });
    expect(within(history).getByRole('alert').textContent).toContain(
      'Der Verlauf konnte nicht geladen werden.',
    );
  });

  it('shows the contact details typed with each lead, not the customer’s current ones', () => {
    state.responses = loaded([
      response,
      { ...response, id: 30, last_name: 'Muster', phone: null, adress: null, city: null },
    ]);
    renderPage();
    const [newer, older] = screen.getAllByRole('region', { name: /^Tabaluga vom/ });
    expect(
      within(newer!).getByRole('heading', { name: 'Kontaktdaten dieser Anfrage' }),
    ).toBeTruthy();
    expect(entry(newer!, 'Nachname')).toBe('Mustermann');
    expect(entry(newer!, 'Telefonnummer')).toBe('0171 2345678');
    expect(entry(newer!, 'Straße und Hausnummer')).toBe('Messeweg 3');
    expect(entry(newer!, 'PLZ')).toBe('20095');
    expect(entry(newer!, 'Ort')).toBe('Hamburg');
    expect(entry(newer!, 'E-Mail')).toBe('erika@example.de');
    expect(entry(older!, 'Nachname')).toBe('Muster');
    expect(entry(older!, 'Telefonnummer')).toBe('Nicht angegeben');
  });

  it('heads a contact request by its form and shows what was asked besides', () => {
    state.responses = loaded([
      {
        ...response,
        id: 32,
        source: 'contact',
        channel: 'web',
        call_time: 'Abends',
        message: 'Bitte prüfen Sie meine Hausratversicherung.',
        answers: [],
      },
    ]);
    renderPage();
    const section = screen.getByRole('region', { name: /^Kontaktformular vom/ });
    expect(entry(section, 'Gewünschte Rückrufzeit')).toBe('Abends');
    expect(entry(section, 'Nachricht')).toBe('Bitte prüfen Sie meine Hausratversicherung.');
    expect(within(section).queryByText('Anrede')).toBeNull();
    expect(within(section).queryByRole('heading', { name: 'Antworten' })).toBeNull();
    // That form has no box for further offers (it sends true): nothing is shown for it.
    expect(within(section).queryByText(/Angebot/)).toBeNull();
  });

  it('shows no box for further offers on a KFZ lead either', () => {
    state.responses = loaded([{ ...response, source: 'kfz', channel: 'web', answers: [] }]);
    renderPage();
    const section = screen.getByRole('region', { name: /^KFZ-Rückruf vom/ });
    expect(within(section).queryByText(/Angebot/)).toBeNull();
    expect(entry(section, 'AGB akzeptiert')).toBe('Ja');
  });

  it('with several leads: a status control and a history per lead, follow-ups for the newest', () => {
    state.responses = loaded([
      response,
      { ...response, id: 30, received_at: '2026-11-10T09:00:00Z', status: 'new' },
    ]);
    renderPage();
    const status = screen.getByRole('region', { name: 'Status' });
    const forms = within(status).getAllByRole('form');
    expect(forms.map((form) => form.getAttribute('aria-label'))).toEqual([
      'Status ändern: Tabaluga vom 20.11.2026, 16:30',
      'Status ändern: Tabaluga vom 10.11.2026, 10:00',
    ]);
    expect(within(forms[1]!).getByText(/^Aktueller Status:/).textContent).toBe(
      'Aktueller Status: Neu',
    );
    const history = screen.getByRole('region', { name: 'Verlauf' });
    const older = within(history).getByRole('region', {
      name: 'Verlauf: Tabaluga vom 10.11.2026, 10:00',
    });
    expect([...older.querySelectorAll('li')].map((item) => item.textContent)).toEqual([
      'Neu – 10.11.2026, 10:00 – Eingang',
    ]);
    expect(screen.getByRole('region', { name: 'Wiedervorlagen' }).textContent).toBe(
      '7/31: Erika Muster · Tabaluga vom 20.11.2026, 16:30',
    );
  });

  it('says when the customer has sent nothing yet', () => {
    state.responses = loaded([]);
    renderPage();
    expect(screen.getByRole('status').textContent).toBe('Noch keine Antworten von diesem Kunden.');
  });

  it('tells an unknown customer apart from one without answers', () => {
    state.customer = loaded(null);
    renderPage();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Kunde nicht gefunden');
    expect(screen.queryByRole('region')).toBeNull();
  });

  it('treats an address that is no id as not found', () => {
    renderPage('abc');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Kunde nicht gefunden');
  });

  it('shows a German error with a retry when the answers cannot be read', () => {
    state.responses = { isPending: false, isError: true, refetch: vi.fn() };
    renderPage();
    expect(screen.getByRole('alert').textContent).toContain(
      'Die Antworten konnten nicht geladen werden.',
    );
    expect(screen.getByRole('button', { name: 'Erneut versuchen' })).toBeTruthy();
  });
});
