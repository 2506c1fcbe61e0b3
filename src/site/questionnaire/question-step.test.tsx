// @vitest-environment jsdom
import { useState } from 'react';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '../../domain/messages.ts';
import type { AnswerValue, Question } from '../../domain/questionnaire.ts';
import { QuestionStep } from './question-step.tsx';

const childDatesQuestion: Question = {
  id: 2,
  sequence: 2,
  type: 'input',
  question: 'Wann sind Ihre Kinder geboren?',
  options: [],
  multipleAnswers: false,
  information: '',
  key: 'tabaluga_child_dates',
  required: true,
  analysis_bucket: 'birth_decade',
};

/** The step as the questionnaire holds it: the answer lives above it. */
function ChildDatesStep({
  onAnswer,
}: {
  onAnswer: (value: AnswerValue, advance: boolean) => void;
}) {
  const [value, setValue] = useState<AnswerValue>();
  return (
    <QuestionStep
      question={childDatesQuestion}
      value={value}
      onAnswer={(next, advance) => {
        setValue(next);
        onAnswer(next, advance);
      }}
      onBack={undefined}
      childDates={{ count: 1 }}
      headingRef={() => {}}
    />
  );
}

function renderChildDates() {
  const onAnswer = vi.fn();
  render(<ChildDatesStep onAnswer={onAnswer} />);
  return { onAnswer, input: screen.getByLabelText<HTMLInputElement>('Kind 1') };
}

// Between midnight and 1 or 2 a.m. in Germany the UTC date is still yesterday; the date input's
// limit must be the visitor's own day, or a child born today cannot be entered.
describe('child dates at 00:30 in Berlin', () => {
  beforeEach(() => {
    vi.stubEnv('TZ', 'Europe/Berlin');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-14T23:30:00Z'));
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllEnvs();
  });

  it('limits the input to the local today, not the UTC date', () => {
    const { input } = renderChildDates();
    expect(new Date().toISOString().slice(0, 10)).toBe('2026-03-14');
    expect(input.max).toBe('2026-03-15');
  });

  it('would have refused a child born today under the old UTC limit', () => {
    const { input } = renderChildDates();
    fireEvent.change(input, { target: { value: '2026-03-15' } });
    input.max = new Date().toISOString().slice(0, 10);
    expect(input.validity.rangeOverflow).toBe(true);
  });

  it('accepts a child born today and goes on with that date', () => {
    const { input, onAnswer } = renderChildDates();
    fireEvent.change(input, { target: { value: '2026-03-15' } });
    expect(input.validity.rangeOverflow).toBe(false);
    expect(input.checkValidity()).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Weiter' }));
    expect(onAnswer).toHaveBeenLastCalledWith(['2026-03-15'], true);
  });

  it('still refuses tomorrow', () => {
    const { input, onAnswer } = renderChildDates();
    fireEvent.change(input, { target: { value: '2026-03-16' } });
    expect(input.validity.rangeOverflow).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Weiter' }));
    expect(onAnswer).not.toHaveBeenCalledWith(['2026-03-16'], true);
  });
});

/** A PKV question as the hub serves it (supabase/seed.sql), changed by `fields`. */
function pkvQuestion(fields: Partial<Question>): Question {
  return {
    id: 8,
    sequence: 5,
    type: 'input',
    question: 'In welchem Jahr sind Sie geboren?',
    options: ['z. B. 1985'],
    multipleAnswers: false,
    information: 'Das Eintrittsalter bestimmt den Beitrag.',
    key: null,
    required: true,
    analysis_bucket: 'birth_decade',
    ...fields,
  };
}

function renderStep(question: Question) {
  const onAnswer = vi.fn();
  render(
    <QuestionStep
      question={question}
      value={undefined}
      onAnswer={onAnswer}
      onBack={undefined}
      childDates={undefined}
      headingRef={() => {}}
    />,
  );
  return { onAnswer };
}

