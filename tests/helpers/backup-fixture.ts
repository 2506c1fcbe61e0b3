import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SupabaseClient } from '@supabase/supabase-js';
import { expect } from 'vitest';
import type { Database } from '../../src/domain/database.types.ts';
import { documentObjectName } from '../../src/domain/routes.ts';
import { questionnaireLead } from '../../src/testing/lead-fixtures.ts';
import { supabaseClient } from './supabase.ts';

// What the backup tests keep and look for again after a restore: the admin account, a stored
// document, a lead and the access-log line a staff read of it leaves.

const root = fileURLToPath(new URL('../..', import.meta.url));

export const admin = { email: 'admin@example.de', password: 'admin-passwort-1' };

export interface DeskState {
  staff: { email: string; role: string }[];
  document: { name: string; text: string };
  accessLog: { action: string }[];
}

export async function signedInAdmin(
  url: string,
  dataDir: string,
): Promise<{ client: SupabaseClient<Database>; token: string }> {
  const secret = (await readFile(path.join(dataDir, 'jwt-secret'), 'utf8')).trim();
  const client = await supabaseClient(url, secret);
  const { data, error } = await client.auth.signInWithPassword(admin);
  expect(error).toBeNull();
  return { client, token: data.session!.access_token };
}

export async function postLead(url: string): Promise<string | undefined> {
  const lead = questionnaireLead();
  const res = await fetch(`${url}/api/responses`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(lead),
  }).catch(() => undefined);
  return res && res.status >= 200 && res.status < 300 ? lead.client_id : undefined;
}

/** A document, a lead and a staff read of it (which the access log records). */
export async function fillDesk(url: string, dataDir: string): Promise<DeskState> {
  const { client, token } = await signedInAdmin(url, dataDir);
  const name = documentObjectName(1, 'Police.pdf', crypto.randomUUID());
  const text = `%PDF-1.4\n% Sicherung ${name}\n%%EOF\n`;
  const upload = await client.storage
    .from('documents')
    .upload(name, new Blob([text], { type: 'application/pdf' }));
  expect(upload.error).toBeNull();
  expect(await postLead(url)).toBeDefined();
  const read = await fetch(`${url}/api/responses?limit=5`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(read.status).toBe(200);
  return deskState(client, name);
}

export async function deskState(
  client: SupabaseClient<Database>,
  documentName: string,
): Promise<DeskState> {
  const staff = await client.from('staff').select('email, role').order('email');
  expect(staff.error).toBeNull();
  const log = await client.from('access_log').select('action').order('id');
  expect(log.error).toBeNull();
  const body = await client.storage.from('documents').download(documentName);
  expect(body.error).toBeNull();
  return {
    staff: staff.data ?? [],
    document: { name: documentName, text: await body.data!.text() },
    accessLog: log.data ?? [],
  };
}

/** The client ids of the leads the server holds, read as staff through the hub (at most 500). */
export async function storedLeads(url: string, token: string): Promise<Set<string>> {
  const list = await fetch(`${url}/api/responses?limit=500`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(list.status).toBe(200);
  const rows = (await list.json()) as { client_id: string }[];
  expect(rows.length).toBeLessThan(500);
  return new Set(rows.map((row) => row.client_id));
}

/** Runs `npm run backup`/`npm run restore`'s script as its own process. */
export function runScript(
  script: 'backup' | 'restore',
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `scripts/${script}.ts`, ...args], {
      cwd: root,
      // No .env of the checkout and none of the runner's database settings leak in.
      env: { ...process.env, DATABASE_URL: '', JWT_SECRET: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

/** The file `npm run backup` reported. */
export function writtenFile(output: string): string {
  const match = /Sicherung geschrieben: (\S+)/.exec(output);
  expect(match, output).not.toBeNull();
  return match![1]!;
}
