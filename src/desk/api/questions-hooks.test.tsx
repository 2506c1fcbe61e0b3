import '../../testing/jsdom-beside-server.ts';
import type { SupabaseClient } from '@supabase/supabase-js';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createAccount,
  startGatewayServer,
  type GatewayServer,
} from '../../../tests/helpers/gateway-server.ts';
import { supabaseClientWithKey } from '../../../tests/helpers/supabase.ts';
import type { Database } from '../../domain/database.types.ts';
import {
  questionKeys,
  useDeleteQuestion,
  useFormQuestions,
  useMoveQuestion,
  useRefreshQuestions,
  type QuestionRow,
} from './questions.ts';
import { useAnalysisQuestions } from './analysis.ts';
import { SupabaseContext } from './supabase-context.ts';

// The hooks with the real supabase-js against the test server: the order the database keeps,
// move_question's answer, the refusal of a keyed question's delete, and one read for the editor
// and Analyse. The client's requests are counted on its way out (the network, not the database).

let server: GatewayServer;
let client: SupabaseClient<Database>;
/** The questions reads the client sent, as `GET /rest/v1/questions?…`. */
const reads: string[] = [];
let formId = 0;

beforeAll(async () => {
  server = await startGatewayServer('pglite', undefined, { name: 'questions', accounts: false });
  const staff = await createAccount(server.db, 'team@example.de', 'staff');
  client = supabaseClientWithKey(server.url, server.anonKey, staff.accessToken, {
    fetch: (input, init) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      if (request.method === 'GET' && url.pathname === '/rest/v1/questions') reads.push(url.search);
      return fetch(request);
    },
  });
});
afterAll(() => server?.close());

/** A form of three questions: 1 and 2 free text, 3 keyed (a flow depends on it). */
beforeEach(async () => {
  reads.length = 0;
  await server.db.query('delete from public.forms where title = $1', ['Testbogen']);
  const form = await server.db.query<{ id: number }>(
    `insert into public.forms (title) values ('Testbogen') returning id`,
  );
  formId = form.rows[0]!.id;
  // Inserted out of order: the sequence, not the insertion, orders them.
  for (const [sequence, key] of [
    [3, 'testbogen_frage'],
    [1, null],
    [2, null],
  ] as const) {
    await server.db.query(
      `insert into public.questions (form_id, question, type, sequence, key)
       values ($1, $2, 'input', $3, $4)`,
      [formId, `Frage ${sequence}`, sequence, key],
    );
  }
});
afterEach(cleanup);

function setup() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <SupabaseContext.Provider value={client}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </SupabaseContext.Provider>
  );
  return { queryClient, wrapper };
}

const texts = (rows: readonly { question: string }[] | undefined) => rows?.map((q) => q.question);

describe('desk question hooks', () => {
  it("reads one form's questions in sequence order", async () => {
    const { wrapper } = setup();
    const { result } = renderHook(() => useFormQuestions(formId), { wrapper });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(texts(result.current.data)).toEqual(['Frage 1', 'Frage 2', 'Frage 3']);
    expect(result.current.data?.every((question) => question.form_id === formId)).toBe(true);
  });

  it('moves through move_question and shows the order it answers without another read', async () => {
    const { queryClient, wrapper } = setup();
    const { result } = renderHook(
      () => ({ list: useFormQuestions(formId), move: useMoveQuestion() }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.list.isSuccess).toBe(true));
    const second = result.current.list.data!.find((q) => q.question === 'Frage 2')!;
    reads.length = 0;
    await result.current.move.mutateAsync({ question: second, steps: -1 });
    expect(texts(queryClient.getQueryData<QuestionRow[]>(questionKeys.list(formId)))).toEqual([
      'Frage 2',
      'Frage 1',
      'Frage 3',
    ]);
    expect(reads).toEqual([]);
    const stored = await server.db.query<{ question: string }>(
      'select question from public.questions where form_id = $1 order by sequence',
      [formId],
    );
    expect(texts(stored.rows)).toEqual(['Frage 2', 'Frage 1', 'Frage 3']);
  });

  it("keeps the database's code of a refused delete for the German message", async () => {
    const { wrapper } = setup();
    const { result } = renderHook(
      () => ({ list: useFormQuestions(formId), remove: useDeleteQuestion() }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.list.isSuccess).toBe(true));
    const keyed = result.current.list.data!.find((q) => q.key === 'testbogen_frage')!;
    await expect(result.current.remove.mutateAsync(keyed)).rejects.toMatchObject({
      code: 'UQ001',
    });
    const left = await server.db.query('select 1 from public.questions where id = $1', [keyed.id]);
    expect(left.rows).toHaveLength(1);
  });

  it('gives Analyse the editor’s questions from one cache entry, so an edit reaches both (issue 21, item 10)', async () => {
    const { wrapper } = setup();
    const { result } = renderHook(
      () => ({
        editor: useFormQuestions(formId),
        analysis: useAnalysisQuestions(formId),
        refresh: useRefreshQuestions(),
      }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.analysis.data).toHaveLength(3));
    expect(reads).toHaveLength(1);
    expect(result.current.analysis.data?.[0]).toEqual({
      id: expect.any(Number),
      question: 'Frage 1',
      type: 'input',
      key: null,
    });

    await server.db.query(
      `update public.questions set question = 'Frage 1, neu formuliert'
        where form_id = $1 and sequence = 1`,
      [formId],
    );
    await result.current.refresh(formId);
    await waitFor(() =>
      expect(result.current.analysis.data?.[0]?.question).toBe('Frage 1, neu formuliert'),
    );
    expect(result.current.editor.data?.[0]?.question).toBe('Frage 1, neu formuliert');
    expect(reads).toHaveLength(2);
  });
});
