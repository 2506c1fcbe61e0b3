// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  emptyKfzRequest,
  emptyQuestionnaireContact,
  kfzRequestSchema,
  questionnaireContactSchema,
} from '../../domain/contact-forms.ts';
import { buildKfzSubmission } from '../../domain/lead-submissions.ts';
import { messages } from '../../domain/messages.ts';
import { submitLead, type SubmitLeadOutcome } from '../../offline/submit-lead.ts';
import { CONSENT_COOKIE, COOKIE_CONSENT_VERSION } from '../../ui/cookie-consent.ts';
import { CheckboxField } from '../../ui/form-fields.tsx';
import { LeadFormFooter, PersonField } from '../../ui/lead-form-parts.tsx';
import { fieldNamed, problemOf } from './fields.test-support.ts';
import { useLeadForm, type LeadFormOptions } from './use-lead-form.ts';

// The outbox is another unit's business: here only what the form hands to it counts.
vi.mock('../../offline/submit-lead.ts', () => ({ submitLead: vi.fn() }));
const send = vi.mocked(submitLead);

/** The smallest lead form: the person fields, both consents and the usual footer. */
function TinyForm(props: Partial<LeadFormOptions<typeof kfzRequestSchema, never>>) {
  const lead = useLeadForm({
    schema: kfzRequestSchema,
    emptyValues: emptyKfzRequest,
    toLead: buildKfzSubmission,
    ...props,
  });
  const { field } = lead;
  if (lead.delivered) {
    return (
      <div role="status">
        {lead.delivered === 'sent' ? 'Gesendet' : 'Gespeichert'}
        <button type="button" onClick={lead.again}>
          Weitere Anfrage stellen
        </button>
      </div>
    );
  }
  return (
    <form noValidate onSubmit={lead.submit} aria-label="Testformular">
      <PersonField required {...field('first_name')} />
      <PersonField required {...field('last_name')} />
      <PersonField required {...field('email')} />
      <PersonField required {...field('phone')} />
      <CheckboxField label="AGB" {...lead.consents.terms} />
      <CheckboxField label="Datenschutz" {...lead.consents.privacy} />
      <LeadFormFooter sending={lead.sending} failure={lead.failure} />
    </form>
  );
}

async function fillValid(user: ReturnType<typeof userEvent.setup>) {
  await user.type(fieldNamed('Vorname'), 'Jürgen');
  await user.type(fieldNamed('Nachname'), 'Weiß');
  await user.type(fieldNamed('E-Mail'), 'juergen@example.de');
  await user.type(fieldNamed('Telefonnummer'), '030 123456');
  await user.click(fieldNamed('AGB'));
  await user.click(fieldNamed('Datenschutz'));
}

/** A send the test finishes when it wants, to look at the form while the lead is on its way. */
function pendingSend() {
  let finish: (outcome: SubmitLeadOutcome) => void = () => {};
  send.mockImplementationOnce(() => new Promise((resolve) => (finish = resolve)));
  return (outcome: SubmitLeadOutcome) => finish(outcome);
}

const submitButton = () =>
  screen.getByRole<HTMLButtonElement>('button', { name: /Absenden|Senden\.\.\./ });

