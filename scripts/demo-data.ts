import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import ws from 'ws';

// Demo customers with their leads and answers, so that a new installation shows a working Survey
// Desk. Made through the Supabase API with the service role (the running server's gateway, or
// a hosted project) by the database function seed_demo, never around it: the same triggers and
// checks apply as to real data. Names, places and the leads' mix: see the migration
// 20261127100000_seed_demo.sql.
//
// Every demo address ends in `@demo.example` (a reserved name that can never receive mail), which
// is how `--remove` finds them again.

/**
 * A client with the service role (it bypasses row-level security: the seed writes customers and
 * leads as the hub does). Node 20 has no WebSocket of its own, so realtime gets `ws`.
 */
export function serviceClient(url: string, serviceRoleKey: string): SupabaseClient {
  return createClient(url, serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: ws as never },
  });
}

export const demoDomain = 'demo.example';
export const maxDemoCount = 100_000;

/** A small seeded generator (mulberry32): the same seed gives the same demo data. */
export function demoRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(list: readonly T[]): T => list[int(0, list.length - 1)]!;
  return { next, int, pick };
}

async function must<T>(call: PromiseLike<{ data: T | null; error: { message: string } | null }>) {
  const { data, error } = await call;
  if (error) throw new Error(error.message);
  return data as T;
}

export interface SeedOptions {
  count: number;
  /**
   * Customers per request (one transaction each; at most 20,000). 1,000 stays well inside the
   * service role's statement timeout of 8 s on PostgreSQL and hosted Supabase (5,000 did not).
   */
  chunk?: number;
  seed?: number;
  now?: number;
  onProgress?: (done: number, total: number) => void;
}

/**
 * Adds `count` demo customers, each with one or two leads and their answers. The database makes
 * them (rpc seed_demo, set-based: 20261127100000_seed_demo.sql), `chunk` customers per request;
 * 1,000 customers per request sent as rows took over 25 minutes for 100,000 on PGlite.
 */
export async function seedDemo(supabase: SupabaseClient, options: SeedOptions) {
  const { count, chunk = 1000, now = Date.now() } = options;
  if (!Number.isInteger(count) || count < 1 || count > maxDemoCount) {
    throw new RangeError(`Anzahl muss zwischen 1 und ${maxDemoCount} liegen.`);
  }
  if (!Number.isInteger(chunk) || chunk < 1 || chunk > 20_000) {
    throw new RangeError('Blockgröße muss zwischen 1 und 20000 liegen.');
  }
  const random = demoRandom(options.seed ?? now);
  // Addresses must differ from those of an earlier run: a tag per run.
  const runTag = (options.seed ?? now).toString(36).slice(-5);
  const at = new Date(now).toISOString();
  let responses = 0;
  let answers = 0;
  for (let start = 0; start < count; start += chunk) {
    const size = Math.min(chunk, count - start);
    const [added] = await must<{ customers: number; responses: number; answers: number }[]>(
      supabase.rpc('seed_demo', {
        count: size,
        seed: random.next() * 2 - 1,
        run_tag: runTag,
        first_index: start,
        at,
      }),
    );
    responses += added?.responses ?? 0;
    answers += added?.answers ?? 0;
    options.onProgress?.(start + size, count);
  }
  return { customers: count, responses, answers };
}

/** Deletes every demo customer and their leads (answers go with their lead). */
export async function removeDemo(supabase: SupabaseClient) {
  const pattern = `%@${demoDomain}`;
  const leads = await supabase.from('responses').delete({ count: 'exact' }).like('email', pattern);
  if (leads.error) throw new Error(leads.error.message);
  const customers = await supabase.from('users').delete({ count: 'exact' }).like('email', pattern);
  if (customers.error) throw new Error(customers.error.message);
  return { customers: customers.count ?? 0, responses: leads.count ?? 0 };
}
