// @vitest-environment jsdom
import { useState } from 'react';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
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
