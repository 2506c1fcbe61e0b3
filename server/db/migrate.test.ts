import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './database.ts';
import { migrate, MigrationError, readMigrations } from './migrate.ts';

describe('migration runner', () => {
  let dir: string;
  let db: Database;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'migrations-'));
    db = await openDatabase({});
  });
  afterEach(async () => {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  });

  const write = (name: string, sql: string) => writeFile(path.join(dir, name), sql);
  const tables = async () =>
    (
      await db.query<{ table_name: string }>(
        `select table_name from information_schema.tables where table_schema = 'public' order by 1`,
      )
    ).rows.map((r) => r.table_name);

  it('applies files in name order, records them and skips them on the next run', async () => {
    await write('20260102000000_second.sql', 'alter table a add column note text;');
    await write('20260101000000_first.sql', 'create table a (id int);');
    const first = await migrate(db, await readMigrations(dir));
    expect(first).toEqual({
      applied: ['20260101000000_first', '20260102000000_second'],
      skipped: [],
    });
    const again = await migrate(db, await readMigrations(dir));
    expect(again.applied).toEqual([]);
    expect(again.skipped).toHaveLength(2);
    const recorded = await db.query(
      'select version, name from supabase_migrations.schema_migrations order by version',
    );
    expect(recorded.rows).toEqual([
      { version: '20260101000000', name: 'first' },
      { version: '20260102000000', name: 'second' },
    ]);
  });

  it('stops at a failed migration, leaves no trace of it and never runs the ones after', async () => {
    await write('20260101000000_good.sql', 'create table good (id int);');
    await write(
      '20260102000000_broken.sql',
      'create table half_done (id int);\nselect * from no_such_table;',
    );
    await write('20260103000000_later.sql', 'create table later (id int);');
    await expect(migrate(db, await readMigrations(dir))).rejects.toThrow(
      /Migration 20260102000000_broken ist fehlgeschlagen: .*no_such_table/,
    );
    expect(await tables()).toEqual(['good']);
    // A second start refuses again rather than skipping past the broken file.
    await expect(migrate(db, await readMigrations(dir))).rejects.toBeInstanceOf(MigrationError);
    expect(await tables()).toEqual(['good']);
  });

  it('refuses a migration that was edited after it was applied', async () => {
    await write('20260101000000_first.sql', 'create table a (id int);');
    await migrate(db, await readMigrations(dir));
    await write('20260101000000_first.sql', 'create table a (id bigint);');
    await expect(migrate(db, await readMigrations(dir))).rejects.toThrow(
      /wurde nach dem Anwenden geändert/,
    );
  });

  it('takes a text recorded with other white space, as the Supabase CLI records it, as applied', async () => {
    // The CLI stores a file split at its semicolons and trimmed; a no-break space (U+00A0) counts
    // as white space in the comparison too.
    await write(
      '20260101000000_first.sql',
      'create table a (id int);\u00a0\ncreate table b (id int);\n',
    );
    await db.exec('create table a (id int); create table b (id int);');
    await db.exec(`create schema supabase_migrations;
      create table supabase_migrations.schema_migrations (
        version text not null primary key, statements text[], name text)`);
    await db.query(
      'insert into supabase_migrations.schema_migrations (version, name, statements) values ($1, $2, $3)',
      ['20260101000000', 'first', ['create table a (id int)', 'create table b (id int)']],
    );
    const report = await migrate(db, await readMigrations(dir));
    expect(report).toEqual({ applied: [], skipped: ['20260101000000_first'] });
  });

  it('refuses a database that has migrations the files do not know', async () => {
    await write('20260101000000_first.sql', 'create table a (id int);');
    await migrate(db, await readMigrations(dir));
    await rm(path.join(dir, '20260101000000_first.sql'));
    await expect(migrate(db, await readMigrations(dir))).rejects.toThrow(/20260101000000/);
  });

  it('still refuses a version recorded since by another tool when the files did not change', async () => {
    await write('20260101000000_first.sql', 'create table a (id int);');
    await migrate(db, await readMigrations(dir));
    // `supabase db push` of a file this folder does not have.
    await db.query(
      'insert into supabase_migrations.schema_migrations (version, name, statements) values ($1, $2, $3)',
      ['20260105000000', 'elsewhere', ['create table c (id int)']],
    );
    await expect(migrate(db, await readMigrations(dir))).rejects.toThrow(/20260105000000/);
  });

  it('refuses a file that does not follow the Supabase naming', async () => {
    await write('001_init.sql', 'select 1;');
    await expect(readMigrations(dir)).rejects.toThrow(/falsch benannt: 001_init.sql/);
  });
});
