import { describe, expect, it } from 'vitest';
import { messages } from './messages.ts';
import { parseSubmission, submissionContentKey } from './submission.ts';
import {
  answerByKey,
  birthYearProblem,
  buildAnswerPayload,
  buildQuestionnaireSubmission,
  carryProgress,
  childCount,
  CONSENT_VERSION,
  inputPlaceholder,
  isBirthYearQuestion,
  questionKeys,
  sameQuestionnaire,
  tabalugaOfferPdf,
  type Question,
} from './questionnaire.ts';
import { questionnaireDefinitionSchema, questionSchema } from './questionnaire-schema.ts';

const parseQuestions = (hub: unknown) => questionnaireDefinitionSchema.parse(hub).questions;

const hubQuestions = [
  {
    id: 3,
    form_id: 1,
    sequence: 3,
    type: 'multiple-choice',
    question: 'Betrag?',
    options: { '1': '25 €', '2': '50 €', '10': '150 €', '3': '100 €' },
    multipleAnswers: false,
    information: null,
  },
  {
    id: 1,
    form_id: 1,
    sequence: 1,
    type: 'multiple-choice',
    question: 'Wie viele Kinder?',
    options: { '1': 'Eins', '2': 'Zwei', '3': 'Drei oder mehr' },
    multipleAnswers: false,
    information: 'Info',
  },
  {
    id: 2,
    form_id: 1,
    sequence: 2,
    type: 'input',
    question: 'Geburtsdaten?',
    options: {},
    multipleAnswers: false,
  },
];

describe('questions from the hub', () => {
  it('accepts an array or an object with a data array, sorted by sequence', () => {
    const fromArray = parseQuestions(hubQuestions);
    const fromData = parseQuestions({ data: hubQuestions });
    expect(fromArray.map((q) => q.id)).toEqual([1, 2, 3]);
    expect(fromData).toEqual(fromArray);
  });

  it('turns the option map into a list in key order', () => {
    const [, , amount] = parseQuestions(hubQuestions);
    expect(amount!.options).toEqual(['25 €', '50 €', '100 €', '150 €']);
  });

  it('uses the first option as an input placeholder, or "Antwort eingeben..."', () => {
    const [, dates] = parseQuestions(hubQuestions);
    expect(inputPlaceholder(dates!)).toBe('Antwort eingeben...');
    expect(inputPlaceholder({ ...dates!, options: ['z. B. 1985'] })).toBe('z. B. 1985');
  });

  it('reads the stable key, null when a question has none or the hub sends none', () => {
    const [count, dates] = parseQuestions([
      { ...hubQuestions[1], key: 'tabaluga_child_count' },
      { ...hubQuestions[2], key: null },
    ]);
    expect(count!.key).toBe('tabaluga_child_count');
    expect(dates!.key).toBeNull();
    expect(parseQuestions(hubQuestions)[0]!.key).toBeNull();
  });

  it("takes the form's document from the hub's object, none from a bare list", () => {
    const url = '/storage/v1/object/public/documents/forms/2/abc-Angebot.pdf';
    const withDocument = questionnaireDefinitionSchema.parse({
      data: hubQuestions,
      form: { id: 1, title: 'Tabaluga', document_url: url },
    });
    expect(withDocument.documentUrl).toBe(url);
    expect(withDocument.questions.map((q) => q.id)).toEqual([1, 2, 3]);
    expect(questionnaireDefinitionSchema.parse(hubQuestions).documentUrl).toBeNull();
    expect(
      questionnaireDefinitionSchema.parse({ data: hubQuestions, form: { document_url: null } })
        .documentUrl,
    ).toBeNull();
  });

  it('links no document address that is neither this origin nor http(s)', () => {
    for (const bad of ['javascript:alert(1)', '//fremd.example/x.pdf', 'data:application/pdf,x']) {
      const parsed = questionnaireDefinitionSchema.parse({
        data: hubQuestions,
        form: { document_url: bad },
      });
      expect(parsed.documentUrl).toBeNull();
    }
    expect(
      questionnaireDefinitionSchema.parse({
        data: [],
        form: { document_url: 'https://cdn.example.de/angebot.pdf' },
      }).documentUrl,
    ).toBe('https://cdn.example.de/angebot.pdf');
  });

  it('refuses a question of an unknown type', () => {
    expect(
      questionnaireDefinitionSchema.safeParse([{ ...hubQuestions[0], type: 'slider' }]).success,
    ).toBe(false);
  });
});

