import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestHub, type TestHub } from '../../tests/helpers/hub.ts';
import type { Columns } from '../db/table-rows.ts';

describe('forms API', () => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await createTestHub();
  });
  afterAll(() => hub.close());

  interface QuestionsReply {
    data: { id: number; sequence: number; question: string; key: string | null }[];
    form: { id: number; title: string; document_url: string | null };
  }

  it('returns the seeded questions of a form in sequence order, with the form', async () => {
    await hub.db.query('update public.questions set sequence = 3 where id = 1');
    const res = await hub.app.inject({ method: 'GET', url: '/api/forms/1/questions' });
    expect(res.statusCode).toBe(200);
    const { data: questions, form } = res.json() as QuestionsReply;
    expect(form).toEqual({ id: 1, title: 'Tabaluga', document_url: null });
    expect(questions.map((q) => q.id)).toEqual([2, 3, 1]);
    expect(questions[2]).toMatchObject({
      question: 'Wie viele Kinder möchten Sie absichern?',
      type: 'multiple-choice',
      options: { '1': 'Eins', '2': 'Zwei', '3': 'Drei oder mehr' },
      multipleAnswers: false,
    });
    await hub.db.query('update public.questions set sequence = 1 where id = 1');
  });

  it('names the Tabaluga questions the flow depends on by their stable keys', async () => {
    const res = await hub.app.inject({ method: 'GET', url: '/api/forms/1/questions' });
    const { data } = res.json() as QuestionsReply;
    expect(Object.fromEntries(data.map((q) => [q.id, q.key]))).toEqual({
      1: 'tabaluga_child_count',
      2: 'tabaluga_child_dates',
      3: 'tabaluga_offer_amount',
    });
    const pkv = (await hub.app.inject({ method: 'GET', url: '/api/forms/2/questions' })).json();
    expect((pkv as QuestionsReply).data.every((q) => q.key === null)).toBe(true);
  });

  it('tells the page which questions are optional and which one asks for the year of birth', async () => {
    const res = await hub.app.inject({ method: 'GET', url: '/api/forms/2/questions' });
    const { data } = res.json() as {
      data: { id: number; required: boolean; analysis_bucket: string | null }[];
    };
    const byId = new Map(data.map((q) => [q.id, q]));
    expect(byId.get(8)).toMatchObject({ required: true, analysis_bucket: 'birth_decade' });
    expect(byId.get(6)).toMatchObject({ required: false, analysis_bucket: null });
    expect(byId.get(10)).toMatchObject({ required: false, analysis_bucket: null });
  });

  it("serves an edit at once, and the form's document as its public storage address", async () => {
    await hub.db.query(
      `update public.forms set document = 'forms/2/1234-Angebot.pdf' where id = 2`,
    );
    await hub.db.query(`update public.questions set question = 'Geändert?' where id = 4`);
    try {
      const res = await hub.app.inject({ method: 'GET', url: '/api/forms/2/questions' });
      expect(res.headers['cache-control']).toBe('no-store');
      const { data, form } = res.json() as QuestionsReply;
      expect(data[0]!.question).toBe('Geändert?');
      expect(form.document_url).toBe(
        '/storage/v1/object/public/documents/forms/2/1234-Angebot.pdf',
      );
      const single = await hub.app.inject({ method: 'GET', url: '/api/forms/2' });
      expect(single.json()).toMatchObject({
        document: 'forms/2/1234-Angebot.pdf',
        document_url: form.document_url,
      });
    } finally {
      await hub.db.query('update public.forms set document = null where id = 2');
      await hub.db.query(
        `update public.questions set question = 'Wie sind Sie derzeit beschäftigt?' where id = 4`,
      );
    }
  });

  it('answers a form without questions with an empty list, not a 404', async () => {
    const created = await hub.db.query<Columns<'forms', 'id'>>(
      `insert into public.forms (title, description) values ('Leer', 'Noch ohne Fragen') returning id`,
    );
    const id = created.rows[0]!.id;
    try {
      const res = await hub.app.inject({ method: 'GET', url: `/api/forms/${id}/questions` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: [], form: { id, title: 'Leer', document_url: null } });
    } finally {
      await hub.db.query('delete from public.forms where id = $1', [id]);
    }
  });

  it('seeds the PKV form with multiple-choice, multi-select and input questions', async () => {
    const res = await hub.app.inject({ method: 'GET', url: '/api/forms/2/questions' });
    const questions = (res.json() as { data: { type: string; multipleAnswers: boolean }[] }).data;
    expect(questions.length).toBeGreaterThanOrEqual(6);
    expect(questions.some((q) => q.type === 'input')).toBe(true);
    expect(questions.some((q) => q.type === 'multiple-choice' && q.multipleAnswers)).toBe(true);
    expect(questions.some((q) => q.type === 'multiple-choice' && !q.multipleAnswers)).toBe(true);
  });

  it('lists forms, with their questions on request', async () => {
    const plain = await hub.app.inject({ method: 'GET', url: '/api/forms' });
    expect((plain.json() as { id: number }[]).map((f) => f.id)).toEqual([1, 2]);
    expect(plain.json()[0]).not.toHaveProperty('questions');
    const withQuestions = await hub.app.inject({
      method: 'GET',
      url: '/api/forms?include=questions',
    });
    const forms = withQuestions.json() as { id: number; questions: { form_id: number }[] }[];
    expect(forms[0]!.questions).toHaveLength(3);
    expect(forms[1]!.questions.every((q) => q.form_id === 2)).toBe(true);
  });

  it('answers an unknown form with 404 and a bad id with 400, both as JSON errors', async () => {
    const unknown = await hub.app.inject({ method: 'GET', url: '/api/forms/999/questions' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({
      error: { code: 'unknown_form', message: 'Fragebogen 999 gibt es nicht.' },
    });
    const bad = await hub.app.inject({ method: 'GET', url: '/api/forms/abc/questions' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('validation_failed');
    const badInclude = await hub.app.inject({
      method: 'GET',
      url: '/api/forms?include=everything',
    });
    expect(badInclude.statusCode).toBe(400);
  });

  it('answers unknown API paths with a JSON 404, never with the app page', async () => {
    const res = await hub.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/json');
  });

  it('sends security headers', async () => {
    const res = await hub.app.inject({ method: 'GET', url: '/api/forms' });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });
});
