import { questionnaireLead } from '../../src/testing/lead-fixtures.ts';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/database.ts';
import { setupDatabase } from '../../server/db/setup.ts';
import { createTestHub, type TestHub } from '../helpers/hub.ts';
import { startTestPostgres, type TestPostgres } from '../helpers/postgres.ts';

// The same migrations and hub code on a real PostgreSQL server, as production runs them.
// Without PostgreSQL this fails on purpose: a skipped run would hide a broken schema.
describe('on a real PostgreSQL server', () => {
  let server: TestPostgres;
  let db: Database;

  beforeAll(async () => {
    server = await startTestPostgres();
    const admin = new pg.Client({ connectionString: server.url() });
    await admin.connect();
    await admin.query('create database app');
    await admin.query('create database hub');
    await admin.end();
    db = await openDatabase({ databaseUrl: server.url('app') });
  });
  afterAll(async () => {
    await db?.close();
    server?.stop();
  });

  it('applies the migrations and the seed once, then skips them', async () => {
    const first = await setupDatabase(db, {
      gateway: true,
      admin: { email: 'admin@example.de', password: 'admin-passwort-1' },
    });
    expect(first.migrations.applied.length).toBeGreaterThan(0);
    expect(first.seeded).toBe(true);
    expect(first.admin).toMatchObject({ created: true });
    const second = await setupDatabase(db, {
      gateway: true,
      admin: { email: 'admin@example.de', password: 'admin-passwort-1' },
    });
    expect(second.migrations.applied).toEqual([]);
    expect(second.seeded).toBe(false);
    expect(second.admin).toMatchObject({ created: false });
    const counts = await db.query<{ forms: number; questions: number }>(
      'select (select count(*)::int from forms) as forms, (select count(*)::int from questions) as questions',
    );
    expect(counts.rows[0]).toEqual({ forms: 2, questions: 10 });
  });

  it('enforces the constraints of the data model', async () => {
    const fails = (sql: string) => expect(db.query(sql)).rejects.toThrow();
    await fails(
      `insert into questions (form_id, question, type, sequence) values (1, 'Frage?', 'text', 1)`,
    );
    await fails(
      `insert into questions (form_id, question, type, sequence) values (99, 'Frage?', 'input', 1)`,
    );
    await fails(`insert into forms (title) values ('Tabaluga')`);
    await fails(`insert into answers (response_id, question_id, answer) values (123456, 1, 'x')`);
    await fails(
      `insert into staff (user_id, email, role) values (gen_random_uuid(), 'x@example.de', 'boss')`,
    );
    // The next generated ids come after the seeded ones.
    const created = await db.query<{ id: number }>(
      `insert into forms (title, description) values ('Neuer Fragebogen', 'Beschreibung') returning id`,
    );
    expect(created.rows[0]!.id).toBeGreaterThan(2);
  });

  it('stores every timestamp with its time zone and indexes the customer search', async () => {
    const columns = await db.query<{ data_type: string }>(
      `select distinct data_type from information_schema.columns
       where table_schema = 'public' and (column_name like '%\\_at' or column_name like '%\\_date')`,
    );
    expect(columns.rows.map((r) => r.data_type)).toEqual(['timestamp with time zone']);
    const indexes = await db.query<{ indexname: string }>(
      `select indexname from pg_indexes where schemaname = 'public' order by 1`,
    );
    expect(indexes.rows.map((r) => r.indexname)).toEqual(
      expect.arrayContaining([
        'users_email_key',
        'users_created_at_idx',
        'users_first_name_trgm_idx',
        'users_last_name_trgm_idx',
        'users_email_trgm_idx',
        'users_city_trgm_idx',
        'responses_form_received_idx',
        'responses_client_id_key',
        'forms_title_key',
      ]),
    );
  });

  it('lets row-level security decide what each role sees', async () => {
    await db.query(
      `insert into users (first_name, last_name, email) values ('Erika', 'Muster', 'erika@example.de')`,
    );
    const pending = await db.query<{ id: string }>(
      `insert into auth.users (email, encrypted_password) values ('neu@example.de', 'x') returning id`,
    );
    const admin = await db.query<{ user_id: string }>(
      `select user_id from staff where role = 'admin'`,
    );
    const asRole = (role: string, sub: string | null, sql: string) =>
      db.transaction(async (tx) => {
        await tx.query(
          `select set_config('role', $1, true), set_config('request.jwt.claims', $2, true)`,
          [role, JSON.stringify(sub ? { sub, role } : { role })],
        );
        return (await tx.query(sql)).rows;
      });

    expect(await asRole('anon', null, 'select id from forms where id <= 2')).toHaveLength(2);
    await expect(asRole('anon', null, 'select id from users')).rejects.toThrow(/permission denied/);
    expect(await asRole('authenticated', pending.rows[0]!.id, 'select id from users')).toEqual([]);
    expect(await asRole('authenticated', pending.rows[0]!.id, 'select role from staff')).toEqual([
      { role: 'pending' },
    ]);
    expect(
      await asRole('authenticated', admin.rows[0]!.user_id, 'select email from users'),
    ).toEqual(expect.arrayContaining([{ email: 'erika@example.de' }]));
    await expect(
      asRole(
        'authenticated',
        pending.rows[0]!.id,
        `update staff set role = 'admin' returning role`,
      ),
    ).resolves.toEqual([]);
  });

  it('survives PostgreSQL dropping an idle connection and reconnects', async () => {
    const errors: string[] = [];
    const other = await openDatabase({
      databaseUrl: server.url('app'),
      onConnectionError: (error) => errors.push((error as { code?: string }).code ?? ''),
    });
    try {
      const { rows } = await other.query<{ pid: number }>('select pg_backend_pid() as pid');
      await db.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
      await expect.poll(() => errors).toEqual(['57P01']);
      const again = await other.query<{ one: number }>('select 1 as one');
      expect(again.rows).toEqual([{ one: 1 }]);
    } finally {
      await other.close();
    }
  });

  describe('the hub', () => {
    let hub: TestHub;
    beforeAll(async () => {
      hub = await createTestHub({ db: await openDatabase({ databaseUrl: server.url('hub') }) });
    });
    afterAll(() => hub?.close());

    it('creates exactly one response from 20 truly concurrent posts of one client_id', async () => {
      const submission = questionnaireLead();
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          hub.app.inject({ method: 'POST', url: '/api/responses', payload: submission }),
        ),
      );
      expect(results.map((r) => r.statusCode).filter((s) => s === 201)).toHaveLength(1);
      expect(results.every((r) => r.statusCode === 200 || r.statusCode === 201)).toBe(true);
      const rows = await hub.db.query<{ n: number }>(
        'select count(*)::int as n from responses where client_id = $1',
        [submission.client_id],
      );
      expect(rows.rows[0]!.n).toBe(1);
      const answers = await hub.db.query<{ n: number }>('select count(*)::int as n from answers');
      expect(answers.rows[0]!.n).toBe(3);
    });

    it('serves the questions in sequence order', async () => {
      const res = await hub.app.inject({ method: 'GET', url: '/api/forms/2/questions' });
      const { data } = res.json() as { data: { sequence: number }[] };
      const sequences = data.map((q) => q.sequence);
      expect(sequences).toEqual([1, 2, 3, 4, 5, 6, 7]);
    });
  });
});