describe('Tabaluga rules', () => {
  const countQuestion = questionSchema.parse({
    id: 1,
    sequence: 1,
    type: 'multiple-choice',
    question: 'Wie viele Kinder möchten Sie absichern?',
    options: { '1': 'Eins', '2': 'Zwei', '3': 'Drei oder mehr' },
    key: questionKeys.childCount,
  });

  it.each([
    ['Eins', 1],
    ['Zwei', 2],
    ['Drei oder mehr', 3],
    [undefined, 1],
    ['Unbekannt', 1],
  ])('answer %s to the child-count question shows %i date inputs', (answer, count) => {
    expect(childCount(countQuestion, answer)).toBe(count);
  });

  it("counts by the option's place, so reworded options keep their number", () => {
    const reworded = {
      ...countQuestion,
      options: ['Ein Kind', 'Zwei Kinder', 'Drei Kinder', 'Vier oder mehr'],
    };
    expect(childCount(reworded, 'Zwei Kinder')).toBe(2);
    expect(childCount(reworded, 'Vier oder mehr')).toBe(3);
  });

  it.each([
    ['25 €', '/universa/tabaluga/angebot-25.pdf'],
    ['50 €', '/universa/tabaluga/angebot-50.pdf'],
    ['100 €', '/universa/tabaluga/angebot-100.pdf'],
    ['150 €', '/universa/tabaluga/angebot-150.pdf'],
    ['75 €', '/universa/tabaluga/angebot-150.pdf'],
    [undefined, '/universa/tabaluga/angebot-150.pdf'],
  ])('third answer %s picks %s', (answer, pdf) => {
    expect(tabalugaOfferPdf(answer)).toBe(pdf);
  });
});

describe('questions found by key', () => {
  // Form 1 after staff added a question first and moved the amount before the dates.
  const edited = parseQuestions([
    { id: 11, sequence: 1, type: 'input', question: 'Neu?', options: {} },
    { ...hubQuestions[1], sequence: 2, key: questionKeys.childCount },
    { ...hubQuestions[0], sequence: 3, key: questionKeys.offerAmount },
    { ...hubQuestions[2], sequence: 4, key: questionKeys.childDates },
  ]);
  const answers = { 11: 'x', 1: 'Zwei', 3: '50 €', 2: ['2020-01-01'] };

  it('answers by role wherever the question now stands', () => {
    expect(answerByKey(edited, answers, questionKeys.childCount)).toBe('Zwei');
    expect(answerByKey(edited, answers, questionKeys.offerAmount)).toBe('50 €');
    expect(tabalugaOfferPdf(answerByKey(edited, answers, questionKeys.offerAmount))).toBe(
      '/universa/tabaluga/angebot-50.pdf',
    );
  });

  it('answers nothing for a role no question has (a questionnaire made in the desk)', () => {
    const plain = edited.map((q) => ({ ...q, key: null }));
    expect(answerByKey(plain, answers, questionKeys.childCount)).toBeUndefined();
  });
});

