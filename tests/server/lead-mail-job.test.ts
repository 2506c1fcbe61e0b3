import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/database.ts';
import { createMailer, type Mail, type Mailer } from '../../server/gateway/auth/mail.ts';
import {
  leadMailBackoff,
  startLeadMailJob,
  type LeadMailJob,
} from '../../server/jobs/lead-mail-job.ts';
import { questionnaireLead } from '../../src/testing/lead-fixtures.ts';
import { startGatewayServer, type GatewayServer } from '../helpers/gateway-server.ts';
import { setupTestDatabase } from '../helpers/hub.ts';
import { startTestPostgres, type TestPostgres } from '../helpers/postgres.ts';

// The new-lead mail worker (server/jobs/lead-mail-job.ts) with a clock the test moves and a
// mailer that fails when told: backoff, never twice, failed after the last try, the digest.

const base = 'https://makler.example.de';
const quiet = pino({ level: 'silent' });

interface Sent {
  mail: Mail;
  key: string | undefined;
}

/** Records every mail; fails the next `failures` sends with an SMTP-like error. */
function fakeMailer() {
  const sent: Sent[] = [];
  let failures = 0;
  const mailer: Mailer & { sent: Sent[]; failNext(n: number): void } = {
    sent,
    failNext: (n) => (failures = n),
    async send(mail, options) {
      if (failures > 0) {
        failures -= 1;
        throw Object.assign(new Error('Mailbox makler@example.de voll'), { responseCode: 452 });
      }
      sent.push({ mail, key: options?.idempotencyKey });
      return { via: 'smtp' };
    },
  };
  return mailer;
}

interface LeadInput {
  firstName?: string;
  callTime?: string | null;
  receivedAt: Date;
  capturedAt?: Date | null;
}

