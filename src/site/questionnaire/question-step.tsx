import { useId, useRef, useState } from 'react';
import { localDay } from '../../domain/calendar.ts';
import {
  birthYearProblem,
  inputPlaceholder,
  isBirthYearQuestion,
  type AnswerValue,
  type Question,
} from '../../domain/questionnaire.ts';
import { Button } from '../../ui/button.tsx';
import { CheckboxField, FieldError, TextField } from '../../ui/form-fields.tsx';
import { StepActions, StepForm, StepSection } from './step-parts.tsx';

interface QuestionStepProps {
  question: Question;
  value: AnswerValue | undefined;
  /** Stores the answer; `advance` moves on to the next step. */
  onAnswer: (value: AnswerValue, advance: boolean) => void;
  onBack: (() => void) | undefined;
  /** Tabaluga: the children's date inputs, as many as the first answer says. */
  childDates: { count: number } | undefined;
  headingRef: (element: HTMLHeadingElement | null) => void;
}

/** An answer's props; the step's heading also labels the answer's controls. */
type AnswerProps = QuestionStepProps & { headingId: string };

export function QuestionStep(props: QuestionStepProps) {
  const { question, headingRef } = props;
  const headingId = useId();
  const title = question.required ? (
    question.question
  ) : (
    <>
      {question.question}{' '}
      <span className="text-lg font-normal whitespace-nowrap text-slate-600">(optional)</span>
    </>
  );
  return (
    <StepSection title={title} headingRef={headingRef} headingId={headingId}>
      {question.information ? <p className="mt-2 text-slate-600">{question.information}</p> : null}
      <div className="mt-6">
        <QuestionBody {...props} headingId={headingId} />
      </div>
    </StepSection>
  );
}

/**
 * The hint of a multi-select question, unless the question's own information already says so
 * (the PKV's third question does: 'Mehrfachauswahl möglich.').
 */
function multiSelectHint(question: Question): string | undefined {
  return /mehrfachauswahl|mehrere antworten/i.test(question.information)
    ? undefined
    : 'Mehrfachauswahl möglich.';
}

function QuestionBody(props: AnswerProps) {
  const { question, childDates } = props;
  if (childDates) return <ChildDates {...props} count={childDates.count} />;
  if (isBirthYearQuestion(question)) return <BirthYearAnswer {...props} />;
  if (question.type === 'input') return <InputAnswer {...props} />;
  if (question.multipleAnswers) return <MultiSelect {...props} />;
  return <SingleChoice {...props} />;
}

function SingleChoice({ question, value, onAnswer, onBack }: QuestionStepProps) {
  // The first question is in the page's HTML: a tap on a choice before this code runs is kept by
  // the page's loader and repeated once it runs (src/islands/loader.ts).
  return (
    <>
      <ul className="grid gap-3 sm:grid-cols-2">
        {question.options.map((option) => (
          <li key={option}>
            <button
              type="button"
              aria-pressed={value === option}
              onClick={() => onAnswer(option, true)}
              className={`min-h-14 w-full rounded-xl border-2 px-4 py-3 text-left text-lg font-medium transition-colors ${
                value === option
                  ? 'border-brand-700 bg-brand-50 text-brand-900'
                  : 'border-slate-300 bg-white text-slate-800 hover:border-brand-500'
              }`}
            >
              {option}
            </button>
          </li>
        ))}
      </ul>
      {/* Choosing goes on; an optional question may also be left without a choice. */}
      <StepActions onBack={onBack}>
        {question.required ? null : (
          <Button
            className="w-full sm:w-auto"
            onClick={() => onAnswer(typeof value === 'string' ? value : '', true)}
          >
            Weiter
          </Button>
        )}
      </StepActions>
    </>
  );
}

