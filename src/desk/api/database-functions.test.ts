import { describe, expectTypeOf, it } from 'vitest';
import type { ReturnedRow, SameColumns } from './database-functions.ts';

// Type-level checks: `npm run typecheck` compiles this file, and each `@ts-expect-error` line
// fails the typecheck if SameColumns ever accepts the mismatch below it.

/** customer_note_list as the desk reads it: a `returns table`, three columns may be null. */
interface Note {
  id: number;
  body: string;
  author: string | null;
  author_name: string | null;
  mine: boolean;
  created_at: string;
  updated_at: string | null;
}
type NoteNullable = 'author' | 'author_name' | 'updated_at';

/** A row with one column replaced. */
type With<Row, Key extends keyof Row, Value> = Omit<Row, Key> & { [K in Key]: Value };

/** export_leads returns `setof` a row type: its generated columns carry their nullability. */
type Lead = ReturnedRow<'export_leads'>;

describe('SameColumns', () => {
  it('accepts a row whose columns, types and nullability agree with the function', () => {
    expectTypeOf<SameColumns<Note, 'customer_note_list', NoteNullable>>().toEqualTypeOf<true>();
    expectTypeOf<SameColumns<Lead, 'export_leads'>>().toEqualTypeOf<true>();
    // A narrower type over a text column (a zod enum) agrees.
    expectTypeOf<
      SameColumns<With<Note, 'body', 'a' | 'b'>, 'customer_note_list', NoteNullable>
    >().toEqualTypeOf<true>();
  });

  it('refuses a column of another type', () => {
    // @ts-expect-error id is a number in the database
    true satisfies SameColumns<With<Note, 'id', string>, 'customer_note_list', NoteNullable>;
    // @ts-expect-error mine is a boolean in the database
    true satisfies SameColumns<With<Note, 'mine', number>, 'customer_note_list', NoteNullable>;
    expectTypeOf<
      SameColumns<With<Note, 'id', string>, 'customer_note_list', NoteNullable>
    >().toEqualTypeOf<{ disagreeing: 'id' }>();
  });

  it('refuses a row that differs in nullability', () => {
    // @ts-expect-error the row allows null where the column is not declared nullable
    true satisfies SameColumns<
      With<Note, 'body', string | null>,
      'customer_note_list',
      NoteNullable
    >;
    // @ts-expect-error the row refuses null where the column may be null
    true satisfies SameColumns<With<Note, 'author', string>, 'customer_note_list', NoteNullable>;
    // @ts-expect-error the generated row type says adress may be null; the row says it may not
    true satisfies SameColumns<With<Lead, 'adress', string>, 'export_leads'>;
    // @ts-expect-error nor may a column the generator knows as required be declared nullable
    true satisfies SameColumns<Lead, 'export_leads', 'adress' | 'response_id'>;
  });

  it('refuses a renamed, missing or extra column', () => {
    // @ts-expect-error `text` is not a column of customer_note_list, `body` is missing
    true satisfies SameColumns<With<Omit<Note, 'body'>, 'text', string>, 'customer_note_list'>;
    // @ts-expect-error the row lacks `mine`
    true satisfies SameColumns<Omit<Note, 'mine'>, 'customer_note_list', NoteNullable>;
  });
});
