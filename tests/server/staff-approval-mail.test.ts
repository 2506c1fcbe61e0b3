import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMailer } from '../../server/gateway/auth/mail.ts';
import { startStaffMailJob, type StaffMailJob } from '../../server/jobs/staff-mail-job.ts';
import {
  createAccount,
  startGatewayServer,
  type Account,
  type GatewayServer,
} from '../helpers/gateway-server.ts';
import { startSmtpCapture, type CapturedMail, type SmtpCapture } from '../helpers/smtp-capture.ts';

// The mail to a colleague an admin enabled (issue 36): the approval through the API queues it in
// the same transaction (staff_mail_outbox), the hub's job sends it through a real SMTP relay,
// exactly once even with two jobs (two instances) on one database, with a retry when the relay
// refuses, and never for an account that waits again. refuse_staff_account deletes a pending
// registration for admins only. The job logs no address.

const base = 'https://makler.example.de';

/** The message body as text: nodemailer sends it quoted-printable. */
function bodyOf(mail: CapturedMail): string {
  const body = mail.raw.slice(mail.raw.indexOf('\r\n\r\n') + 4).replace(/=\r\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < body.length; i++) {
    const hex = body[i] === '=' ? /^[0-9A-F]{2}$/.exec(body.slice(i + 1, i + 3)) : null;
    if (hex) {
      bytes.push(parseInt(hex[0], 16));
      i += 2;
    } else bytes.push(body.charCodeAt(i));
  }
  return Buffer.from(bytes).toString('utf8').replace(/\r\n/g, '\n');
}

