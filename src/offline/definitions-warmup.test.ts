import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadQuestionnaire, readDefinition } from './definitions.ts';
import { showsSameQuestionnaire, warmDefinition } from './definitions-warmup.ts';
import { offlineDb } from './offline-db.ts';
import { putDefinition } from './outbox-db.ts';

// The landing page's warm-up stores what the hub sent without zod; the questionnaire screen
// later reads that copy through the full schema. Together they must give the same questionnaire.

const question = {
  id: 1,
  sequence: 1,
  type: 'input',
  question: 'Wie heißen Sie?',
  options: ['Name'],
  multipleAnswers: null,
  information: null,
};

let nextFormId = 300;

afterEach(() => {
  vi.unstubAllGlobals();
});

function hubAnswers(reply: () => Response) {
  const calls: string[] = [];
  vi.stubGlobal('fetch', (url: string) => {
    calls.push(url);
    return Promise.resolve().then(reply);
  });
  return calls;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const offline = () => hubAnswers(() => Promise.reject(new TypeError('Failed to fetch')) as never);

describe('warmDefinition', () => {
  it('keeps the questions and the document where the questionnaire screen finds them offline', async () => {
    const formId = nextFormId++;
    const calls = hubAnswers(() =>
      json({ data: [question], form: { id: formId, document_url: '/dokumente/angebot.pdf' } }),
    );
    expect(await warmDefinition(formId, 'https://hub.example.de/basis')).toBe(true);
    expect(calls[0]).toBe(`https://hub.example.de/basis/api/forms/${formId}/questions`);

    offline();
    expect(await loadQuestionnaire(formId)).toEqual({
      questions: [expect.objectContaining({ question: 'Wie heißen Sie?', multipleAnswers: false })],
      documentUrl: 'https://hub.example.de/basis/dokumente/angebot.pdf',
    });
  });

  it('accepts a bare list of questions and drops a document address that is no address', async () => {
    const formId = nextFormId++;
    hubAnswers(() => json([question]));
    expect(await warmDefinition(formId, '')).toBe(true);
    hubAnswers(() => json({ data: [question], form: { document_url: 'javascript:alert(1)' } }));
    expect(await warmDefinition(formId, '')).toBe(true);
    expect((await offlineDb().definitions.get(formId))?.document_url).toBeNull();
  });

  it.each([
    ["a captive portal's page", () => new Response('<html>WLAN-Anmeldung</html>')],
    ['an error', () => json({ error: { code: 'internal', message: 'Fehler' } }, 503)],
    ['an empty list', () => json({ data: [], form: null })],
    ['something else', () => json({ data: [{ text: 'keine Frage' }] })],
  ])('keeps the older copy after %s', async (_name, reply) => {
    const formId = nextFormId++;
    await putDefinition(offlineDb(), {
      form_id: formId,
      questions: [{ ...question, question: 'Vom Gerät' }],
      fetched_at: 0,
    });
    hubAnswers(reply);
    expect(await warmDefinition(formId, '')).toBe(false);
    expect((await offlineDb().definitions.get(formId))?.questions).toEqual([
      { ...question, question: 'Vom Gerät' },
    ]);
  });
});

describe('showsSameQuestionnaire (issue 37)', () => {
  // The hub's reply as the database gives it: options keyed '1', '2', ..., nulls for defaults,
  // out of order. The light reading must agree with the schema, which the page shows from.
  const second: Record<string, unknown> = {
    ...question,
    id: 5,
    sequence: 2,
    type: 'multiple-choice',
    required: null,
    key: null,
  };
  const first: Record<string, unknown> = {
    ...question,
    id: 4,
    sequence: 1,
    type: 'multiple-choice',
    options: { '10': 'Zehn', '2': 'Zwei', '1': 'Eins' },
    analysis_bucket: 'birth_decade',
    required: false,
  };
  const reply = { form_id: 2, questions: [second, first], document_url: null, fetched_at: 0 };
  const shown = readDefinition(reply)!;

  it('reads a reply as the schema does', () => {
    expect(shown.questions.map((q) => q.id)).toEqual([4, 5]);
    expect(showsSameQuestionnaire(reply, shown)).toBe(true);
  });

  it('sees a changed text, option, order or document', () => {
    const changed = (questions: unknown[], documentUrl: string | null = null) =>
      !showsSameQuestionnaire({ ...reply, questions, document_url: documentUrl }, shown);
    expect(changed([second, { ...first, question: 'Anders?' }])).toBe(true);
    expect(changed([second, { ...first, options: { '1': 'Eins', '2': 'Zwei' } }])).toBe(true);
    expect(changed([{ ...second, sequence: 0 }, first])).toBe(true);
    expect(changed([second, first], '/dokumente/angebot.pdf')).toBe(true);
  });

  it('counts a reply it does not understand as different', () => {
    for (const odd of [{ ...first, options: 7 }, { ...first, id: '4' }, null]) {
      expect(showsSameQuestionnaire({ ...reply, questions: [second, odd] }, shown)).toBe(false);
    }
  });
});
