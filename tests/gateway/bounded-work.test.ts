import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kfzLead } from '../../src/testing/lead-fixtures.ts';
import { apiKeys } from '../../server/gateway/gateway-jwt.ts';
import { rowBudget } from '../../server/gateway/as-role.ts';
import { maxEmbedDepth, maxRows } from '../../server/gateway/rest/read-tree.ts';
import {
  createAccount,
  startGatewayServer,
  type DatabaseKind,
  type GatewayServer,
} from '../helpers/gateway-server.ts';
import { testSecret } from '../helpers/hub.ts';
import { supabaseClient } from '../helpers/supabase.ts';

// The security review's second finding: one anonymous request (forms and questions embedded in
// each other 13 levels deep) held the whole server for seconds, and a visitor's lead waited behind
// it. Every request's work is bounded now, and a lead goes first on PGlite's one connection.

/** `id,questions(id,forms(id,questions(...)))`, `levels` embeddings deep. */
function nested(levels: number): string {
  let select = 'id';
  for (let level = levels; level >= 1; level -= 1) {
    select = `id,${level % 2 === 1 ? 'questions' : 'forms'}(${select})`;
  }
  return select;
}

describe.each<DatabaseKind>(['pglite', 'postgres'])('bounded work per request on %s', (kind) => {
  let server: GatewayServer;
  let anonKey: string;
  let staffToken: string;
  let bigForm: number;

  beforeAll(async () => {
    server = await startGatewayServer(kind, async (db) => {
      // Only for the test of statement_timeout: a function that takes 5 s.
      await db.exec(`
        create function public.slow_for_test() returns integer
        language sql volatile as $$ select 1 from pg_sleep(5) $$;
        grant execute on function public.slow_for_test() to anon;`);
    });
    ({ anonKey } = await apiKeys(testSecret));
    staffToken = (await createAccount(server.db, `grenzen-${kind}@example.de`, 'staff'))
      .accessToken;
    // What a staff member could build: a questionnaire with 1,500 questions.
    const form = await server.db.query<{ id: number }>(
      `insert into public.forms (title, description) values ('Riesig', 'Sehr viele Fragen')
       returning id`,
    );
    bigForm = form.rows[0]!.id;
    await server.db.query(
      `insert into public.questions (form_id, question, type, sequence)
       select $1, 'Frage ' || n, 'input', n from generate_series(1, 1500) n`,
      [bigForm],
    );
    await server.db.exec('analyze');
  });
  afterAll(() => server?.close());

  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/rest/v1/${path}`, { headers: { apikey: anonKey, ...headers } });
  const asStaff = () => ({ authorization: `Bearer ${staffToken}` });

  /** Posts a lead to the hub and answers how long it took until it was stored. */
  async function timedLead(): Promise<number> {
    const lead = kfzLead();
    const started = performance.now();
    const answer = await fetch(`${server.url}/api/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(lead),
    });
    const ms = performance.now() - started;
    expect(answer.status).toBe(201);
    const stored = await server.db.query('select 1 from public.responses where client_id = $1', [
      lead.client_id,
    ]);
    expect(stored.rows).toHaveLength(1);
    return ms;
  }

  it('refuses the review’s 13-level embedding at once, and a lead sent meanwhile is stored within a second', async () => {
    const started = performance.now();
    const attacks = Array.from({ length: 4 }, () => get(`forms?select=${nested(13)}`));
    const leadMs = await timedLead();
    const answers = await Promise.all(attacks);
    expect(performance.now() - started).toBeLessThan(5_000);
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({
        code: 'PGRST100',
        message: `Embedded resources are nested more than ${maxEmbedDepth} levels deep`,
      });
    }
    expect(leadMs).toBeLessThan(1_500);
  });

  it('ends an allowed but huge embedding with an error instead of holding the server, leads first', async () => {
    // 1,500 questions × their form × its 1,500 questions: over two million rows if it ran.
    const select = `id,questions(id,forms(id,questions(id)))`;
    const started = performance.now();
    const reads = Array.from({ length: 3 }, () =>
      get(`forms?id=eq.${bigForm}&select=${select}`, asStaff()),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const leadMs = await timedLead();
    const answers = await Promise.all(reads);
    const totalMs = performance.now() - started;
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({
        code: '54000',
        details: `At most ${rowBudget} embedded rows per request`,
      });
    }
    expect(totalMs).toBeLessThan(10_000);
    expect(leadMs).toBeLessThan(1_500);
  });

  it('answers at most db-max-rows rows, and says so in Content-Range', async () => {
    const answer = await get(`questions?form_id=eq.${bigForm}&select=id`, {
      prefer: 'count=exact',
    });
    expect(answer.status).toBe(206);
    expect(((await answer.json()) as unknown[]).length).toBe(maxRows);
    expect(answer.headers.get('content-range')).toBe(`0-${maxRows - 1}/1500`);
    // Through supabase-js, a larger limit is capped too.
    const supabase = await supabaseClient(server.url, testSecret);
    const { data, error } = await supabase
      .from('questions')
      .select('id')
      .eq('form_id', bigForm)
      .limit(5000);
    expect(error).toBeNull();
    expect(data).toHaveLength(maxRows);
  });

  it('tells a pending account no estimate of tables it may not read (security review, item 9)', async () => {
    await server.db.query(
      `insert into public.users (first_name, last_name, email)
       select 'Kunde', 'Nr. ' || n, 'kunde-' || n || '-${kind}@example.de'
         from generate_series(1, 3000) n`,
    );
    await server.db.exec('analyze public.users');
    const pending = await createAccount(server.db, `wartend-${kind}@example.de`, 'pending');
    for (const count of ['planned', 'estimated']) {
      const answer = await get('users?select=id', {
        authorization: `Bearer ${pending.accessToken}`,
        prefer: `count=${count}`,
      });
      expect(await answer.json()).toEqual([]);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-range')).toBe('*/0');
    }
    // Staff, who may read them, still get the planner's estimate for a full page.
    const staff = await get('users?select=id&limit=10', { ...asStaff(), prefer: 'count=planned' });
    const total = Number(staff.headers.get('content-range')!.split('/')[1]);
    expect(total).toBeGreaterThan(1000);
  });

  it('looks cast names up as the table’s own entries only (security review, item 9)', async () => {
    for (const cast of ['constructor', '__proto__']) {
      const answer = await get(`forms?select=id::${cast}`);
      const body: unknown = await answer.json();
      expect(body, JSON.stringify(body)).toMatchObject({
        code: '42704',
        message: `type "${cast}" does not exist`,
      });
    }
  });

  // PGlite ignores statement_timeout: there the row budget and the depth cap bound the work.
  if (kind === 'postgres')
    it('ends a slow anonymous statement after Supabase’s 3 s statement_timeout', async () => {
      const started = performance.now();
      const answer = await fetch(`${server.url}/rest/v1/rpc/slow_for_test`, {
        method: 'POST',
        headers: { apikey: anonKey, 'content-type': 'application/json' },
        body: '{}',
      });
      const ms = performance.now() - started;
      expect(answer.status).toBe(500);
      expect(await answer.json()).toMatchObject({ code: '57014' });
      expect(ms).toBeGreaterThan(2_500);
      expect(ms).toBeLessThan(4_500);
    });
});
