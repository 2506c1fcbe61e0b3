import { createHash } from 'node:crypto';
import type { Tables } from '../../src/domain/database.types.ts';
import {
  canonicalJson,
  withoutDeliveryFields,
  type Submission,
} from '../../src/domain/submission.ts';
import type { Database, Queryable } from '../db/database.ts';
import type { Columns, FunctionResult } from '../db/table-rows.ts';

/** What became of a lead; the hub turns a refusal into its answer to the caller. */
export type SaveOutcome =
  | { kind: 'created'; id: number }
  | { kind: 'duplicate'; id: number }
  /** Another lead was stored under this client_id before. */
  | { kind: 'conflict' }
  | { kind: 'unknown-form'; formId: number }
  | { kind: 'unknown-questions'; formId: number; questionIds: number[] };

/**
 * The lead's content, as the duplicate check compares it. Without the delivery fields: a lead
 * whose first send reached the hub but not its answer is sent again marked as having waited,
 * and must still be the same lead (the first arrival's record stands).
 */
export function submissionHash(submission: Submission): string {
  return createHash('sha256')
    .update(canonicalJson(withoutDeliveryFields(submission)))
    .digest('hex');
}

// The rule Analyse used before devices said whether a lead waited.
const guessedWaitMs = 60_000;

/**
 * Whether the lead waited on the device before it reached the hub, as the app's outbox says. A
 * sender that does not say (an app version from before it did, an integration) is judged once,
 * at arrival, by the rule used before: it arrived at least a minute after it was captured.
 */
export function waitedOffline(s: Submission, now: Date): boolean {
  if (s.waited_offline !== undefined) return s.waited_offline;
  if (s.captured_at === undefined) return false;
  return now.getTime() - Date.parse(s.captured_at) >= guessedWaitMs;
}

/**
 * Stores one lead: the customer created or filled by lower-cased e-mail, the response and its
 * answers, in ONE call of the database's intake_lead (checks and writes in one statement, so one
 * round trip and one turn of PGlite's connection per lead). Idempotent by client_id: the same
 * content again returns the first result and writes nothing; other content under a known
 * client_id is a conflict. A refused lead writes nothing.
 */
export async function saveSubmission(
  db: Database,
  submission: Submission,
  now: Date,
): Promise<SaveOutcome> {
  const lead = responseValues(submission, submissionHash(submission), now);
  const { rows } = await db.query<FunctionResult<'intake_lead'>>(
    'select outcome, stored_id, missing_question_ids from public.intake_lead($1::jsonb)',
    [JSON.stringify(lead)],
  );
  const row = rows[0];
  if (!row) throw new Error('intake_lead gab keine Antwort.');
  switch (row.outcome) {
    case 'created':
      return { kind: 'created', id: row.stored_id };
    case 'duplicate':
      return { kind: 'duplicate', id: row.stored_id };
    case 'conflict':
      return { kind: 'conflict' };
    case 'unknown-form':
      return { kind: 'unknown-form', formId: submission.form_id };
    case 'unknown-questions':
      return {
        kind: 'unknown-questions',
        formId: submission.form_id,
        questionIds: row.missing_question_ids,
      };
    default:
      throw new Error(`intake_lead: unbekanntes Ergebnis ${row.outcome}`);
  }
}

// PostgreSQL's codes for a transaction it chose to abort under concurrency; the whole batch is
// rolled back then, so running it again is safe.
const retryableCodes = new Set(['40001', '40P01']);
const batchAttempts = 3;

/**
 * Stores a batch of leads in ONE transaction, each lead inside its own savepoint: one commit
 * (one WAL flush) and a few statements per lead instead of a transaction of seven per lead. The
 * outcome of each lead is the one `saveSubmission` would give it: a refused lead is never
 * written and never undoes or blocks the others, a known client_id with the same content is a
 * duplicate, with other content a conflict. Outcomes come back in the order given.
 */
export async function saveSubmissions(
  db: Database,
  submissions: Submission[],
  now: Date,
): Promise<SaveOutcome[]> {
  const outcomes: (SaveOutcome | undefined)[] = submissions.map(() => undefined);
  if (submissions.length === 0) return [];
  const hashes = submissions.map(submissionHash);

  // Reads first, outside the transaction: leads sent before (a lost answer, another tab) and
  // the forms and questions the batch names, each in one query for the whole batch.
  const earlier = await findByClientIds(
    db,
    submissions.map((s) => s.client_id),
  );
  const references = await knownReferences(db, submissions);
  const toInsert: number[] = [];
  submissions.forEach((submission, i) => {
    const known = earlier.get(submission.client_id);
    if (known) outcomes[i] = asDuplicate(known, hashes[i]!);
    else outcomes[i] = refusalOf(submission, references);
    if (outcomes[i] === undefined) toInsert.push(i);
  });
  // The same order in every batch (customer e-mail, then newest captured first, then client_id),
  // so two batches writing the same customers lock their rows in the same order and do not
  // deadlock each other. Newest first because a lead only fills a customer's empty fields: of
  // two leads of one address in a batch (a tablet's outbox), the newer one's details win,
  // whichever order the device sent them in.
  toInsert.sort((a, b) => compareForLocking(submissions[a]!, submissions[b]!));

  if (toInsert.length > 0) {
    for (let attempt = 1; ; attempt += 1) {
      try {
        const stored = await db.transaction(async (tx) => {
          const together = await insertAllInSavepoint(tx, submissions, hashes, toInsert, now);
          if (together) return together;
          const results = new Map<number, SaveOutcome>();
          for (const i of toInsert) {
            results.set(i, await insertInSavepoint(tx, submissions[i]!, hashes[i]!, now));
          }
          return results;
        });
        for (const [i, outcome] of stored) outcomes[i] = outcome;
        break;
      } catch (error) {
        if (attempt >= batchAttempts || !retryableCodes.has(errorCode(error) ?? '')) throw error;
      }
    }
  }
  return outcomes.map((outcome) => outcome!);
}

