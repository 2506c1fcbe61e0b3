import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createArchive, readArchive } from './archive.ts';

describe('the backup archive', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('gives back every entry byte for byte, ZIP signatures inside a document included', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'backup-archive-'));
    // A document whose bytes hold the signatures a streaming reader would take for an entry's end.
    const document = Buffer.concat([
      randomBytes(300_000),
      Buffer.from([0x50, 0x4b, 0x07, 0x08]),
      randomBytes(16),
      Buffer.from([0x50, 0x4b, 0x01, 0x02]),
      randomBytes(700_000),
    ]);
    await writeFile(path.join(dir, 'body'), document);
    const sql = 'insert into public.x values (1);\n'.repeat(10_000);
    const file = path.join(dir, 'backup.zip');
    const writer = await createArchive(file);
    await writer.addBytes('database.sql', Buffer.from(sql), true);
    await writer.addFile('storage/documents/1/Police.pdf/v1', path.join(dir, 'body'));
    await writer.addBytes('storage/documents/leer/v1', new Uint8Array(0), false);
    await writer.addBytes('jwt-secret', Buffer.from('geheim\n'), false);
    const written = { ...writer.hashes };
    await writer.finish();

    const contents = await readArchive(file, path.join(dir, 'out'));
    expect(contents.inMemory.get('database.sql')?.toString()).toBe(sql);
    expect(contents.inMemory.get('jwt-secret')?.toString()).toBe('geheim\n');
    expect(contents.onDisk.sort()).toEqual([
      'storage/documents/1/Police.pdf/v1',
      'storage/documents/leer/v1',
    ]);
    const restored = await readFile(path.join(dir, 'out/storage/documents/1/Police.pdf/v1'));
    expect(restored.equals(document)).toBe(true);
    expect(await readFile(path.join(dir, 'out/storage/documents/leer/v1'))).toHaveLength(0);
    expect(contents.hashes).toEqual(written);
  });

  it('refuses an entry that would leave its folder', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'backup-archive-'));
    const file = path.join(dir, 'backup.zip');
    const writer = await createArchive(file);
    await writer.addBytes('storage/../../ausserhalb', Buffer.from('x'), false);
    await writer.finish();
    await expect(readArchive(file, path.join(dir, 'out'))).rejects.toThrow(/Ungültiger Eintrag/);
  });
});
