import type { FastifyBaseLogger } from 'fastify';
import { berlinToday } from '../../src/domain/calendar.ts';
import type { Database, Queryable } from '../db/database.ts';
import type { Columns, ReadAsDate } from '../db/table-rows.ts';
import type { Mailer } from '../gateway/auth/mail.ts';
import { digestMail, leadMail, type LeadMailFacts } from './lead-mail-content.ts';
import { errorCode, startPeriodicJob, type PeriodicJobStatus } from './periodic-job.ts';

export const leadMailPollInterval = 15_000;
/**
 * The hub kicks the job after every stored lead; kicks within this time after a kicked run share
 * the next one. A lone lead is mailed at once, a stream of leads (a fair, a load test) costs one
 * run a second instead of one per lead.
 */
export const leadMailKickSpacing = 1000;
/** Tries per mail before it counts as failed (shown on the staff page). */
export const leadMailMaxAttempts = 8;
/** Retries wait 30 s, 1 min, 2 min, … up to an hour. */
export const leadMailBackoff = (attempts: number): number =>
  Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 60 * 60 * 1000);
/**
 * How long a claimed mail is kept from other runs while it is being sent. After a crash the row
 * is due again when this has passed; the idempotency key keeps the second send from mailing twice.
 */
const claimLease = 2 * 60 * 1000;
/** Sent and given-up rows stay this long: long enough that no retry can come after. */
const keepDone = 30 * 24 * 60 * 60 * 1000;
const claimBatch = 20;

export interface LeadMailJobOptions {
  db: Database;
  log: FastifyBaseLogger;
  mailer: Mailer;
  /** Where the desk links point: PUBLIC_URL, else the address the server listens on. */
  baseUrl: () => string;
  /** The job's clock (tests move it); the process's clock otherwise. */
  now?: () => Date;
  pollMs?: number;
  /** See leadMailKickSpacing. */
  kickSpacingMs?: number;
  /**
   * A lead is mailed once its queue row is this old (LEAD_MAIL_DELAY_SECONDS); 0 by default.
   * The crash test uses it to kill the server between the lead's commit and the mail.
   */
  delayMs?: number;
  maxAttempts?: number;
}

export interface LeadMailRun {
  sent: number;
  retried: number;
  failed: number;
}

export interface LeadMailJob {
  /** A run soon (after the current request's reply), e.g. when the hub has stored leads. */
  kick(): void;
  /** One run now, after a running one has finished. */
  runNow(): Promise<LeadMailRun>;
  /** See PeriodicJob.status (the readiness check). */
  status(): PeriodicJobStatus;
  /**
   * Ends the timer and waits for a run in progress, which ends after the mail it is sending and
   * gives back the rows it claimed and has not tried.
   */
  stop(): Promise<void>;
}

type Settings = Columns<
  'lead_mail_settings',
  'enabled' | 'address' | 'mode' | 'digest_hour' | 'digest_sent_on'
>;

/** A claimed row; its bigint id is read as text (`id::text`), exact on every driver. */
type Claimed = Columns<
  'lead_mail_outbox',
  'idempotency_key' | 'attempts' | 'response_id' | 'digest_key'
> & {
  id: string;
};

/**
 * Sends the queue of new-lead mails (lead_mail_outbox, filled by a trigger in the lead's own
 * transaction). Never inside a request: a lead's POST only kicks the job, which runs on its own
 * turn, at start (a crash's leftovers) and every 15 seconds. Each mail carries its row's
 * idempotency key, so a mail sent before a crash and sent again after it is written once
 * (file mailer) or carries the same Message-ID (SMTP). Logs counts and codes only.
 */
