import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { questionnaireLead } from '../../src/testing/lead-fixtures.ts';
import { startTestPostgres, type TestPostgres } from '../helpers/postgres.ts';
import { startReverseProxy, type ReverseProxy } from '../helpers/reverse-proxy.ts';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.ts';
import { fetchFrom, supabaseClient } from '../helpers/supabase.ts';

// Two server processes on one PostgreSQL behind a round-robin proxy, as an office runs them when
// one process is not enough (issue 35). Whatever must hold across instances lives in the
// database: a client's limit counts on both, a sign-in wait set on one holds on the other, every
// lead posted through either is stored once, and each new-lead mail goes out once. Each instance
// has its own DATA_DIR, so a mail file in both folders would be a mail sent twice.

const admin = { email: 'admin@example.de', password: 'admin-passwort-1' };
const jwtSecret = 'several-instances-test-secret-of-enough-length';
// The proxy connects to the instances from this address; clients use other loopback addresses.
const proxyAddress = '127.0.0.100';
const submissionsPerMinute = 5;

/** A client at its own loopback address. */
const at = (address: string) => fetchFrom(address);

async function mailFiles(dataDir: string): Promise<string[]> {
  try {
    return (await readdir(path.join(dataDir, 'mail'))).filter((name) => name.startsWith('lead-'));
  } catch {
    return [];
  }
}

