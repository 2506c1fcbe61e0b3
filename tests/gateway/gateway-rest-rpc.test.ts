import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import {
  createAccount,
  startGatewayServer,
  type GatewayServer,
} from '../helpers/gateway-server.ts';

// Set-returning functions read like tables through /rest/v1/rpc (select, filters, order, range,
// count), above all Survey Desk's customer search, with the real supabase-js over HTTP.

const customers: Array<[first: string, last: string, email: string, city: string]> = [
  ['Anna', 'Müller', 'anna@example.de', 'Berlin'],
  ['Jürgen', 'Schmüller', 'juergen@example.de', 'Hamburg'],
  ['Olga', 'Weiß', 'olga@example.de', 'Mülheim'],
  ['Lukas', 'Mülling', 'lukas@example.de', 'Berlin'],
  ['Fatma', 'Koch', 'fatma@example.de', 'Köln'],
  // Wildcards in the addresses (a name holds none of them).
  ['Prozent', 'Zins', '100%ig@example.de', 'Köln'],
  ['Unter', 'Strich', 'a_b@example.de', 'Köln'],
  ['Kein', 'Treffer', 'axb@example.de', 'Köln'],
];

describe.each(['pglite', 'postgres'] as const)('set-returning functions on %s', (kind) => {
  let server: GatewayServer;
  let anon: SupabaseClient;
  let staff: SupabaseClient;
  let pending: SupabaseClient;

  beforeAll(async () => {
    server = await startGatewayServer(kind);
    for (const [i, [first, last, email, city]] of customers.entries()) {
      await server.db.query(
        `insert into public.users (first_name, last_name, email, city, created_at)
         values ($1, $2, $3, $4, $5)`,
        [first, last, email, city, new Date(Date.UTC(2026, 0, 1 + i)).toISOString()],
      );
    }
    await server.db.exec(`
      create function public.customer_cities() returns table (city text, customers bigint)
        language sql stable as $$ select city, count(*) from public.users group by city $$;
      create function public.forms_titled(pattern text) returns setof public.forms
        language sql stable as $$ select * from public.forms where title ilike pattern $$;
      grant execute on function public.customer_cities(), public.forms_titled(text)
        to anon, authenticated;
    `);
    anon = server.client();
    staff = server.client(
      (await createAccount(server.db, 'staff@example.de', 'staff')).accessToken,
    );
    pending = server.client(
      (await createAccount(server.db, 'pending@example.de', 'pending')).accessToken,
    );
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  it('searches customers for staff: matches in names and city, exact count, ordered, paged', async () => {
    const first = await staff
      .rpc('search_customers', { term: 'mül' }, { count: 'exact' })
      .order('created_at', { ascending: false })
      .range(0, 1);
    expect(first.error).toBeNull();
    expect(first.status).toBe(206);
    expect(first.count).toBe(4);
    expect(first.data).toMatchObject([{ last_name: 'Mülling' }, { city: 'Mülheim' }]);
    const second = await staff
      .rpc('search_customers', { term: 'mül' }, { count: 'exact' })
      .select('first_name, last_name')
      .order('created_at', { ascending: false })
      .range(2, 3);
    expect(second.data).toEqual([
      { first_name: 'Jürgen', last_name: 'Schmüller' },
      { first_name: 'Anna', last_name: 'Müller' },
    ]);
  });

  it('filters the search and answers GET and HEAD as POST', async () => {
    const berlin = await staff
      .rpc('search_customers', { term: 'mül' }, { get: true, count: 'exact' })
      .eq('city', 'Berlin')
      .order('first_name');
    expect(berlin.error).toBeNull();
    expect(berlin.count).toBe(2);
    expect(berlin.data?.map((row: { first_name: string }) => row.first_name)).toEqual([
      'Anna',
      'Lukas',
    ]);
    const head = await staff.rpc(
      'search_customers',
      { term: 'mül' },
      { head: true, count: 'exact' },
    );
    expect(head).toMatchObject({ error: null, data: null, count: 4 });
    const one = await staff.rpc('search_customers', { term: 'Schmü' }).select('email').single();
    expect(one).toMatchObject({ error: null, data: { email: 'juergen@example.de' } });
  });

  it('finds a customer by phone number, however it was typed (issue 21, item 10)', async () => {
    await server.db.query(
      `insert into public.users (first_name, last_name, email, phone)
       values ('Rita', 'Rückruf', 'rita@example.de', '+49 171/234 56-78')`,
    );
    const byNumber = async (term: string) =>
      (await staff.rpc('search_customers', { term })).data?.map(
        (row: { email: string }) => row.email,
      );
    expect(await byNumber('171 2345678')).toEqual(['rita@example.de']);
    expect(await byNumber('(0171) 234-56')).toEqual(['rita@example.de']);
    expect(await byNumber('+49 171/234')).toEqual(['rita@example.de']);
    // Digits inside a word are no phone number; two digits narrow nothing.
    expect(await byNumber('Rita 171')).toEqual([]);
    expect(await byNumber('17')).toEqual(['rita@example.de']);
    await server.db.query(`delete from public.users where email = 'rita@example.de'`);
  });

  it('matches %, _ and \\ in a term literally', async () => {
    const percent = await staff.rpc('search_customers', { term: '0%' });
    expect(percent.data?.map((row: { email: string }) => row.email)).toEqual(['100%ig@example.de']);
    const underscore = await staff.rpc('search_customers', { term: 'a_b' });
    expect(underscore.data?.map((row: { email: string }) => row.email)).toEqual(['a_b@example.de']);
    expect((await staff.rpc('search_customers', { term: '\\' })).data).toEqual([]);
  });

  it('shows pending accounts nothing and refuses anonymous callers', async () => {
    const none = await pending.rpc('search_customers', { term: 'mül' }, { count: 'exact' });
    expect(none).toMatchObject({ error: null, data: [], count: 0 });
    const refused = await anon.rpc('search_customers', { term: 'mül' });
    expect(refused.status).toBe(401);
    expect(refused.error?.code).toBe('42501');
    expect(refused.data).toBeNull();
  });

  it('shapes any set-returning function: columns of returns table, a table’s row type', async () => {
    // The function reads public.users as its caller: anon may not.
    const cities = await anon.rpc('customer_cities', {}, { count: 'exact' }).gt('customers', 0);
    expect(cities).toMatchObject({ status: 401, error: { code: '42501' } });
    const counted = await staff
      .rpc('customer_cities', {}, { count: 'exact' })
      .gte('customers', 2)
      .order('customers', { ascending: false })
      .order('city');
    expect(counted.error).toBeNull();
    expect(counted.data).toEqual([
      { city: 'Köln', customers: 4 },
      { city: 'Berlin', customers: 2 },
    ]);
    const forms = await anon
      .rpc('forms_titled', { pattern: '%' }, { get: true })
      .select('title')
      .neq('id', 1)
      .order('id', { ascending: false })
      .limit(1);
    expect(forms.error).toBeNull();
    const rows = forms.data as unknown as object[];
    expect(rows).toHaveLength(1);
    expect(Object.keys(rows[0]!)).toEqual(['title']);
    const unknown = await staff.rpc('customer_cities').eq('einwohner', 1);
    expect(unknown).toMatchObject({ status: 400, error: { code: '42703' } });
  });
});