/**
 * The whole batch in ONE statement, inside a savepoint: one plan, and the statement-level
 * triggers (Analyse counters, follow-ups, lead mail) run once for the batch instead of once per
 * lead (bench:sync). Undefined when it did not store every lead as new (a client_id stored
 * meanwhile by another request or twice in this batch, a form or question deleted since the
 * check): then nothing of it stays, and the caller stores lead by lead, which sorts out each
 * lead's outcome. Customers are merged in the batch's locking order, one after the other, as
 * lead by lead.
 */
async function insertAllInSavepoint(
  tx: Queryable,
  submissions: Submission[],
  hashes: string[],
  toInsert: number[],
  now: Date,
): Promise<Map<number, SaveOutcome> | undefined> {
  if (toInsert.length < 2) return undefined;
  const clientIds = new Set(toInsert.map((i) => submissions[i]!.client_id));
  if (clientIds.size < toInsert.length) return undefined;
  await tx.query('savepoint batch');
  try {
    const inserted = await insertSubmissions(
      tx,
      toInsert.map((i) => responseValues(submissions[i]!, hashes[i]!, now)),
    );
    if (inserted.size === toInsert.length) {
      const results = new Map<number, SaveOutcome>();
      for (const i of toInsert) {
        results.set(i, { kind: 'created', id: inserted.get(submissions[i]!.client_id)! });
      }
      return results;
    }
  } catch (error) {
    if (errorCode(error) !== foreignKeyViolation) throw error;
  }
  await tx.query('rollback to savepoint batch');
  return undefined;
}

/**
 * One lead of a batch inside its own savepoint. Rolling back to the savepoint undoes
 * this lead's writes only (its customer upsert too), never the leads before it.
 */
async function insertInSavepoint(
  tx: Queryable,
  submission: Submission,
  hash: string,
  now: Date,
): Promise<SaveOutcome> {
  await tx.query('savepoint lead');
  try {
    const id = await insertSubmission(tx, submission, hash, now);
    // No release: it would cost a round trip per lead, and a later `rollback to savepoint lead`
    // goes back to the newest savepoint of that name, which is always the current lead's.
    if (id !== undefined) return { kind: 'created', id };
    // The client_id came in meanwhile: from another request (committed, PostgreSQL waited for
    // it) or earlier in this very batch. Its customer upsert must not stay either.
    await tx.query('rollback to savepoint lead');
    const winner = await findByClientId(tx, submission.client_id);
    if (!winner) throw new Error('Einsendung weder gespeichert noch vorhanden.');
    return asDuplicate(winner, hash);
  } catch (error) {
    // A form or question deleted since the batch's check: the lead is refused as it would
    // have been a moment earlier, and the batch goes on.
    if (errorCode(error) !== foreignKeyViolation) throw error;
    await tx.query('rollback to savepoint lead');
    const refused = refusalOf(submission, await knownReferences(tx, [submission]));
    if (!refused) throw error;
    return refused;
  }
}

const foreignKeyViolation = '23503';

function errorCode(error: unknown): string | undefined {
  if (error && typeof error === 'object' && 'code' in error) {
    const { code } = error as { code: unknown };
    if (typeof code === 'string') return code;
  }
  return undefined;
}

function compareForLocking(a: Submission, b: Submission): number {
  const emailA = a.email.toLowerCase();
  const emailB = b.email.toLowerCase();
  if (emailA !== emailB) return emailA < emailB ? -1 : 1;
  const capturedA = capturedTime(a);
  const capturedB = capturedTime(b);
  if (capturedA !== capturedB) return capturedB - capturedA;
  return a.client_id < b.client_id ? -1 : a.client_id > b.client_id ? 1 : 0;
}

/** When the lead was typed; a lead without captured_at was sent as it was made, so now. */
function capturedTime(s: Submission): number {
  return s.captured_at === undefined ? Number.POSITIVE_INFINITY : Date.parse(s.captured_at);
}

