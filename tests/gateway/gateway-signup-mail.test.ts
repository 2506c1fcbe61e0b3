import { createServer, type Server, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loggerOptions } from '../../server/logging.ts';
import { startGatewayServer, type GatewayServer } from '../helpers/gateway-server.ts';
import { testSecret } from '../helpers/hub.ts';
import { fetchFrom } from '../helpers/supabase.ts';

// Sign-up against a slow mail relay (issue 32, item 8): the answer must not wait for the relay,
// or its timing tells a new or unconfirmed address (a mail goes out) from a confirmed one (none).

const relayDelayMs = 2_000;

interface Relay {
  url: string;
  /** Recipients of the messages the relay accepted. */
  delivered: string[];
  /** Recipients it refuses, quoting the address as real relays do. */
  refuse: Set<string>;
  close(): Promise<void>;
}

/** An SMTP stand-in that takes `relayDelayMs` to accept each message, like a slow relay. */
async function slowRelay(): Promise<Relay> {
  const delivered: string[] = [];
  const refuse = new Set<string>();
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.setEncoding('utf8');
    let buffer = '';
    let inData = false;
    let recipients: string[] = [];
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 langsam.example ESMTP');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          buffer = buffer.slice(end + 5);
          inData = false;
          const accepted = recipients;
          recipients = [];
          setTimeout(() => {
            delivered.push(...accepted);
            reply('250 2.0.0 queued');
          }, relayDelayMs);
          continue;
        }
        const newline = buffer.indexOf('\r\n');
        if (newline < 0) return;
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') reply('250 langsam.example');
        else if (verb === 'MAIL') reply('250 2.1.0 ok');
        else if (verb === 'RCPT') {
          const address = /<([^>]*)>/.exec(line)?.[1] ?? '';
          if (refuse.has(address)) reply(`550 5.1.1 <${address}>: Recipient address rejected`);
          else {
            recipients.push(address);
            reply('250 2.1.5 ok');
          }
        } else if (verb === 'DATA') {
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
  return {
    url: `smtp://127.0.0.1:${port}`,
    delivered,
    refuse,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describe.each(['pglite', 'postgres'] as const)('sign-up with a slow relay on %s', (kind) => {
  let server: GatewayServer;
  let relay: Relay;
  let auth: FastifyInstance;
  let authUrl: string;
  let clockOffsetMs = 0;
  let clientNumber = 60;
  const logLines: string[] = [];

  beforeAll(async () => {
    server = await startGatewayServer(kind, undefined, { name: `signup-mail-${kind}` });
    relay = await slowRelay();
    // The gateway's auth as the server runs it, with SMTP_URL pointing at the slow relay.
    const { default: Fastify } = await import('fastify');
    const { authArea } = await import('../../server/gateway/auth/auth-area.ts');
    auth = Fastify({
      logger: loggerOptions('info', {
        stream: new Writable({
          write(chunk: Buffer, _encoding, done) {
            logLines.push(chunk.toString());
            done();
          },
        }),
      }),
    });
    await auth.register(authArea, {
      prefix: '/auth/v1',
      db: server.db,
      now: () => new Date(Date.now() + clockOffsetMs),
      config: {
        jwtSecret: testSecret,
        dataDir: server.dataDir,
        smtpUrl: relay.url,
        publicUrl: undefined,
      },
    });
    authUrl = await auth.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await auth?.close();
    await relay?.close();
    await server?.close();
  });

  /** One sign-up from a client address of its own; its status and how long the answer took. */
  async function signUp(email: string) {
    const started = performance.now();
    const answer = await fetchFrom(`127.0.0.${clientNumber++}`)(`${authUrl}/auth/v1/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'ein-passwort-9' }),
    });
    const ms = performance.now() - started;
    await answer.arrayBuffer();
    return { status: answer.status, ms };
  }

  it('answers a new, an unconfirmed and a confirmed address before the relay took the mail, and sends it afterwards', async () => {
    const unconfirmed = `offen-${kind}@example.de`;
    expect((await signUp(unconfirmed)).status).toBe(200);
    await vi.waitFor(() => expect(relay.delivered).toContain(unconfirmed), { timeout: 10_000 });
    clockOffsetMs += 61_000;

    const times: Record<string, number[]> = { neu: [], unbestätigt: [], bestätigt: [] };
    for (let round = 0; round < 3; round += 1) {
      clockOffsetMs += 61_000;
      const fresh = `neu-${round}-${kind}@example.de`;
      for (const [kind, address] of [
        ['neu', fresh],
        ['unbestätigt', unconfirmed],
        ['bestätigt', 'admin@example.de'],
      ] as const) {
        const { status, ms } = await signUp(address);
        expect(status).toBe(200);
        times[kind]!.push(ms);
      }
      // The mails of the new and the unconfirmed address still go out, after the answers.
      await vi.waitFor(() => expect(relay.delivered).toContain(fresh), { timeout: 10_000 });
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[1]!;
    // Before, a new or unconfirmed address waited for the relay (80 ms against 880 ms with a
    // relay of 800 ms): no answer could come sooner than the relay's delay.
    expect(Math.max(...times['neu']!, ...times['unbestätigt']!)).toBeLessThan(relayDelayMs);
    const ratio = median(times['bestätigt']!) / median(times['neu']!);
    expect(ratio).toBeGreaterThan(0.3);
    expect(ratio).toBeLessThan(3);
    await vi.waitFor(
      () => expect(relay.delivered.filter((to) => to === unconfirmed)).toHaveLength(4),
      { timeout: 10_000 },
    );
    expect(relay.delivered).not.toContain('admin@example.de');
  });

  it('answers alike when the relay refuses the mail, logs it without the address and lets the address try again', async () => {
    const refused = `abgewiesen-${kind}@example.de`;
    relay.refuse.add(refused);
    clockOffsetMs += 61_000;
    expect((await signUp(refused)).status).toBe(200);
    await vi.waitFor(() => expect(logLines.join('')).toContain('confirmation mail failed'), {
      timeout: 10_000,
    });
    const log = logLines.join('');
    expect(log).not.toContain(refused);
    expect(log).not.toContain('Recipient address rejected');
    // The failed mail does not count against the address: a new try within the minute is taken.
    relay.refuse.delete(refused);
    expect((await signUp(refused)).status).toBe(200);
    await vi.waitFor(() => expect(relay.delivered).toContain(refused), { timeout: 10_000 });
  });
});