describe.each(['pglite', 'postgres'] as const)('lead mail job on %s', (kind) => {
  let db: Database;
  let postgres: TestPostgres | undefined;
  let clock: Date;
  let job: LeadMailJob | undefined;

  const insertLead = async (lead: LeadInput): Promise<number> => {
    const { rows } = await db.query<{ id: number }>(
      `insert into public.responses (client_id, payload_hash, form_id, source, first_name,
         last_name, email, phone, terms_accepted, data_processing_consent, create_date,
         changed_date, call_time, captured_at, received_at)
       values (gen_random_uuid(), 'hash', 1, 'questionnaire', $1, 'Weiß',
         'juergen.geheim@example.de', '+49 30 987654', true, true, $2, $2, $3, $4, $2)
       returning id`,
      [
        lead.firstName ?? 'Jürgen',
        lead.receivedAt.toISOString(),
        lead.callTime ?? null,
        lead.capturedAt === undefined
          ? lead.receivedAt.toISOString()
          : (lead.capturedAt?.toISOString() ?? null),
      ],
    );
    return rows[0]!.id;
  };
  const outbox = async (responseId: number) =>
    (
      await db.query<{
        state: string;
        attempts: number;
        next_attempt_at: Date;
        last_error: string;
      }>(
        `select state, attempts, next_attempt_at, last_error from public.lead_mail_outbox
          where response_id = $1`,
        [responseId],
      )
    ).rows[0]!;
  /**
   * Starts the job and lets its run at start finish, so that every later run is the test's own
   * (start it before the leads the test means to send).
   */
  const start = async (mailer: Mailer, maxAttempts?: number) => {
    const started = startLeadMailJob({
      db,
      log: quiet,
      mailer,
      baseUrl: () => base,
      now: () => clock,
      pollMs: 3_600_000,
      ...(maxAttempts ? { maxAttempts } : {}),
    });
    job = started;
    await new Promise((resolve) => setTimeout(resolve, 20));
    await started.runNow();
    return started;
  };
  const formTitle = async () =>
    (await db.query<{ title: string }>('select title from public.forms where id = 1')).rows[0]!
      .title;

  beforeAll(async () => {
    if (kind === 'postgres') postgres = await startTestPostgres();
    db = await openDatabase(postgres ? { databaseUrl: postgres.url() } : {});
    await setupTestDatabase(db);
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    postgres?.stop();
  });
  beforeEach(async () => {
    // A second ahead of the database's clock: rows queued now are due.
    clock = new Date(Date.now() + 1000);
    await db.query('delete from public.lead_mail_outbox');
    await db.query(
      `update public.lead_mail_settings
          set enabled = true, address = 'makler@example.de', mode = 'immediate',
              digest_hour = 8, digest_sent_on = null`,
    );
  });
  afterEach(async () => {
    await job?.stop();
    job = undefined;
  });

  it('mails a new lead once: form, name, callback wish, time and desk link, no contact data', async () => {
    const mailer = fakeMailer();
    const run = await start(mailer);
    const id = await insertLead({ callTime: 'Nachmittags', receivedAt: new Date(Date.now()) });
    const customer = (
      await db.query<{ user_id: number }>('select user_id from public.responses where id = $1', [
        id,
      ])
    ).rows[0]!.user_id;
    expect(await run.runNow()).toMatchObject({ sent: 1 });
    expect(await run.runNow()).toEqual({ sent: 0, retried: 0, failed: 0 });

    expect(mailer.sent).toHaveLength(1);
    const [{ mail, key }] = mailer.sent as [Sent];
    const title = await formTitle();
    expect(key).toBe(`lead:${id}`);
    expect(mail.to).toBe('makler@example.de');
    expect(mail.subject).toBe(`Neue Anfrage: ${title} – Jürgen Weiß`);
    expect(mail.text).toContain(`„${title}“`);
    expect(mail.text).toContain('Name: „Jürgen Weiß“');
    expect(mail.text).toContain('Rückruf gewünscht: „Nachmittags“');
    expect(mail.text).toMatch(/Eingegangen am \d\d\.\d\d\.\d{4}, \d\d:\d\d\./);
    expect(mail.text).toContain(
      customer
        ? `${base}/surveydesk/customer/${customer}/antworten`
        : `${base}/surveydesk/customer`,
    );
    expect(mail.text).not.toContain('juergen.geheim');
    expect(mail.text).not.toContain('987654');
    expect(await outbox(id)).toMatchObject({ state: 'sent', attempts: 1, last_error: null });
  });

  it('says when a lead from a tablet was captured and when it arrived', async () => {
    const mailer = fakeMailer();
    const run = await start(mailer);
    await insertLead({
      receivedAt: new Date('2026-11-25T14:30:00Z'),
      capturedAt: new Date('2026-11-22T09:05:00Z'),
      callTime: null,
    });
    await run.runNow();
    const text = mailer.sent[0]!.mail.text;
    expect(text).toContain(
      'Erfasst am 22.11.2026, 10:05 auf dem Messe-Tablet, eingegangen am 25.11.2026, 15:30',
    );
    expect(text).not.toContain('Rückruf');
  });

  it('retries with growing waits and sends once when the mail server is back', async () => {
    const mailer = fakeMailer();
    mailer.failNext(2);
    const run = await start(mailer);
    const id = await insertLead({ receivedAt: new Date(Date.now()) });

    expect(await run.runNow()).toMatchObject({ sent: 0, retried: 1 });
    let row = await outbox(id);
    expect(row).toMatchObject({ state: 'pending', attempts: 1, last_error: '452' });
    expect(new Date(row.next_attempt_at).getTime()).toBe(clock.getTime() + leadMailBackoff(1));
    // Not due yet: nothing is tried.
    expect(await run.runNow()).toEqual({ sent: 0, retried: 0, failed: 0 });

    clock = new Date(clock.getTime() + leadMailBackoff(1));
    expect(await run.runNow()).toMatchObject({ retried: 1 });
    row = await outbox(id);
    expect(row.attempts).toBe(2);
    expect(new Date(row.next_attempt_at).getTime()).toBe(clock.getTime() + leadMailBackoff(2));
    expect(leadMailBackoff(2)).toBe(2 * leadMailBackoff(1));

    clock = new Date(clock.getTime() + leadMailBackoff(2));
    expect(await run.runNow()).toMatchObject({ sent: 1 });
    clock = new Date(clock.getTime() + 24 * 60 * 60 * 1000);
    await run.runNow();
    expect(mailer.sent).toHaveLength(1);
    expect(await outbox(id)).toMatchObject({ state: 'sent', attempts: 3, last_error: null });
  });

  it('gives a mail up after the last attempt and counts it as failed', async () => {
    const mailer = fakeMailer();
    mailer.failNext(100);
    const run = await start(mailer, 3);
    const id = await insertLead({ receivedAt: new Date(Date.now()) });
    const outcomes = [];
    for (let i = 0; i < 4; i += 1) {
      outcomes.push(await run.runNow());
      clock = new Date(clock.getTime() + 60 * 60 * 1000);
    }
    expect(outcomes.map((o) => o.failed)).toEqual([0, 0, 1, 0]);
    expect(await outbox(id)).toMatchObject({ state: 'failed', attempts: 3, last_error: '452' });
    expect(mailer.sent).toHaveLength(0);
    expect(leadMailBackoff(20)).toBe(60 * 60 * 1000);
    const { rows } = await db.query<{ failed: number }>(
      'select count(*)::integer as failed from public.lead_mail_outbox where state = $1',
      ['failed'],
    );
    expect(rows[0]!.failed).toBe(1);
  });

  it('stops after the mail it is sending and gives back the rest of its claim at once', async () => {
    let sending!: () => void;
    const inFirstSend = new Promise<void>((resolve) => (sending = resolve));
    let finish!: () => void;
    const firstSendMayEnd = new Promise<void>((resolve) => (finish = resolve));
    const mailer = fakeMailer();
    const send = mailer.send.bind(mailer);
    let calls = 0;
    mailer.send = async (mail, options) => {
      calls += 1;
      if (calls === 1) {
        sending();
        await firstSendMayEnd;
      }
      return send(mail, options);
    };
    const run = await start(mailer);
    const ids = [];
    for (let i = 0; i < 5; i += 1) ids.push(await insertLead({ receivedAt: new Date(Date.now()) }));
    const running = run.runNow();
    await inFirstSend;
    const stopped = run.stop();
    finish();
    await stopped;
    expect(await running).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(mailer.sent.map((sent) => sent.key)).toEqual([`lead:${ids[0]}`]);
    expect(await outbox(ids[0]!)).toMatchObject({ state: 'sent', attempts: 1 });
    // The four untried rows are due again now, not when the two-minute lease would end.
    for (const id of ids.slice(1)) {
      const row = await outbox(id);
      expect(row).toMatchObject({ state: 'pending', attempts: 0 });
      expect(new Date(row.next_attempt_at).getTime()).toBeLessThanOrEqual(clock.getTime());
    }
    expect(run.status()).toMatchObject({ stopped: true, runningSince: undefined });

    // The next start (or another instance) sends them, each once.
    const next = await start(mailer);
    expect(mailer.sent.map((sent) => sent.key)).toEqual(ids.map((id) => `lead:${id}`));
    expect(await next.runNow()).toEqual({ sent: 0, retried: 0, failed: 0 });
  });

  it('cancels what waits when the mail is switched off', async () => {
    const mailer = fakeMailer();
    const run = await start(mailer);
    const id = await insertLead({ receivedAt: new Date(Date.now()) });
    await db.query('update public.lead_mail_settings set enabled = false');
    await run.runNow();
    await db.query('update public.lead_mail_settings set enabled = true');
    await run.runNow();
    expect(mailer.sent).toHaveLength(0);
    expect(await outbox(id)).toMatchObject({ state: 'cancelled' });
  });

  it('purges sent rows after 30 days', async () => {
    const mailer = fakeMailer();
    const run = await start(mailer);
    const id = await insertLead({ receivedAt: new Date(Date.now()) });
    await run.runNow();
    clock = new Date(clock.getTime() + 29 * 24 * 60 * 60 * 1000);
    await run.runNow();
    expect(await outbox(id)).toMatchObject({ state: 'sent' });
    clock = new Date(clock.getTime() + 2 * 24 * 60 * 60 * 1000);
    await run.runNow();
    const { rows } = await db.query(
      'select 1 from public.lead_mail_outbox where response_id = $1',
      [id],
    );
    expect(rows).toHaveLength(0);
  });

  it('sends one digest at the chosen hour in Berlin, and later leads in the next one', async () => {
    await db.query(`update public.lead_mail_settings set mode = 'digest', digest_hour = 8`);
    const mailer = fakeMailer();
    // Tomorrow 07:00 in Berlin (06:00 UTC in winter): later than the database's clock.
    const tomorrow = new Date();
    tomorrow.setUTCDate(tomorrow.getUTCDate() + 1);
    const day = tomorrow.toISOString().slice(0, 10);
    clock = new Date(`${day}T06:00:00Z`);
    const run = await start(mailer);
    await insertLead({ firstName: 'Anna', receivedAt: new Date(Date.now()) });
    await insertLead({ firstName: 'Bernd', receivedAt: new Date(Date.now()) });

    await run.runNow();
    expect(mailer.sent).toHaveLength(0);

    clock = new Date(`${day}T07:05:00Z`);
    expect(await run.runNow()).toMatchObject({ sent: 1 });
    await run.runNow();
    expect(mailer.sent).toHaveLength(1);
    const digest = mailer.sent[0]!;
    expect(digest.key).toBe(`digest:${day}`);
    expect(digest.mail.text).toContain('2 neue Anfragen');
    expect(digest.mail.text).toMatch(/- .+: „Anna Weiß“ \(/);
    expect(digest.mail.text).toMatch(/- .+: „Bernd Weiß“ \(/);
    expect(digest.mail.text).not.toContain('juergen.geheim');

    // Arrives after today's digest: waits for tomorrow's.
    await insertLead({ firstName: 'Carla', receivedAt: new Date(Date.now()) });
    clock = new Date(`${day}T20:00:00Z`);
    await run.runNow();
    expect(mailer.sent).toHaveLength(1);
    const next = new Date(`${day}T07:30:00Z`);
    next.setUTCDate(next.getUTCDate() + 1);
    clock = next;
    await run.runNow();
    expect(mailer.sent).toHaveLength(2);
    expect(mailer.sent[1]!.key).toBe(`digest:${next.toISOString().slice(0, 10)}`);
    expect(mailer.sent[1]!.mail.text).toContain('1 neue Anfrage eingegangen');
    expect(mailer.sent[1]!.mail.text).toContain('Carla Weiß');
  });

  describe('with the file mailer', () => {
    let dataDir: string;
    beforeEach(async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), 'lead-mail-job-'));
    });
    afterEach(async () => {
      await rm(dataDir, { recursive: true, force: true });
    });

    it('writes no second mail after a crash between writing the file and marking it sent', async () => {
      const mailer = createMailer({ smtpUrl: undefined, dataDir, from: 'Test <t@localhost>' });
      const run = await start(mailer);
      const id = await insertLead({ receivedAt: new Date(Date.now()) });
      // The crash: the earlier run wrote the mail, then died before its update.
      const first = await mailer.send(
        { to: 'makler@example.de', subject: 'vor dem Absturz', text: 'erste Fassung\n' },
        { idempotencyKey: `lead:${id}` },
      );
      expect(await outbox(id)).toMatchObject({ state: 'pending', attempts: 0 });

      await run.runNow();
      expect(await outbox(id)).toMatchObject({ state: 'sent' });
      const files = (await readdir(path.join(dataDir, 'mail'))).filter((f) => !f.startsWith('.'));
      expect(files).toEqual([`lead-${id}.json`]);
      expect(first).toMatchObject({ file: path.join(dataDir, 'mail', `lead-${id}.json`) });
      const content = JSON.parse(await readFile(path.join(dataDir, 'mail', files[0]!), 'utf8'));
      expect(content.subject).toBe('vor dem Absturz');
    });
  });
});