function MultiSelect({ question, value, onAnswer, onBack, headingId }: AnswerProps) {
  const selected = Array.isArray(value) ? value : [];
  const hint = multiSelectHint(question);
  const toggle = (option: string) => {
    const next = selected.includes(option)
      ? selected.filter((v) => v !== option)
      : question.options.filter((o) => o === option || selected.includes(o));
    onAnswer(next, false);
  };
  return (
    <StepForm onNext={() => onAnswer(selected, true)} onBack={onBack}>
      <fieldset aria-labelledby={headingId}>
        {hint ? <p className="mb-3 text-sm text-slate-600">{hint}</p> : null}
        <div className="grid gap-3 sm:grid-cols-2">
          {question.options.map((option) => (
            <CheckboxField
              key={option}
              label={option}
              checked={selected.includes(option)}
              onChange={() => toggle(option)}
              className="rounded-xl border-2 border-slate-300 bg-white p-3"
            />
          ))}
        </div>
      </fieldset>
    </StepForm>
  );
}

function InputAnswer({ question, value, onAnswer, onBack, headingId }: AnswerProps) {
  const [text, setText] = useState(typeof value === 'string' ? value : '');
  return (
    <StepForm onNext={() => onAnswer(text, true)} onBack={onBack}>
      <input
        aria-labelledby={headingId}
        value={text}
        placeholder={inputPlaceholder(question)}
        maxLength={2000}
        onChange={(event) => {
          setText(event.target.value);
          onAnswer(event.target.value, false);
        }}
        className="block min-h-11 w-full rounded-lg border border-slate-400 bg-white px-3 py-2 text-base"
      />
    </StepForm>
  );
}

/**
 * The visitor's year of birth: four digits on a number keypad, checked on Weiter with a German
 * message under the field (the browser's own bubble stays off); the answer is stored as typed.
 */
function BirthYearAnswer({ question, value, onAnswer, onBack, headingId }: AnswerProps) {
  const [text, setText] = useState(typeof value === 'string' ? value : '');
  const [problem, setProblem] = useState<string>();
  const input = useRef<HTMLInputElement>(null);
  const errorId = useId();
  const next = () => {
    const found = birthYearProblem(text, { required: question.required, today: new Date() });
    setProblem(found);
    if (found) input.current?.focus();
    else onAnswer(text.trim(), true);
  };
  return (
    <StepForm onNext={next} onBack={onBack} noValidate>
      <input
        ref={input}
        aria-labelledby={headingId}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? errorId : undefined}
        aria-required={question.required || undefined}
        value={text}
        placeholder={inputPlaceholder(question)}
        inputMode="numeric"
        pattern="[0-9]{4}"
        maxLength={4}
        autoComplete="bday-year"
        onChange={(event) => {
          setText(event.target.value);
          // A problem shown goes as soon as the year is right; a new one waits for Weiter.
          if (problem) {
            setProblem(
              birthYearProblem(event.target.value, {
                required: question.required,
                today: new Date(),
              }),
            );
          }
          onAnswer(event.target.value, false);
        }}
        className={`block min-h-11 w-full max-w-[12rem] rounded-lg border bg-white px-3 py-2 text-base ${
          problem ? 'border-red-700' : 'border-slate-400'
        }`}
      />
      <FieldError id={errorId} message={problem} />
    </StepForm>
  );
}

function ChildDates({ value, onAnswer, onBack, count }: QuestionStepProps & { count: number }) {
  // The device's own day: a child born today is a valid answer at any hour (UTC would still say
  // yesterday shortly after midnight in Germany).
  const today = localDay();
  const dates = Array.from(
    { length: count },
    (_, i) => (Array.isArray(value) ? value[i] : '') ?? '',
  );
  const update = (index: number, date: string) => {
    const next = [...dates];
    next[index] = date;
    onAnswer(next, false);
  };
  return (
    <StepForm onNext={() => onAnswer(dates, true)} onBack={onBack}>
      <div className="grid gap-4 sm:grid-cols-3">
        {dates.map((date, index) => (
          <TextField
            key={index}
            type="date"
            label={`Kind ${index + 1}`}
            value={date}
            max={today}
            onChange={(event) => update(index, event.target.value)}
          />
        ))}
      </div>
    </StepForm>
  );
}