describe('useLeadForm', () => {
  beforeEach(() => {
    send.mockReset();
    document.cookie = `${CONSENT_COOKIE}=${encodeURIComponent(
      JSON.stringify({ categories: ['necessary', 'statistics'] }),
    )}`;
  });
  afterEach(() => {
    cleanup();
    document.cookie = `${CONSENT_COOKIE}=; max-age=0`;
  });

  it('shows the German messages tied to their fields after a submit, and sends nothing', async () => {
    const user = userEvent.setup();
    render(<TinyForm />);
    await user.click(submitButton());

    const expected: [string, string][] = [
      ['Vorname', messages.firstNameInvalid],
      ['Nachname', messages.lastNameInvalid],
      ['E-Mail', messages.emailRequired],
      ['Telefonnummer', messages.phoneInvalid],
      ['AGB', messages.termsRequired],
      ['Datenschutz', messages.privacyConsentRequired],
    ];
    for (const [label, message] of expected) {
      expect(problemOf(label)).toBe(message);
    }
    expect(send).not.toHaveBeenCalled();
  });

  it('puts the focus on the first field in error after a submit, not on the AGB box', async () => {
    const user = userEvent.setup();
    render(<TinyForm />);
    await user.click(submitButton());
    expect(document.activeElement).toBe(fieldNamed('Vorname'));

    // The first problem as the visitor sees the form, whatever was registered first.
    await user.type(fieldNamed('Vorname'), 'Jürgen');
    await user.type(fieldNamed('Nachname'), 'Weiß');
    await user.type(fieldNamed('E-Mail'), 'juergen@example.de');
    await user.type(fieldNamed('Telefonnummer'), '030 123456');
    await user.click(submitButton());
    expect(document.activeElement).toBe(fieldNamed('AGB'));
    await user.click(fieldNamed('AGB'));
    await user.click(submitButton());
    expect(document.activeElement).toBe(fieldNamed('Datenschutz'));
  });

  it('keeps a problem hidden until the first submit (KFZ and contact page)', async () => {
    const user = userEvent.setup();
    render(<TinyForm />);
    await user.type(fieldNamed('Vorname'), 'x');
    await user.tab();
    expect(problemOf('Vorname')).toBeUndefined();
  });

  it("shows a problem once the field is left with showErrors 'once-touched' (questionnaire)", async () => {
    const user = userEvent.setup();
    function QuestionnaireForm() {
      const lead = useLeadForm({
        schema: questionnaireContactSchema,
        emptyValues: emptyQuestionnaireContact,
        showErrors: 'once-touched',
        toLead: () => {
          throw new Error('not sent in this test');
        },
      });
      return (
        <form noValidate onSubmit={lead.submit}>
          <PersonField required {...lead.field('email')} />
          <PersonField required {...lead.field('city')} />
        </form>
      );
    }
    render(<QuestionnaireForm />);
    await user.type(fieldNamed('E-Mail'), 'nicht-gueltig@');
    await user.tab();
    expect(problemOf('E-Mail')).toBe(messages.emailInvalid);
    expect(problemOf('Ort')).toBeUndefined();
  });

  it('sends the lead with the cookie choice, says Senden... meanwhile, then empties the form', async () => {
    const user = userEvent.setup();
    const onDelivered = vi.fn();
    render(<TinyForm onDelivered={onDelivered} />);
    await fillValid(user);
    const finish = pendingSend();
    await user.click(submitButton());

    await waitFor(() => expect(submitButton().textContent).toBe('Senden...'));
    expect(submitButton().disabled).toBe(true);
    expect(send).toHaveBeenCalledTimes(1);
    expect(send.mock.calls[0]![0]).toMatchObject({
      source: 'kfz',
      form_id: 1,
      first_name: 'Jürgen',
      last_name: 'Weiß',
      email: 'juergen@example.de',
      phone: '030 123456',
      terms_accepted: true,
      data_processing_consent: true,
      offer_info: true,
      create_user: 'Jürgen Weiß',
      cookie_consent: 'necessary,statistics',
      cookie_consent_version: COOKIE_CONSENT_VERSION,
      client_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });

    finish({ status: 'sent' });
    expect((await screen.findByRole('status')).textContent).toContain('Gesendet');
    expect(onDelivered).toHaveBeenCalledWith('sent');

    await user.click(screen.getByRole('button', { name: 'Weitere Anfrage stellen' }));
    expect(fieldNamed('Vorname').value).toBe('');
    expect(fieldNamed('AGB').checked).toBe(false);
  });

  it('leaves the cookie record out before the visitor chose', async () => {
    document.cookie = `${CONSENT_COOKIE}=; max-age=0`;
    send.mockResolvedValueOnce({ status: 'queued' });
    const user = userEvent.setup();
    render(<TinyForm />);
    await fillValid(user);
    await user.click(submitButton());

    expect((await screen.findByRole('status')).textContent).toContain('Gespeichert');
    expect(send.mock.calls[0]![0]).not.toHaveProperty('cookie_consent');
  });

  it('shows why a send failed and keeps what was typed', async () => {
    send.mockResolvedValueOnce({ status: 'failed', message: 'Der Speicher ist voll.' });
    const user = userEvent.setup();
    render(<TinyForm />);
    await fillValid(user);
    await user.click(submitButton());

    expect((await screen.findByRole('alert')).textContent).toBe('Der Speicher ist voll.');
    expect(fieldNamed('Vorname').value).toBe('Jürgen');
    expect(submitButton().textContent).toBe('Absenden');
    expect(submitButton().disabled).toBe(false);
  });

  it('shows a bot that filled the honeypot the usual success and sends nothing', async () => {
    const user = userEvent.setup();
    const onDelivered = vi.fn();
    render(<TinyForm onDelivered={onDelivered} />);
    await fillValid(user);
    const honeypot = document.querySelector<HTMLInputElement>('input[name="website"]')!;
    honeypot.value = 'https://spam.example';
    await user.click(submitButton());

    expect((await screen.findByRole('status')).textContent).toContain('Gesendet');
    expect(send).not.toHaveBeenCalled();
    expect(onDelivered).not.toHaveBeenCalled();
  });
});
