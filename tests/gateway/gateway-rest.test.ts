import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { SignJWT } from 'jose';
import type { Database } from '../../server/db/database.ts';
import { apiKeys } from '../../server/gateway/gateway-jwt.ts';
import {
  createAccount,
  startGatewayServer,
  type GatewayServer,
} from '../helpers/gateway-server.ts';
import { testSecret } from '../helpers/hub.ts';

interface Customer {
  first_name: string;
  last_name: string;
  email: string;
  city: string | null;
  created_at: string;
}

/** Customers with responses and answers, as the hub stores them (inserted as the owner). */
async function seedCustomers(db: Database, customers: Customer[]): Promise<number[]> {
  const ids: number[] = [];
  for (const customer of customers) {
    const result = await db.query<{ id: number }>(
      `insert into public.users (first_name, last_name, email, city, created_at)
       values ($1, $2, $3, $4, $5) returning id`,
      [customer.first_name, customer.last_name, customer.email, customer.city, customer.created_at],
    );
    ids.push(result.rows[0]!.id);
  }
  return ids;
}

async function seedResponse(
  db: Database,
  userId: number,
  formId: number,
  answers: Array<[questionId: number, answer: string]>,
  receivedAt: string,
): Promise<number> {
  const result = await db.query<{ id: number }>(
    `insert into public.responses (client_id, payload_hash, form_id, user_id, source, first_name,
       last_name, email, phone, terms_accepted, data_processing_consent, create_date,
       changed_date, received_at)
     select gen_random_uuid(), 'hash', $1, u.id, 'questionnaire', u.first_name, u.last_name,
       u.email, '0170 1234567', true, true, $3, $3, $3
       from public.users u where u.id = $2
     returning id`,
    [formId, userId, receivedAt],
  );
  const responseId = result.rows[0]!.id;
  for (const [questionId, answer] of answers) {
    await db.query(
      'insert into public.answers (response_id, question_id, answer) values ($1, $2, $3)',
      [responseId, questionId, answer],
    );
  }
  return responseId;
}

