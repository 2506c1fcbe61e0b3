import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffDatabases, migrationText, migrationVersion } from '../../scripts/db-diff.ts';
import {
  catalogueDifferences,
  readCatalogue,
  type Catalogue,
} from '../../scripts/schema-catalogue.ts';
import {
  buildDeclared,
  buildMigrated,
  readSchemaFiles,
  type SchemaFile,
} from '../../scripts/schema-databases.ts';
import { asSuperuser, startTestPostgres, type TestPostgres } from '../helpers/postgres.ts';

// supabase/schemas is the database's current state: built from its files, PostgreSQL holds
// exactly what all of supabase/migrations leave behind (tables, columns, constraints, indexes,
// types, functions with their bodies and settings, policies, grants down to columns, triggers,
// views, comments). A schema file changed without a migration, or a migration without its
// schema file, fails here with the object's name.

async function catalogueOf(url: string): Promise<Catalogue> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await readCatalogue(client);
  } finally {
    await client.end();
  }
}

/** The schema files with one line added to the body of `public.<name>`. */
function withChangedFunction(files: SchemaFile[], name: string): SchemaFile[] {
  const head = `CREATE FUNCTION public.${name}(`;
  const file = files.find((f) => f.sql.includes(head));
  if (!file) throw new Error(`Funktion ${name} in supabase/schemas nicht gefunden`);
  const start = file.sql.indexOf(head);
  const body = file.sql.indexOf('\nbegin\n', start);
  const changed = `${file.sql.slice(0, body)}\nbegin\n  perform 1;${file.sql.slice(body + 6)}`;
  return files.map((f) => (f === file ? { ...f, sql: changed } : f));
}

describe('declarative schema (supabase/schemas)', () => {
  let server: TestPostgres;
  let files: SchemaFile[];
  let migrated: Catalogue;

  beforeAll(async () => {
    server = await startTestPostgres();
    for (const name of ['migrated', 'declared', 'changed', 'column_grant']) {
      await asSuperuser(server, `create database ${name}`);
    }
    files = await readSchemaFiles();
    await buildMigrated(server.url('migrated'));
    migrated = await catalogueOf(server.url('migrated'));
  }, 180_000);

  afterAll(() => server?.stop());

  it('builds the same database as all migrations', async () => {
    expect(files.map((f) => f.name)).toEqual([...files.map((f) => f.name)].sort());
    await buildDeclared(server.url('declared'), files);
    const declared = await catalogueOf(server.url('declared'));
    // The comparison sees every kind of object, or an empty catalogue would pass too.
    const kinds = new Set([...declared.keys()].map((name) => name.split(' ')[0]));
    for (const kind of [
      'table',
      'column',
      'constraint',
      'index',
      'function',
      'grants',
      'policy',
      'trigger',
      'comment',
    ]) {
      expect(kinds, kind).toContain(kind);
    }
    expect([...declared.keys()]).toContain('policy documents_staff_insert on storage.objects');
    expect([...declared.keys()]).toContain('trigger on_auth_user_created on auth.users');
    expect(catalogueDifferences(migrated, declared)).toEqual([]);
    // The demo generators are seed-only (supabase/seed-demo.sql).
    expect([...declared.keys()].filter((name) => /seed_demo|demo_answer/.test(name))).toEqual([]);
  }, 120_000);

  it('names the function whose schema file disagrees with the migrations', async () => {
    await buildDeclared(server.url('changed'), withChangedFunction(files, 'set_lead_status'));
    const changed = await catalogueOf(server.url('changed'));
    expect(catalogueDifferences(migrated, changed)).toEqual([
      'function public.set_lead_status(integer,text,text): unterschiedlich',
    ]);
  }, 120_000);

  it('db:diff names the new migration after every existing one', () => {
    const existing = ['20261128140000', '20261128150000'];
    expect(migrationVersion(existing, new Date('2026-11-29T08:15:30.250Z'))).toBe('20261129081530');
    // A clock before the newest migration: one second after it, never between applied ones.
    expect(migrationVersion(existing, new Date('2026-11-28T05:52:21Z'))).toBe('20261128150001');
    expect(migrationVersion(['20261231235959'], new Date('2026-01-01T00:00:00Z'))).toBe(
      '20270101000000',
    );
  });

  it('db:diff names in its head a column privilege the diff cannot write', async () => {
    const grant = 'GRANT UPDATE(staff_can_export) ON TABLE public.desk_settings TO authenticated;';
    expect(files.some((f) => f.sql.includes(grant))).toBe(true);
    const withoutGrant = files.map((f) => ({ ...f, sql: f.sql.replace(grant, '') }));
    await buildDeclared(server.url('column_grant'), withoutGrant);
    const diff = await diffDatabases(server.url('declared'), server.url('column_grant'));
    expect(diff.sql).toBe('');
    expect(diff.remaining).toEqual([
      'grants on column public.desk_settings.staff_can_export: nur in den Migrationen',
    ]);
    expect(migrationText(diff)).toContain(
      '--   - grants on column public.desk_settings.staff_can_export: nur in den Migrationen',
    );
  }, 120_000);

  it('db:diff writes the changed function as create or replace, which makes both equal', async () => {
    const diff = await diffDatabases(server.url('migrated'), server.url('changed'));
    expect(diff.remaining).toEqual([]);
    const text = migrationText(diff);
    expect(text).toMatch(/create or replace function "?public"?\."?set_lead_status"?\(/i);
    expect(text).not.toMatch(/drop function/i);
    await asSuperuser(server, text, 'migrated');
    expect(
      catalogueDifferences(
        await catalogueOf(server.url('migrated')),
        await catalogueOf(server.url('changed')),
      ),
    ).toEqual([]);
  }, 120_000);
});
