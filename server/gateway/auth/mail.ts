import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Where a mail went: the SMTP server, or a file below DATA_DIR/mail/ (never the address). */
export type MailDelivery = { via: 'smtp' } | { via: 'file'; file: string };

export interface Mailer {
  send(mail: Mail): Promise<MailDelivery>;
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
    return {
      async send(mail) {
        await transport.sendMail({ from: options.from, ...mail });
        return { via: 'smtp' };
      },
    };
  }
  const folder = path.join(options.dataDir, 'mail');
  return {
    async send(mail) {
      await mkdir(folder, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(folder, `${stamp}-${randomBytes(4).toString('hex')}.json`);
      const content = { from: options.from, ...mail, date: new Date().toISOString() };
      // Only the owner reads it: the link in it confirms an account.
      await writeFile(file, JSON.stringify(content, null, 2) + '\n', { mode: 0o600 });
      return { via: 'file', file };
    },
  };
}
