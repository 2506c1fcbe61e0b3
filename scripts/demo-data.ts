import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Database, Queryable } from '../server/db/database.ts';

// Demo customers with their leads and answers, so that a new installation shows a working Survey
// Desk. Made in the database by the seed-only function seed_demo (supabase/seed-demo.sql), on
// the database's own connection: the same triggers and checks apply as to real data. The
// generators exist only inside the transaction that uses them; the production schema
// (supabase/migrations, supabase/schemas) never has them.
//
// Every demo address ends in `@demo.example` (a reserved name that can never receive mail), which
// is how `--remove` finds them again.

export const demoSeedFile = fileURLToPath(new URL('../supabase/seed-demo.sql', import.meta.url));
export const demoDomain = 'demo.example';
export const maxDemoCount = 100_000;

const dropGenerators = `
  drop function public.seed_demo(integer, double precision, text, integer, timestamptz);
  drop function public.demo_answer(text, jsonb, boolean, text, timestamptz);`;

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

export interface SeedOptions {
  count: number;
  /**
   * Customers per transaction (at most 20,000). 1,000 keeps each transaction short (about a
   * second on PostgreSQL), so the running server's own work waits little behind it.
   */
  chunk?: number;
  seed?: number;
  now?: number;
  onProgress?: (done: number, total: number) => void;
}

/**
 * Adds `count` demo customers, each with one or two leads and their answers. The database makes
 * them (seed_demo, set-based), `chunk` customers per transaction, each of which defines the
 * generators, calls them and drops them again.
 */
export async function seedDemo(db: Database, options: SeedOptions) {
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
  const generators = await readFile(demoSeedFile, 'utf8');
  let responses = 0;
  let answers = 0;
  for (let start = 0; start < count; start += chunk) {
    const size = Math.min(chunk, count - start);
    const added = await db.transaction(async (tx) => {
      await tx.exec(generators);
      const made = await tx.query<{ customers: number; responses: number; answers: number }>(
        'select * from public.seed_demo($1, $2, $3, $4, $5)',
        [size, random.next() * 2 - 1, runTag, start, at],
      );
      await tx.exec(dropGenerators);
      return made.rows[0];
    });
    responses += added?.responses ?? 0;
    answers += added?.answers ?? 0;
    options.onProgress?.(start + size, count);
  }
  return { customers: count, responses, answers };
}

/** Deletes every demo customer and their leads (answers go with their lead). */
export async function removeDemo(db: Queryable) {
  const pattern = `%@${demoDomain}`;
  const leads = await db.query('delete from public.responses where email like $1', [pattern]);
  const customers = await db.query('delete from public.users where email like $1', [pattern]);
  return { customers: customers.rowCount, responses: leads.rowCount };
}
