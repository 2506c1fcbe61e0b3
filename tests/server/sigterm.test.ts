import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { questionnaireLead } from '../../src/testing/lead-fixtures.ts';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.ts';
import { supabaseClient } from '../helpers/supabase.ts';

// SIGTERM while leads stream in (issue 35): the server stops accepting, answers what is in
// flight, ends the new-lead mail run after the mail it is sending (not after the whole queue),
// gives its claims back and closes the database. After the restart every acknowledged lead is
// stored, and a relay that counts real SMTP deliveries sees each lead's mail exactly once.

const admin = { email: 'admin@example.de', password: 'admin-passwort-1' };
const service = { email: 'crm@example.de', password: 'service-passwort-123' };
/** The relay takes this long per message while the stream runs: the mail queue grows. */
const slowRelayMs = 400;
const graceSeconds = 8;

interface Capture {
  url: string;
  /** The Message-ID of each message the relay accepted (answered 250 after its data). */
  accepted: string[];
  delayMs: number;
  close(): Promise<void>;
}

/** An SMTP stand-in that records the Message-ID of each message it accepts. */
async function smtpCapture(delayMs: number): Promise<Capture> {
  const sockets = new Set<Socket>();
  const capture: Capture = { url: '', accepted: [], delayMs, close: async () => undefined };
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.setEncoding('utf8');
    let buffer = '';
    let inData = false;
    const reply = (line: string) => {
      if (!socket.destroyed) socket.write(`${line}\r\n`);
    };
    reply('220 fang.example ESMTP');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          const message = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          const id = /^Message-ID:\s*(<[^>]+>)/im.exec(message)?.[1] ?? '(ohne)';
          setTimeout(() => {
            if (socket.destroyed) return;
            capture.accepted.push(id);
            reply('250 2.0.0 queued');
          }, capture.delayMs);
          continue;
        }
        const newline = buffer.indexOf('\r\n');
        if (newline < 0) return;
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') reply('250 fang.example');
        else if (verb === 'DATA') {
          inData = true;
          reply('354 go ahead');
        } else if (verb === 'QUIT') {
          reply('221 bye');
          socket.end();
        } else reply('250 ok');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  capture.url = `smtp://127.0.0.1:${port}`;
  capture.close = () =>
    new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return capture;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a server stopped with SIGTERM during a stream of leads', () => {
  let dataDir: string;
  let server: ServerProcess | undefined;
  let relay: Capture | undefined;
  afterAll(async () => {
    await server?.kill('SIGKILL');
    await relay?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('stores every acknowledged lead and mails each exactly once after the restart', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'sigterm-'));
    relay = await smtpCapture(slowRelayMs);
    const env = {
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: admin.password,
      HUB_SERVICE_EMAIL: service.email,
      HUB_SERVICE_PASSWORD: service.password,
      SMTP_URL: relay.url,
      SHUTDOWN_GRACE_SECONDS: String(graceSeconds),
    };
    server = await startServerProcess(env);
    const running = server;
    const secret = (await readFile(path.join(dataDir, 'jwt-secret'), 'utf8')).trim();
    const desk = await supabaseClient(running.url, secret);
    expect((await desk.auth.signInWithPassword(admin)).error).toBeNull();
    const saved = await desk
      .from('lead_mail_settings')
      .update({ enabled: true, address: 'makler@example.de', mode: 'immediate' })
      .eq('id', true)
      .select('enabled');
    expect(saved.data).toEqual([{ enabled: true }]);

    const acknowledged: string[] = [];
    let done = false;
    // Four senders in parallel, so the SIGTERM lands while requests are in flight; they go on
    // until the process has exited (refused connections then, or 503 on a kept-alive one).
    const sender = async () => {
      while (!done) {
        const submission = questionnaireLead();
        const res = await fetch(`${running.url}/api/responses`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(submission),
        }).catch(() => undefined);
        if (res && res.status >= 200 && res.status < 300) acknowledged.push(submission.client_id);
        else await pause(20);
      }
    };
    const senders = Array.from({ length: 4 }, sender);
    // A run that claimed a backlog is sending: the first run mailed the first lead, the next
    // (a kick a second later) took what had come meanwhile.
    while (acknowledged.length < 40 || relay.accepted.length < 2) await pause(20);
    const signalled = performance.now();
    await running.kill('SIGTERM');
    const stoppedInMs = performance.now() - signalled;
    done = true;
    await Promise.all(senders);
    const mailedBeforeStop = relay.accepted.length;

    // Ended by itself, within the grace and long before the queue was through: the mail run
    // stopped after the mail it was sending (at most one slow delivery), not after all of them.
    expect(running.child.signalCode).toBeNull();
    expect(running.child.exitCode).toBe(0);
    expect(stoppedInMs).toBeLessThan(5000);
    expect(mailedBeforeStop).toBeLessThan(acknowledged.length);

    // Same DATA_DIR, a fast relay: the run at start sends what the stop gave back at once,
    // without waiting out the claims' two-minute lease.
    relay.delayMs = 0;
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
      ((await list.json()) as { client_id: string }[]).map((lead) => lead.client_id),
    );
    const lost = acknowledged.filter((id) => !stored.has(id));
    expect(lost).toEqual([]);

    const deadline = Date.now() + 30_000;
    while (new Set(relay.accepted).size < stored.size && Date.now() < deadline) await pause(100);
    // Time for a second delivery, were one coming: the poll after the run at start.
    await pause(1500);
    const distinct = new Set(relay.accepted);
    console.log(
      `SIGTERM: ${acknowledged.length} bestätigt, ${stored.size} gespeichert, ` +
        `beendet nach ${Math.round(stoppedInMs)} ms, ${mailedBeforeStop} Mails davor, ` +
        `${relay.accepted.length} Mails insgesamt`,
    );
    expect(distinct.size).toBe(stored.size);
    expect(relay.accepted.length).toBe(distinct.size);
    expect(distinct.has('(ohne)')).toBe(false);
  }, 150_000);
});