describe('answer payload', () => {
  const questions: Question[] = parseQuestions([
    ...hubQuestions,
    {
      id: 6,
      sequence: 4,
      type: 'multiple-choice',
      question: 'Leistungen?',
      options: { '1': 'A', '2': 'B', '3': 'C' },
      multipleAnswers: true,
    },
    { id: 8, sequence: 5, type: 'input', question: 'Jahr?', options: { '1': 'z. B. 1985' } },
  ]);

  it('has every question in order, with multi-select and dates joined and gaps as ""', () => {
    const payload = buildAnswerPayload(questions, {
      1: 'Zwei',
      2: ['2019-05-01', '2021-09-14'],
      6: ['A', 'C'],
      8: '  1985 ',
    });
    expect(payload).toEqual([
      { question_id: 1, answer: 'Zwei' },
      { question_id: 2, answer: '2019-05-01, 2021-09-14' },
      { question_id: 3, answer: '' },
      { question_id: 6, answer: 'A, C' },
      { question_id: 8, answer: '1985' },
    ]);
  });

  it('drops empty date inputs from the children list', () => {
    expect(buildAnswerPayload(questions, { 2: ['2019-05-01', ''] })[1]).toEqual({
      question_id: 2,
      answer: '2019-05-01',
    });
  });

  it('builds a submission the hub accepts, with names as create_user and ISO timestamps', () => {
    const now = new Date('2026-11-22T10:15:00.000Z');
    const submission = buildQuestionnaireSubmission({
      clientId: '0b8a1c52-5b0e-4f8e-9a61-2f7d8c7f4a10',
      formId: 1,
      questions,
      answers: { 1: 'Eins', 2: ['2020-01-31'], 3: '50 €' },
      contact: {
        first_name: 'Anna',
        last_name: 'Groß',
        adress: 'Lindenweg 4',
        postcode: '80331',
        city: 'München',
        phone: '+49 89 123456',
        email: 'anna@example.de',
        offer_info: false,
        terms_accepted: true,
        data_processing_consent: true,
      },
      now,
    });
    expect(submission).toMatchObject({
      form_id: 1,
      source: 'questionnaire',
      create_user: 'Anna Groß',
      changed_user: 'Anna Groß',
      create_date: '2026-11-22T10:15:00.000Z',
      changed_date: '2026-11-22T10:15:00.000Z',
      captured_at: '2026-11-22T10:15:00.000Z',
      consent_version: CONSENT_VERSION,
      adress: 'Lindenweg 4',
    });
    const parsed = parseSubmission(submission, () => now);
    expect(parsed.success).toBe(true);
  });
});

describe('submission content key', () => {
  const base = {
    clientId: '0b8a1c52-5b0e-4f8e-9a61-2f7d8c7f4a10',
    formId: 1,
    questions: [],
    answers: {},
    contact: {
      first_name: 'Anna',
      last_name: 'Groß',
      adress: 'Lindenweg 4',
      postcode: '80331',
      city: 'München',
      phone: '+49 89 123456',
      email: 'anna@example.de',
      offer_info: false,
      terms_accepted: true,
      data_processing_consent: true,
    },
  };

  it('ignores the id and the timestamps, and sees a changed field', () => {
    const first = buildQuestionnaireSubmission({ ...base, now: new Date('2026-01-01T00:00:00Z') });
    const later = buildQuestionnaireSubmission({
      ...base,
      clientId: 'f0e0c3a2-1111-4a4a-8b8b-000000000000',
      now: new Date('2026-01-02T00:00:00Z'),
    });
    const changed = buildQuestionnaireSubmission({
      ...base,
      contact: { ...base.contact, phone: '+49 89 654321' },
      now: new Date('2026-01-01T00:00:00Z'),
    });
    expect(submissionContentKey(later)).toBe(submissionContentKey(first));
    expect(submissionContentKey(changed)).not.toBe(submissionContentKey(first));
  });
});

