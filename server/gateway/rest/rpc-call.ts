import { PostgrestError } from './errors.ts';
import type { RoutineInfo, SchemaCache } from './schema-cache.ts';
import { Params, quoteIdent, type Statement } from './sql-builder.ts';

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

/**
 * The call, with the arguments as one JSON parameter typed by the catalog. Answers `{body, n}`:
 * the JSON result as text (an array for set-returning functions) and the number of rows.
 */
export function buildCall(routine: RoutineInfo, args: Record<string, unknown>): Statement {
  const params = new Params();
  const given = routine.arguments.filter((argument) => Object.hasOwn(args, argument.name));
  const fn = `public.${quoteIdent(routine.name)}`;
  const call = `${fn}(${given.map((argument) => `${quoteIdent(argument.name)} => a.${quoteIdent(argument.name)}`).join(', ')})`;
  const from =
    given.length === 0
      ? ''
      : ` from json_to_record(${params.text(JSON.stringify(args))}::json) as a(${given
          .map((argument) => `${quoteIdent(argument.name)} ${argument.type}`)
          .join(', ')})`;
  if (routine.returns === 'void' && !routine.returnsSet) {
    return { sql: `select ${call}${from}`, params: params.values };
  }
  if (routine.returnsSet || routine.returns === 'composite') {
    const source = from === '' ? ` from ${call} as f` : `${from} cross join lateral ${call} as f`;
    return {
      sql: `select coalesce(json_agg(f), '[]'::json)::text as body, count(*)::int as n${source}`,
      params: params.values,
    };
  }
  return { sql: `select to_json(${call})::text as body, 1 as n${from}`, params: params.values };
}
