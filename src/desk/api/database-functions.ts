import type { PostgrestError, SupabaseClient } from '@supabase/supabase-js';
import type { Database, Json } from '../../domain/database.types.ts';

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

/** A row `name` returns, as generated. */
export type ReturnedRow<Name extends FunctionName> =
  Functions[Name]['Returns'] extends (infer Row)[] ? Row : never;

/** The column names of the rows `name` returns. */
export type ReturnedColumn<Name extends FunctionName> = keyof ReturnedRow<Name>;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type IsNullable<T> = null extends T ? true : false;
/**
 * Whether the generated type of a returned column says null. A json column is typed `Json`,
 * whose union holds null whether or not the column may be null: that says nothing.
 */
type SaysNull<T> = Same<T, Json> extends true ? false : IsNullable<T>;

/**
 * A column's value types agree when one narrows the other: the row may be narrower than the
 * database (a zod enum over a text column) or wider (text over an enum), but a number over a
 * text column is a mismatch. Null is compared on its own: the row allows null exactly when the
 * column may be null.
 */
type ColumnAgrees<RowValue, ColumnValue, ColumnNullable extends boolean> = [
  NonNullable<RowValue>,
] extends [NonNullable<ColumnValue>]
  ? Same<IsNullable<RowValue>, ColumnNullable>
  : [NonNullable<ColumnValue>] extends [NonNullable<RowValue>]
    ? Same<IsNullable<RowValue>, ColumnNullable>
    : false;

/** The columns of `Row` whose type or nullability disagrees with what `Name` returns. */
type DisagreeingColumns<Row, Name extends FunctionName, Nullable> = {
  [Key in keyof Row]-?: Key extends ReturnedColumn<Name>
    ? ColumnAgrees<
        Row[Key],
        ReturnedRow<Name>[Key],
        Key extends Nullable ? true : SaysNull<ReturnedRow<Name>[Key]>
      > extends true
      ? never
      : Key
    : Key;
}[keyof Row];

/**
 * `true` only when a hand-kept row type (a zod schema's output) has exactly the columns the
 * function returns, each of a type that agrees with the column's (see ColumnAgrees) and null
 * exactly where the column may be null; otherwise the columns that differ, so a column renamed,
 * retyped or made nullable in a migration fails `npm run typecheck` and names itself.
 *
 * `Nullable` names the columns of a `returns table` that may be null: PostgreSQL cannot declare
 * such a column not null, and the generator types every one as required. Columns of a table's
 * row type (`returns setof public.x`) carry their nullability in the generated types already.
 */
export type SameColumns<
  Row,
  Name extends FunctionName,
  Nullable extends ReturnedColumn<Name> = never,
> =
  Same<keyof Row, ReturnedColumn<Name>> extends true
    ? [DisagreeingColumns<Row, Name, Nullable>] extends [never]
      ? true
      : { disagreeing: DisagreeingColumns<Row, Name, Nullable> }
    : {
        missing: Exclude<ReturnedColumn<Name>, keyof Row>;
        unknown: Exclude<keyof Row, ReturnedColumn<Name>>;
      };

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
