import type { Database, Tables } from '../../src/domain/database.types.ts';

// The server's result rows, derived from the generated `Database` types (`npm run gen:types`),
// so a column renamed, retyped or turned into an enum in supabase/ changes them too. The
// generator describes what PostgREST sends as JSON; the drivers (pg, PGlite) read two kinds of
// column differently, and the helpers below say so for the columns a query selects. The
// generator covers the `public` schema only: rows of the local stand-ins for Supabase's `auth`,
// `storage` and `supabase_migrations` schemas and of catalog queries are typed where they are read.

type PublicFunctions = Database['public']['Functions'];

/** What the database function `Name` returns: its row for a set, else its value. */
export type FunctionResult<Name extends keyof PublicFunctions> =
  PublicFunctions[Name]['Returns'] extends (infer Row)[] ? Row : PublicFunctions[Name]['Returns'];

/** The named columns of a row of `public.<Table>`. */
export type Columns<
  Table extends keyof Database['public']['Tables'],
  Column extends keyof Tables<Table>,
> = Pick<Tables<Table>, Column>;

/** Timestamp columns as pg and PGlite parse them: a `Date` (null stays null), not a string. */
export type ReadAsDate<Row, Column extends keyof Row> = Omit<Row, Column> & {
  [Key in Column]: Date | Extract<Row[Key], null>;
};

/**
 * `bigint` columns as the drivers read them: a string on pg (64 bits kept exact), a number on
 * PGlite. Code that only passes such a value back as a parameter may take either.
 */
export type ReadAsInt8<Row, Column extends keyof Row> = Omit<Row, Column> & {
  [Key in Column]: string | Row[Key];
};
