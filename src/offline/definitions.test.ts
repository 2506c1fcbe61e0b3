import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadQuestionnaire } from './definitions.ts';
import { offlineDb } from './offline-db.ts';
import { putDefinition } from './outbox-db.ts';

const question = {
  id: 1,
  sequence: 1,
  type: 'input',
  question: 'Wie heißen Sie?',
  options: ['Name'],
  multipleAnswers: false,
  information: '',
};

let nextFormId = 100;

afterEach(() => {
  vi.unstubAllGlobals();
});

function hubAnswers(reply: () => Response | Promise<Response>) {
  vi.stubGlobal('fetch', () => Promise.resolve().then(reply));
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

async function storeOnDevice(formId: number, text: string) {
  await putDefinition(offlineDb(), {
    form_id: formId,
    questions: [{ ...question, question: text }],
    fetched_at: 0,
  });
}

describe('loadQuestionnaire: the hub first, the device copy when the hub is not reached', () => {
  it("takes the hub's questions and keeps them on the device", async () => {
    const formId = nextFormId++;
    hubAnswers(() => json([question]));
    expect(await loadQuestionnaire(formId)).toMatchObject({
      questions: [{ question: 'Wie heißen Sie?' }],
      documentUrl: null,
    });

    hubAnswers(() => Promise.reject(new TypeError('Failed to fetch')));
    expect(await loadQuestionnaire(formId)).toMatchObject({
      questions: [{ question: 'Wie heißen Sie?' }],
    });
  });

  it("keeps the form's document with the questions, for the finish screen offline", async () => {
    const formId = nextFormId++;
    const documentUrl = '/storage/v1/object/public/documents/forms/7/abc-Angebot.pdf';
    hubAnswers(() =>
      json({ data: [question], form: { id: formId, title: 'Neu', document_url: documentUrl } }),
    );
    expect(await loadQuestionnaire(formId)).toEqual({
      questions: [expect.objectContaining({ question: 'Wie heißen Sie?', key: null })],
      documentUrl,
    });

    hubAnswers(() => Promise.reject(new TypeError('Failed to fetch')));
    expect((await loadQuestionnaire(formId)).documentUrl).toBe(documentUrl);
  });

  it('serves an edit made online the next time, over the older device copy', async () => {
    const formId = nextFormId++;
    await storeOnDevice(formId, 'Alte Fassung');
    hubAnswers(() => json({ data: [{ ...question, question: 'Neue Fassung' }], form: null }));
    expect((await loadQuestionnaire(formId)).questions[0]!.question).toBe('Neue Fassung');
  });

  it.each([
    ['no connection', () => Promise.reject(new TypeError('Failed to fetch'))],
    ['a 503', () => json({ error: { code: 'internal', message: 'Fehler' } }, 503)],
    ['a 429', () => new Response('', { status: 429 })],
    ["a captive portal's page", () => new Response('<html>WLAN-Anmeldung</html>')],
  ])('uses the device copy after %s', async (_name, reply) => {
    const formId = nextFormId++;
    await storeOnDevice(formId, 'Vom Gerät');
    hubAnswers(reply);
    expect(await loadQuestionnaire(formId)).toMatchObject({
      questions: [{ question: 'Vom Gerät' }],
      documentUrl: null,
    });
  });

  it('says what happened and that the device has no copy', async () => {
    hubAnswers(() => new Response('', { status: 502 }));
    await expect(loadQuestionnaire(nextFormId++)).rejects.toThrow(
      'Der Server ist gerade nicht erreichbar. Dieser Fragebogen ist auf diesem Gerät noch nicht gespeichert. Bitte öffnen Sie ihn einmal mit Internetverbindung.',
    );
  });

  it("believes the hub over the device copy when it says the questionnaire doesn't exist", async () => {
    const formId = nextFormId++;
    await storeOnDevice(formId, 'Vom Gerät');
    hubAnswers(() =>
      json(
        { error: { code: 'unknown_form', message: `Fragebogen ${formId} gibt es nicht.` } },
        404,
      ),
    );
    await expect(loadQuestionnaire(formId)).rejects.toThrow(`Fragebogen ${formId} gibt es nicht.`);
  });
});
