import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys } from '../../server/gateway/gateway-jwt.ts';
import { demoDomain, removeDemo, seedDemo } from '../../scripts/demo-data.ts';
import {
  createAccount,
  startGatewayServer,
  type GatewayServer,
} from '../helpers/gateway-server.ts';
import { testSecret } from '../helpers/hub.ts';
import { supabaseClient, supabaseClientWithKey } from '../helpers/supabase.ts';

// `npm run seed:demo`: demo customers, leads and answers made in the database by the seed-only
// generators (supabase/seed-demo.sql), which exist only inside each chunk's transaction;
// `--remove` takes exactly the demo data away again.

describe('demo data', () => {
  let server: GatewayServer;

  beforeAll(async () => {
    server = await startGatewayServer('pglite');
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  const count = async (sql: string) =>
    Number((await server.db.query<{ n: string }>(sql)).rows[0]!.n);

  it('adds customers with leads and answers that fit the questionnaires, then removes only them', async () => {
    await server.db.query(
      `insert into public.users (first_name, last_name, email) values ('Echt', 'Kundin', 'echt@example.de')`,
    );
    const progress: number[] = [];
    const result = await seedDemo(server.db, {
      count: 120,
      chunk: 50,
      seed: 7,
      onProgress: (done) => progress.push(done),
    });
    expect(progress).toEqual([50, 100, 120]);
    expect(result.customers).toBe(120);
    expect(
      await count(`select count(*) as n from public.users where email like '%@${demoDomain}'`),
    ).toBe(120);
    expect(await count('select count(*) as n from public.responses')).toBe(result.responses);
    expect(result.responses).toBeGreaterThanOrEqual(120);
    expect(await count('select count(*) as n from public.answers')).toBe(result.answers);
    // Every answer belongs to a question of its lead's form, and the child dates are dates.
    expect(
      await count(`select count(*) as n from public.answers a join public.responses r on r.id = a.response_id
                    join public.questions q on q.id = a.question_id where q.form_id <> r.form_id`),
    ).toBe(0);
    const dates = await server.db.query<{ answer: string }>(
      `select a.answer from public.answers a join public.questions q on q.id = a.question_id
        where q.key = 'tabaluga_child_dates'`,
    );
    expect(dates.rows.length).toBeGreaterThan(0);
    for (const { answer } of dates.rows)
      expect(answer).toMatch(/^\d{4}-\d\d-\d\d(, \d{4}-\d\d-\d\d){0,2}$/);
    expect(
      await count(`select count(*) as n from public.responses where channel = 'fair_tablet'`),
    ).toBeGreaterThan(0);

    // A second run adds more customers instead of colliding with the first one's addresses.
    await seedDemo(server.db, { count: 10, seed: 8 });
    expect(
      await count(`select count(*) as n from public.users where email like '%@${demoDomain}'`),
    ).toBe(130);

    const removed = await removeDemo(server.db);
    expect(removed.customers).toBe(130);
    expect(await count('select count(*) as n from public.users')).toBe(1);
    expect(await count('select count(*) as n from public.responses')).toBe(0);
    expect(await count('select count(*) as n from public.answers')).toBe(0);
  }, 60_000);

  it('leaves no demo generator behind: no role can call one through the API', async () => {
    await seedDemo(server.db, { count: 3, seed: 9 });
    expect(
      await count(
        `select count(*) as n from pg_proc where proname in ('seed_demo', 'demo_answer')`,
      ),
    ).toBe(0);
    const before = await count('select count(*) as n from public.users');
    const callers = {
      service: supabaseClientWithKey(server.url, (await apiKeys(testSecret)).serviceRoleKey),
      anon: await supabaseClient(server.url, testSecret),
      staff: await supabaseClient(
        server.url,
        testSecret,
        (await createAccount(server.db, 'demo-staff@example.de', 'staff')).accessToken,
      ),
      admin: await supabaseClient(
        server.url,
        testSecret,
        (await createAccount(server.db, 'demo-admin@example.de', 'admin')).accessToken,
      ),
    };
    for (const [caller, client] of Object.entries(callers)) {
      // Untyped: the generated Database types rightly know no such function.
      const supabase = client as unknown as SupabaseClient;
      const seeded = await supabase.rpc('seed_demo', {
        count: 5,
        seed: 0.5,
        run_tag: caller,
        first_index: 0,
        at: new Date().toISOString(),
      });
      expect(seeded.error?.code, caller).toBe('PGRST202');
      const answered = await supabase.rpc('demo_answer', {
        question_type: 'input',
        options: {},
        multiple: false,
        question_key: 'x',
        at: new Date().toISOString(),
      });
      expect(answered.error?.code, caller).toBe('PGRST202');
    }
    expect(await count('select count(*) as n from public.users')).toBe(before);
  });

  it('refuses a count outside 1 to 100,000', async () => {
    await expect(seedDemo(server.db, { count: 100_001 })).rejects.toThrow('zwischen 1 und 100000');
    await expect(seedDemo(server.db, { count: 0 })).rejects.toThrow(RangeError);
  });
});
