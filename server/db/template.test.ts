import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from './database.ts';
import { readMigrations } from './migrate.ts';
import { migrationsDir, setupDatabase } from './setup.ts';
import { findTemplate, templateFile, templateStamp } from './template-file.mjs';
import { writeTemplate } from './template.ts';

const stamp = 'a'.repeat(64);
const admin = { email: 'admin@example.de', password: 'ein-langes-passwort' };

describe('the template of a new data folder', () => {
  let dir: string;
  let templates: string;
  let template: string;
  const earlier = () => path.join(templates, 'pglite-template-0000000000000000');
  const earlierTarball = () => path.join(templates, 'pglite-template-1111111111111111.tar.gz');
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'db-template-'));
    templates = path.join(dir, 'templates');
    await mkdir(earlier(), { recursive: true });
    await writeFile(path.join(earlier(), 'PG_VERSION'), '17');
    await writeFile(earlierTarball(), 'the template of an earlier build');
    template = templateFile(stamp, templates);
    await writeTemplate(template);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('starts a new folder migrated and seeded, with no account in it, and without initdb', async () => {
    // As server/config.ts leaves it: DATA_DIR exists, its database folder not yet.
    const dataDir = path.join(dir, 'first');
    await mkdir(dataDir);
    const db = await openDatabase({ dataDir, template });
    try {
      expect(db.fromTemplate).toBe(true);
      // Nothing that belongs to one installation: each start creates its own admin.
      const accounts = await db.query('select id from auth.users');
      expect(accounts.rows).toEqual([]);
      const setup = await setupDatabase(db, { gateway: true, admin });
      const migrations = await readMigrations(migrationsDir);
      expect(setup.migrations.applied).toEqual([]);
      expect(setup.migrations.skipped).toHaveLength(migrations.length);
      expect(setup.seeded).toBe(false);
      expect(setup.admin?.created).toBe(true);
      const forms = await db.query<{ id: number }>('select id from public.forms order by id');
      expect(forms.rows.map((row) => row.id)).toEqual([1, 2]);
    } finally {
      await db.close();
    }
  }, 60_000);

  it('opens a folder that has a database as it is: the template never overwrites it', async () => {
    const dataDir = path.join(dir, 'first');
    let asked = false;
    const find = () => {
      asked = true;
      return template;
    };
    const db = await openDatabase({ dataDir, template: find });
    try {
      expect(db.fromTemplate).toBe(false);
      // A restart does not even hash the template's sources.
      expect(asked).toBe(false);
      const accounts = await db.query<{ email: string }>('select email from auth.users');
      expect(accounts.rows).toEqual([{ email: admin.email }]);
    } finally {
      await db.close();
    }
  }, 60_000);

  it('is copied: the next new folder starts without the first one’s admin, past a half copy', async () => {
    // What a start that ended while copying left beside the database folder.
    const dataDir = path.join(dir, 'second');
    const halfCopy = path.join(dataDir, 'pglite.999999.partial');
    await mkdir(halfCopy, { recursive: true });
    await writeFile(path.join(halfCopy, 'PG_VERSION'), '17');
    const db = await openDatabase({ dataDir, template });
    try {
      expect(db.fromTemplate).toBe(true);
      expect((await db.query('select id from auth.users')).rows).toEqual([]);
    } finally {
      await db.close();
    }
    expect(await readdir(dataDir)).toEqual(['pglite']);
  }, 60_000);

  it('is found only under the stamp of the current sources, and replaces the earlier one', async () => {
    expect(findTemplate(templates, stamp)).toBe(template);
    // A template of other migrations, another seed or another PGlite: the start runs initdb.
    expect(findTemplate(templates, 'b'.repeat(64))).toBeUndefined();
    expect(existsSync(earlier())).toBe(false);
    expect(existsSync(earlierTarball())).toBe(false);
    expect(await readdir(templates)).toEqual([path.basename(template)]);
  });
});

describe('the template stamp', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'db-template-stamp-'));
    await mkdir(path.join(root, 'supabase', 'migrations'), { recursive: true });
    await mkdir(path.join(root, 'server', 'db'), { recursive: true });
    await writeFile(path.join(root, 'supabase', 'migrations', '20260101000000_a.sql'), 'select 1;');
    await writeFile(path.join(root, 'supabase', 'seed.sql'), 'select 2;');
    await copyFile(
      new URL('./supabase-local.sql', import.meta.url),
      path.join(root, 'server', 'db', 'supabase-local.sql'),
    );
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('changes with a migration, a new migration, the seed and the local Supabase schema', async () => {
    const stamps = [templateStamp(root)];
    await writeFile(path.join(root, 'supabase', 'migrations', '20260101000000_a.sql'), 'select 3;');
    stamps.push(templateStamp(root));
    await writeFile(path.join(root, 'supabase', 'migrations', '20260102000000_b.sql'), 'select 4;');
    stamps.push(templateStamp(root));
    await writeFile(path.join(root, 'supabase', 'seed.sql'), 'select 5;');
    stamps.push(templateStamp(root));
    await writeFile(path.join(root, 'server', 'db', 'supabase-local.sql'), 'select 6;');
    stamps.push(templateStamp(root));
    expect(new Set(stamps).size).toBe(stamps.length);
    // Unchanged sources, the same stamp: a restart of the build finds its template.
    expect(templateStamp(root)).toBe(stamps.at(-1));
    expect(path.basename(templateFile(stamps[0], root))).toBe(
      `pglite-template-${stamps[0]!.slice(0, 16)}`,
    );
  });
});
