import { createHash } from 'node:crypto';
import { canonicalJson, type Submission } from '../../src/domain/submission.ts';
import type { Database, Queryable } from '../db/database.ts';

/** What became of a lead; the hub turns a refusal into its answer to the caller. */
export type SaveOutcome =
  | { kind: 'created'; id: number }
  | { kind: 'duplicate'; id: number }
  /** Another lead was stored under this client_id before. */
  | { kind: 'conflict' }
  | { kind: 'unknown-form'; formId: number }
  | { kind: 'unknown-questions'; formId: number; questionIds: number[] };

/** Thrown inside the transaction when another request stored the same client_id first. */
class LostRace extends Error {}

export function submissionHash(submission: Submission): string {
  return createHash('sha256').update(canonicalJson(submission)).digest('hex');
}

/**
 * Stores one lead: the customer upserted by lower-cased e-mail, the response and its answers,
 * all in one transaction. Idempotent by client_id: the same content again returns the first
 * result and writes nothing; other content under a known client_id is a conflict. A refused lead
 * writes nothing.
 */
export async function saveSubmission(
  db: Database,
  submission: Submission,
  now: Date,
): Promise<SaveOutcome> {
  const hash = submissionHash(submission);
  const earlier = await findByClientId(db, submission.client_id);
  if (earlier) return asDuplicate(earlier, hash);
  try {
    return await db.transaction((tx) => insertSubmission(tx, submission, hash, now));
  } catch (error) {
    if (!(error instanceof LostRace)) throw error;
    // A concurrent request committed this client_id while ours waited; ours rolled back.
    const winner = await findByClientId(db, submission.client_id);
    if (!winner) throw error;
    return asDuplicate(winner, hash);
  }
}

async function findByClientId(db: Queryable, clientId: string) {
  const result = await db.query<{ id: number; payload_hash: string }>(
    'select id, payload_hash from public.responses where client_id = $1',
    [clientId],
  );
  return result.rows[0];
}

function asDuplicate(earlier: { id: number; payload_hash: string }, hash: string): SaveOutcome {
  return earlier.payload_hash === hash
    ? { kind: 'duplicate', id: earlier.id }
    : { kind: 'conflict' };
}