async function findByClientId(db: Queryable, clientId: string) {
  const result = await db.query<Earlier>(
    'select id, payload_hash from public.responses where client_id = $1',
    [clientId],
  );
  return result.rows[0];
}

async function findByClientIds(db: Queryable, clientIds: string[]) {
  const result = await db.query<Earlier & Columns<'responses', 'client_id'>>(
    'select id, client_id, payload_hash from public.responses where client_id = any($1::uuid[])',
    [clientIds],
  );
  return new Map(result.rows.map((row) => [row.client_id, row]));
}

/** A lead stored before under the same client_id. */
type Earlier = Columns<'responses', 'id' | 'payload_hash'>;

function asDuplicate(earlier: Earlier, hash: string): SaveOutcome {
  return earlier.payload_hash === hash
    ? { kind: 'duplicate', id: earlier.id }
    : { kind: 'conflict' };
}

/** The forms the leads name that exist, each with those of the named questions it has. */
type References = Map<number, Set<number>>;

async function knownReferences(db: Queryable, submissions: Submission[]): Promise<References> {
  const formIds = [...new Set(submissions.map((s) => s.form_id))];
  const questionIds = [...new Set(submissions.flatMap((s) => s.answers.map((a) => a.question_id)))];
  const result = await db.query<
    Columns<'forms', 'id'> & { question_ids: Tables<'questions'>['id'][] }
  >(
    `select f.id, coalesce(array_agg(q.id) filter (where q.id is not null), '{}') as question_ids
     from public.forms f
     left join public.questions q on q.form_id = f.id and q.id = any($2::int[])
     where f.id = any($1::int[])
     group by f.id`,
    [formIds, questionIds],
  );
  return new Map(result.rows.map((row) => [row.id, new Set(row.question_ids)]));
}

/** Why the lead cannot be stored (a form or questions that do not exist), or undefined. */
function refusalOf(s: Submission, references: References): SaveOutcome | undefined {
  const known = references.get(s.form_id);
  if (!known) return { kind: 'unknown-form', formId: s.form_id };
  const unknown = s.answers.map((a) => a.question_id).filter((id) => !known.has(id));
  if (unknown.length > 0)
    return { kind: 'unknown-questions', formId: s.form_id, questionIds: unknown };
  return undefined;
}

/**
 * The customer, the response and its answers in ONE statement: insertSubmissions with one lead.
 * Returns the new response's id, or undefined when the client_id is already stored; the
 * customer merge has run then and the caller rolls it back.
 */
async function insertSubmission(
  tx: Queryable,
  s: Submission,
  hash: string,
  now: Date,
): Promise<number | undefined> {
  return (await insertSubmissions(tx, [responseValues(s, hash, now)])).get(s.client_id);
}

/** What a lead stores in its response row and its answers, as insertSubmissions writes them. */
function responseValues(s: Submission, hash: string, now: Date) {
  const fullName = `${s.first_name} ${s.last_name}`;
  return {
    first_name: s.first_name,
    last_name: s.last_name,
    email: s.email,
    phone: s.phone,
    adress: s.adress,
    postcode: s.postcode,
    city: s.city,
    client_id: s.client_id,
    payload_hash: hash,
    form_id: s.form_id,
    source: s.source,
    channel: s.channel ?? 'web',
    salutation: s.salutation,
    title: s.title,
    birthdate: s.birthdate,
    call_time: s.call_time,
    existing_customer: s.existing_customer,
    message: s.message,
    offer_info: s.offer_info,
    terms_accepted: s.terms_accepted,
    data_processing_consent: s.data_processing_consent,
    consent_version: s.consent_version ?? null,
    create_date: s.create_date ?? now.toISOString(),
    changed_date: s.changed_date ?? s.create_date ?? now.toISOString(),
    create_user: s.create_user ?? fullName,
    changed_user: s.changed_user ?? s.create_user ?? fullName,
    captured_at: s.captured_at ?? null,
    cookie_consent: s.cookie_consent ?? null,
    cookie_consent_version: s.cookie_consent_version ?? null,
    waited_offline: waitedOffline(s, now),
    answers: s.answers.map((a) => ({ question_id: a.question_id, answer: a.answer })),
  };
}

/**
 * Leads with their customers and answers in ONE statement, the database's store_leads
 * (supabase/schemas/40_leads.sql): a new address creates a customer from the lead, a known one
 * only gets its empty fields filled (never a field staff edited), so a public form cannot rewrite
 * a customer; the response keeps the details as typed. Customers are merged one after the other
 * in the order given, then the responses, then the answers in each lead's order. Returns the new
 * ids by client_id; a client_id already stored is missing (its customer merge has run: the
 * caller rolls back).
 */
async function insertSubmissions(
  tx: Queryable,
  leads: ReturnType<typeof responseValues>[],
): Promise<Map<string, number>> {
  const { rows } = await tx.query<{ stored: Record<string, number> }>(
    'select public.store_leads($1::jsonb) as stored',
    [JSON.stringify(leads)],
  );
  return new Map(Object.entries(rows[0]?.stored ?? {}));
}