export function startLeadMailJob(options: LeadMailJobOptions): LeadMailJob {
  const { log, mailer } = options;
  // Every statement of the job is work that may wait: a lead's intake goes first (on PGlite's
  // one connection, and on PostgreSQL through the pool's reserved connections).
  const db = inBackground(options.db);
  const now = options.now ?? (() => new Date());
  const pollMs = options.pollMs ?? leadMailPollInterval;
  const delayMs = options.delayMs ?? 0;
  const maxAttempts = options.maxAttempts ?? leadMailMaxAttempts;
  const kickSpacingMs = options.kickSpacingMs ?? leadMailKickSpacing;
  let lastKicked = Number.NEGATIVE_INFINITY;
  let again = false;

  const run = async (stopping: AbortSignal): Promise<LeadMailRun> => {
    const at = now();
    const result: LeadMailRun = { sent: 0, retried: 0, failed: 0 };
    const settings = await readSettings(db);
    if (stopping.aborted) return result;
    if (!settings?.enabled || !settings.address) {
      // Switched off: what still waits is not sent later, when someone switches it on again.
      await db.query(
        `update public.lead_mail_outbox set state = 'cancelled', last_error = 'disabled'
          where state = 'pending'`,
      );
    } else {
      const to = settings.address;
      const baseUrl = options.baseUrl();
      // On stop (SIGTERM) the run ends between two mails, not after the whole queue: what it
      // claimed and has not tried goes back at once, so the next start (or another instance)
      // sends it without sitting out the lease.
      while (!stopping.aborted) {
        const claimed = await claim(db, at, delayMs, `kind = 'immediate'`);
        if (claimed.length === 0) break;
        const facts = await leadFacts(
          db,
          claimed.map((row) => row.response_id),
        );
        for (const [index, row] of claimed.entries()) {
          if (stopping.aborted) {
            await release(db, claimed.slice(index), at);
            break;
          }
          const lead = facts.get(row.response_id);
          // The lead was erased meanwhile: its row went with it (cascade), nothing to send.
          if (!lead) continue;
          const outcome = await attempt(
            () => mailer.send(leadMail(to, baseUrl, lead), { idempotencyKey: row.idempotency_key }),
            [row],
          );
          result[outcome] += 1;
        }
      }
      if (stopping.aborted) {
        log.info({ ...result }, 'lead mail run stopped');
        return result;
      }
      if (settings.mode === 'digest') await gatherDigest(db, settings, at);
      result.sent += await sendDigests(to, baseUrl, result);
    }
    await db.query(
      `delete from public.lead_mail_outbox where state <> 'pending' and created_at < $1`,
      [new Date(at.getTime() - keepDone).toISOString()],
    );
    if (result.sent + result.retried + result.failed > 0) log.info({ ...result }, 'lead mail run');
    return result;

    /** Sends one mail for the rows; marks them sent, or schedules the retry, or gives up. */
    async function attempt(
      send: () => Promise<unknown>,
      rows: Claimed[],
    ): Promise<'sent' | 'retried' | 'failed'> {
      const ids = rows.map((row) => row.id);
      try {
        await send();
      } catch (error) {
        const attempts = Math.max(...rows.map((row) => row.attempts)) + 1;
        const code = errorCode(error);
        const gaveUp = attempts >= maxAttempts;
        await db.query(
          `update public.lead_mail_outbox
              set attempts = $2, last_error = $3, state = $4, next_attempt_at = $5
            where id = any($1::bigint[]) and state = 'pending'`,
          [
            ids,
            attempts,
            code,
            gaveUp ? 'failed' : 'pending',
            new Date(at.getTime() + leadMailBackoff(attempts)).toISOString(),
          ],
        );
        log.warn({ code, attempts, gaveUp }, 'lead mail not sent');
        return gaveUp ? 'failed' : 'retried';
      }
      await db.query(
        `update public.lead_mail_outbox
            set state = 'sent', sent_at = $2, attempts = attempts + 1, last_error = null
          where id = any($1::bigint[])`,
        [ids, at.toISOString()],
      );
      return 'sent';
    }

    /** Each gathered digest that is due: one mail for all its rows. */
    async function sendDigests(to: string, baseUrl: string, counts: LeadMailRun): Promise<number> {
      let sent = 0;
      while (!stopping.aborted) {
        const claimed = await claim(db, at, 0, `digest_key is not null`, true);
        if (claimed.length === 0) return sent;
        // Every row of a digest claimed by `digest_key is not null` carries the digest's key.
        const key = claimed[0]?.digest_key;
        if (!key) return sent;
        const facts = await leadFacts(
          db,
          claimed.map((row) => row.response_id),
        );
        const leads = claimed.flatMap((row) => facts.get(row.response_id) ?? []);
        const outcome = await attempt(
          () =>
            leads.length === 0
              ? Promise.resolve()
              : mailer.send(digestMail(to, baseUrl, key.slice('digest:'.length), leads), {
                  idempotencyKey: key,
                }),
          claimed,
        );
        if (outcome === 'sent') sent += 1;
        else counts[outcome] += 1;
      }
      return sent;
    }
  };

  // At start: what a crash left in the queue goes out now.
  const job = startPeriodicJob({
    run,
    intervalMs: pollMs,
    log,
    failure: 'lead mail run failed',
    first: 'at-once',
  });

  return {
    kick: () => {
      // Coalesced: a burst of leads (a tablet's batch) makes one extra run, not one each.
      if (again || job.stopped) return;
      again = true;
      const go = () => {
        again = false;
        lastKicked = performance.now();
        job.tick();
      };
      const wait = lastKicked + kickSpacingMs - performance.now();
      if (wait > 0) setTimeout(go, wait).unref();
      else setImmediate(go).unref();
    },
    runNow: job.runNow,
    status: job.status,
    stop: job.stop,
  };
}

