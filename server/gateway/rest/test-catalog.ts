import type { ForeignKey, Relation } from './schema-cache.ts';

// A made-up catalog for the REST steps' unit tests: tables whose `id` is an integer primary key
// and whose other columns are text, and foreign keys to such an `id`.

export function fakeTable(name: string, columns: string[], uniqueKeys = [['id']]): Relation {
  return {
    name,
    kind: 'table',
    columns: columns.map((column) => ({
      name: column,
      type: column === 'id' ? 'integer' : 'text',
    })),
    primaryKey: ['id'],
    uniqueKeys,
  };
}

/** `table.column` references `referenced.id`, named as PostgreSQL names it by default. */
export function fakeForeignKey(table: string, column: string, referenced: string): ForeignKey {
  return {
    name: `${table}_${column}_fkey`,
    table,
    columns: [column],
    referencedTable: referenced,
    referencedColumns: ['id'],
  };
}