async function insertSubmission(
  tx: Queryable,
  s: Submission,
  hash: string,
  now: Date,
): Promise<SaveOutcome> {
  // Both checks come before the first write, so a refusal leaves nothing to roll back.
  const form = await tx.query('select 1 from public.forms where id = $1', [s.form_id]);
  if (form.rows.length === 0) return { kind: 'unknown-form', formId: s.form_id };
  const questionIds = s.answers.map((a) => a.question_id);
  if (questionIds.length > 0) {
    const known = await tx.query<{ id: number }>(
      'select id from public.questions where form_id = $1 and id = any($2::int[])',
      [s.form_id, questionIds],
    );
    const knownIds = new Set(known.rows.map((r) => r.id));
    const unknown = questionIds.filter((id) => !knownIds.has(id));
    if (unknown.length > 0) {
      return { kind: 'unknown-questions', formId: s.form_id, questionIds: unknown };
    }
  }

  const user = await tx.query<{ id: number }>(
    `insert into public.users (first_name, last_name, email, phone, adress, postcode, city)
     values ($1, $2, $3, $4, $5, $6, $7)
     on conflict ((lower(email))) do update set
       first_name = excluded.first_name,
       last_name = excluded.last_name,
       phone = excluded.phone,
       adress = coalesce(excluded.adress, users.adress),
       postcode = coalesce(excluded.postcode, users.postcode),
       city = coalesce(excluded.city, users.city),
       updated_at = now()
     returning id`,
    [s.first_name, s.last_name, s.email, s.phone, s.adress, s.postcode, s.city],
  );

  const fullName = `${s.first_name} ${s.last_name}`;
  const inserted = await tx.query<{ id: number }>(
    `insert into public.responses (
       client_id, payload_hash, form_id, user_id, source, channel,
       first_name, last_name, email, phone, adress, postcode, city,
       salutation, title, birthdate, call_time, existing_customer, message,
       offer_info, terms_accepted, data_processing_consent, consent_version,
       create_date, changed_date, create_user, changed_user, captured_at,
       cookie_consent, cookie_consent_version)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18,
       $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30)
     on conflict (client_id) do nothing
     returning id`,
    [
      s.client_id,
      hash,
      s.form_id,
      user.rows[0]!.id,
      s.source,
      s.channel ?? 'web',
      s.first_name,
      s.last_name,
      s.email,
      s.phone,
      s.adress,
      s.postcode,
      s.city,
      s.salutation,
      s.title,
      s.birthdate,
      s.call_time,
      s.existing_customer,
      s.message,
      s.offer_info,
      s.terms_accepted,
      s.data_processing_consent,
      s.consent_version ?? null,
      s.create_date ?? now.toISOString(),
      s.changed_date ?? s.create_date ?? now.toISOString(),
      s.create_user ?? fullName,
      s.changed_user ?? s.create_user ?? fullName,
      s.captured_at ?? null,
      s.cookie_consent ?? null,
      s.cookie_consent_version ?? null,
    ],
  );
  const responseId = inserted.rows[0]?.id;
  if (responseId === undefined) throw new LostRace();

  if (s.answers.length > 0) {
    await tx.query(
      `insert into public.answers (response_id, question_id, answer)
       select $1, q, a from unnest($2::int[], $3::text[]) as t(q, a)`,
      [responseId, questionIds, s.answers.map((a) => a.answer)],
    );
  }
  return { kind: 'created', id: responseId };
}

const responseColumns = `r.id, r.client_id, r.form_id, r.user_id, r.source, r.channel, r.first_name,
  r.last_name, r.email, r.phone, r.adress, r.postcode, r.city, r.salutation, r.title, r.birthdate,
  r.call_time, r.existing_customer, r.message, r.offer_info, r.terms_accepted,
  r.data_processing_consent, r.consent_version, r.create_date, r.changed_date, r.create_user,
  r.changed_user, r.captured_at, r.received_at, r.cookie_consent, r.cookie_consent_version`;

// The question's text as the visitor answered it: the question may since have been edited or
// deleted (question_id null); answers of deleted questions come last, in the order stored.
const answersJson = `coalesce((
    select json_agg(json_build_object('question_id', a.question_id, 'question', a.question_text,
      'answer', a.answer) order by q.sequence nulls last, a.id)
    from public.answers a left join public.questions q on q.id = a.question_id
    where a.response_id = r.id), '[]'::json) as answers`;

export async function findResponse(db: Queryable, id: number) {
  const result = await db.query(
    `select ${responseColumns}, ${answersJson} from public.responses r where r.id = $1`,
    [id],
  );
  return result.rows[0];
}

export interface ResponseListQuery {
  formId: number | undefined;
  since: string | undefined;
  limit: number;
}

/** Newest first, by the time the hub received them (device clocks are not to be trusted). */
export async function listResponses(db: Queryable, query: ResponseListQuery) {
  const result = await db.query(
    `select ${responseColumns}, ${answersJson} from public.responses r
     where ($1::int is null or r.form_id = $1) and ($2::timestamptz is null or r.received_at >= $2)
     order by r.received_at desc, r.id desc
     limit $3`,
    [query.formId ?? null, query.since ?? null, query.limit],
  );
  return result.rows;
}

export type ResponsesRepository = ReturnType<typeof createResponsesRepository>;

export function createResponsesRepository(db: Database) {
  return {
    save: (submission: Submission, now: Date) => saveSubmission(db, submission, now),
    find: (id: number) => findResponse(db, id),
    list: (query: ResponseListQuery) => listResponses(db, query),
  };
}
