import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { questionnaireLead } from '../../src/testing/lead-fixtures.ts';
import {
  createAccount,
  startGatewayServer,
  type AccountRole,
  type GatewayServer,
} from '../helpers/gateway-server.ts';
import { testSecret } from '../helpers/hub.ts';
import { supabaseClient } from '../helpers/supabase.ts';

// The database side of Survey Desk's questionnaire editing (supabase/migrations/
// 20261123130000_desk_data.sql): a form's questions numbered 1..n by triggers, move_question(),
// keyed questions that cannot be deleted, answers that keep their question's text. Driven through
// the real supabase-js over HTTP, as the desk drives it.

interface QuestionRow {
  id: number;
  question: string;
  sequence: number;
}

describe.each(['pglite', 'postgres'] as const)('questionnaire editing on %s', (kind) => {
  let server: GatewayServer;
  let db: Database;
  let staff: SupabaseClient;
  let counter = 0;

  async function signedIn(role: AccountRole) {
    counter += 1;
    const account = await createAccount(db, `${role}-${counter}-${kind}@example.de`, role);
    return supabaseClient(server.url, testSecret, account.accessToken);
  }

  beforeAll(async () => {
    server = await startGatewayServer(kind);
    db = server.db;
    staff = await signedIn('staff');
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  /** A new form with `count` multiple-choice questions 'Frage 1' ... in that order. */
  async function formWithQuestions(count: number) {
    counter += 1;
    const { data: form, error } = await staff
      .from('forms')
      .insert({ title: `Testbogen ${kind} ${counter}`, description: 'Ein Fragebogen zum Testen.' })
      .select()
      .single<{ id: number }>();
    if (error) throw error;
    for (let n = 1; n <= count; n += 1) {
      const inserted = await staff.from('questions').insert({
        form_id: form.id,
        question: `Frage ${n}`,
        type: 'multiple-choice',
        options: { '1': 'Ja', '2': 'Nein' },
        sequence: n,
      });
      if (inserted.error) throw inserted.error;
    }
    return form.id;
  }

  async function questionsOf(formId: number): Promise<QuestionRow[]> {
    const { data, error } = await staff
      .from('questions')
      .select('id, question, sequence')
      .eq('form_id', formId)
      .order('sequence');
    if (error) throw error;
    return data as QuestionRow[];
  }

  const texts = (rows: QuestionRow[]) => rows.map((row) => row.question);
  const sequences = (rows: QuestionRow[]) => rows.map((row) => row.sequence);

  it('places a new question at its position and keeps the numbering gapless', async () => {
    const formId = await formWithQuestions(3);
    const { data: added, error } = await staff
      .from('questions')
      .insert({ form_id: formId, question: 'Neu vorn', type: 'input', sequence: 1 })
      .select('sequence')
      .single();
    expect(error).toBeNull();
    expect(added).toEqual({ sequence: 1 });
    // Far beyond the end lands at the end.
    await staff
      .from('questions')
      .insert({ form_id: formId, question: 'Neu hinten', type: 'input', sequence: 99 });
    const rows = await questionsOf(formId);
    expect(texts(rows)).toEqual(['Neu vorn', 'Frage 1', 'Frage 2', 'Frage 3', 'Neu hinten']);
    expect(sequences(rows)).toEqual([1, 2, 3, 4, 5]);
  });

  it('moves a question by PATCH of its sequence and by move_question, the others shift', async () => {
    const formId = await formWithQuestions(4);
    const [first] = await questionsOf(formId);
    const patched = await staff
      .from('questions')
      .update({ sequence: 3 })
      .eq('id', first!.id)
      .select('sequence')
      .single();
    expect(patched.data).toEqual({ sequence: 3 });
    expect(texts(await questionsOf(formId))).toEqual(['Frage 2', 'Frage 3', 'Frage 1', 'Frage 4']);

    const { data, error } = await staff.rpc('move_question', { question_id: first!.id, steps: -1 });
    expect(error).toBeNull();
    expect(texts(data as QuestionRow[])).toEqual(['Frage 2', 'Frage 1', 'Frage 3', 'Frage 4']);
    expect(sequences(data as QuestionRow[])).toEqual([1, 2, 3, 4]);

    // At the end a move down stays put.
    const last = (await questionsOf(formId)).at(-1)!;
    const stay = await staff.rpc('move_question', { question_id: last.id, steps: 1 });
    expect(texts(stay.data as QuestionRow[])).toEqual(['Frage 2', 'Frage 1', 'Frage 3', 'Frage 4']);
  });

  it('closes the gap of a deleted question', async () => {
    const formId = await formWithQuestions(4);
    const [, second, , fourth] = await questionsOf(formId);
    await staff.from('questions').delete().in('id', [second!.id, fourth!.id]);
    const rows = await questionsOf(formId);
    expect(texts(rows)).toEqual(['Frage 1', 'Frage 3']);
    expect(sequences(rows)).toEqual([1, 2]);
  });

  it('keeps the answers of a deleted question readable with its text', async () => {
    const formId = await formWithQuestions(2);
    const [kept, deleted] = await questionsOf(formId);
    const lead = questionnaireLead({
      form_id: formId,
      answers: [
        { question_id: kept!.id, answer: 'Ja' },
        { question_id: deleted!.id, answer: 'Nein' },
      ],
    });
    const posted = await fetch(`${server.url}/api/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(lead),
    });
    expect(posted.status).toBe(201);

    const removed = await staff.from('questions').delete().eq('id', deleted!.id);
    expect(removed.error).toBeNull();
    // The question's text changes later too: the answer keeps what the visitor was asked.
    await staff.from('questions').update({ question: 'Frage 1, neu gefasst' }).eq('id', kept!.id);

    // As the desk reads them: through customer_leads (staff cannot read the tables directly).
    const owner = await db.query<{ user_id: number }>(
      'select user_id from public.responses where client_id = $1',
      [lead.client_id],
    );
    const { data, error } = await staff
      .rpc('customer_leads', { customer_id: owner.rows[0]!.user_id })
      .select('form_id, answers')
      .eq('form_id', formId)
      .single();
    expect(error).toBeNull();
    const answers = [...(data!.answers as { answer: string }[])].sort((a, b) =>
      a.answer.localeCompare(b.answer),
    );
    expect(answers).toEqual([
      {
        id: expect.any(Number),
        answer: 'Ja',
        question_id: kept!.id,
        question_text: 'Frage 1',
        questions: { question: 'Frage 1, neu gefasst', sequence: 1 },
      },
      {
        id: expect.any(Number),
        answer: 'Nein',
        question_id: null,
        question_text: 'Frage 2',
        questions: null,
      },
    ]);
  });

  it("refuses to delete a question the Tabaluga flow depends on, with the desk's code", async () => {
    const keyed = await db.query<{ id: number; key: string }>(
      'select id, key from public.questions where key is not null order by id',
    );
    expect(keyed.rows.map((row) => row.key)).toEqual([
      'tabaluga_child_count',
      'tabaluga_child_dates',
      'tabaluga_offer_amount',
    ]);
    for (const { id } of keyed.rows) {
      const { error, status } = await staff.from('questions').delete().eq('id', id);
      expect(error?.code).toBe('UQ001');
      expect(status).toBe(400);
    }
    expect(await db.query('select id from public.questions where key is not null')).toMatchObject({
      rows: { length: 3 },
    });
  });

  it('lets neither anon nor a pending account reorder', async () => {
    const formId = await formWithQuestions(2);
    const [first] = await questionsOf(formId);
    const anon = await supabaseClient(server.url, testSecret);
    const pending = await signedIn('pending');
    const asAnon = await anon.rpc('move_question', { question_id: first!.id, steps: 1 });
    expect(asAnon.error).not.toBeNull();
    const asPending = await pending.rpc('move_question', { question_id: first!.id, steps: 1 });
    // Row-level security hides the question: it does not exist for this caller.
    expect(asPending.error?.code).toBe('P0002');
    expect(texts(await questionsOf(formId))).toEqual(['Frage 1', 'Frage 2']);
  });

  it('leaves a gapless, unique order after concurrent reorders by two editors', async () => {
    const formId = await formWithQuestions(6);
    const other = await signedIn('admin');
    const ids = (await questionsOf(formId)).map((row) => row.id);
    const moves = Array.from({ length: 24 }, (_, n) => ({
      client: n % 2 === 0 ? staff : other,
      id: ids[(n * 5) % ids.length]!,
      steps: n % 3 === 0 ? 2 : -1,
    }));
    const results = await Promise.all(
      moves.map(({ client, id, steps }) => client.rpc('move_question', { question_id: id, steps })),
    );
    expect(results.map((result) => result.error)).toEqual(moves.map(() => null));
    const rows = await questionsOf(formId);
    expect(sequences(rows)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(rows.map((row) => row.id).sort((a, b) => a - b)).toEqual(ids);
  });
});
