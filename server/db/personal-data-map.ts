// The map of personal data: every table and column of every schema the app's database has
// (public, auth, storage, supabase_migrations and any other), with what it holds about a visitor
// or customer. tests/database/personal-data-map.test.ts reads the catalogue and fails when a
// column is missing here (or listed here and gone), then builds its checks from this list:
//   - the person's export (customer_data_export) holds the value of every 'person' column of
//     the person's rows, at the path given;
//   - after erase_customer, and after a retention run whose clock is past the period, no table
//     of any schema holds the person's name, address, phone number or any text they or staff
//     wrote about them.
//
// Adding a column or table: add it here, with one of the kinds below. A column about a visitor
// is 'person' and goes into customer_data_export (supabase/migrations/…_*.sql, the latest
// definition) under the path named here; anything else says why it is not the person's data.

/** What one column holds. */
export type ColumnUse =
  /** About the visitor (contact details, answers, notes about them …): in their export. */
  | { holds: 'person'; export: string }
  /** About the visitor, deliberately not in their export: why. */
  | { holds: 'person'; export: null; why: string }
  /**
   * Text staff write that may name a visitor: in the export where it names them (`export`, or
   * null when the export leaves it out), and redacted by erasure and retention.
   */
  | { holds: 'mentions'; export: string | null; why: string }
  /** About the agency's own people (Survey Desk accounts): not a visitor's data. */
  | { holds: 'staff' }
  /** No personal data (ids, counts, settings, the questionnaires, technical state). */
  | { holds: 'none'; why?: string };

export interface TableEntry {
  /** What a row is, in a sentence. */
  about: string;
  /**
   * For tables with 'person' columns: the person's rows, as an SQL condition on the row `t`
   * with the customer's id as $1.
   */
  personRows?: string;
  columns: Record<string, ColumnUse>;
}

/** A column about the visitor, found in the export at `path` ('leads[].email': every lead's). */
const person = (path: string): ColumnUse => ({ holds: 'person', export: path });
const none = (why?: string): ColumnUse => (why ? { holds: 'none', why } : { holds: 'none' });
const staff: ColumnUse = { holds: 'staff' };
const id = none('row id');

/** The same kind for several columns. */
const all = (names: string[], use: (name: string) => ColumnUse) =>
  Object.fromEntries(names.map((name) => [name, use(name)]));

// The person's leads: those of the customer record and those typed with their address.
const personLeads = `public.person_lead_ids($1, (select u.email from public.users u where u.id = $1))`;

