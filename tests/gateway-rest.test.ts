import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestHub, type TestHub } from './helpers/hub.ts';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { SignJWT } from 'jose';
import ws from 'ws';
import type { Database } from '../server/db/database.ts';
import { apiKeys } from '../server/gateway/gateway-jwt.ts';
import { testSecret } from './helpers/hub.ts';

/** A Survey Desk account made directly in the database (no /auth/v1 needed) and its token. */
async function staffAccount(
  db: Database,
  email: string,
  role: 'pending' | 'staff' | 'admin',
): Promise<{ id: string; token: string }> {
  const inserted = await db.query<{ id: string }>(
    `insert into auth.users (email, encrypted_password, email_confirmed_at)
     values ($1, 'not-used', now()) returning id::text`,
    [email],
  );
  const id = inserted.rows[0]!.id;
  await db.query('update public.staff set role = $1 where user_id = $2', [role, id]);
  const token = await new SignJWT({ role: 'authenticated', aud: 'authenticated', email })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(id)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(testSecret));
  return { id, token };
}

/** The real supabase-js client against the gateway, as anon or with a user's token. */
async function supabaseClient(url: string, token?: string): Promise<SupabaseClient> {
  const { anonKey } = await apiKeys(testSecret);
  return createClient(url, anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    // Node 20 has no WebSocket; realtime is never used, but the client builds it.
    realtime: { transport: ws as never },
    ...(token ? { accessToken: async () => token } : {}),
  });
}

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

let hub: TestHub;
let url: string;
let anon: SupabaseClient;
let staff: SupabaseClient;
let pending: SupabaseClient;
let customerIds: number[];

const day = (n: number) => new Date(Date.UTC(2026, 0, 1 + n)).toISOString();

beforeAll(async () => {
  hub = await createTestHub();
  const address = await hub.app.listen({ host: '127.0.0.1', port: 0 });
  url = address;
  const cities = ['Berlin', 'Hamburg', 'München', null];
  const customers: Customer[] = Array.from({ length: 12 }, (_, i) => ({
    first_name: i === 0 ? 'Anna' : `Vorname${i}`,
    last_name: i === 0 ? 'Müller' : i === 5 ? 'Schmüller' : `Nachname${i}`,
    email: i === 0 ? 'anna.mueller@example.de' : `kunde${i}@example.de`,
    city: cities[i % 4]!,
    created_at: day(i),
  }));
  customerIds = await seedCustomers(hub.db, customers);
  await seedResponse(
    hub.db,
    customerIds[0]!,
    1,
    [
      [1, 'Zwei'],
      [3, '50 €'],
    ],
    day(20),
  );
  await seedResponse(
    hub.db,
    customerIds[0]!,
    2,
    [[4, 'Selbstständig oder freiberuflich']],
    day(21),
  );
  anon = await supabaseClient(url);
  staff = await supabaseClient(url, (await staffAccount(hub.db, 'desk@example.de', 'staff')).token);
  pending = await supabaseClient(
    url,
    (await staffAccount(hub.db, 'neu@example.de', 'pending')).token,
  );
});
afterAll(() => hub.close());

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
    const { data, error } = await staff
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
            { answer: 'Zwei', questions: { question: 'Wie viele Kinder möchten Sie absichern?' } },
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
    const none = await staff
      .from('users')
      .select('id, responses(id)')
      .eq('id', customerIds[1]!)
      .single();
    expect(none.data).toEqual({ id: customerIds[1], responses: [] });
  });

  it('filters embedded rows, and with !inner the parents too', async () => {
    const left = await staff
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
    const inner = await staff
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
