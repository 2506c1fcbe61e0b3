// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { questionKeys, type Question } from '../../domain/questionnaire.ts';
import { questionnaireDefinitionSchema } from '../../domain/questionnaire-schema.ts';
import { loadDraft } from '../../offline/questionnaire-draft.ts';
import { submitLead } from '../../offline/submit-lead.ts';
import type { QuestionsState } from '../../offline/use-questions.ts';
import { QuestionnaireFlow } from './questionnaire-flow.tsx';

const loaded = vi.hoisted(() => ({ state: undefined as unknown }));
vi.mock('../../offline/use-questions.ts', () => ({
  useQuestions: () => ({ ...(loaded.state as QuestionsState), retry: () => {} }),
}));

vi.mock('../../offline/submit-lead.ts', () => ({ submitLead: vi.fn() }));

const question = (id: number, sequence: number, fields: Record<string, unknown>) => ({
  id,
  sequence,
  type: 'multiple-choice',
  options: {},
  ...fields,
});

// Form 1 as staff may leave it: a new question first, the child count second, the amount moved
// before the child dates.
const { questions: editedTabaluga } = questionnaireDefinitionSchema.parse([
  question(11, 1, { type: 'input', question: 'Wie sind Sie auf uns aufmerksam geworden?' }),
  question(1, 2, {
    question: 'Wie viele Kinder möchten Sie absichern?',
    options: { '1': 'Eins', '2': 'Zwei', '3': 'Drei oder mehr' },
    key: questionKeys.childCount,
  }),
  question(3, 3, {
    question: 'Welchen monatlichen Betrag möchten Sie pro Kind sparen?',
    options: { '1': '25 €', '2': '50 €' },
    key: questionKeys.offerAmount,
  }),
  question(2, 4, {
    type: 'input',
    question: 'Wann sind Ihre Kinder geboren?',
    key: questionKeys.childDates,
  }),
]);

function show(questions: Question[]) {
  loaded.state = { status: 'success', questions, documentUrl: null } satisfies QuestionsState;
  render(<QuestionnaireFlow formId={1} />);
}

afterEach(() => {
  cleanup();
  localStorage.clear();
});

describe('the Tabaluga flow finds its questions by key', () => {
  it('shows a date input per child on the keyed question, wherever it stands', () => {
    show(editedTabaluga);
    fireEvent.change(screen.getByRole('textbox'), { target: { value: 'Messe' } });
    fireEvent.click(screen.getByRole('button', { name: 'Weiter' }));
    fireEvent.click(screen.getByRole('button', { name: 'Zwei' }));
    fireEvent.click(screen.getByRole('button', { name: '50 €' }));

    expect(screen.getByRole('heading', { name: 'Wann sind Ihre Kinder geboren?' })).toBeTruthy();
    expect(screen.getByLabelText('Kind 1')).toHaveProperty('type', 'date');
    expect(screen.getByLabelText('Kind 2')).toHaveProperty('type', 'date');
    expect(screen.queryByLabelText('Kind 3')).toBeNull();
  });

  it('asks a question without a key as typed, even with the id 2 the old flow relied on', () => {
    const withoutKeys = editedTabaluga.map((q) => ({ ...q, key: null }));
    show(withoutKeys.filter((q) => q.id === 2));
    expect(screen.getByRole('heading', { name: 'Wann sind Ihre Kinder geboren?' })).toBeTruthy();
    expect(screen.queryByLabelText('Kind 1')).toBeNull();
    expect(screen.getByRole('textbox')).toBeTruthy();
  });
});

describe('a draft on a visitor device (issue 32, item 9)', () => {
  it("keeps the answers but not the children's birth dates, and resumes at their question", async () => {
    show(editedTabaluga);
    fireEvent.change(screen.getByRole('textbox'), { target: { value: 'Messe' } });
    fireEvent.click(screen.getByRole('button', { name: 'Weiter' }));
    fireEvent.click(screen.getByRole('button', { name: 'Zwei' }));
    fireEvent.click(screen.getByRole('button', { name: '50 €' }));
    fireEvent.change(screen.getByLabelText('Kind 1'), { target: { value: '2019-05-01' } });
    fireEvent.change(screen.getByLabelText('Kind 2'), { target: { value: '2021-07-08' } });
    fireEvent.click(screen.getByRole('button', { name: 'Weiter' }));
    // The contact step's code arrives on demand (lazy-contact-step.tsx).
    expect(await screen.findByRole('textbox', { name: 'Vorname' })).toBeTruthy();

    const stored = localStorage.getItem('fragebogen-entwurf:1') ?? '';
    expect(stored).toContain('Messe');
    expect(stored).not.toContain('2019-05-01');
    expect(stored).not.toContain('2021-07-08');

    // A reload: the answers are back, the dates are asked again.
    cleanup();
    show(editedTabaluga);
    expect(screen.getByRole('heading', { name: 'Wann sind Ihre Kinder geboren?' })).toBeTruthy();
    expect(screen.getByLabelText('Kind 1')).toHaveProperty('value', '');
    expect(screen.getByLabelText('Kind 2')).toBeTruthy();
  });
});

