import type { PostgrestError, SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { apiKeys } from '../../server/gateway/gateway-jwt.ts';
import {
  createAccount,
  startGatewayServer,
  type Account,
  type AccountRole,
  type DatabaseKind,
  type GatewayServer,
} from '../helpers/gateway-server.ts';
import { testSecret } from '../helpers/hub.ts';
import { supabaseClient } from '../helpers/supabase.ts';

// The permission matrix of docs/design.md section 7, driven through the real supabase-js over HTTP
// on both databases the gateway runs on: row-level security and the grants of supabase/migrations
// decide, the gateway only runs each request as the token's role.
//
// works    the operation does what was asked (and the database shows it)
// refused  PostgREST's 42501 (401 for anon, 403 otherwise) or Storage's 403; nothing changes
// hidden   row-level security hides the row: a read finds nothing, a write affects no row and
//          the row stays as it was
// own row  of the staff table only the caller's own row is visible

type Outcome = 'works' | 'refused' | 'hidden' | 'own row';
const callers = ['anon', 'pending', 'staff', 'admin'] as const;
type Caller = (typeof callers)[number];
/** One outcome per caller, in the order of `callers`. */
type PerCaller = readonly [anon: Outcome, pending: Outcome, staff: Outcome, admin: Outcome];

const tableOperations = ['select', 'insert', 'update', 'delete'] as const;
type TableOperation = (typeof tableOperations)[number];
type TableName = 'forms' | 'questions' | 'users' | 'responses' | 'answers' | 'staff';

// Anonymous callers read forms and questions only; pending accounts read nothing; staff and admin
// read and write customers (users), forms and questions; only admin changes staff. Nobody reads
// or writes responses and answers through the API (20261125190000_logged_lead_reads.sql): the
// desk reads them through functions that write the access log, the hub writes them. A staff row is made only by the trigger on auth.users, so nobody inserts one. Reading
// one's own staff row is what lets the desk tell a pending account that it awaits approval: it
// is about the caller, not customer data.
const tableMatrix: Record<TableName, Record<TableOperation, PerCaller>> = {
  // [anon, pending, staff, admin]
  forms: {
    select: ['works', 'works', 'works', 'works'],
    insert: ['refused', 'refused', 'works', 'works'],
    update: ['refused', 'hidden', 'works', 'works'],
    delete: ['refused', 'hidden', 'works', 'works'],
  },
  questions: {
    select: ['works', 'works', 'works', 'works'],
    insert: ['refused', 'refused', 'works', 'works'],
    update: ['refused', 'hidden', 'works', 'works'],
    delete: ['refused', 'hidden', 'works', 'works'],
  },
  users: {
    select: ['refused', 'hidden', 'works', 'works'],
    insert: ['refused', 'refused', 'works', 'works'],
    update: ['refused', 'hidden', 'works', 'works'],
    delete: ['refused', 'hidden', 'works', 'works'],
  },
  responses: {
    select: ['refused', 'refused', 'refused', 'refused'],
    insert: ['refused', 'refused', 'refused', 'refused'],
    update: ['refused', 'refused', 'refused', 'refused'],
    delete: ['refused', 'refused', 'refused', 'refused'],
  },
  answers: {
    select: ['refused', 'refused', 'refused', 'refused'],
    insert: ['refused', 'refused', 'refused', 'refused'],
    update: ['refused', 'refused', 'refused', 'refused'],
    delete: ['refused', 'refused', 'refused', 'refused'],
  },
  staff: {
    select: ['refused', 'own row', 'own row', 'works'],
    insert: ['refused', 'refused', 'refused', 'refused'],
    update: ['refused', 'hidden', 'hidden', 'works'],
    delete: ['refused', 'hidden', 'hidden', 'works'],
  },
};

// The documents bucket: anyone reads, staff and admins write. Storage answers a removal that
// row-level security hides with an empty list, as hosted Storage does.
const storageOperations = ['upload', 'download', 'list', 'remove'] as const;
type StorageOperation = (typeof storageOperations)[number];
const documentsMatrix: Record<StorageOperation, PerCaller> = {
  // [anon, pending, staff, admin]
  upload: ['refused', 'refused', 'works', 'works'],
  download: ['works', 'works', 'works', 'works'],
  list: ['works', 'works', 'works', 'works'],
  remove: ['hidden', 'hidden', 'works', 'works'],
};

// `current_user` inside the request's transaction, per token.
const expectedDatabaseRole: Record<Caller | 'service_role', string> = {
  anon: 'anon',
  pending: 'authenticated',
  staff: 'authenticated',
  admin: 'authenticated',
  service_role: 'service_role',
};

type Key = string | number;
type Fields = Record<string, unknown>;

/** Where the matrix's rows come from: made as the database owner, fresh for every case. */
interface TableFixture {
  key: string;
  /** The text column a row's mark goes into, to find what an insert left behind. */
  markColumn: string;
  seed(db: Database, mark: string): Promise<Key>;
  /** What the caller tries to insert: a row that would be valid but for the permissions. */
  newRow(db: Database, mark: string): Promise<Fields>;
  change: Fields;
}

interface Basis {
  formId: number;
  questionId: number;
}

async function insertReturningKey(db: Database, sql: string, params: unknown[]): Promise<Key> {
  const result = await db.query<{ key: Key }>(sql, params);
  return result.rows[0]!.key;
}

function fixtures(basis: Basis): Record<TableName, TableFixture> {
  const responseRow = (mark: string) => ({
    client_id: crypto.randomUUID(),
    payload_hash: 'matrix',
    form_id: basis.formId,
    source: 'questionnaire',
    first_name: mark,
    last_name: 'Matrix',
    email: `${mark}@example.de`,
    phone: '0170 1234567',
    terms_accepted: true,
    data_processing_consent: true,
    create_date: new Date().toISOString(),
    changed_date: new Date().toISOString(),
  });
  const seedResponse = (db: Database, mark: string) => {
    const row = responseRow(mark);
    const columns = Object.keys(row);
    return insertReturningKey(
      db,
      `insert into public.responses (${columns.join(', ')})
       values (${columns.map((_, i) => `$${i + 1}`).join(', ')}) returning id as key`,
      Object.values(row),
    );
  };
  const seedAuthUser = (db: Database, mark: string) =>
    insertReturningKey(
      db,
      `insert into auth.users (email, encrypted_password) values ($1, 'not-used')
       returning id::text as key`,
      [`${mark}@example.de`],
    );

  return {
    forms: {
      key: 'id',
      markColumn: 'title',
      seed: (db, mark) =>
        insertReturningKey(db, 'insert into public.forms (title) values ($1) returning id as key', [
          mark,
        ]),
      newRow: async (_db, mark) => ({ title: mark, description: 'Neu' }),
      change: { description: 'Geändert' },
    },
    questions: {
      key: 'id',
      markColumn: 'question',
      seed: (db, mark) =>
        insertReturningKey(
          db,
          `insert into public.questions (form_id, question, type, sequence)
           values ($1, $2, 'input', 99) returning id as key`,
          [basis.formId, mark],
        ),
      newRow: async (_db, mark) => ({
        form_id: basis.formId,
        question: mark,
        type: 'input',
        sequence: 99,
      }),
      change: { information: 'Geändert' },
    },
    users: {
      key: 'id',
      markColumn: 'first_name',
      seed: (db, mark) =>
        insertReturningKey(
          db,
          `insert into public.users (first_name, last_name, email)
           values ($1, 'Matrix', $2) returning id as key`,
          [mark, `${mark}@example.de`],
        ),
      newRow: async (_db, mark) => ({
        first_name: mark,
        last_name: 'Matrix',
        email: `${mark}@example.de`,
      }),
      change: { city: 'Geändert' },
    },
    responses: {
      key: 'id',
      markColumn: 'first_name',
      seed: seedResponse,
      newRow: async (_db, mark) => responseRow(mark),
      change: { message: 'Geändert' },
    },
    answers: {
      key: 'id',
      markColumn: 'answer',
      seed: async (db, mark) =>
        insertReturningKey(
          db,
          `insert into public.answers (response_id, question_id, answer)
           values ($1, $2, $3) returning id as key`,
          [await seedResponse(db, `${mark}-antwort`), basis.questionId, mark],
        ),
      newRow: async (db, mark) => ({
        response_id: await seedResponse(db, `${mark}-antwort`),
        question_id: basis.questionId,
        answer: mark,
      }),
      change: { answer: 'Geändert' },
    },
    staff: {
      key: 'user_id',
      markColumn: 'email',
      // The trigger on auth.users makes the pending row.
      seed: seedAuthUser,
      // An account without a staff row, so only the permissions stand in the way.
      newRow: async (db, mark) => {
        const userId = await seedAuthUser(db, mark);
        await db.query('delete from public.staff where user_id = $1', [userId]);
        return { user_id: userId, email: `${mark}@example.de`, role: 'admin' };
      },
      change: { role: 'admin' },
    },
  };
}

/** A row as the database owner sees it, or null when there is none. */
async function rowOf(db: Database, table: TableName, key: string, value: Key) {
  const result = await db.query<{ row: Fields }>(
    `select to_jsonb(t) as row from public.${table} t where t.${key}::text = $1`,
    [String(value)],
  );
  return result.rows[0]?.row ?? null;
}

async function countMarked(db: Database, table: TableName, column: string, mark: string) {
  const result = await db.query<{ n: number }>(
    `select count(*)::int as n from public.${table} where ${column} = $1`,
    [mark],
  );
  return result.rows[0]!.n;
}

async function objectExists(db: Database, name: string): Promise<boolean> {
  const result = await db.query(
    `select 1 from storage.objects where bucket_id = 'documents' and name = $1`,
    [name],
  );
  return result.rows.length === 1;
}

function expectRefused(
  result: { error: PostgrestError | null; status: number },
  caller: Caller,
): void {
  expect(result.error?.code, result.error?.message).toBe('42501');
  expect(result.status).toBe(caller === 'anon' ? 401 : 403);
}

const pdf = (text: string) =>
  new Blob([`%PDF-1.4\n% ${text}\n%%EOF\n`], { type: 'application/pdf' });

describe.each(['pglite', 'postgres'] as const)('permission matrix on %s', (kind: DatabaseKind) => {
  let server: GatewayServer;
  let db: Database;
  let fixture: Record<TableName, TableFixture>;
  let clients: Record<Caller | 'service_role', SupabaseClient>;
  let accounts: Record<AccountRole, Account>;
  let marks = 0;
  // Lower case and unique per case: it also names e-mail addresses and objects.
  const nextMark = () => `matrix-${kind}-${++marks}-${crypto.randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    server = await startGatewayServer(kind, async (owner) => {
      // Test-only, never in the migrations: which role a request really runs as.
      await owner.query(`create function public.whoami() returns text language sql stable
        as $$ select current_user::text $$`);
      await owner.query(
        'grant execute on function public.whoami() to anon, authenticated, service_role',
      );
    });
    db = server.db;
    const basis = await db.query<Basis>(
      `select f.id as "formId", min(q.id) as "questionId"
         from public.forms f join public.questions q on q.form_id = f.id
        group by f.id order by f.id limit 1`,
    );
    fixture = fixtures(basis.rows[0]!);
    accounts = {
      pending: await createAccount(db, `wartend-${kind}@example.de`, 'pending'),
      staff: await createAccount(db, `mitarbeiter-${kind}@example.de`, 'staff'),
      admin: await createAccount(db, `chefin-${kind}@example.de`, 'admin'),
    };
    const { serviceRoleKey } = await apiKeys(testSecret);
    clients = {
      anon: await supabaseClient(server.url, testSecret),
      pending: await supabaseClient(server.url, testSecret, accounts.pending.accessToken),
      staff: await supabaseClient(server.url, testSecret, accounts.staff.accessToken),
      admin: await supabaseClient(server.url, testSecret, accounts.admin.accessToken),
      service_role: await supabaseClient(server.url, testSecret, serviceRoleKey),
    };
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  it.each([...callers, 'service_role' as const])(
    'runs a request of %s as the database role of its token',
    async (caller) => {
      // POST and GET: GET runs in a read-only transaction, a path of its own.
      for (const get of [false, true]) {
        const { data, error } = await clients[caller].rpc('whoami', {}, { get });
        expect(error).toBeNull();
        expect(data).toBe(expectedDatabaseRole[caller]);
      }
    },
  );

  const tableCases = (Object.keys(tableMatrix) as TableName[]).flatMap((table) =>
    tableOperations.flatMap((operation) =>
      callers.map((caller, i) => ({
        table,
        operation,
        caller,
        outcome: tableMatrix[table][operation][i]!,
      })),
    ),
  );

  const tableCase = async ({ table, operation, caller, outcome }: (typeof tableCases)[number]) => {
    const client = clients[caller];
    const { key, markColumn, change } = fixture[table];
    const mark = nextMark();

    if (operation === 'insert') {
      const row = await fixture[table].newRow(db, mark);
      const result = await client.from(table).insert(row).select();
      if (outcome === 'works') {
        expect(result.error).toBeNull();
        expect(result.data).toHaveLength(1);
        expect(await countMarked(db, table, markColumn, String(row[markColumn]))).toBe(1);
      } else {
        expect(outcome).toBe('refused');
        expectRefused(result, caller);
        expect(await countMarked(db, table, markColumn, String(row[markColumn]))).toBe(0);
      }
      return;
    }

    const id = await fixture[table].seed(db, mark);
    const before = await rowOf(db, table, key, id);
    expect(before).not.toBeNull();

    if (operation === 'select') {
      const result = await client.from(table).select('*').eq(key, id);
      if (outcome === 'works') {
        expect(result.error).toBeNull();
        expect(result.data).toEqual([expect.objectContaining({ [key]: id })]);
      } else if (outcome === 'refused') {
        expectRefused(result, caller);
      } else {
        expect(result.error).toBeNull();
        expect(result.data).toEqual([]);
        if (outcome === 'own row') {
          const own = await client.from(table).select(key);
          expect(own.error).toBeNull();
          expect(own.data).toEqual([{ [key]: accounts[caller as AccountRole].id }]);
        }
      }
      return;
    }

    const result =
      operation === 'update'
        ? await client.from(table).update(change).eq(key, id).select()
        : await client.from(table).delete().eq(key, id).select();
    const after = await rowOf(db, table, key, id);
    if (outcome === 'works') {
      expect(result.error).toBeNull();
      expect(result.data).toHaveLength(1);
      if (operation === 'update') expect(after).toMatchObject(change);
      else expect(after).toBeNull();
      return;
    }
    if (outcome === 'refused') {
      expectRefused(result, caller);
    } else {
      expect(outcome).toBe('hidden');
      expect(result.error).toBeNull();
      expect(result.data).toEqual([]);
    }
    expect(after).toEqual(before);
  };
  for (const c of tableCases) {
    it(`${c.caller}: ${c.operation} on ${c.table} → ${c.outcome}`, () => tableCase(c));
  }

  it.each(['pending', 'staff'] as const)(
    'a %s account cannot change its own role',
    async (caller) => {
      const own = accounts[caller];
      const result = await clients[caller]
        .from('staff')
        .update({ role: 'admin' })
        .eq('user_id', own.id)
        .select();
      expect(result.error).toBeNull();
      expect(result.data).toEqual([]);
      expect(await rowOf(db, 'staff', 'user_id', own.id)).toMatchObject({ role: caller });
    },
  );

  const storageCases = storageOperations.flatMap((operation) =>
    callers.map((caller, i) => ({ operation, caller, outcome: documentsMatrix[operation][i]! })),
  );

  const storageCase = async ({ operation, caller, outcome }: (typeof storageCases)[number]) => {
    const bucket = clients[caller].storage.from('documents');
    const mark = nextMark();
    const folder = `matrix/${mark}`;
    const name = `${folder}/angebot.pdf`;

    if (operation === 'upload') {
      const { error } = await bucket.upload(name, pdf(mark));
      if (outcome === 'works') {
        expect(error).toBeNull();
        expect(await objectExists(db, name)).toBe(true);
      } else {
        expect(outcome).toBe('refused');
        expect(error).toMatchObject({ statusCode: '403' });
        expect(await objectExists(db, name)).toBe(false);
      }
      return;
    }

    // The object to read or remove, put there past the policies.
    const seeded = await clients.service_role.storage.from('documents').upload(name, pdf(mark));
    expect(seeded.error).toBeNull();

    if (operation === 'download') {
      expect(outcome).toBe('works');
      const { data, error } = await bucket.download(name);
      expect(error).toBeNull();
      expect(await data!.text()).toContain(mark);
    } else if (operation === 'list') {
      expect(outcome).toBe('works');
      const { data, error } = await bucket.list(folder);
      expect(error).toBeNull();
      expect(data!.map((entry) => entry.name)).toEqual(['angebot.pdf']);
    } else {
      const { data, error } = await bucket.remove([name]);
      expect(error).toBeNull();
      if (outcome === 'works') {
        expect(data!.map((entry) => entry.name)).toEqual([name]);
        expect(await objectExists(db, name)).toBe(false);
      } else {
        expect(outcome).toBe('hidden');
        expect(data).toEqual([]);
        expect(await objectExists(db, name)).toBe(true);
        const still = await clients.anon.storage.from('documents').download(name);
        expect(await still.data!.text()).toContain(mark);
      }
    }
  };
  for (const c of storageCases) {
    it(`${c.caller}: ${c.operation} in the documents bucket → ${c.outcome}`, () => storageCase(c));
  }
});