async function readSettings(db: Queryable): Promise<Settings | undefined> {
  const { rows } = await db.query<Settings>(
    `select enabled, address, mode, digest_hour, digest_sent_on::text as digest_sent_on
       from public.lead_mail_settings where id`,
  );
  return rows[0];
}

/**
 * Takes due rows for this run: their next attempt moves a lease ahead, so another run (another
 * instance on PostgreSQL) skips them; rows another transaction holds are skipped, not waited for.
 * With `wholeDigest` it takes every row of one digest.
 */
async function claim(
  db: Database,
  at: Date,
  delayMs: number,
  which: string,
  wholeDigest = false,
): Promise<Claimed[]> {
  const due = `state = 'pending' and ${which} and next_attempt_at <= $1
               and ($3::integer = 0 or created_at <= $1::timestamptz - make_interval(secs => $3::integer / 1000.0))`;
  const pick = wholeDigest
    ? `select id from public.lead_mail_outbox
        where ${due} and digest_key = (select digest_key from public.lead_mail_outbox
                                        where ${due} order by id limit 1)
        for update skip locked`
    : `select id from public.lead_mail_outbox where ${due} order by id limit ${claimBatch}
        for update skip locked`;
  return db.transaction(
    async (tx) => {
      const { rows } = await tx.query<Claimed>(
        `update public.lead_mail_outbox o set next_attempt_at = $2
        where o.id in (${pick})
        returning o.id::text as id, o.idempotency_key, o.attempts, o.response_id, o.digest_key`,
        [at.toISOString(), new Date(at.getTime() + claimLease).toISOString(), delayMs],
      );
      return rows.sort((a, b) => Number(a.id) - Number(b.id));
    },
    { background: true },
  );
}

/**
 * Gives claimed rows back that a stopped run did not try: due again at the run's time, instead of
 * when the lease ends. Rows sent or given up meanwhile are not pending any more and stay as they are.
 */
async function release(db: Database, rows: Claimed[], at: Date): Promise<void> {
  await db.query(
    `update public.lead_mail_outbox set next_attempt_at = $2
      where id = any($1::bigint[]) and state = 'pending'`,
    [rows.map((row) => row.id), at.toISOString()],
  );
}

/**
 * The day's digest is gathered once, at the chosen hour in Berlin: every waiting digest row gets
 * the day's key, and the settings remember the day, so leads after it wait for the next one.
 */
async function gatherDigest(db: Database, settings: Settings, at: Date): Promise<void> {
  const today = berlinToday(at);
  const hour = Number(berlinHour.formatToParts(at).find((part) => part.type === 'hour')?.value);
  if (hour < settings.digest_hour) return;
  if (settings.digest_sent_on !== null && settings.digest_sent_on >= today) return;
  await db.transaction(async (tx) => {
    await tx.query(
      `update public.lead_mail_outbox set digest_key = $1
        where state = 'pending' and kind = 'digest' and digest_key is null`,
      [`digest:${today}`],
    );
    await tx.query(`update public.lead_mail_settings set digest_sent_on = $1 where id`, [today]);
  });
}

const berlinHour = new Intl.DateTimeFormat('de-DE', {
  hour: '2-digit',
  hourCycle: 'h23',
  timeZone: 'Europe/Berlin',
});

async function leadFacts(db: Queryable, ids: number[]): Promise<Map<number, LeadMailFacts>> {
  const { rows } = await db.query<
    ReadAsDate<
      Columns<
        'responses',
        'id' | 'user_id' | 'first_name' | 'last_name' | 'call_time' | 'captured_at' | 'received_at'
      >,
      'captured_at' | 'received_at'
    > &
      Columns<'forms', 'title'>
  >(
    `select r.id, r.user_id, f.title, r.first_name, r.last_name, r.call_time, r.captured_at,
            r.received_at
       from public.responses r join public.forms f on f.id = r.form_id
      where r.id = any($1::integer[])
      order by r.received_at, r.id`,
    [ids],
  );
  return new Map(
    rows.map((row) => [
      row.id,
      {
        responseId: row.id,
        customerId: row.user_id,
        formTitle: row.title,
        firstName: row.first_name,
        lastName: row.last_name,
        callTime: row.call_time || null,
        capturedAt: row.captured_at === null ? null : row.captured_at.toISOString(),
        receivedAt: row.received_at.toISOString(),
      },
    ]),
  );
}

/** The same database with every statement and transaction marked as work that may wait. */
export function inBackground(db: Database): Database {
  return {
    kind: db.kind,
    query: (sql, params) => db.transaction((tx) => tx.query(sql, params), { background: true }),
    exec: (sql) => db.transaction((tx) => tx.exec(sql), { background: true }),
    transaction: (fn) => db.transaction(fn, { background: true }),
    close: () => db.close(),
  };
}
