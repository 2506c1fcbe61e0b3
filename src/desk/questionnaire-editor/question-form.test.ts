import { describe, expect, it } from 'vitest';
import {
  newQuestionValues,
  optionPlaceholder,
  questionChange,
  questionTypeOptions,
  questionFormSchema,
  questionValues,
  type QuestionFormValues,
} from './question-form.ts';

const valid: QuestionFormValues = {
  sequence: 2,
  question: 'Wie viele Kinder haben Sie?',
  type: 'multiple-choice',
  options: [{ value: 'Eins' }, { value: 'Zwei' }, { value: 'Drei oder mehr' }],
  multipleAnswers: false,
  information: 'Für jedes Kind ein eigener Sparplan.',
  custome_description: '',
};

function messages(values: QuestionFormValues) {
  const result = questionFormSchema.safeParse(values);
  if (result.success) return {};
  return Object.fromEntries(
    result.error.issues.map((issue) => [issue.path.join('.'), issue.message]),
  );
}

describe('question form rules', () => {
  it('accepts a complete multiple-choice question', () => {
    expect(messages(valid)).toEqual({});
  });

  it('requires the question, in German, and lets the information text be empty', () => {
    expect(messages({ ...valid, question: '  ', information: '' })).toEqual({
      question: 'Bitte gib die Frage ein.',
    });
    expect(messages({ ...valid, information: '   ' })).toEqual({});
  });

  it('asks for a whole position from 1', () => {
    expect(messages({ ...valid, sequence: Number.NaN })).toHaveProperty('sequence');
    expect(messages({ ...valid, sequence: 0 })).toEqual({
      sequence: 'Die Position beginnt bei 1.',
    });
    expect(messages({ ...valid, sequence: 1.5 })).toHaveProperty('sequence');
  });

  it('needs two non-empty answers for multiple choice, each filled', () => {
    expect(messages({ ...valid, options: [{ value: 'Eins' }, { value: ' ' }] })).toEqual({
      'options.1.value': 'Bitte gib einen Wert für diese Antwort ein oder entferne sie.',
      options: 'Eine Auswahlfrage braucht mindestens zwei Antworten.',
    });
  });

  it('lets an input question go without options or with a blank one', () => {
    expect(messages({ ...valid, type: 'input', options: [] })).toEqual({});
    expect(messages({ ...valid, type: 'input', options: [{ value: '' }] })).toEqual({});
  });

  it('starts a new question as multiple choice at the given position', () => {
    expect(newQuestionValues(4)).toMatchObject({ sequence: 4, type: 'multiple-choice' });
  });
});

describe('question payload', () => {
  it('stores the options keyed from 1 and an empty annotation as null', () => {
    expect(
      questionChange({ ...valid, options: [{ value: 'A' }, { value: '' }, { value: 'B' }] }),
    ).toEqual({
      sequence: 2,
      question: valid.question,
      type: 'multiple-choice',
      options: { '1': 'A', '2': 'B' },
      multipleAnswers: false,
      information: valid.information,
      custome_description: null,
    });
  });

  it('rebuilds the option list of a stored question in key order', () => {
    const values = questionValues({
      id: 7,
      form_id: 3,
      question: 'Frage',
      type: 'multiple-choice',
      options: { '2': 'B', '1': 'A' },
      required: false,
      multipleAnswers: true,
      sequence: 1,
      information: null,
      custome_description: 'intern',
      key: null,
    });
    expect(values.options).toEqual([{ value: 'A' }, { value: 'B' }]);
    expect(values).toMatchObject({
      information: '',
      custome_description: 'intern',
      multipleAnswers: true,
    });
  });
});

describe('the sidebar’s words (issue 36)', () => {
  it('names the two types in German, not with the stored values', () => {
    expect(questionTypeOptions.map((option) => [option.value, option.label])).toEqual([
      ['multiple-choice', 'Auswahl aus vorgegebenen Antworten'],
      ['input', 'Freitext (Eingabefeld)'],
    ]);
  });

  it('shows an example for an empty answer instead of "Wert"', () => {
    expect(optionPlaceholder('multiple-choice', 0)).toBe('Antworttext, z. B. „Ja“');
    expect(optionPlaceholder('multiple-choice', 3)).toBe('Antworttext, z. B. „Nein“');
    expect(optionPlaceholder('input', 0)).toBe('Platzhalter, z. B. „TT.MM.JJJJ“');
  });

  it('stores a question without information text as null', () => {
    expect(questionChange({ ...valid, information: '' }).information).toBeNull();
  });
});
