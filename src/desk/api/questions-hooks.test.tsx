// @vitest-environment jsdom
import type { SupabaseClient } from '@supabase/supabase-js';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
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

// The hooks against a stand-in supabase client that records the calls it gets.
const row = (id: number, sequence: number): QuestionRow => ({
  id,
  form_id: 5,
  question: `Frage ${id}`,
  type: 'input',
  options: {},
  required: false,
  multipleAnswers: false,
  sequence,
  information: null,
  custome_description: null,
  key: null,
});

/** A query builder whose every step is recorded and which answers `result` when awaited. */
function builder(calls: unknown[][], result: unknown) {
  const chain: Record<string, unknown> = {
    then: (resolve: (value: unknown) => unknown) => Promise.resolve(result).then(resolve),
  };
  for (const step of ['select', 'eq', 'order', 'delete']) {
    chain[step] = (...args: unknown[]) => {
      calls.push([step, ...args]);
      return chain;
    };
  }
  return chain;
}

function setup(client: object) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <SupabaseContext.Provider value={client as SupabaseClient}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </SupabaseContext.Provider>
  );
  return { queryClient, wrapper };
}

afterEach(cleanup);

describe('desk question hooks', () => {
  it("reads one form's questions in sequence order", async () => {
    const calls: unknown[][] = [];
    const from = vi.fn(() => builder(calls, { data: [row(1, 1)], error: null }));
    const { wrapper } = setup({ from });
    const { result } = renderHook(() => useFormQuestions(5), { wrapper });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(from).toHaveBeenCalledWith('questions');
    expect(calls.slice(0, 3)).toEqual([
      ['select', '*'],
      ['eq', 'form_id', 5],
      ['order', 'sequence'],
    ]);
  });

  it('moves through move_question and shows the order it answers without another read', async () => {
    const rpc = vi.fn(() => Promise.resolve({ data: [row(8, 2), row(3, 1)], error: null }));
    const from = vi.fn();
    const { queryClient, wrapper } = setup({ rpc, from });
    const { result } = renderHook(() => useMoveQuestion(), { wrapper });
    await result.current.mutateAsync({ question: row(3, 2), steps: -1 });
    expect(rpc).toHaveBeenCalledWith('move_question', { question_id: 3, steps: -1 });
    expect(queryClient.getQueryData<QuestionRow[]>(questionKeys.list(5))?.map((q) => q.id)).toEqual(
      [3, 8],
    );
    expect(from).not.toHaveBeenCalled();
  });

  it("keeps the database's code of a refused delete for the German message", async () => {
    const calls: unknown[][] = [];
    const refusal = { code: 'UQ001', message: 'question is keyed' };
    const from = vi.fn(() => builder(calls, { data: null, error: refusal }));
    const { wrapper } = setup({ from });
    const { result } = renderHook(() => useDeleteQuestion(), { wrapper });
    await expect(result.current.mutateAsync({ id: 2, form_id: 1 })).rejects.toMatchObject({
      code: 'UQ001',
    });
    expect(calls).toContainEqual(['eq', 'id', 2]);
  });

  it('gives Analyse the editor’s questions from one cache entry, so an edit reaches both (issue 21, item 10)', async () => {
    const calls: unknown[][] = [];
    let stored = [row(1, 1)];
    const from = vi.fn(() => builder(calls, { data: stored, error: null }));
    const { wrapper } = setup({ from });
    const { result } = renderHook(
      () => ({
        editor: useFormQuestions(5),
        analysis: useAnalysisQuestions(5),
        refresh: useRefreshQuestions(),
      }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.analysis.data).toHaveLength(1));
    expect(from).toHaveBeenCalledTimes(1);
    expect(result.current.analysis.data).toEqual([
      { id: 1, question: 'Frage 1', type: 'input', key: null },
    ]);

    stored = [{ ...row(1, 1), question: 'Frage 1, neu formuliert' }];
    await result.current.refresh(5);
    await waitFor(() =>
      expect(result.current.analysis.data?.[0]?.question).toBe('Frage 1, neu formuliert'),
    );
    expect(from).toHaveBeenCalledTimes(2);
  });
});
