import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database.ts';
import type { Columns } from '../db/table-rows.ts';
import type { Mailer } from '../gateway/auth/mail.ts';
import { inBackground, leadMailBackoff, leadMailMaxAttempts } from './lead-mail-job.ts';
import { errorCode, startPeriodicJob, type PeriodicJobStatus } from './periodic-job.ts';
import { approvalMail, type ApprovalFacts } from './staff-mail-content.ts';

/** Approvals are rare: a poll every 15 seconds mails a new colleague within a quarter minute. */
export const staffMailPollInterval = 15_000;
/** How long a claimed mail is kept from other runs (other instances) while it is being sent. */
const claimLease = 2 * 60 * 1000;
/** Sent, given-up and cancelled rows stay this long, then go. */
const keepDone = 30 * 24 * 60 * 60 * 1000;
const claimBatch = 20;

export interface StaffMailJobOptions {
  db: Database;
  log: FastifyBaseLogger;
  mailer: Mailer;
  /** Where the sign-in link points: PUBLIC_URL, else the address the server listens on. */
  baseUrl: () => string;
  now?: () => Date;
  pollMs?: number;
  maxAttempts?: number;
}

export interface StaffMailRun {
  sent: number;
  retried: number;
  failed: number;
  /** Mails not sent because the account waits for approval again. */
  cancelled: number;
}

export interface StaffMailJob {
  runNow(): Promise<StaffMailRun>;
  status(): PeriodicJobStatus;
  stop(): Promise<void>;
}

/** A claimed row with what its mail needs; the bigint id is read as text. */
type Claimed = Columns<'staff_mail_outbox', 'attempts'> &
  Columns<'staff', 'email' | 'role'> & { id: string };

/** The key a row's mail carries against sending it twice (file name, Message-ID). */
export const approvalMailKey = (id: string | number) => `staff-approval:${id}`;

/**
 * Sends the mails to accounts an admin has enabled (staff_mail_outbox, filled by a trigger on
 * staff.role in the approval's own transaction; docs/survey-desk.md). It runs on the hub, also
 * when Survey Desk talks to a hosted Supabase project: the queue is a table, so the approval may
 * come through any PostgREST. Rows are claimed with `for update skip locked` and a lease, so of
 * several instances on one PostgreSQL one sends each mail; each mail carries its row's key, so a
 * mail sent again after a crash is written once (file mailer) or has the same Message-ID (SMTP).
 * An account that waits for approval again before its mail went out gets none. Logs counts and
 * codes, never an address.
 */
export function startStaffMailJob(options: StaffMailJobOptions): StaffMailJob {
  const { log, mailer } = options;
  const db = inBackground(options.db);
  const now = options.now ?? (() => new Date());
  const maxAttempts = options.maxAttempts ?? leadMailMaxAttempts;

  const run = async (stopping: AbortSignal): Promise<StaffMailRun> => {
    const at = now();
    const result: StaffMailRun = { sent: 0, retried: 0, failed: 0, cancelled: 0 };
    const baseUrl = options.baseUrl();
    while (!stopping.aborted) {
      const claimed = await claim(db, at);
      if (claimed.length === 0) break;
      for (const [index, row] of claimed.entries()) {
        if (stopping.aborted) {
          await release(db, claimed.slice(index), at);
          break;
        }
        if (row.role === 'pending') {
          await db.query(
            `update public.staff_mail_outbox set state = 'cancelled', last_error = 'pending again'
              where id = $1::bigint and state = 'pending'`,
            [row.id],
          );
          result.cancelled += 1;
          continue;
        }
        const facts: ApprovalFacts = { to: row.email, role: row.role };
        try {
          await mailer.send(approvalMail(baseUrl, facts), {
            idempotencyKey: approvalMailKey(row.id),
          });
        } catch (error) {
          const attempts = row.attempts + 1;
          const code = errorCode(error);
          const gaveUp = attempts >= maxAttempts;
          await db.query(
            `update public.staff_mail_outbox
                set attempts = $2, last_error = $3, state = $4, next_attempt_at = $5
              where id = $1::bigint and state = 'pending'`,
            [
              row.id,
              attempts,
              code.slice(0, 64),
              gaveUp ? 'failed' : 'pending',
              new Date(at.getTime() + leadMailBackoff(attempts)).toISOString(),
            ],
          );
          log.warn({ code, attempts, gaveUp }, 'staff approval mail not sent');
          result[gaveUp ? 'failed' : 'retried'] += 1;
          continue;
        }
        await db.query(
          `update public.staff_mail_outbox
              set state = 'sent', sent_at = $2, attempts = attempts + 1, last_error = null
            where id = $1::bigint`,
          [row.id, at.toISOString()],
        );
        result.sent += 1;
      }
    }
    if (stopping.aborted) return result;
    await db.query(
      `delete from public.staff_mail_outbox where state <> 'pending' and created_at < $1`,
      [new Date(at.getTime() - keepDone).toISOString()],
    );
    if (result.sent + result.retried + result.failed + result.cancelled > 0) {
      log.info({ ...result }, 'staff approval mail run');
    }
    return result;
  };

  const job = startPeriodicJob({
    run,
    intervalMs: options.pollMs ?? staffMailPollInterval,
    log,
    failure: 'staff approval mail run failed',
    first: 'at-once',
  });
  return { runNow: job.runNow, status: job.status, stop: job.stop };
}

/** Takes due rows for this run: their next attempt moves a lease ahead; locked rows are skipped. */
async function claim(db: Database, at: Date): Promise<Claimed[]> {
  return db.transaction(
    async (tx) => {
      const { rows } = await tx.query<Claimed>(
        `with picked as (
           select o.id from public.staff_mail_outbox o
            where o.state = 'pending' and o.next_attempt_at <= $1
            order by o.id limit ${claimBatch}
            for update skip locked
         )
         update public.staff_mail_outbox o set next_attempt_at = $2
           from picked, public.staff s
          where o.id = picked.id and s.user_id = o.user_id
         returning o.id::text as id, o.attempts, s.email, s.role::text as role`,
        [at.toISOString(), new Date(at.getTime() + claimLease).toISOString()],
      );
      return rows.sort((a, b) => Number(a.id) - Number(b.id));
    },
    { background: true },
  );
}

/** Gives claimed rows a stopped run did not try back at once, instead of when the lease ends. */
async function release(db: Database, rows: Claimed[], at: Date): Promise<void> {
  await db.query(
    `update public.staff_mail_outbox set next_attempt_at = $2
      where id = any($1::bigint[]) and state = 'pending'`,
    [rows.map((row) => row.id), at.toISOString()],
  );
}