export const personalDataMap: Record<string, TableEntry> = {
  // ---- public: the visitors' data -------------------------------------------------------------
  'public.users': {
    about: 'A customer: the contact details of a person who sent leads, as staff keep them.',
    personRows: 't.id = $1',
    columns: all(
      [
        'id',
        'first_name',
        'last_name',
        'email',
        'phone',
        'adress',
        'postcode',
        'city',
        'created_at',
        'updated_at',
        'staff_edited',
      ],
      (name) => person(`customer.${name}`),
    ),
  },
  'public.responses': {
    about: 'A lead: what a visitor sent, contact details, consent and the office’s status.',
    personRows: `t.id = any (${personLeads})`,
    columns: {
      ...all(
        [
          'id',
          'client_id',
          'form_id',
          'user_id',
          'source',
          'first_name',
          'last_name',
          'email',
          'phone',
          'adress',
          'postcode',
          'city',
          'salutation',
          'title',
          'birthdate',
          'call_time',
          'existing_customer',
          'message',
          'offer_info',
          'terms_accepted',
          'data_processing_consent',
          'consent_version',
          'create_date',
          'changed_date',
          'create_user',
          'changed_user',
          'captured_at',
          'received_at',
          'cookie_consent',
          'cookie_consent_version',
          'channel',
          'questionnaire_id',
          'waited_offline',
          'status',
        ],
        (name) => person(`leads[].${name}`),
      ),
      payload_hash: {
        holds: 'person',
        export: null,
        why: 'SHA-256 of the request that brought the lead, to tell a resend from a conflict: nothing readable, every value it stands for is exported',
      },
    },
  },
  'public.answers': {
    about: 'One answer of a lead to one question.',
    personRows: `t.response_id = any (${personLeads})`,
    columns: {
      id,
      response_id: none('the lead (exported with its answers)'),
      question_id: person('leads[].answers[].question_id'),
      answer: person('leads[].answers[].answer'),
      created_at: person('leads[].answers[].created_at'),
      question_text: none('the question as it was asked: the questionnaire’s text'),
    },
  },
  'public.lead_status_changes': {
    about: 'A lead’s status history (“Verlauf”), with the note staff wrote.',
    personRows: `t.response_id = any (${personLeads})`,
    columns: {
      id,
      response_id: none('the lead'),
      status: person('leads[].status_history[].status'),
      note: person('leads[].status_history[].note'),
      changed_by: staff,
      changed_at: person('leads[].status_history[].at'),
    },
  },
  'public.lead_mail_outbox': {
    about: 'The new-lead mail to the agency about a lead (queue and record of sending).',
    personRows: `t.response_id = any (${personLeads})`,
    columns: {
      id,
      response_id: none('the lead'),
      kind: person('leads[].notification_mails[].kind'),
      state: person('leads[].notification_mails[].state'),
      sent_at: person('leads[].notification_mails[].sent_at'),
      created_at: person('leads[].notification_mails[].created_at'),
      idempotency_key: none('a random key against sending twice'),
      digest_key: none('the digest a mail belongs to (a date and an address of the agency)'),
      attempts: none('delivery bookkeeping'),
      next_attempt_at: none('delivery bookkeeping'),
      last_error: none('the mail server’s short error code; the mail goes to the agency'),
    },
  },
  'public.customer_notes': {
    about: 'A note staff keep about a customer.',
    personRows: 't.customer_id = $1',
    columns: {
      id,
      customer_id: none('the customer'),
      author: staff,
      body: person('notes[].note'),
      created_at: person('notes[].created_at'),
      updated_at: person('notes[].updated_at'),
    },
  },
  'public.follow_ups': {
    about: 'A follow-up (callback, reminder) about a customer, with its text.',
    personRows: 't.customer_id = $1',
    columns: {
      id,
      customer_id: none('the customer'),
      response_id: none('the lead it came from'),
      due_at: person('follow_ups[].due_at'),
      assignee: staff,
      body: person('follow_ups[].text'),
      automatic: person('follow_ups[].automatic'),
      created_by: staff,
      created_at: person('follow_ups[].created_at'),
      done_at: person('follow_ups[].done_at'),
      done_by: staff,
    },
  },
  'public.customer_summary': {
    about:
      'What the customer list shows of a customer’s newest lead and next follow-up, kept by triggers.',
    personRows: 't.customer_id = $1',
    columns: {
      customer_id: none('the customer'),
      ...all(
        [
          'last_lead_at',
          'lead_source',
          'lead_channel',
          'questionnaire_id',
          'lead_status',
          'next_follow_up_at',
        ],
        () => ({
          holds: 'person',
          export: null,
          why: 'a copy of the newest lead’s and the next follow-up’s values, which the export holds (leads[], follow_ups[])',
        }),
      ),
    },
  },
  'public.follow_up_changes': {
    about:
      'One change of a follow-up (text, assignee, due time, done, reopened), with who and when.',
    personRows: 't.follow_up_id in (select f.id from public.follow_ups f where f.customer_id = $1)',
    columns: {
      id,
      follow_up_id: none('the follow-up'),
      kind: person('follow_ups[].changes[].kind'),
      changed_by: staff,
      changed_at: person('follow_ups[].changes[].at'),
      changed_fields: person('follow_ups[].changes[].fields'),
      body_before: person('follow_ups[].changes[].text_before'),
      body_after: person('follow_ups[].changes[].text_after'),
      assignee_before: staff,
      assignee_after: staff,
      due_before: person('follow_ups[].changes[].due_before'),
      due_after: person('follow_ups[].changes[].due_after'),
    },
  },
  'public.retention_holds': {
    about: 'Keeps a customer past the retention period (a documented contract), with a reason.',
    personRows: 't.customer_id = $1',
    columns: {
      id,
      customer_id: none('the customer'),
      reason: person('retention_holds[].reason'),
      until: person('retention_holds[].until'),
      created_by: staff,
      created_at: person('retention_holds[].created_at'),
    },
  },
  'public.consent_records': {
    about:
      'Proof of a consent to offers whose lead is gone (§ 7a UWG): hashes, no name or address.',
    personRows: `t.email_sha256 = public.contact_sha256((select u.email from public.users u where u.id = $1))`,
    columns: {
      id,
      ...all(
        [
          'client_id',
          'email_sha256',
          'phone_sha256',
          'form_id',
          'source',
          'consent_version',
          'offer_info',
          'terms_accepted',
          'data_processing_consent',
          'cookie_consent',
          'cookie_consent_version',
          'given_at',
          'lead_deleted_at',
          'keep_until',
        ],
        (name) => person(`consent_records[].${name}`),
      ),
    },
  },
  'public.access_log': {
    about: 'Who read, changed, searched, exported or erased which customer, and when.',
    personRows: 't.customer_id = $1',
    columns: {
      id,
      at: person('access_log[].at'),
      user_id: staff,
      staff_email: staff,
      action: person('access_log[].action'),
      customer_id: none('the customer number; stays as proof after an erasure and names nobody'),
      detail: {
        holds: 'mentions',
        export: null,
        why: 'changed column names, counts, or a search term staff typed: a term naming the person is redacted by erasure and retention',
      },
    },
  },
  'public.support_messages': {
    about: 'A message from a staff account to the admins; its text may name a customer.',
    columns: {
      id,
      user_id: staff,
      name: staff,
      email: staff,
      message: {
        holds: 'mentions',
        export: 'support_messages[].message',
        why: 'exported when it names the person; their name, address and phone number are redacted by erasure and retention',
      },
      created_at: none(),
      read_at: none(),
      read_by: staff,
      done_at: none(),
      done_by: staff,
    },
  },
  'public.export_log': {
    about: 'The record of every export: who, when, which filter, how many rows.',
    columns: {
      id,
      user_id: staff,
      email: staff,
      created_at: none(),
      scope: none(),
      format: none(),
      filter: {
        holds: 'mentions',
        export: null,
        why: 'days, questionnaire and a customer search term: a term naming the person is redacted by erasure and retention',
      },
      row_count: none(),
      rows_written: none(),
      finished_at: none(),
      cancelled: none(),
      rows_sent: none(),
    },
  },
  'public.erasures': {
    about: 'The record that an erasure happened: who, when, which customer number, counts.',
    columns: {
      id,
      at: none(),
      user_id: staff,
      staff_email: staff,
      customer_id: none('the number of an erased customer; names nobody'),
      counts: none('numbers only'),
    },
  },

  // ---- public: figures, questionnaires, settings ---------------------------------------------
  'public.analysis_daily_answers': {
    about:
      'Answers counted per day, question, source and channel: options, other, answered, birth decades, empty. Never a typed text.',
    columns: all(['question_id', 'day', 'source', 'channel', 'kind', 'value', 'n', 'shard'], () =>
      none('a count, or an option of the questionnaire, or a decade'),
    ),
  },
  'public.analysis_daily_leads': {
    about: 'Leads counted per day, form, source and channel.',
    columns: all(
      [
        'day',
        'form_id',
        'source',
        'channel',
        'leads',
        'offer_requests',
        'waited_1',
        'waited_2',
        'waited_3',
        'waited_4',
        'waited_5',
        'waited_6',
        'waited_7',
        'questionnaire_id',
        'shard',
      ],
      () => none('counts'),
    ),
  },
  'public.forms': {
    about: 'A questionnaire.',
    columns: all(['id', 'title', 'description', 'document', 'image', 'created_at'], () => none()),
  },
  'public.questions': {
    about: 'A question of a questionnaire.',
    columns: all(
      [
        'id',
        'form_id',
        'question',
        'type',
        'options',
        'required',
        'multipleAnswers',
        'sequence',
        'information',
        'custome_description',
        'created_at',
        'key',
        'analysis_bucket',
      ],
      () => none(),
    ),
  },
  'public.desk_settings': {
    about: 'The desk’s one row of settings.',
    columns: all(['id', 'staff_can_export', 'updated_at'], () => none()),
  },
  'public.lead_mail_settings': {
    about: 'Where and how the agency gets new-lead mail.',
    columns: {
      id,
      enabled: none(),
      address: staff,
      mode: none(),
      digest_hour: none(),
      digest_sent_on: none(),
      updated_at: none(),
      updated_by: staff,
    },
  },
  'public.retention_runs': {
    about: 'One real retention run: when, and how many items of each kind it removed.',
    columns: all(['id', 'as_of', 'started_at', 'finished_at', 'removed'], () => none()),
  },
  'public.retention_file_queue': {
    about: 'Uploaded questionnaire files a retention run gave up, waiting for removal.',
    columns: all(['id', 'bucket_id', 'name', 'version', 'queued_at'], () => none()),
  },
  'public.request_counters': {
    about:
      'A shared request limit or sign-in wait: which limit, a keyed hash of the client or address, hits and times.',
    columns: {
      scope: none('which limit'),
      key_hash: none('an HMAC of the client or address with the server secret, not reversible'),
      ...all(['hits', 'started_at', 'expires_at', 'blocked_until'], () => none()),
    },
  },
  'public.staff': {
    about: 'A Survey Desk account’s role and name.',
    columns: all(['user_id', 'email', 'role', 'created_at', 'display_name'], () => staff),
  },
  'public.staff_mail_outbox': {
    about: 'The mail to a Survey Desk account that an admin enabled (queue and record of sending).',
    columns: {
      id,
      user_id: staff,
      ...all(['state', 'attempts', 'next_attempt_at', 'sent_at', 'created_at'], () =>
        none('delivery bookkeeping'),
      ),
      last_error: none('the mail server’s short error code'),
    },
  },

  // ---- auth: Survey Desk accounts (the agency's people; visitors have none) -------------------
  'auth.users': {
    about: 'A Survey Desk account.',
    columns: all(
      [
        'id',
        'aud',
        'role',
        'email',
        'encrypted_password',
        'email_confirmed_at',
        'confirmation_token',
        'confirmation_sent_at',
        'last_sign_in_at',
        'raw_app_meta_data',
        'raw_user_meta_data',
        'created_at',
        'updated_at',
        'recovery_token',
        'recovery_sent_at',
      ],
      () => staff,
    ),
  },
  'auth.sessions': {
    about: 'A signed-in session of an account.',
    columns: all(
      [
        'id',
        'user_id',
        'created_at',
        'updated_at',
        'refreshed_at',
        'not_after',
        'aal',
        'amr_method',
      ],
      () => staff,
    ),
  },
  'auth.refresh_tokens': {
    about: 'A session’s refresh token.',
    columns: all(
      ['id', 'token', 'user_id', 'session_id', 'parent', 'revoked', 'created_at', 'updated_at'],
      () => staff,
    ),
  },

  // ---- storage: the questionnaires' documents and images (no file per person) ----------------
  'storage.buckets': {
    about: 'A storage bucket.',
    columns: all(
      [
        'id',
        'name',
        'owner',
        'owner_id',
        'public',
        'avif_autodetection',
        'file_size_limit',
        'allowed_mime_types',
        'created_at',
        'updated_at',
      ],
      () => none(),
    ),
  },
  'storage.objects': {
    about: 'An uploaded questionnaire document or image.',
    columns: {
      ...all(
        [
          'id',
          'bucket_id',
          'name',
          'created_at',
          'updated_at',
          'last_accessed_at',
          'metadata',
          'user_metadata',
          'path_tokens',
          'version',
        ],
        () => none(),
      ),
      owner: staff,
      owner_id: staff,
    },
  },

  // ---- supabase_migrations: the schema's history ----------------------------------------------
  'supabase_migrations.schema_migrations': {
    about: 'An applied migration: its version, name and statements.',
    columns: all(['version', 'statements', 'name'], () => none()),
  },
};
