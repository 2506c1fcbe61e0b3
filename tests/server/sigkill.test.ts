import { questionnaireLead } from '../../src/testing/lead-fixtures.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.ts';

const service = { email: 'crm@example.de', password: 'service-passwort-123' };

describe('a server killed with SIGKILL during a stream of submissions', () => {
  let dataDir: string;
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.kill('SIGKILL');
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('loses no submission it had answered with 2xx', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'sigkill-'));
    const env = {
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: 'admin-passwort-1',
      HUB_SERVICE_EMAIL: service.email,
      HUB_SERVICE_PASSWORD: service.password,
    };
    server = await startServerProcess(env);
    const running = server;

    const acknowledged: string[] = [];
    let killed = false;
    // Four senders in parallel, so the kill lands while requests are in flight.
    const sender = async () => {
      while (!killed) {
        const submission = questionnaireLead();
        const res = await fetch(`${running.url}/api/responses`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(submission),
        }).catch(() => undefined);
        if (res && res.status >= 200 && res.status < 300) acknowledged.push(submission.client_id);
      }
    };
    const senders = Array.from({ length: 4 }, sender);
    while (acknowledged.length < 60) await new Promise((r) => setTimeout(r, 20));
    await running.kill('SIGKILL');
    killed = true;
    await Promise.all(senders);
    expect(running.child.signalCode).toBe('SIGKILL');

    server = await startServerProcess(env);
    const login = await fetch(`${server.url}/api/hub/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(service),
    });
    const { token } = (await login.json()) as { token: string };
    const list = await fetch(`${server.url}/api/responses?limit=500`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const stored = new Set(
      ((await list.json()) as { client_id: string }[]).map((r) => r.client_id),
    );
    const lost = acknowledged.filter((id) => !stored.has(id));
    console.log(
      `SIGKILL: ${acknowledged.length} bestätigt, ${stored.size} gespeichert, ${lost.length} verloren`,
    );
    expect(acknowledged.length).toBeGreaterThanOrEqual(60);
    expect(lost).toEqual([]);
  }, 120_000);
});
