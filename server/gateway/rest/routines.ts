import type { Queryable } from '../../db/database.ts';
import { PostgrestError } from './errors.ts';
import type { Column, Relation, RoutineInfo, SchemaCache } from './schema-cache.ts';

// The functions of the schema cache as the plan needs them: which overload a call means, which
// query keys are arguments, and what the rows of a set-returning function look like.

/**
 * Picks the function `name` whose named arguments fit `args` (PostgREST's overload choice): every
 * given name is an argument, every argument without a default is given.
 */
export function findRoutine(
  cache: SchemaCache,
  name: string,
  args: Record<string, unknown>,
): RoutineInfo | undefined {
  const given = Object.keys(args);
  return cache.functions
    .get(name)
    ?.find(
      (routine) =>
        given.every((key) => routine.arguments.some((argument) => argument.name === key)) &&
        routine.arguments.every((argument) => argument.hasDefault || given.includes(argument.name)),
    );
}

export function routineNotFound(name: string, args: Record<string, unknown>): PostgrestError {
  const names = Object.keys(args).sort();
  const signature = names.length > 0 ? `with parameters ${names.join(', ')}` : 'without parameters';
  return new PostgrestError(
    404,
    'PGRST202',
    `Could not find the function public.${name}${names.length > 0 ? `(${names.join(', ')})` : ' without parameters'} in the schema cache`,
    {
      details: `Searched for the function public.${name} ${signature}, but no matches were found in the schema cache.`,
    },
  );
}

/** Every argument name of the functions called `name`: on GET these keys are arguments. */
export function argumentNames(cache: SchemaCache, name: string): Set<string> {
  return new Set(
    (cache.functions.get(name) ?? []).flatMap((routine) =>
      routine.arguments.map((argument) => argument.name),
    ),
  );
}

const resultColumns = new WeakMap<RoutineInfo, Promise<ResultShape | undefined>>();

interface ResultShape {
  /** The table or view of `public` whose row type the function returns, if any. */
  relation?: string;
  columns: Column[];
}

/**
 * What the rows of a set-returning function look like, read once per routine of a schema cache:
 * a table's row type (`setof public.users`) is that table, so embedding works from it too;
 * `returns table (...)` and other row types give their columns. Scalar results have no shape.
 */
export async function resultRelation(
  db: Queryable,
  cache: SchemaCache,
  routine: RoutineInfo,
): Promise<Relation | undefined> {
  if (!routine.returnsSet || routine.returns !== 'composite') return undefined;
  let shape = resultColumns.get(routine);
  if (!shape) {
    // A failed read (database down) is not kept: the next call tries again.
    shape = readShape(db, routine).catch((error: unknown) => {
      resultColumns.delete(routine);
      throw error;
    });
    resultColumns.set(routine, shape);
  }
  const found = await shape;
  if (!found) return undefined;
  const table = found.relation === undefined ? undefined : cache.relations.get(found.relation);
  if (table) return table;
  if (found.columns.length === 0) return undefined;
  return {
    name: routine.name,
    kind: 'view',
    columns: found.columns,
    primaryKey: [],
    uniqueKeys: [],
  };
}

async function readShape(db: Queryable, routine: RoutineInfo): Promise<ResultShape | undefined> {
  const result = await db.query<{ relation: string | null; columns: Column[] | null }>(
    `select case when cn.nspname = 'public' then c.relname::text end as relation,
            coalesce(
              (select json_agg(json_build_object('name', a.attname,
                                                 'type', format_type(a.atttypid, a.atttypmod))
                               order by a.attnum)
                 from pg_attribute a
                where a.attrelid = t.typrelid and a.attnum > 0 and not a.attisdropped),
              (select json_agg(json_build_object('name', o.name, 'type', format_type(o.type, null))
                               order by o.i)
                 from unnest(p.proargnames, p.proallargtypes, p.proargmodes::text[])
                      with ordinality as o(name, type, mode, i)
                where o.mode in ('o', 't', 'b'))
            ) as columns
       from pg_proc p
       join pg_namespace n on n.oid = p.pronamespace
       join pg_type t on t.oid = p.prorettype
       left join pg_class c on c.oid = t.typrelid
       left join pg_namespace cn on cn.oid = c.relnamespace
      where n.nspname = 'public' and p.proname = $1
        and array(select format_type(x, null) from unnest(p.proargtypes) x) = array(select json_array_elements_text($2::json))`,
    [routine.name, JSON.stringify(routine.arguments.map((argument) => argument.type))],
  );
  const row = result.rows[0];
  if (!row) return undefined;
  // The json_agg above builds exactly Column's fields; a driver may hand json over as text.
  const columns =
    typeof row.columns === 'string' ? (JSON.parse(row.columns) as Column[]) : row.columns;
  return { ...(row.relation ? { relation: row.relation } : {}), columns: columns ?? [] };
}