describe('two instances on one PostgreSQL behind a round-robin proxy', () => {
  let postgres: TestPostgres;
  const dataDirs: string[] = [];
  const instances: ServerProcess[] = [];
  let proxy: ReverseProxy;
  let sql: pg.Client;

  beforeAll(async () => {
    postgres = await startTestPostgres();
    const env = {
      DATABASE_URL: postgres.url(),
      JWT_SECRET: jwtSecret,
      ADMIN_PASSWORD: admin.password,
      TRUST_PROXY: proxyAddress,
      RATE_LIMIT_SUBMISSIONS_PER_MINUTE: String(submissionsPerMinute),
      // The third wrong password within the hour closes the address to that client.
      AUTH_SIGNIN_FAILURES_PER_ADDRESS_PER_HOUR: '3',
    };
    // The first migrates and makes the admin; the second finds both done.
    for (const name of ['a', 'b']) {
      const dataDir = await mkdtemp(path.join(tmpdir(), `several-instances-${name}-`));
      dataDirs.push(dataDir);
      instances.push(await startServerProcess({ ...env, DATA_DIR: dataDir }));
    }
    proxy = await startReverseProxy(
      instances.map((instance) => instance.url),
      proxyAddress,
    );
    sql = new pg.Client({ connectionString: postgres.url() });
    await sql.connect();
    // Two server starts on PostgreSQL (initdb, the migrations): seconds alone, more on a loaded
    // two-core machine.
  }, 120_000);
  afterAll(async () => {
    await sql?.end();
    await proxy?.close();
    for (const instance of instances) await instance.kill('SIGTERM');
    postgres?.stop();
    for (const dataDir of dataDirs) await rm(dataDir, { recursive: true, force: true });
  });

  const postLead = (from: string, lead = questionnaireLead()) =>
    at(from)(`${proxy.url}/api/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(lead),
    });

  it('runs retention once although both instances start its daily job', async () => {
    // Each instance's job starts with a pass when the last run is a day old or older; the
    // second finds the first's run in the shared table (a lock makes simultaneous starts wait).
    const count = async () =>
      (await sql.query<{ n: string }>('select count(*) as n from public.retention_runs')).rows[0]
        ?.n;
    const deadline = Date.now() + 10_000;
    while ((await count()) === '0' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(await count()).toBe('1');
  });

  it('counts a client’s leads per minute on both instances together', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < submissionsPerMinute + 3; i += 1) {
      statuses.push((await postLead('127.0.0.2')).status);
    }
    // Each instance alone has seen four: with limits per process all eight would pass.
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429, 429]);
    // Another client behind the same proxy is not affected.
    expect((await postLead('127.0.0.3')).status).toBe(201);
  });

  it('keeps a sign-in wait set through one instance on the other', async () => {
    const attempt = (from: string, password: string) =>
      at(from)(`${proxy.url}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: admin.email, password }),
      });
    // Three wrong passwords, alternately on each instance: none of them saw three.
    for (let i = 0; i < 3; i += 1) {
      const wrong = await attempt('127.0.0.4', 'falsch-falsch-1');
      expect(wrong.status).toBe(400);
    }
    // The next try, whichever instance takes it, waits out the hour; so does the one after it.
    for (let i = 0; i < 2; i += 1) {
      const locked = await attempt('127.0.0.4', admin.password);
      expect(locked.status).toBe(429);
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(3000);
    }
    // The admin at another client signs in at once.
    const desk = await supabaseClient(proxy.url, jwtSecret, undefined, {
      fetch: at('127.0.0.5'),
    });
    const { error } = await desk.auth.signInWithPassword(admin);
    expect(error).toBeNull();
  }, 60_000);

  it('stores every lead posted through either instance once, and mails each once', async () => {
    const desk = await supabaseClient(proxy.url, jwtSecret, undefined, { fetch: at('127.0.0.6') });
    expect((await desk.auth.signInWithPassword(admin)).error).toBeNull();
    const saved = await desk
      .from('lead_mail_settings')
      .update({ enabled: true, address: 'makler@example.de', mode: 'immediate' })
      .eq('id', true)
      .select('enabled');
    expect(saved.error).toBeNull();
    expect(saved.data).toEqual([{ enabled: true }]);
    const before = (await Promise.all(dataDirs.map(mailFiles))).flat();

    // Eight clients post a lead each at once through the proxy, which spreads them over both
    // instances; then each repeats its lead on both instances directly, as a tablet repeats one
    // whose answer it missed: one of the two is the instance that did not store it.
    const senders = Array.from({ length: 8 }, (_, i) => `127.0.1.${i + 1}`);
    const leads = await Promise.all(
      senders.map(async (from) => {
        const lead = questionnaireLead({ first_name: 'Mehrfach' });
        const first = await postLead(from, lead);
        const statuses = [first.status];
        const { id } = (await first.json()) as { id: number };
        for (const instance of instances) {
          const again = await at(from)(`${instance.url}/api/responses`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(lead),
          });
          statuses.push(again.status);
          expect(((await again.json()) as { id: number }).id).toBe(id);
        }
        return { clientId: lead.client_id, id, statuses };
      }),
    );
    expect(leads.map((lead) => lead.statuses)).toEqual(leads.map(() => [201, 200, 200]));

    const stored = await sql.query<{ client_id: string; n: string }>(
      `select client_id, count(*) as n from public.responses
        where client_id = any($1::uuid[]) group by client_id`,
      [leads.map((lead) => lead.clientId)],
    );
    expect(stored.rows.length).toBe(leads.length);
    expect(stored.rows.every((row) => row.n === '1')).toBe(true);

    const expected = leads.map((lead) => `lead-${lead.id}.json`).sort();
    const sentMails = async () =>
      (await Promise.all(dataDirs.map(mailFiles)))
        .flat()
        .filter((name) => !before.includes(name))
        .sort();
    const deadline = Date.now() + 30_000;
    while ((await sentMails()).length < expected.length && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // Time for a second mail, were one coming: each instance's next run after the kicks.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(await sentMails()).toEqual(expected);
    const outbox = await sql.query<{ response_id: number; state: string }>(
      `select response_id, state from public.lead_mail_outbox
        where response_id = any($1::int[]) order by response_id`,
      [leads.map((lead) => lead.id)],
    );
    expect(outbox.rows).toEqual(
      leads
        .map((lead) => ({ response_id: lead.id, state: 'sent' }))
        .sort((x, y) => x.response_id - y.response_id),
    );
    // Leads from several clients and mails by both instances: a minute of work at most.
  }, 90_000);
});
