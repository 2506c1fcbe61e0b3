import type { Tables } from '../../src/domain/database.types.ts';
import type { Queryable } from '../db/database.ts';
import type { Columns, ReadAsDate } from '../db/table-rows.ts';
import { logStaffRead } from './lead-access-log.ts';

const responseColumns = `r.id, r.client_id, r.form_id, r.user_id, r.source, r.channel, r.first_name,
  r.last_name, r.email, r.phone, r.adress, r.postcode, r.city, r.salutation, r.title, r.birthdate,
  r.call_time, r.existing_customer, r.message, r.offer_info, r.terms_accepted,
  r.data_processing_consent, r.consent_version, r.create_date, r.changed_date, r.create_user,
  r.changed_user, r.captured_at, r.received_at, r.cookie_consent, r.cookie_consent_version,
  r.waited_offline`;

// The question's text as the visitor answered it: the question may since have been edited or
// deleted (question_id null); answers of deleted questions come last, in the order stored.
const answersJson = `coalesce((
    select json_agg(json_build_object('question_id', a.question_id, 'question', a.question_text,
      'answer', a.answer) order by q.sequence nulls last, a.id)
    from public.answers a left join public.questions q on q.id = a.question_id
    where a.response_id = r.id), '[]'::json) as answers`;

/** A lead as GET /api/responses serves it: its columns and the answers as given. */
type ResponseRead = ReadAsDate<
  Columns<
    'responses',
    | 'id'
    | 'client_id'
    | 'form_id'
    | 'user_id'
    | 'source'
    | 'channel'
    | 'first_name'
    | 'last_name'
    | 'email'
    | 'phone'
    | 'adress'
    | 'postcode'
    | 'city'
    | 'salutation'
    | 'title'
    | 'birthdate'
    | 'call_time'
    | 'existing_customer'
    | 'message'
    | 'offer_info'
    | 'terms_accepted'
    | 'data_processing_consent'
    | 'consent_version'
    | 'create_date'
    | 'changed_date'
    | 'create_user'
    | 'changed_user'
    | 'captured_at'
    | 'received_at'
    | 'cookie_consent'
    | 'cookie_consent_version'
    | 'waited_offline'
  >,
  'create_date' | 'changed_date' | 'captured_at' | 'received_at'
> & { answers: ReadAnswer[] };

/** One element of `answersJson`: built by json_build_object, so JSON's types (no Date). */
interface ReadAnswer {
  question_id: Tables<'answers'>['question_id'];
  question: Tables<'answers'>['question_text'];
  answer: Tables<'answers'>['answer'];
}

export async function findResponse(db: Queryable, id: number, staffId?: string) {
  const result = await db.query<ResponseRead>(
    `select ${responseColumns}, ${answersJson} from public.responses r where r.id = $1`,
    [id],
  );
  await logStaffRead(db, staffId, result.rows);
  return result.rows[0];
}

export interface ResponseListQuery {
  formId: number | undefined;
  since: string | undefined;
  limit: number;
}

/** Newest first, by the time the hub received them (device clocks are not to be trusted). */
export async function listResponses(db: Queryable, query: ResponseListQuery, staffId?: string) {
  const result = await db.query<ResponseRead>(
    `select ${responseColumns}, ${answersJson} from public.responses r
     where ($1::int is null or r.form_id = $1) and ($2::timestamptz is null or r.received_at >= $2)
     order by r.received_at desc, r.id desc
     limit $3`,
    [query.formId ?? null, query.since ?? null, query.limit],
  );
  await logStaffRead(db, staffId, result.rows);
  return result.rows;
}