// The same screens on both databases the gateway runs on: PGlite locally, PostgreSQL with
// DATABASE_URL. Without PostgreSQL the second half fails on purpose, as tests/database/postgres.test.ts.
describe.each(['pglite', 'postgres'] as const)('the REST gateway on %s', (kind) => {
  let server: GatewayServer;
  let url: string;
  let anon: SupabaseClient;
  let staff: SupabaseClient;
  let pending: SupabaseClient;
  // Leads and answers are closed to staff (20261125190000_logged_lead_reads.sql); the embedding
  // of users, responses, forms, answers and questions is shown with the service role.
  let service: SupabaseClient;
  let customerIds: number[];

  const day = (n: number) => new Date(Date.UTC(2026, 0, 1 + n)).toISOString();

  beforeAll(async () => {
    server = await startGatewayServer(kind);
    url = server.url;
    const cities = ['Berlin', 'Hamburg', 'München', null];
    const customers: Customer[] = Array.from({ length: 12 }, (_, i) => ({
      first_name: i === 0 ? 'Anna' : `Vorname${i}`,
      last_name: i === 0 ? 'Müller' : i === 5 ? 'Schmüller' : `Nachname${i}`,
      email: i === 0 ? 'anna.mueller@example.de' : `kunde${i}@example.de`,
      city: cities[i % 4]!,
      created_at: day(i),
    }));
    customerIds = await seedCustomers(server.db, customers);
    await seedResponse(
      server.db,
      customerIds[0]!,
      1,
      [
        [1, 'Zwei'],
        [3, '50 €'],
      ],
      day(20),
    );
    await seedResponse(
      server.db,
      customerIds[0]!,
      2,
      [[4, 'Selbstständig oder freiberuflich']],
      day(21),
    );
    anon = server.client();
    staff = server.client((await createAccount(server.db, 'desk@example.de', 'staff')).accessToken);
    pending = server.client(
      (await createAccount(server.db, 'neu@example.de', 'pending')).accessToken,
    );
    service = server.client((await apiKeys(server.secret)).serviceRoleKey);
  });
  afterAll(async () => {
    await server?.close();
  });

  describe('the customers screen', () => {
    it('reads the newest page of ten with the exact count', async () => {
      const { data, count, error, status } = await staff
        .from('users')
        .select('*', { count: 'exact' })
        .order('created_at', { ascending: false })
        .range(0, 9);
      expect(error).toBeNull();
      expect(status).toBe(206);
      expect(count).toBe(12);
      expect(data).toHaveLength(10);
      expect(data![0]).toMatchObject({ first_name: 'Vorname11', email: 'kunde11@example.de' });
      expect(Object.keys(data![0]!)).toEqual([
        'id',
        'first_name',
        'last_name',
        'email',
        'phone',
        'adress',
        'postcode',
        'city',
        'created_at',
        'updated_at',
        // Which contact fields staff set by hand (20261125110000_lead_contact_snapshot.sql).
        'staff_edited',
      ]);
      const last = await staff
        .from('users')
        .select('id', { count: 'exact' })
        .order('created_at')
        .range(10, 19);
      expect(last).toMatchObject({ status: 206, count: 12 });
      expect(last.data).toHaveLength(2);
    });

    it('searches names, e-mail and city with ilike in one or', async () => {
      const term = 'müller';
      const { data, count, error } = await staff
        .from('users')
        .select('id, first_name, last_name, email, city', { count: 'exact' })
        .or(
          `first_name.ilike.%${term}%,last_name.ilike.%${term}%,email.ilike.%${term}%,city.ilike.%${term}%`,
        )
        .order('last_name')
        .range(0, 9);
      expect(error).toBeNull();
      expect(count).toBe(2);
      expect(data!.map((row) => row.last_name)).toEqual(['Müller', 'Schmüller']);
      const byCity = await staff
        .from('users')
        .select('id', { count: 'exact', head: true })
        .ilike('city', 'münch*');
      expect(byCity).toMatchObject({ error: null, count: 3, data: null });
    });

    it('counts with head', async () => {
      const { count, status, error } = await staff
        .from('users')
        .select('*', { count: 'exact', head: true });
      expect(error).toBeNull();
      expect(status).toBe(200);
      expect(count).toBe(12);
    });

    it('reads one customer with responses, forms, answers and questions embedded', async () => {
      const { data, error } = await service
        .from('users')
        .select(
          'id, first_name, responses(id, created_at:received_at, forms(title), answers(answer, questions(question)))',
        )
        .eq('id', customerIds[0]!)
        .order('received_at', { referencedTable: 'responses', ascending: true })
        .single();
      expect(error).toBeNull();
      expect(data).toEqual({
        id: customerIds[0],
        first_name: 'Anna',
        responses: [
          {
            id: expect.any(Number),
            created_at: expect.any(String),
            forms: { title: 'Tabaluga' },
            answers: [
              {
                answer: 'Zwei',
                questions: { question: 'Wie viele Kinder möchten Sie absichern?' },
              },
              {
                answer: '50 €',
                questions: { question: 'Welchen monatlichen Betrag möchten Sie pro Kind sparen?' },
              },
            ],
          },
          {
            id: expect.any(Number),
            created_at: expect.any(String),
            forms: { title: 'PKV' },
            answers: [
              {
                answer: 'Selbstständig oder freiberuflich',
                questions: { question: 'Wie sind Sie derzeit beschäftigt?' },
              },
            ],
          },
        ],
      });
      const none = await service
        .from('users')
        .select('id, responses(id)')
        .eq('id', customerIds[1]!)
        .single();
      expect(none.data).toEqual({ id: customerIds[1], responses: [] });
    });

    it('counts embedded rows', async () => {
      const { data, error } = await service
        .from('users')
        .select('id, responses(count)')
        .in('id', customerIds.slice(0, 2))
        .order('id');
      expect(error).toBeNull();
      expect(data).toEqual([
        { id: customerIds[0], responses: [{ count: 2 }] },
        { id: customerIds[1], responses: [{ count: 0 }] },
      ]);
    });

    it('filters embedded rows, and with !inner the parents too', async () => {
      const left = await service
        .from('users')
        .select('id, responses(form_id)', { count: 'exact' })
        .eq('responses.form_id', 2)
        .in('id', customerIds.slice(0, 2));
      expect(left.count).toBe(2);
      expect(left.data).toEqual(
        expect.arrayContaining([
          { id: customerIds[0], responses: [{ form_id: 2 }] },
          { id: customerIds[1], responses: [] },
        ]),
      );
      const inner = await service
        .from('users')
        .select('id, leads:responses!inner(form_id)', { count: 'exact' })
        .eq('leads.form_id', 2);
      expect(inner.error).toBeNull();
      expect(inner.count).toBe(1);
      expect(inner.data).toEqual([{ id: customerIds[0], leads: [{ form_id: 2 }] }]);
    });

    it('reads a questionnaire with its questions in order, as anon too', async () => {
      const { data, error } = await anon
        .from('forms')
        .select('id, title, questions(id, sequence)')
        .eq('title', 'Tabaluga')
        .order('sequence', { referencedTable: 'questions', ascending: false })
        .maybeSingle();
      expect(error).toBeNull();
      expect(data).toMatchObject({
        id: 1,
        title: 'Tabaluga',
        questions: [{ sequence: 3 }, { sequence: 2 }, { sequence: 1 }],
      });
      const missing = await anon
        .from('forms')
        .select('id')
        .eq('title', 'Gibt es nicht')
        .maybeSingle();
      expect(missing).toMatchObject({ data: null, error: null });
    });

    it('lets row-level security decide what each caller sees', async () => {
      const asAnon = await anon.from('users').select('id');
      expect(asAnon.status).toBe(401);
      expect(asAnon.error?.code).toBe('42501');
      const asPending = await pending.from('users').select('id', { count: 'exact' });
      expect(asPending).toMatchObject({ status: 200, data: [], count: 0 });
      const embeddedHidden = await pending
        .from('forms')
        .select('id, questions(id)')
        .eq('id', 1)
        .single();
      expect(embeddedHidden.data?.questions).toHaveLength(3);
    });
  });

  describe('questionnaire and question writes', () => {
    it('creates, renames and deletes a questionnaire with its questions as staff', async () => {
      const created = await staff
        .from('forms')
        .insert({ title: 'Hausrat', description: 'Ihr Zuhause' })
        .select()
        .single();
      expect(created.error).toBeNull();
      expect(created.status).toBe(201);
      expect(created.data).toMatchObject({
        title: 'Hausrat',
        description: 'Ihr Zuhause',
        document: null,
      });
      const formId = (created.data as { id: number }).id;

      const questions = await staff
        .from('questions')
        .insert(
          [
            { form_id: formId, question: 'Wohnfläche?', type: 'input', sequence: 1 },
            {
              form_id: formId,
              question: 'Fahrräder?',
              type: 'multiple-choice',
              sequence: 2,
              options: { '1': 'Ja', '2': 'Nein' },
              multipleAnswers: true,
            },
          ],
          { defaultToNull: false },
        )
        .select('id, question, options, multipleAnswers, forms(title)');
      expect(questions.error).toBeNull();
      expect(questions.data).toEqual([
        {
          id: expect.any(Number),
          question: 'Wohnfläche?',
          options: {},
          multipleAnswers: false,
          forms: { title: 'Hausrat' },
        },
        {
          id: expect.any(Number),
          question: 'Fahrräder?',
          options: { '1': 'Ja', '2': 'Nein' },
          multipleAnswers: true,
          forms: { title: 'Hausrat' },
        },
      ]);

      const minimal = await staff
        .from('questions')
        .insert({ form_id: formId, question: 'Keller?', type: 'input', sequence: 3 });
      expect(minimal).toMatchObject({ error: null, status: 201, data: null });

      const renamed = await staff
        .from('forms')
        .update({ title: 'Hausrat Plus' })
        .eq('id', formId)
        .select('title');
      expect(renamed).toMatchObject({
        error: null,
        status: 200,
        data: [{ title: 'Hausrat Plus' }],
      });
      const quiet = await staff.from('questions').update({ required: true }).eq('form_id', formId);
      expect(quiet).toMatchObject({ error: null, status: 204 });

      const removedQuestion = await staff
        .from('questions')
        .delete()
        .eq('form_id', formId)
        .eq('sequence', 3)
        .select('question');
      expect(removedQuestion.data).toEqual([{ question: 'Keller?' }]);
      const removed = await staff.from('forms').delete().eq('id', formId);
      expect(removed).toMatchObject({ error: null, status: 204 });
      const left = await server.db.query('select id from public.questions where form_id = $1', [
        formId,
      ]);
      expect(left.rows).toEqual([]);
    });

    it('upserts by a unique column, merging or ignoring duplicates, and fills defaults', async () => {
      const merged = await staff
        .from('forms')
        .upsert({ title: 'PKV', description: 'Neu beschrieben' }, { onConflict: 'title' })
        .select('id, description');
      expect(merged).toMatchObject({
        error: null,
        data: [{ id: 2, description: 'Neu beschrieben' }],
      });
      const ignored = await staff
        .from('forms')
        .upsert([{ title: 'PKV', description: 'Nicht übernommen' }], {
          onConflict: 'title',
          ignoreDuplicates: true,
        })
        .select('id');
      expect(ignored).toMatchObject({ error: null, data: [] });
      const defaults = await staff
        .from('forms')
        .insert([{ title: 'Rechtsschutz' }, { title: 'Haftpflicht', description: 'Privat' }], {
          defaultToNull: false,
        })
        .select('title, description');
      expect(defaults.error).toBeNull();
      expect(defaults.data).toEqual(
        expect.arrayContaining([
          { title: 'Rechtsschutz', description: '' },
          { title: 'Haftpflicht', description: 'Privat' },
        ]),
      );
      const nulls = await staff
        .from('forms')
        .insert([{ title: 'Unfall' }, { title: 'Leben', description: 'x' }]);
      expect(nulls.error?.code).toBe('23502');
      expect(nulls.status).toBe(400);
    });

    it('inserts rows without keys with every default', async () => {
      const { anonKey } = await apiKeys(testSecret);
      const token = (await createAccount(server.db, 'defaults@example.de', 'staff')).accessToken;
      await server.db.exec(`
        create table public.visits (id integer generated by default as identity primary key,
          at timestamptz not null default now());
        grant select, insert on public.visits to authenticated;
      `);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const response = await fetch(`${url}/rest/v1/visits?select=id`, {
        method: 'POST',
        headers: {
          apikey: anonKey,
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          prefer: 'return=representation',
        },
        body: '[{},{},{}]',
      });
      expect(response.status).toBe(201);
      expect(await response.json()).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    });

    it('refuses writes the policies do not allow', async () => {
      const asAnon = await anon.from('forms').insert({ title: 'Von außen' });
      expect(asAnon).toMatchObject({ status: 401 });
      expect(asAnon.error?.code).toBe('42501');
      const asPending = await pending.from('forms').insert({ title: 'Noch nicht freigeschaltet' });
      expect(asPending.status).toBe(403);
      expect(asPending.error?.code).toBe('42501');
      const hiddenDelete = await pending.from('forms').delete().eq('id', 1).select();
      expect(hiddenDelete).toMatchObject({ status: 200, data: [] });
    });

    it('rolls back a write whose single object is not exactly one row', async () => {
      const many = await staff
        .from('questions')
        .update({ required: true })
        .eq('form_id', 1)
        .select()
        .single();
      expect(many.status).toBe(406);
      expect(many.error).toMatchObject({ code: 'PGRST116', details: 'The result contains 3 rows' });
      const still = await server.db.query<{ required: boolean }>(
        'select required from public.questions where form_id = 1 order by id',
      );
      expect(still.rows.map((row) => row.required)).toEqual([true, true, true]);
      const kept = await server.db.query<{ n: number }>(
        'select count(*)::int as n from public.questions where form_id = 2 and not required',
      );
      const flip = await staff
        .from('questions')
        .update({ required: true })
        .eq('form_id', 2)
        .select('id')
        .single();
      expect(flip.error?.code).toBe('PGRST116');
      const after = await server.db.query<{ n: number }>(
        'select count(*)::int as n from public.questions where form_id = 2 and not required',
      );
      expect(after.rows[0]!.n).toBe(kept.rows[0]!.n);
    });
  });

  describe('functions', () => {
    it('calls a function of public with named arguments', async () => {
      const { data, error } = await staff.rpc('is_staff');
      expect(error).toBeNull();
      expect(data).toBe(true);
      expect((await anon.rpc('is_staff')).data).toBe(false);
    });

    it('finds a function created after start, with arguments, defaults and sets', async () => {
      await server.db.exec(`
      create function public.add_numbers(a integer, b integer default 1) returns integer
        language sql immutable as $$ select a + b $$;
      create function public.forms_titled(pattern text) returns setof public.forms
        language sql stable as $$ select * from public.forms where title ilike pattern order by id $$;
      grant execute on function public.add_numbers(integer, integer), public.forms_titled(text) to anon, authenticated;
    `);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect((await anon.rpc('add_numbers', { a: 2, b: 40 })).data).toBe(42);
      expect((await anon.rpc('add_numbers', { a: 2 })).data).toBe(3);
      const sets = await anon.rpc('forms_titled', { pattern: 'tab%' });
      expect(sets.error).toBeNull();
      expect(sets.data).toMatchObject([{ id: 1, title: 'Tabaluga' }]);
      const wrong = await anon.rpc('add_numbers', { c: 1 });
      expect(wrong.status).toBe(404);
      expect(wrong.error?.code).toBe('PGRST202');
    });
  });

  describe('errors in PostgREST’s shape', () => {
    it('answers unknown tables, columns, relations and broken queries', async () => {
      const table = await staff.from('kunden').select('*');
      expect(table).toMatchObject({ status: 404, error: { code: 'PGRST205' } });
      const column = await staff.from('users').select('id, geburtstag');
      expect(column).toMatchObject({
        status: 400,
        error: { code: '42703', message: 'column users.geburtstag does not exist' },
      });
      const filterColumn = await staff.from('users').select('id').eq('geburtstag', '2020-01-01');
      expect(filterColumn).toMatchObject({ status: 400, error: { code: '42703' } });
      const writeColumn = await staff.from('forms').insert({ titel: 'Tippfehler' });
      expect(writeColumn).toMatchObject({ status: 400, error: { code: 'PGRST204' } });
      const relation = await staff.from('forms').select('id, users(id)');
      expect(relation).toMatchObject({ status: 400, error: { code: 'PGRST200' } });
      const broken = await staff
        .from('users')
        .select('id')
        .or('first_name.eq.a,and(last_name.eq.b');
      expect(broken).toMatchObject({ status: 400, error: { code: 'PGRST100' } });
      const badValue = await staff.from('users').select('id').eq('id', 'eins');
      expect(badValue).toMatchObject({ status: 400, error: { code: '22P02' } });
      const unfiltered = await staff.from('users').delete();
      expect(unfiltered).toMatchObject({ status: 400, error: { code: '21000' } });
      const duplicate = await staff.from('forms').insert({ title: 'Tabaluga' });
      expect(duplicate).toMatchObject({ status: 409, error: { code: '23505' } });
      const missingParent = await staff
        .from('questions')
        .insert({ form_id: 999, question: 'x', type: 'input', sequence: 1 });
      expect(missingParent).toMatchObject({ status: 409, error: { code: '23503' } });
      const none = await staff.from('forms').select('id').eq('id', 999).single();
      expect(none).toMatchObject({
        status: 406,
        error: {
          code: 'PGRST116',
          details: 'The result contains 0 rows',
          message: 'Cannot coerce the result to a single JSON object',
        },
      });
      const otherSchema = await staff.schema('auth').from('users').select('*');
      expect(otherSchema).toMatchObject({ status: 406, error: { code: 'PGRST106' } });
    });

    it('refuses bad, expired and foreign tokens with 401', async () => {
      const sign = (
        claims: Record<string, unknown>,
        secret = testSecret,
        expiresIn: string | number = '1h',
      ) =>
        new SignJWT(claims)
          .setProtectedHeader({ alg: 'HS256' })
          .setIssuedAt()
          .setExpirationTime(expiresIn)
          .sign(new TextEncoder().encode(secret));
      const cases: Array<[string, string]> = [
        [await sign({ role: 'authenticated' }, 'x'.repeat(48)), 'PGRST301'],
        [
          await sign({ role: 'authenticated' }, testSecret, Math.floor(Date.now() / 1000) - 120),
          'PGRST303',
        ],
        [await sign({ role: 'hub_service' }), '22023'],
        [await sign({ role: 'postgres' }), '22023'],
      ];
      for (const [token, code] of cases) {
        const client = server.client(token);
        const result = await client.from('forms').select('id');
        expect(result.status).toBe(401);
        expect(result.error?.code).toBe(code);
      }
    });

    it('answers malformed JSON and a wrong content type in its shape', async () => {
      const { anonKey } = await apiKeys(testSecret);
      const post = (body: string, type = 'application/json') =>
        fetch(`${url}/rest/v1/forms`, {
          method: 'POST',
          headers: { apikey: anonKey, 'content-type': type },
          body,
        });
      const malformed = await post('{"title": ');
      expect(malformed.status).toBe(400);
      expect(await malformed.json()).toEqual({
        code: 'PGRST102',
        message: 'Empty or invalid json',
        details: null,
        hint: null,
      });
      const scalar = await post('42');
      expect(scalar.status).toBe(400);
      const text = await post('title=x', 'text/plain');
      expect(text.status).toBe(415);
      expect(await text.json()).toMatchObject({ code: 'PGRST107' });
    });
  });

  describe('the catalog', () => {
    it('finds a table created after start, and asks for a hint when two keys lead to it', async () => {
      await server.db.exec(`
      create table public.referrals (
        id integer generated by default as identity primary key,
        from_user integer not null references public.users (id),
        to_user integer references public.users (id)
      );
      alter table public.referrals enable row level security;
      create policy referrals_staff on public.referrals for all to authenticated
        using ((select public.is_staff())) with check ((select public.is_staff()));
      grant select, insert on public.referrals to authenticated;
      grant usage on all sequences in schema public to authenticated;
    `);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const inserted = await staff
        .from('referrals')
        .insert({ from_user: customerIds[0], to_user: customerIds[1] })
        .select('id, from:from_user(first_name), to:users!referrals_to_user_fkey(first_name)')
        .single();
      expect(inserted.error).toBeNull();
      expect(inserted.data).toMatchObject({
        from: { first_name: 'Anna' },
        to: { first_name: 'Vorname1' },
      });
      const ambiguous = await staff.from('referrals').select('id, users(id)');
      expect(ambiguous.status).toBe(300);
      expect(ambiguous.error?.code).toBe('PGRST201');
      const byHint = await staff
        .from('users')
        .select('id, sent:referrals!from_user(id), received:referrals!to_user(id)')
        .eq('id', customerIds[0]!)
        .single();
      expect(byHint.data).toEqual({
        id: customerIds[0],
        sent: [{ id: expect.any(Number) }],
        received: [],
      });
    });

    it('runs every request as the token’s role', async () => {
      await server.db.exec(`
      create function public.whoami() returns text language sql stable as $$ select current_user::text $$;
      grant execute on function public.whoami() to anon, authenticated;
    `);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect((await anon.rpc('whoami')).data).toBe('anon');
      expect((await staff.rpc('whoami')).data).toBe('authenticated');
    });
  });

  describe('media types', () => {
    it('strips nulls when asked and refuses what it cannot serve', async () => {
      const stripped = await staff.from('forms').select('id, document').eq('id', 1).stripNulls();
      expect(stripped).toMatchObject({ error: null, data: [{ id: 1 }] });
      expect(stripped.data![0]).not.toHaveProperty('document');
      const csv = await staff.from('forms').select('id').csv();
      expect(csv.status).toBe(406);
      expect(csv.error?.code).toBe('PGRST107');
    });
  });

  describe('counts and ranges', () => {
    it('answers planned and estimated counts, the Range header and an empty page', async () => {
      const planned = await staff.from('users').select('id', { count: 'planned' }).limit(1);
      expect(planned.error).toBeNull();
      expect(planned.count).toEqual(expect.any(Number));
      const estimated = await staff.from('users').select('id', { count: 'estimated' }).limit(1);
      expect(estimated.count).toBe(12);
      const { anonKey } = await apiKeys(testSecret);
      const staffToken = (await createAccount(server.db, 'range@example.de', 'staff')).accessToken;
      const ranged = await fetch(`${url}/rest/v1/users?select=id&order=id`, {
        headers: {
          apikey: anonKey,
          authorization: `Bearer ${staffToken}`,
          range: '2-4',
          prefer: 'count=exact',
        },
      });
      expect(ranged.status).toBe(206);
      expect(ranged.headers.get('content-range')).toBe('2-4/12');
      expect(await ranged.json()).toHaveLength(3);
      const empty = await fetch(`${url}/rest/v1/users?select=id&id=eq.0`, {
        headers: { apikey: anonKey, authorization: `Bearer ${staffToken}`, prefer: 'count=exact' },
      });
      expect(empty.status).toBe(200);
      expect(empty.headers.get('content-range')).toBe('*/0');
      const uncounted = await fetch(`${url}/rest/v1/users?select=id&limit=10`, {
        headers: { apikey: anonKey, authorization: `Bearer ${staffToken}` },
      });
      expect(uncounted.headers.get('content-range')).toBe('0-9/*');
    });
  });
});