describe('a sent questionnaire', () => {
  it('leaves no draft once the lead is in the outbox, before the hub answers (issue 21, item 1)', async () => {
    // The lead is stored on the device; the hub's answer never comes (the tab closes meanwhile).
    vi.mocked(submitLead).mockImplementation((_lead, options) => {
      options?.onStored?.();
      return new Promise(() => {});
    });
    loaded.state = {
      status: 'success',
      questions: editedTabaluga.filter((q) => q.id === 11),
      documentUrl: null,
    } satisfies QuestionsState;
    render(<QuestionnaireFlow formId={1} />, { wrapper: MemoryRouter });
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox'), 'Messe');
    await user.click(screen.getByRole('button', { name: 'Weiter' }));
    await screen.findByRole('textbox', { name: 'Vorname' });
    for (const [name, value] of [
      ['Vorname', 'Erika'],
      ['Nachname', 'Muster'],
      ['Straße und Hausnummer', 'Musterweg 12'],
      ['PLZ', '10115'],
      ['Ort', 'Berlin'],
      ['Telefonnummer', '030 1234567'],
      ['E-Mail', 'erika@example.de'],
    ] as const) {
      await user.type(screen.getByRole('textbox', { name }), value);
    }
    await user.click(screen.getByRole('checkbox', { name: /^Ich akzeptiere die AGB/ }));
    await user.click(screen.getByRole('checkbox', { name: /^Ich willige in die Verarbeitung/ }));
    // The draft keeps the answers, never what the contact step holds (issue 32, item 9).
    expect(loadDraft(1, Date.now())).toMatchObject({ step: 1, answers: { 11: 'Messe' } });
    const stored = localStorage.getItem('fragebogen-entwurf:1') ?? '';
    for (const value of ['Erika', 'Muster', 'Musterweg', '10115', 'Berlin', '1234567', 'erika@']) {
      expect(stored).not.toContain(value);
    }

    await user.click(screen.getByRole('button', { name: 'Angebot anfordern' }));
    await waitFor(() => expect(submitLead).toHaveBeenCalledTimes(1));
    expect(loadDraft(1, Date.now())).toBeUndefined();
  });
});

describe('one page, one pattern (issue 36, items 7 and 8)', () => {
  const laterStep = () => document.querySelector('[data-later-step]');

  it('leaves the page title to the first question, and marks every later step', () => {
    show(editedTabaluga);
    expect(laterStep()).toBeNull();
    fireEvent.change(screen.getByRole('textbox'), { target: { value: 'Messe' } });
    fireEvent.click(screen.getByRole('button', { name: 'Weiter' }));
    expect(screen.getByRole('heading', { name: 'Wie viele Kinder möchten Sie absichern?' }));
    expect(laterStep()).not.toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Zurück' }));
    expect(laterStep()).toBeNull();
  });

  it('ends with the thank-you every lead form has: no start text, a link to the start page', async () => {
    vi.mocked(submitLead).mockResolvedValue({ status: 'sent' });
    loaded.state = {
      status: 'success',
      questions: editedTabaluga.filter((q) => q.id === 11),
      documentUrl: null,
    } satisfies QuestionsState;
    render(<QuestionnaireFlow formId={1} />, { wrapper: MemoryRouter });
    const user = userEvent.setup();
    fireEvent.change(screen.getByRole('textbox'), { target: { value: 'Messe' } });
    await user.click(screen.getByRole('button', { name: 'Weiter' }));
    expect(laterStep()).not.toBeNull();
    await screen.findByRole('button', { name: 'Angebot anfordern' });

    // An empty submit: the focus goes to the first field in error, not to the AGB box.
    await user.click(screen.getByRole('button', { name: 'Angebot anfordern' }));
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Vorname' }));

    for (const [name, value] of [
      ['Vorname', 'Erika'],
      ['Nachname', 'Muster'],
      ['Straße und Hausnummer', 'Musterweg 12'],
      ['PLZ', '10115'],
      ['Ort', 'Berlin'],
      ['Telefonnummer', '030 1234567'],
      ['E-Mail', 'erika@example.de'],
    ] as const) {
      fireEvent.change(screen.getByRole('textbox', { name }), { target: { value } });
    }
    await user.click(screen.getByRole('checkbox', { name: /^Ich akzeptiere die AGB/ }));
    await user.click(screen.getByRole('checkbox', { name: /^Ich willige in die Verarbeitung/ }));
    await user.click(screen.getByRole('button', { name: 'Angebot anfordern' }));

    const thanks = await screen.findByRole('heading', { name: 'Vielen Dank für Ihre Anfrage!' });
    expect(document.activeElement).toBe(thanks);
    expect(laterStep()).not.toBeNull();
    expect(screen.getByRole('link', { name: 'Zur Startseite' }).getAttribute('href')).toBe(
      '/universa',
    );
    expect(screen.queryByRole('button', { name: 'Neuen Fragebogen starten' })).toBeNull();
  });
});
