import type { PostgrestError, SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '../../domain/database.types.ts';

// Calls of the database's functions whose arguments may be null. Supabase's generator types a
// parameter with a default as optional but never as null, while the desk sends null for "no
// filter" (the functions read null as "everything"). So the arguments are typed here from the
// generated `Args`, each also nullable, and the rows a call returns are validated by the
// caller's zod schema rather than trusted: the generator cannot tell a nullable column of a
// `returns table` from a required one either.

type Functions = Database['public']['Functions'];
export type FunctionName = keyof Functions;

/** The generated arguments of `name`, every one given, null meaning the default. */
export type NullableArgs<Name extends FunctionName> = {
  [Key in keyof Functions[Name]['Args']]-?: Functions[Name]['Args'][Key] | null;
};

/** The column names of the rows `name` returns. */
export type ReturnedColumn<Name extends FunctionName> =
  Functions[Name]['Returns'] extends (infer Row)[] ? keyof Row : never;

/**
 * `true` only when a hand-kept row type (a zod schema's output) has exactly the columns the
 * function returns, so a column renamed in a migration fails `npm run typecheck`.
 */
export type SameColumns<Row, Name extends FunctionName> = [keyof Row] extends [ReturnedColumn<Name>]
  ? [ReturnedColumn<Name>] extends [keyof Row]
    ? true
    : false
  : false;

/**
 * Calls `name` with nullable arguments and answers `unknown` data for the caller to validate.
 * The client is widened to supabase-js's untyped view only for this call; the function name
 * and the arguments are checked against the generated types above.
 */
export async function callWithNulls<Name extends FunctionName>(
  supabase: SupabaseClient<Database>,
  name: Name,
  args: NullableArgs<Name>,
): Promise<{ data: unknown; error: PostgrestError | null }> {
  const untyped: SupabaseClient = supabase;
  const { data, error } = await untyped.rpc(name, args);
  return { data, error };
}
