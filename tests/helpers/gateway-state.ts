import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Database } from '../../server/db/database.ts';

/**
 * Everything a request to the gateway could change: each table of `public`, `auth` and `storage`
 * by row count and a digest of its rows (so an update shows as well as an insert or delete),
 * and every file under DATA_DIR (object bodies, uploads in progress, mails) with its size.
 * Two equal snapshots mean nothing changed. Left out: `public.request_counters`, where every
 * request counts against its client's limits, refused or not (that is the point of a limit).
 */
export interface GatewayState {
  tables: Record<string, string>;
  files: string[];
}

export async function gatewayState(db: Database, dataDir: string): Promise<GatewayState> {
  const found = await db.query<{ schema: string; name: string }>(
    `select schemaname as schema, tablename as name from pg_tables
     where schemaname in ('public', 'auth', 'storage')
       and (schemaname, tablename) <> ('public', 'request_counters')
     order by 1, 2`,
  );
  const tables: Record<string, string> = {};
  for (const { schema, name } of found.rows) {
    const qualified = `${quoted(schema)}.${quoted(name)}`;
    const result = await db.query<{ n: number; digest: string | null }>(
      `select count(*)::int as n, md5(string_agg(t::text, E'\\n' order by t::text)) as digest
       from ${qualified} t`,
    );
    const row = result.rows[0]!;
    tables[`${schema}.${name}`] = `${row.n} ${row.digest ?? '-'}`;
  }
  return { tables, files: filesUnder(dataDir) };
}

export async function rowCount(db: Database, table: string): Promise<number> {
  const [schema, name] = table.split('.') as [string, string];
  const result = await db.query<{ n: number }>(
    `select count(*)::int as n from ${quoted(schema)}.${quoted(name)}`,
  );
  return result.rows[0]!.n;
}

function quoted(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}

function filesUnder(folder: string): string[] {
  let entries;
  try {
    entries = readdirSync(folder, { recursive: true, withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const file = path.join(entry.parentPath, entry.name);
      return `${path.relative(folder, file)} ${statSync(file).size}`;
    })
    .sort();
}