describe('the year of birth (issue 36, item 8)', () => {
  const parse = (fields: Record<string, unknown>) =>
    questionSchema.parse({ id: 8, sequence: 5, type: 'input', question: 'Jahr?', ...fields });

  it('is the input question Analyse groups by birth decade, never the children’s dates', () => {
    expect(isBirthYearQuestion(parse({ analysis_bucket: 'birth_decade' }))).toBe(true);
    expect(isBirthYearQuestion(parse({ analysis_bucket: null }))).toBe(false);
    expect(isBirthYearQuestion(parse({}))).toBe(false);
    expect(
      isBirthYearQuestion(parse({ analysis_bucket: 'birth_decade', key: questionKeys.childDates })),
    ).toBe(false);
    expect(
      isBirthYearQuestion(parse({ type: 'multiple-choice', analysis_bucket: 'birth_decade' })),
    ).toBe(false);
  });

  it('reads required from the hub, and counts a question without it as required', () => {
    expect(parse({ required: false }).required).toBe(false);
    expect(parse({ required: true }).required).toBe(true);
    expect(parse({}).required).toBe(true);
  });

  it('takes four digits from 120 years ago to this year, with one German message otherwise', () => {
    const today = new Date(2026, 10, 28);
    const check = (text: string, required = true) => birthYearProblem(text, { required, today });
    expect(check('1984')).toBeUndefined();
    expect(check(' 1984 ')).toBeUndefined();
    expect(check('2026')).toBeUndefined();
    expect(check('1906')).toBeUndefined();
    expect(check('Test')).toBe(messages.birthYearInvalid);
    expect(check('84')).toBe(messages.birthYearInvalid);
    expect(check('19845')).toBe(messages.birthYearInvalid);
    expect(check('1905')).toBe(messages.birthYearImplausible);
    expect(check('2027')).toBe(messages.birthYearImplausible);
    expect(check('')).toBe(messages.birthYearRequired);
    expect(check('', false)).toBeUndefined();
  });
});

describe('the built questionnaire and the live one (issue 37)', () => {
  const built = questionnaireDefinitionSchema.parse({ data: hubQuestions, form: null });
  const [count, dates, amount] = built.questions as [Question, Question, Question];

  it('are the same questionnaire when only the sequence numbers differ', () => {
    const renumbered = built.questions.map((q) => ({ ...q, sequence: q.sequence * 10 }));
    expect(sameQuestionnaire(built, { ...built, questions: renumbered })).toBe(true);
  });

  it('differ by a word, an option, the order, a hint, the required mark or the document', () => {
    const changed = (questions: Question[], documentUrl: string | null = null) =>
      !sameQuestionnaire(built, { questions, documentUrl });
    expect(changed([{ ...count, question: 'Wie viele Kinder haben Sie?' }, dates, amount])).toBe(
      true,
    );
    expect(changed([{ ...count, options: ['Eins', 'Zwei'] }, dates, amount])).toBe(true);
    expect(changed([dates, count, amount])).toBe(true);
    expect(changed([{ ...count, information: 'Neu' }, dates, amount])).toBe(true);
    expect(changed([count, dates, { ...amount, required: false }])).toBe(true);
    expect(changed([count, dates])).toBe(true);
    expect(changed(built.questions, '/storage/v1/object/public/documents/forms/1/a.pdf')).toBe(
      true,
    );
  });

  it('keeps the answers to unchanged questions and goes on at the first open one', () => {
    const reworded = { ...amount, question: 'Welcher Betrag pro Monat?' };
    const carried = carryProgress(built.questions, [count, dates, reworded], {
      step: 3,
      answers: { 1: 'Zwei', 2: ['2019-05-01', '2021-09-14'], 3: '50 €' },
    });
    expect(carried).toEqual({
      step: 2,
      answers: { 1: 'Zwei', 2: ['2019-05-01', '2021-09-14'] },
      dropped: true,
    });
  });

  it('stays at the question the visitor is on when a question is added after it', () => {
    const added = { ...amount, id: 11, sequence: 4, question: 'Wie haben Sie uns gefunden?' };
    const carried = carryProgress(built.questions, [count, dates, amount, added], {
      step: 1,
      answers: { 1: 'Eins' },
    });
    expect(carried).toEqual({ step: 1, answers: { 1: 'Eins' }, dropped: false });
  });

  it('goes back to a question added before the one the visitor is on', () => {
    const added = { ...count, id: 11, key: null, question: 'Wie haben Sie uns gefunden?' };
    const carried = carryProgress(built.questions, [added, count, dates, amount], {
      step: 1,
      answers: { 1: 'Eins' },
    });
    expect(carried).toEqual({ step: 0, answers: { 1: 'Eins' }, dropped: false });
  });

  it('starts anew where nothing was answered yet', () => {
    const carried = carryProgress(built.questions, [amount, count], { step: 0, answers: {} });
    expect(carried).toEqual({ step: 0, answers: {}, dropped: false });
  });
});