describe('the year-of-birth question (issue 36, item 8)', () => {
  afterEach(cleanup);

  const yearInput = () =>
    screen.getByRole<HTMLInputElement>('textbox', { name: 'In welchem Jahr sind Sie geboren?' });
  const problem = () =>
    document.getElementById(yearInput().getAttribute('aria-describedby') ?? '')?.textContent;

  it('opens the number keypad and takes four digits', () => {
    renderStep(pkvQuestion({}));
    expect(yearInput().inputMode).toBe('numeric');
    expect(yearInput().getAttribute('pattern')).toBe('[0-9]{4}');
    expect(yearInput().maxLength).toBe(4);
    expect(yearInput().placeholder).toBe('z. B. 1985');
  });

  it('refuses "Test" with a German message tied to the field, and keeps the focus there', async () => {
    const user = userEvent.setup();
    const { onAnswer } = renderStep(pkvQuestion({}));
    await user.type(yearInput(), 'Test');
    await user.click(screen.getByRole('button', { name: 'Weiter' }));
    expect(problem()).toBe(messages.birthYearInvalid);
    expect(yearInput().getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(yearInput());
    expect(onAnswer).not.toHaveBeenCalledWith(expect.anything(), true);
  });

  it('refuses an implausible year and an empty answer, then goes on with a real one', async () => {
    const user = userEvent.setup();
    const { onAnswer } = renderStep(pkvQuestion({}));
    await user.click(screen.getByRole('button', { name: 'Weiter' }));
    expect(problem()).toBe(messages.birthYearRequired);
    await user.type(yearInput(), '1850');
    await user.click(screen.getByRole('button', { name: 'Weiter' }));
    expect(problem()).toBe(messages.birthYearImplausible);
    await user.clear(yearInput());
    await user.type(yearInput(), '1984');
    // The message goes as soon as the year is right.
    expect(yearInput().getAttribute('aria-invalid')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Weiter' }));
    expect(onAnswer).toHaveBeenLastCalledWith('1984', true);
  });

  it('asks any other text question as free text', () => {
    renderStep(pkvQuestion({ id: 10, question: 'Noch etwas?', analysis_bucket: null }));
    const input = screen.getByRole<HTMLInputElement>('textbox', { name: 'Noch etwas?' });
    expect(input.inputMode).toBe('');
    expect(input.getAttribute('pattern')).toBeNull();
  });
});

describe('hints and optional questions (issue 36, item 8)', () => {
  afterEach(cleanup);

  const benefits = pkvQuestion({
    id: 6,
    type: 'multiple-choice',
    question: 'Welche Leistungen sind Ihnen besonders wichtig?',
    options: ['Chefarztbehandlung', 'Hochwertiger Zahnersatz'],
    multipleAnswers: true,
    information: 'Mehrfachauswahl möglich.',
    required: false,
    analysis_bucket: null,
  });

  it('says "Mehrfachauswahl möglich." once when the question says it itself', () => {
    renderStep(benefits);
    expect(screen.getAllByText('Mehrfachauswahl möglich.')).toHaveLength(1);
  });

  it('adds the hint to a multi-select question whose information does not say it', () => {
    renderStep({ ...benefits, information: '' });
    expect(screen.getAllByText('Mehrfachauswahl möglich.')).toHaveLength(1);
  });

  it('marks an optional question "(optional)" and a required one not', () => {
    renderStep(benefits);
    expect(
      screen.getByRole('heading', {
        name: 'Welche Leistungen sind Ihnen besonders wichtig? (optional)',
      }),
    ).toBeTruthy();
    cleanup();
    renderStep({ ...benefits, required: true });
    expect(
      screen.getByRole('heading', { name: 'Welche Leistungen sind Ihnen besonders wichtig?' }),
    ).toBeTruthy();
    expect(screen.queryByText('(optional)')).toBeNull();
  });
});

describe('an optional single choice (issue 36, item 8)', () => {
  afterEach(cleanup);

  const employment = pkvQuestion({
    id: 4,
    type: 'multiple-choice',
    question: 'Wie sind Sie derzeit beschäftigt?',
    options: ['Angestellt', 'Selbstständig'],
    information: '',
    analysis_bucket: null,
  });

  it('may be left without a choice, as its mark says', async () => {
    const { onAnswer } = renderStep({ ...employment, required: false });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Weiter' }));
    expect(onAnswer).toHaveBeenCalledWith('', true);
  });

  it('goes on only by a choice when it is required', async () => {
    const { onAnswer } = renderStep(employment);
    expect(screen.queryByRole('button', { name: 'Weiter' })).toBeNull();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Selbstständig' }));
    expect(onAnswer).toHaveBeenCalledWith('Selbstständig', true);
  });
});
