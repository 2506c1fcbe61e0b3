import type { Queryable } from '../../db/database.ts';

// What PostgREST calls its schema cache: the tables, views, foreign keys and functions of
// schema `public`, read from pg_catalog. Every name in a request is looked up here; only the
// catalog's spelling ever reaches SQL. Privileges are not read: the database refuses what the
// caller's role may not do (42501), as with PostgREST.

export interface Column {
  name: string;
  /** format_type(): a valid SQL type name, e.g. `timestamp with time zone`. */
  type: string;
}

export interface Relation {
  name: string;
  kind: 'table' | 'view';
  columns: Column[];
  primaryKey: string[];
  /** Column sets that are unique (primary key, unique constraints and plain unique indexes). */
  uniqueKeys: string[][];
}

export interface ForeignKey {
  name: string;
  /** The table holding the key and its columns. */
  table: string;
  columns: string[];
  /** The table referenced and its columns, in the same order. */
  referencedTable: string;
  referencedColumns: string[];
}

export interface FunctionArgument {
  name: string;
  type: string;
  hasDefault: boolean;
}

export interface RoutineInfo {
  name: string;
  arguments: FunctionArgument[];
  returnsSet: boolean;
  /** 'scalar', 'composite' (a row type) or 'void'. */
  returns: 'scalar' | 'composite' | 'void';
  volatile: boolean;
}

export interface SchemaCache {
  relations: Map<string, Relation>;
  foreignKeys: ForeignKey[];
  functions: Map<string, RoutineInfo[]>;
}

export async function loadSchemaCache(db: Queryable): Promise<SchemaCache> {
  const columns = await db.query<{
    relname: string;
    relkind: string;
    attname: string | null;
    type: string | null;
  }>(`
    select c.relname, c.relkind, a.attname, format_type(a.atttypid, a.atttypmod) as type
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      left join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
     where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm', 'f')
     order by c.relname, a.attnum`);
  const relations = new Map<string, Relation>();
  for (const row of columns.rows) {
    let relation = relations.get(row.relname);
    if (!relation) {
      relation = {
        name: row.relname,
        kind: row.relkind === 'v' || row.relkind === 'm' ? 'view' : 'table',
        columns: [],
        primaryKey: [],
        uniqueKeys: [],
      };
      relations.set(row.relname, relation);
    }
    if (row.attname && row.type) relation.columns.push({ name: row.attname, type: row.type });
  }

  const keys = await db.query<{
    conname: string;
    contype: string;
    table: string;
    columns: string[];
    referenced_table: string | null;
    referenced_columns: string[] | null;
  }>(`
    select con.conname, con.contype, c.relname as table,
           array(select a.attname::text from unnest(con.conkey) with ordinality k(attnum, i)
                   join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.attnum
                  order by k.i) as columns,
           fc.relname as referenced_table,
           case when con.contype = 'f' then
             array(select a.attname::text from unnest(con.confkey) with ordinality k(attnum, i)
                     join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.attnum
                    order by k.i)
           end as referenced_columns
      from pg_constraint con
      join pg_class c on c.oid = con.conrelid
      join pg_namespace n on n.oid = c.relnamespace
      left join pg_class fc on fc.oid = con.confrelid
      left join pg_namespace fn on fn.oid = fc.relnamespace
     where n.nspname = 'public' and con.contype in ('p', 'u', 'f')
       and (con.contype <> 'f' or fn.nspname = 'public')
     order by con.conname`);
  const foreignKeys: ForeignKey[] = [];
  for (const row of keys.rows) {
    const relation = relations.get(row.table);
    if (!relation) continue;
    if (row.contype === 'f' && row.referenced_table && row.referenced_columns) {
      foreignKeys.push({
        name: row.conname,
        table: row.table,
        columns: row.columns,
        referencedTable: row.referenced_table,
        referencedColumns: row.referenced_columns,
      });
    } else {
      if (row.contype === 'p') relation.primaryKey = row.columns;
      relation.uniqueKeys.push(row.columns);
    }
  }

  const uniqueIndexes = await db.query<{ table: string; columns: string[] }>(`
    select c.relname as table,
           array(select a.attname::text from unnest(i.indkey) with ordinality k(attnum, o)
                   join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
                  order by k.o) as columns
      from pg_index i
      join pg_class c on c.oid = i.indrelid
      join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and i.indisunique and i.indexprs is null and i.indpred is null`);
  for (const row of uniqueIndexes.rows) relations.get(row.table)?.uniqueKeys.push(row.columns);

  const routines = await db.query<{
    proname: string;
    argnames: string[] | null;
    argtypes: string[];
    argmodes: string[] | null;
    pronargdefaults: number;
    proretset: boolean;
    rettype: string;
    typtype: string;
    provolatile: string;
  }>(`
    select p.proname, p.proargnames as argnames,
           array(select format_type(t, null) from unnest(p.proargtypes) t) as argtypes,
           p.proargmodes::text[] as argmodes, p.pronargdefaults, p.proretset,
           format_type(p.prorettype, null) as rettype, t.typtype, p.provolatile
      from pg_proc p
      join pg_namespace n on n.oid = p.pronamespace
      join pg_type t on t.oid = p.prorettype
     where n.nspname = 'public' and p.prokind = 'f'
       and t.typname not in ('trigger', 'event_trigger')`);
  const functions = new Map<string, RoutineInfo[]>();
  for (const row of routines.rows) {
    // Only IN arguments take part in a call; OUT and TABLE arguments describe the result.
    const inNames = (row.argnames ?? []).filter(
      (_, i) => !row.argmodes || row.argmodes[i] === 'i' || row.argmodes[i] === 'b',
    );
    if (row.argtypes.length > 0 && inNames.length !== row.argtypes.length) continue;
    const firstDefault = row.argtypes.length - row.pronargdefaults;
    const routine: RoutineInfo = {
      name: row.proname,
      arguments: row.argtypes.map((type, i) => ({
        name: inNames[i]!,
        type,
        hasDefault: i >= firstDefault,
      })),
      returnsSet: row.proretset,
      returns:
        row.rettype === 'void'
          ? 'void'
          : row.typtype === 'c' || row.rettype === 'record'
            ? 'composite'
            : 'scalar',
      volatile: row.provolatile === 'v',
    };
    functions.set(row.proname, [...(functions.get(row.proname) ?? []), routine]);
  }
  return { relations, foreignKeys, functions };
}

const emptyCache = (): SchemaCache => ({
  relations: new Map(),
  foreignKeys: [],
  functions: new Map(),
});

/**
 * The cache of one process: read once, read again when a request names a table or function it
 * does not know (at most every `minimumAgeMs`), so a table created after start is found without
 * a restart and a stream of unknown names does not reread the catalog each time. A catalog that
 * cannot be read (database down) counts as empty, so a request gets PostgREST's 404 rather than a
 * 500, and the next request tries again.
 */
export function schemaCacheOf(
  db: Queryable,
  now: () => Date,
  minimumAgeMs: number,
  onError: (error: unknown) => void,
) {
  let current: Promise<SchemaCache> | undefined;
  let loadedAt = 0;
  const load = () => {
    loadedAt = now().getTime();
    const loading = loadSchemaCache(db).catch((error: unknown) => {
      onError(error);
      if (current === loading) current = undefined;
      return emptyCache();
    });
    current = loading;
    return loading;
  };
  return {
    get: () => current ?? load(),
    /** Rereads the catalog after a miss, unless it was read moments ago. */
    refresh: () => (now().getTime() - loadedAt >= minimumAgeMs || !current ? load() : current),
  };
}
