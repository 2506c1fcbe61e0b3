import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/domain/database.types.ts';
import { questionnaireLead } from '../../src/testing/lead-fixtures.ts';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.ts';
import { supabaseClient } from '../helpers/supabase.ts';

// The new-lead mail survives a crash: the real server process is SIGKILLed after the lead's
// commit and before its mail went out (LEAD_MAIL_DELAY_SECONDS holds the mail back), started
// again on the same DATA_DIR, and exactly one mail for the lead lands in DATA_DIR/mail.

const admin = { email: 'admin@example.de', password: 'admin-passwort-1' };

async function mailFiles(dataDir: string): Promise<string[]> {
  try {
    return (await readdir(path.join(dataDir, 'mail'))).filter((name) => !name.startsWith('.'));
  } catch {
    return [];
  }
}

async function signedInAdmin(url: string, dataDir: string): Promise<SupabaseClient<Database>> {
  const secret = (await readFile(path.join(dataDir, 'jwt-secret'), 'utf8')).trim();
  const client = await supabaseClient(url, secret);
  const { error } = await client.auth.signInWithPassword(admin);
  expect(error).toBeNull();
  return client;
}

describe('a server killed between a lead and its mail', () => {
  let dataDir: string;
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.kill('SIGKILL');
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('mails the lead exactly once after the restart', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'lead-mail-crash-'));
    const env = { DATA_DIR: dataDir, ADMIN_PASSWORD: admin.password };
    server = await startServerProcess({ ...env, LEAD_MAIL_DELAY_SECONDS: '3600' });
    let desk = await signedInAdmin(server.url, dataDir);
    const saved = await desk
      .from('lead_mail_settings')
      .update({ enabled: true, address: 'makler@example.de', mode: 'immediate' })
      .eq('id', true)
      .select('enabled');
    expect(saved.error).toBeNull();
    expect(saved.data).toEqual([{ enabled: true }]);

    const lead = questionnaireLead({ first_name: 'Absturz', last_name: 'Probe' });
    const posted = await fetch(`${server.url}/api/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(lead),
    });
    expect(posted.status).toBe(201);
    const { id } = (await posted.json()) as { id: number };
    // The lead is committed; its mail waits in the queue (the worker ran on the kick and at
    // start, but the lead is younger than the delay).
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await mailFiles(dataDir)).toEqual([]);
    await server.kill('SIGKILL');
    expect(server.child.signalCode).toBe('SIGKILL');

    // Same DATA_DIR, no delay: the worker's run at start sends what the crash left.
    server = await startServerProcess(env);
    const deadline = Date.now() + 30_000;
    while ((await mailFiles(dataDir)).length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Time for a second mail, were one coming: a kick, and the run after the first.
    await fetch(`${server.url}/api/health`);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await mailFiles(dataDir)).toEqual([`lead-${id}.json`]);
    const mail = JSON.parse(
      await readFile(path.join(dataDir, 'mail', `lead-${id}.json`), 'utf8'),
    ) as { to: string; subject: string; text: string };
    expect(mail.to).toBe('makler@example.de');
    expect(mail.subject).toContain('Absturz Probe');
    expect(mail.text).not.toContain(lead.email);

    // The queue knows it was sent: nothing waits, nothing failed; a third start sends nothing.
    desk = await signedInAdmin(server.url, dataDir);
    const overview = await desk.rpc('lead_mail_overview');
    expect(overview.error).toBeNull();
    expect(overview.data).toMatchObject([{ waiting: 0, failed: 0 }]);
    await server.kill('SIGKILL');
    server = await startServerProcess(env);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await mailFiles(dataDir)).toEqual([`lead-${id}.json`]);
  }, 180_000);
});
