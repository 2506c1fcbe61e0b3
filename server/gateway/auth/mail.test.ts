import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from './mail.ts';

const mail = { to: 'neu@example.de', subject: 'Bitte bestätigen', text: 'Link: http://x/verify' };
const from = 'Survey Desk <noreply@localhost>';

/** Just enough SMTP to take one message: no TLS offered, every command accepted. */
function fakeSmtp(received: string[]): Server {
  return createServer((socket) => {
    let data: string | undefined;
    socket.write('220 test ESMTP\r\n');
    socket.on('data', (chunk) => {
      if (data !== undefined) {
        data += chunk.toString();
        if (data.endsWith('\r\n.\r\n')) {
          received.push(data);
          data = undefined;
          socket.write('250 queued\r\n');
        }
        return;
      }
      const command = chunk.toString().slice(0, 4).toUpperCase();
      if (command === 'EHLO') socket.write('250-test\r\n250 8BITMIME\r\n');
      else if (command === 'DATA') {
        data = '';
        socket.write('354 go on\r\n');
      } else if (command === 'QUIT') socket.end('221 bye\r\n');
      else socket.write('250 ok\r\n');
    });
  });
}

describe('mailer', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'mail-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('writes a mail to DATA_DIR/mail as JSON only its owner reads, without SMTP_URL', async () => {
    const delivery = await createMailer({ smtpUrl: undefined, dataDir, from }).send(mail);
    expect(delivery.via).toBe('file');
    const file = (delivery as { file: string }).file;
    expect(path.dirname(file)).toBe(path.join(dataDir, 'mail'));
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ from, ...mail });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('writes a mail with an idempotency key once: a second send finds the file and writes nothing', async () => {
    const keyed = await mkdtemp(path.join(tmpdir(), 'mail-keyed-'));
    try {
      const mailer = createMailer({ smtpUrl: undefined, dataDir: keyed, from });
      const first = await mailer.send(mail, { idempotencyKey: 'lead:42' });
      const again = await mailer.send(
        { ...mail, subject: 'Zweiter Versuch' },
        { idempotencyKey: 'lead:42' },
      );
      const file = path.join(keyed, 'mail', 'lead-42.json');
      expect(first).toEqual({ via: 'file', file });
      expect(again).toEqual({ via: 'file', file, duplicate: true });
      // One file, the first mail's, and no temporary file left behind.
      expect(await readdir(path.join(keyed, 'mail'))).toEqual(['lead-42.json']);
      expect(await readdir(path.join(keyed, 'mail.tmp'))).toEqual([]);
      expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ subject: mail.subject });
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      // Two sends at the same moment: still one file.
      const both = await Promise.all([
        mailer.send(mail, { idempotencyKey: 'lead:43' }),
        mailer.send(mail, { idempotencyKey: 'lead:43' }),
      ]);
      expect(both.filter((d) => 'duplicate' in d && d.duplicate)).toHaveLength(1);
      await expect(mailer.send(mail, { idempotencyKey: '../x' })).rejects.toThrow();
    } finally {
      await rm(keyed, { recursive: true, force: true });
    }
  });

  it('sends through SMTP_URL when it is set', async () => {
    const received: string[] = [];
    const server = fakeSmtp(received);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, dataDir, from });
      expect(await mailer.send(mail)).toEqual({ via: 'smtp' });
      expect(received).toHaveLength(1);
      expect(received[0]).toContain('To: neu@example.de');
      expect(received[0]).toContain('http://x/verify');
      // With a key the Message-ID is the key's: a resend after a crash carries the same one.
      await mailer.send(mail, { idempotencyKey: 'lead:7' });
      await mailer.send(mail, { idempotencyKey: 'lead:7' });
      const ids = received.slice(1).map((data) => data.match(/^Message-ID: (.+)$/im)?.[1]);
      expect(ids).toHaveLength(2);
      expect(ids[0]).toMatch(/^<[0-9a-f]{32}@localhost>/);
      expect(ids[1]).toBe(ids[0]);
    } finally {
      server.close();
    }
  });
});