describe.each(['pglite', 'postgres'] as const)('the approval mail on %s', (kind) => {
  let server: GatewayServer;
  let relay: SmtpCapture;
  let admin: Account;
  let jobs: StaffMailJob[] = [];
  const logLines: string[] = [];
  const log = pino(
    { level: 'info' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(chunk.toString());
        done();
      },
    }),
  );
  let counter = 0;
  const pending = () => createAccount(server.db, `neu-${kind}-${++counter}@example.de`, 'pending');

  const startJob = () => {
    const job = startStaffMailJob({
      db: server.db,
      log,
      mailer: createMailer({
        smtpUrl: relay.url,
        dataDir: server.dataDir,
        from: 'Universa Leads <noreply@makler.example.de>',
      }),
      baseUrl: () => base,
      // Only the test's runs: the timer never fires within a test.
      pollMs: 3_600_000,
    });
    jobs.push(job);
    return job;
  };
  const outbox = async (userId: string) =>
    (
      await server.db.query<{ state: string; attempts: number; last_error: string | null }>(
        `select state::text as state, attempts, last_error from public.staff_mail_outbox
          where user_id = $1 order by id`,
        [userId],
      )
    ).rows;
  const approve = async (account: Account, role: 'staff' | 'admin' = 'staff') => {
    const { error } = await server
      .client(admin.accessToken)
      .rpc('set_staff_role', { user_id: account.id, role });
    expect(error).toBeNull();
  };

  beforeAll(async () => {
    relay = await startSmtpCapture();
    server = await startGatewayServer(kind, undefined, { name: 'staff-approval-mail' });
    admin = await createAccount(server.db, `chefin-${kind}@example.de`, 'admin');
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await relay?.close();
  });
  beforeEach(async () => {
    // Jobs started by earlier tests have finished their run at start.
    relay.accepted.length = 0;
    logLines.length = 0;
  });
  afterEach(async () => {
    await Promise.all(jobs.map((job) => job.stop()));
    jobs = [];
  });

  it('queues nothing for the first admin, fixtures or the owner’s own SQL', async () => {
    const { rows } = await server.db.query('select 1 from public.staff_mail_outbox');
    // The seeded admin (setup) and the accounts createAccount set by SQL: no approval by an admin.
    expect(rows).toEqual([]);
  });

  it('mails the approved colleague once, in German, with the sign-in link, even with two jobs', async () => {
    const first = startJob();
    const second = startJob();
    await Promise.all([first.runNow(), second.runNow()]);
    const colleague = await pending();
    await approve(colleague);
    expect(await outbox(colleague.id)).toEqual([
      { state: 'pending', attempts: 0, last_error: null },
    ]);

    // Both instances' runs at once: one of them sends it.
    const runs = await Promise.all([first.runNow(), second.runNow()]);
    expect(runs.reduce((sum, run) => sum + run.sent, 0)).toBe(1);
    expect(await Promise.all([first.runNow(), second.runNow()])).toEqual([
      { sent: 0, retried: 0, failed: 0, cancelled: 0 },
      { sent: 0, retried: 0, failed: 0, cancelled: 0 },
    ]);

    expect(relay.accepted).toHaveLength(1);
    const [mail] = relay.accepted as [CapturedMail];
    expect(mail.recipients).toEqual([colleague.email]);
    expect(mail.subject).toBe('Ihr Zugang zu Survey Desk ist freigeschaltet');
    const text = bodyOf(mail);
    expect(text).toContain(
      'Ihr Konto für Survey Desk ist freigeschaltet. Ihre Rolle: Mitarbeiter.',
    );
    expect(text).toContain(`${base}/surveydesk/signin`);
    expect(text).toContain(`${base}/surveydesk/passwort-vergessen`);
    // It names nobody else: not the admin who approved it.
    expect(text).not.toContain(admin.email);
    expect(await outbox(colleague.id)).toEqual([{ state: 'sent', attempts: 1, last_error: null }]);
    // Counts only in the log, never an address.
    expect(logLines.join('')).not.toContain('@');
    expect(logLines.join('')).toContain('staff approval mail run');
  });

  it('names the admin role, and a second approval while one waits queues no second mail', async () => {
    const job = startJob();
    await job.runNow();
    const colleague = await pending();
    await approve(colleague, 'admin');
    // Back to waiting and enabled again before the job ran: still one mail.
    const { error } = await server
      .client(admin.accessToken)
      .rpc('set_staff_role', { user_id: colleague.id, role: 'pending' });
    expect(error).toBeNull();
    await approve(colleague, 'admin');
    expect(await outbox(colleague.id)).toHaveLength(1);
    await job.runNow();
    expect(relay.accepted).toHaveLength(1);
    expect(bodyOf(relay.accepted[0]!)).toContain('Ihre Rolle: Admin.');
  });

  it('sends nothing to an account that waits again before its mail went out', async () => {
    const job = startJob();
    await job.runNow();
    const colleague = await pending();
    await approve(colleague);
    const { error } = await server
      .client(admin.accessToken)
      .rpc('set_staff_role', { user_id: colleague.id, role: 'pending' });
    expect(error).toBeNull();
    expect(await job.runNow()).toMatchObject({ sent: 0, cancelled: 1 });
    expect(relay.accepted).toEqual([]);
    expect(await outbox(colleague.id)).toEqual([
      { state: 'cancelled', attempts: 0, last_error: 'pending again' },
    ]);
  });

  it('tries again when the relay refuses, and delivers once', async () => {
    const clock = { now: new Date(Date.now() + 1000) };
    const job = startStaffMailJob({
      db: server.db,
      log,
      mailer: createMailer({ smtpUrl: relay.url, dataDir: server.dataDir, from: 'x <a@b.de>' }),
      baseUrl: () => base,
      now: () => clock.now,
      pollMs: 3_600_000,
    });
    jobs.push(job);
    await job.runNow();
    const colleague = await pending();
    await approve(colleague);
    relay.refuseNext(1);
    expect(await job.runNow()).toMatchObject({ sent: 0, retried: 1 });
    expect(await outbox(colleague.id)).toEqual([
      { state: 'pending', attempts: 1, last_error: '452' },
    ]);
    // Not due yet.
    expect(await job.runNow()).toMatchObject({ sent: 0, retried: 0 });
    clock.now = new Date(clock.now.getTime() + 31_000);
    expect(await job.runNow()).toMatchObject({ sent: 1 });
    expect(relay.accepted.map((mail) => mail.recipients)).toEqual([[colleague.email]]);
    expect(logLines.join('')).not.toContain('@');
  });

  it('lets only an admin refuse, and only a registration that still waits', async () => {
    const colleague = await pending();
    const staff = await createAccount(server.db, `kollege-${kind}@example.de`, 'staff');

    const byStaff = await server
      .client(staff.accessToken)
      .rpc('refuse_staff_account', { user_id: colleague.id });
    expect(byStaff.error?.code).toBe('42501');
    const ofEnabled = await server
      .client(admin.accessToken)
      .rpc('refuse_staff_account', { user_id: staff.id });
    expect(ofEnabled.error?.code).toBe('UL002');
    const anonymous = await server.client().rpc('refuse_staff_account', { user_id: colleague.id });
    expect(anonymous.error).not.toBeNull();

    const refused = await server
      .client(admin.accessToken)
      .rpc('refuse_staff_account', { user_id: colleague.id });
    expect(refused.error).toBeNull();
    const { rows } = await server.db.query(
      `select 1 from auth.users where id = $1
       union all select 1 from public.staff where user_id = $1`,
      [colleague.id],
    );
    expect(rows).toEqual([]);
    const again = await server
      .client(admin.accessToken)
      .rpc('refuse_staff_account', { user_id: colleague.id });
    expect(again.error?.code).toBe('P0002');
    // The enabled colleague is untouched.
    const still = await server.db.query('select role::text from public.staff where user_id = $1', [
      staff.id,
    ]);
    expect(still.rows).toEqual([{ role: 'staff' }]);
  });
});
