// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  questionKeys,
  questionnaireDefinitionSchema,
  type Question,
} from '../../domain/questionnaire.ts';
import type { QuestionsState } from '../../offline/use-questions.ts';
import { QuestionnaireFlow } from './questionnaire-flow.tsx';

const loaded = vi.hoisted(() => ({ state: undefined as unknown }));
vi.mock('../../offline/use-questions.ts', () => ({
  useQuestions: () => ({ ...(loaded.state as QuestionsState), retry: () => {} }),
}));

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
