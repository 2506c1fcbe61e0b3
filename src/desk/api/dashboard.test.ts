import type { SupabaseClient } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { readCounts } from './dashboard.ts';
import type { Database } from '../../domain/database.types.ts';

// The dashboard's figures come from functions that count in the database: with 100,000 customers
// an exact count of the `users` table through PostgREST also built a page of a thousand ids
// (issue 37).
describe('readCounts', () => {
  it('counts the customers with customer_count and reads no table', async () => {
    const called: string[] = [];
    const answers: Record<string, unknown> = {
      analysis_overview: [],
      customer_count: 100_000,
      callbacks_waiting: 3,
    };
    const client = {
      rpc: (name: string) => {
        called.push(name);
        return Promise.resolve({ data: answers[name], error: null });
      },
      from: (table: string) => {
        throw new Error(`Tabelle ${table} gelesen`);
      },
    } as unknown as SupabaseClient<Database>;
    const counts = await readCounts(client, { today: '2026-11-28', weekStart: '2026-11-22' });
    expect(counts).toEqual({
      leadsToday: 0,
      leadsLastWeek: 0,
      customers: 100_000,
      callbacksWaiting: 3,
    });
    expect(called.sort()).toEqual([
      'analysis_overview',
      'analysis_overview',
      'callbacks_waiting',
      'customer_count',
    ]);
  });
});
