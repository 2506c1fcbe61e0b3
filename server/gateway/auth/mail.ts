import { createHash, randomBytes } from 'node:crypto';
import { link, mkdir, open, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/**
 * Where a mail went: the SMTP server, or a file below DATA_DIR/mail/ (never the address).
 * `duplicate`: a mail with the same idempotency key had been written before; nothing new went out.
 */
export type MailDelivery = { via: 'smtp' } | { via: 'file'; file: string; duplicate?: boolean };

export interface SendOptions {
  /**
   * Makes the send idempotent (the new-lead mails, server/jobs/lead-mail-job.ts): the file mailer
   * writes `DATA_DIR/mail/<key>.json` only if it does not exist yet; SMTP sends a Message-ID
   * derived from the key. A key is letters, digits, ':', '-' and '_'.
   */
  idempotencyKey?: string;
}

export interface Mailer {
  send(mail: Mail, options?: SendOptions): Promise<MailDelivery>;
}

const keyPattern = /^[A-Za-z0-9:_-]{1,120}$/;

function checkedKey(key: string): string {
  if (!keyPattern.test(key)) throw new Error('Ungültiger Idempotenzschlüssel für eine Mail');
  return key;
}

/**
 * Sends through SMTP_URL when it is set. Without it (a fresh machine, tests) each mail becomes a
 * JSON file in DATA_DIR/mail/, where a developer opens the link and tests read it.
 */
export function createMailer(options: {
  smtpUrl: string | undefined;
  dataDir: string;
  from: string;
}): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    const domain = options.from.match(/@([^>\s]+)/)?.[1] ?? 'localhost';
    return {
      async send(mail, sendOptions) {
        // SMTP cannot be made exactly-once from here: a crash after the relay took the message
        // and before the queue marked it sent sends it again. The Message-ID is the same both
        // times (derived from the key), so relays and mail clients that dedupe by it show one.
        const key = sendOptions?.idempotencyKey;
        const messageId = key
          ? `<${createHash('sha256').update(checkedKey(key)).digest('hex').slice(0, 32)}@${domain}>`
          : undefined;
        await transport.sendMail({
          from: options.from,
          ...mail,
          ...(messageId ? { messageId } : {}),
        });
        return { via: 'smtp' };
      },
    };
  }
  const folder = path.join(options.dataDir, 'mail');
  return {
    async send(mail, sendOptions) {
      await mkdir(folder, { recursive: true });
      const content = { from: options.from, ...mail, date: new Date().toISOString() };
      // Only the owner reads it: the link in it confirms an account.
      const body = JSON.stringify(content, null, 2) + '\n';
      const key = sendOptions?.idempotencyKey;
      if (key) {
        // The half-written copy waits beside the folder, never in it: readers of DATA_DIR/mail
        // (developers, tests) see whole mails only.
        const scratch = `${folder}.tmp`;
        await mkdir(scratch, { recursive: true });
        return writeOnce(folder, scratch, checkedKey(key).replace(/:/g, '-'), body);
      }
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(folder, `${stamp}-${randomBytes(4).toString('hex')}.json`);
      await writeFile(file, body, { mode: 0o600 });
      return { via: 'file', file };
    },
  };
}

/**
 * Writes `<name>.json` exactly once: the body goes to a temporary file first, which is then
 * hard-linked to the final name. link() fails with EEXIST when the name exists, and the final
 * name never holds half a mail (a crash mid-write leaves only the temporary file).
 */
async function writeOnce(
  folder: string,
  scratch: string,
  name: string,
  body: string,
): Promise<MailDelivery> {
  const file = path.join(folder, `${name}.json`);
  const temporary = path.join(scratch, `${name}-${randomBytes(4).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx', 0o600);
  try {
    await handle.writeFile(body);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await link(temporary, file);
    return { via: 'file', file };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      return { via: 'file', file, duplicate: true };
    }
    throw error;
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
}