describe('lead mail job in the server', () => {
  let server: GatewayServer;
  beforeAll(async () => {
    // Polling only every hour: a mail that comes at once came from the hub's kick.
    server = await startGatewayServer('pglite', undefined, {
      name: 'lead-mail-kick',
      leadMail: { pollMs: 3_600_000 },
    });
    await server.db.query(
      `update public.lead_mail_settings set enabled = true, address = 'makler@example.de'`,
    );
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it('mails a batch of leads right after the hub stored them, one file per lead', async () => {
    const leads = [1, 2, 3].map((n) => questionnaireLead({ last_name: `Stapel${'x'.repeat(n)}` }));
    const posted = await fetch(`${server.url}/api/responses/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ submissions: leads }),
    });
    expect(posted.status).toBe(200);
    const { results } = (await posted.json()) as { results: { id: number }[] };
    const expected = results.map((result) => `lead-${result.id}.json`).sort();
    const folder = path.join(server.dataDir, 'mail');
    const deadline = Date.now() + 10_000;
    let files: string[] = [];
    while (Date.now() < deadline) {
      files = (await readdir(folder).catch(() => [] as string[])).sort();
      if (files.length >= 3) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(files).toEqual(expected);
    const mail = JSON.parse(await readFile(path.join(folder, expected[0]!), 'utf8')) as Mail;
    // The fixtures' leads were captured days before: mailed as late.
    expect(mail.text).toContain('auf dem Messe-Tablet, eingegangen am');
  });
});
