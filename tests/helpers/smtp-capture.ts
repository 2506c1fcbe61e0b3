import { createServer, type Server, type Socket } from 'node:net';

/** One message the stand-in relay accepted (answered 250 after its data). */
export interface CapturedMail {
  /** The envelope's recipients (RCPT TO), as the relay delivers to them. */
  recipients: string[];
  messageId: string;
  subject: string;
  /** The message as it came over the wire (headers and body, quoted-printable as sent). */
  raw: string;
}

export interface SmtpCapture {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL or createMailer. */
  url: string;
  accepted: CapturedMail[];
  /** Answers the next `n` messages with 452 (mailbox full) instead of taking them. */
  refuseNext(n: number): void;
  close(): Promise<void>;
}

/**
 * A real SMTP stand-in on 127.0.0.1 that speaks enough of the protocol for nodemailer and records
 * each message it accepts, so a test counts real deliveries (as tests/server/sigterm.test.ts).
 */
export async function startSmtpCapture(): Promise<SmtpCapture> {
  const sockets = new Set<Socket>();
  let refusals = 0;
  const capture: SmtpCapture = {
    url: '',
    accepted: [],
    refuseNext: (n) => (refusals = n),
    close: async () => undefined,
  };
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.setEncoding('utf8');
    let buffer = '';
    let inData = false;
    let recipients: string[] = [];
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
          const raw = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          if (refusals > 0) {
            refusals -= 1;
            reply('452 4.2.2 mailbox full');
          } else {
            capture.accepted.push({
              recipients,
              messageId: /^Message-ID:\s*(<[^>]+>)/im.exec(raw)?.[1] ?? '(ohne)',
              subject: /^Subject:\s*(.*)$/im.exec(raw)?.[1] ?? '',
              raw,
            });
            reply('250 2.0.0 queued');
          }
          recipients = [];
          continue;
        }
        const newline = buffer.indexOf('\r\n');
        if (newline < 0) return;
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') reply('250 fang.example');
        else if (verb === 'RCPT') {
          recipients.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
          reply('250 ok');
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
  capture.url = `smtp://127.0.0.1:${port}`;
  capture.close = () =>
    new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return capture;
}
