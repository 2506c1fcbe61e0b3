-- Free text is personal data (issue 32, item 1). Plain SQL that `supabase db push` runs on a
-- hosted project as well: no superuser-only statements, every grant explicit.
--
-- 1. The Analyse counters kept every answer's trimmed text per day, question, source and channel
--    (analysis_daily_answers.answer): a free-text remark about a person's health, a child's
--    birth date, readable by any staff account and left behind by erasure and retention (which
--    keep the figures). Now a counter row holds a KIND and, for two kinds, a value that is never
--    the visitor's text:
--      option    a choice question's option (the questionnaire's own text), once per option
--                chosen: a multi-select answer counts for each option it contains;
--      other     a choice answer that matched no option when it was given (value '');
--      answered  any answer that is not empty (value ''): all an input question contributes;
--      decade    input questions marked questions.analysis_bucket = 'birth_decade': the decade
--                of each year or date in the answer ('2010' for 2013-04-04), one per date (a
--                Tabaluga answer holds one date per child);
--      empty     an answer left empty (value '').
--    What an answer counts as is decided by analysis_answer_items() when it is stored, from the
--    question as it is then; the statement-level triggers of 20261127090000_batched_counters.sql
--    stay, now grouping by (kind, value).
-- 2. The counters stored so far are converted row by row with the same function, not counted
--    again from the answers: retention and erasure deleted leads whose counts must stay (figures
--    never move backwards), and a converted row is exactly what the new triggers would have
--    counted for each of its n answers (its text was already trimmed; the function only looks at
--    the text and the question).
-- 3. Erasure and retention leave no text of the person anywhere: both redact the person's address,
--    phone number and name (of the customer record and of each lead) in support messages, logged
--    search terms and export filters (forget_person_terms). Retention did none of it before.
-- 4. The person's export (Art. 15/20) also holds their retention holds, the mails' kind and
--    creation time and the record's staff_edited list: every column the personal-data map
--    (server/db/personal-data-map.ts) lists as the person's.

-- 1. Which input questions give a coarse bucket. Null: only "answered" is counted.
alter table public.questions
  add column analysis_bucket text check (analysis_bucket in ('birth_decade'));
comment on column public.questions.analysis_bucket is
  'How Analyse groups an input question''s answers besides counting them: ''birth_decade'' (the decade of each year or date given), or null (only how many answered). Never the text itself.';
-- The seeded birth questions (supabase/seed.sql sets them on a fresh database): Tabaluga's
-- children's birth dates and PKV's year of birth.
update public.questions
   set analysis_bucket = 'birth_decade'
 where type = 'input'
   and (key = 'tabaluga_child_dates'
        or (form_id = 2 and question = 'In welchem Jahr sind Sie geboren?'));

-- What one answer counts as (see above): rows of (kind, value, n). Pure: the same answer to the
-- same question always counts the same, so the counters can be compared with a recount. Options
-- match as the Analyse screen matched them before: the whole trimmed answer, or for a
-- multi-select question an option between ', ' separators. Without `set search_path` (every
-- name is a built-in), so that PostgreSQL inlines it into the triggers' one statement.
create function public.analysis_answer_items(
  question_type text,
  multi boolean,
  options jsonb,
  bucket text,
  answer text
) returns table (kind text, value text, n integer)
language sql immutable parallel safe
as $$
  with given as (
    select btrim(coalesce(answer, '')) as a
  ),
  -- Options are an object keyed '1', '2', ... (questions_options_check).
  option_texts as (
    select distinct o.value as option
      from jsonb_each_text(case when jsonb_typeof(options) = 'object' then options
                                else '{}'::jsonb end) o
  ),
  chosen as (
    select t.option
      from given g, option_texts t
     where question_type = 'multiple-choice'
       and g.a <> ''
       and t.option <> ''
       and (g.a = t.option
            or (multi and strpos(', ' || g.a || ', ', ', ' || t.option || ', ') > 0))
  ),
  years as (
    select case when p ~ '^[0-9]{4}$' then p
                when p ~ '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}$' then left(p, 4)
                when p ~ '^[0-9]{1,2}\.[0-9]{1,2}\.[0-9]{4}$' then right(p, 4) end as year
      from given g, string_to_table(g.a, ',') s, btrim(s) p
     where bucket = 'birth_decade' and g.a <> ''
  )
  select 'empty'::text, ''::text, 1 from given g where g.a = ''
  union all
  select 'answered', '', 1 from given g where g.a <> ''
  union all
  select 'option', c.option, 1 from chosen c
  union all
  select 'other', '', 1
    from given g
   where question_type = 'multiple-choice' and g.a <> '' and not exists (select from chosen)
  union all
  select 'decade', left(y.year, 3) || '0', count(*)::integer
    from years y
   where y.year between '1900' and '2099'
   group by 2
$$;
revoke execute on function public.analysis_answer_items(text, boolean, jsonb, text, text)
  from public, anon;
grant execute on function public.analysis_answer_items(text, boolean, jsonb, text, text)
  to authenticated, service_role;

-- 2. The counters: (kind, value) instead of the text, converted in place (grants, policies and
-- the foreign key stay).
alter table public.analysis_daily_answers
  add column kind text,
  add column value text;
drop index public.analysis_daily_answers_key;
alter table public.analysis_daily_answers alter column answer drop not null;

with old as (
  delete from public.analysis_daily_answers d
   where d.answer is not null
  returning d.question_id, d.day, d.source, d.channel, d.answer, d.n
)
insert into public.analysis_daily_answers (question_id, day, source, channel, kind, value, n)
select o.question_id, o.day, o.source, o.channel, i.kind, i.value, sum(o.n * i.n)::integer
  from old o
  join public.questions q on q.id = o.question_id
  cross join lateral public.analysis_answer_items(
    q.type, q."multipleAnswers", q.options, q.analysis_bucket, o.answer) i
 group by 1, 2, 3, 4, 5, 6
having sum(o.n * i.n) <> 0;

alter table public.analysis_daily_answers drop column answer;
alter table public.analysis_daily_answers
  alter column kind set not null,
  alter column value set not null,
  add constraint analysis_daily_answers_kind_check
    check (kind in ('option', 'other', 'answered', 'decade', 'empty')),
  -- Only an option carries a text, and it is the questionnaire's: nothing a visitor typed.
  add constraint analysis_daily_answers_value_check
    check (kind = 'option' or (kind = 'decade' and value ~ '^[0-9]{3}0$') or value = '');
-- Keyed by the value's md5: an option's text is the agent's and may be long.
create unique index analysis_daily_answers_key
  on public.analysis_daily_answers (question_id, day, source, channel, kind, md5(value));
comment on table public.analysis_daily_answers is
  'Answers per Berlin day, question, source and channel, by kind (analysis_answer_items): options chosen, other, answered, birth decade, empty. Never the text a visitor typed.';

-- The triggers' functions, now counting analysis_answer_items of each answer.
create or replace function public.analysis_add_answer(
  answer_response_id integer,
  answer_question_id integer,
  answer_text text,
  sign integer
) returns void
language plpgsql security definer set search_path = ''
as $$
begin
  insert into public.analysis_daily_answers as d
    (question_id, day, source, channel, kind, value, n)
  select q.id, public.analysis_lead_day(r.captured_at, r.received_at), r.source, r.channel,
         i.kind, i.value, sign * i.n
    from public.responses r, public.questions q,
         public.analysis_answer_items(q.type, q."multipleAnswers", q.options, q.analysis_bucket,
                                      answer_text) i
   where r.id = answer_response_id and q.id = answer_question_id
  on conflict (question_id, day, source, channel, kind, md5(value))
    do update set n = d.n + excluded.n;
end;
$$;

create or replace function public.analysis_add_lead_answers(r public.responses, sign integer)
returns void
language plpgsql security definer set search_path = ''
as $$
begin
  insert into public.analysis_daily_answers as d
    (question_id, day, source, channel, kind, value, n)
  select a.question_id, public.analysis_lead_day(r.captured_at, r.received_at), r.source,
         r.channel, i.kind, i.value, sign * sum(i.n)
    from public.answers a
    join public.questions q on q.id = a.question_id
    cross join lateral public.analysis_answer_items(
      q.type, q."multipleAnswers", q.options, q.analysis_bucket, a.answer) i
   where a.response_id = r.id
   group by a.question_id, i.kind, i.value
  on conflict (question_id, day, source, channel, kind, md5(value))
    do update set n = d.n + excluded.n;
end;
$$;

create or replace function public.analysis_count_added_answers() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  insert into public.analysis_daily_answers as d
    (question_id, day, source, channel, kind, value, n)
  select a.question_id, public.analysis_lead_day(r.captured_at, r.received_at), r.source,
         r.channel, i.kind, i.value, sum(i.n)
    from added_answers a
    join public.responses r on r.id = a.response_id
    join public.questions q on q.id = a.question_id
    cross join lateral public.analysis_answer_items(
      q.type, q."multipleAnswers", q.options, q.analysis_bucket, a.answer) i
   group by 1, 2, 3, 4, 5, 6
  on conflict (question_id, day, source, channel, kind, md5(value))
    do update set n = d.n + excluded.n;
  return null;
end;
$$;

create or replace function public.analysis_count_removed_answers() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if public.keeping_figures() then
    return null;
  end if;
  insert into public.analysis_daily_answers as d
    (question_id, day, source, channel, kind, value, n)
  select a.question_id, public.analysis_lead_day(r.captured_at, r.received_at), r.source,
         r.channel, i.kind, i.value, -sum(i.n)
    from removed_answers a
    join public.responses r on r.id = a.response_id
    -- A question deleted in the same statement took its counters along.
    join public.questions q on q.id = a.question_id
    cross join lateral public.analysis_answer_items(
      q.type, q."multipleAnswers", q.options, q.analysis_bucket, a.answer) i
   group by 1, 2, 3, 4, 5, 6
  on conflict (question_id, day, source, channel, kind, md5(value))
    do update set n = d.n + excluded.n;
  return null;
end;
$$;

revoke execute on function
  public.analysis_add_answer(integer, integer, text, integer),
  public.analysis_add_lead_answers(public.responses, integer),
  public.analysis_count_added_answers(), public.analysis_count_removed_answers()
  from public, anon, authenticated;

-- The answers of one questionnaire's leads, per question in the questionnaire's order:
--   option    every current option of a choice question with how often it was chosen (0 too);
--   other     choice questions: answers that matched no option, and choices of options renamed
--             or removed since (value null: never the text);
--   answered  input questions: how many answered (value null);
--   decade    input questions with analysis_bucket 'birth_decade': per decade ('1980' for
--             1980-1989) how many years or dates fell in it;
--   empty     answers left empty (value '').
-- An answer counts where its lead's questionnaire (lead_questionnaire_id of its source and its
-- question's form) is the one asked for.
create or replace function public.analysis_answer_distribution(
  day_from date,
  day_to date,
  questionnaire_id integer,
  lead_channel text default null
) returns table (question_id integer, kind text, value text, n bigint)
language plpgsql stable security invoker set search_path = ''
as $$
begin
  if questionnaire_id is null then
    raise exception 'questionnaire_id is required' using errcode = '22023';
  end if;
  return query
    with qs as (
      select q.id, q.form_id, q.sequence, q.type = 'multiple-choice' as choice, q.options
        from public.questions q
       where q.form_id = analysis_answer_distribution.questionnaire_id
    ),
    counts as (
      select d.question_id as qid, d.kind, d.value, sum(d.n)::bigint as n
        from public.analysis_daily_answers d
        join qs on qs.id = d.question_id
       where public.lead_questionnaire_id(d.source, qs.form_id)
               = analysis_answer_distribution.questionnaire_id
         and d.day >= coalesce(day_from, '-infinity')
         and d.day <= coalesce(day_to, 'infinity')
         and (lead_channel is null or d.channel = lead_channel)
       group by 1, 2, 3
      having sum(d.n) > 0
    ),
    opts as (
      select qs.id as qid, o.value as option,
             min(case when o.key ~ '^[0-9]{1,9}$' then o.key::integer end) as ord, min(o.key) as key
        from qs, jsonb_each_text(case when jsonb_typeof(qs.options) = 'object' then qs.options
                                      else '{}'::jsonb end) o
       where qs.choice and o.value <> ''
       group by 1, 2
    ),
    option_rows as (
      select o.qid, 'option'::text as kind, o.option as value, coalesce(c.n, 0)::bigint as n,
             row_number() over (partition by o.qid order by o.ord nulls last, o.key) as pos
        from opts o
        left join counts c on c.qid = o.qid and c.kind = 'option' and c.value = o.option
    ),
    other_rows as (
      select c.qid, 'other'::text as kind, null::text as value, sum(c.n)::bigint as n,
             1000::bigint as pos
        from counts c
        join qs on qs.id = c.qid
       where qs.choice
         and (c.kind = 'other'
              or (c.kind = 'option'
                  and not exists (select from opts o where o.qid = c.qid and o.option = c.value)))
       group by c.qid
    ),
    answered_rows as (
      select c.qid, 'answered'::text, null::text, c.n, 0::bigint
        from counts c
        join qs on qs.id = c.qid
       where not qs.choice and c.kind = 'answered'
    ),
    decade_rows as (
      select c.qid, 'decade'::text, c.value, c.n, 1::bigint
        from counts c
        join qs on qs.id = c.qid
       where not qs.choice and c.kind = 'decade'
    ),
    empty_rows as (
      select c.qid, 'empty'::text, ''::text, c.n, 100000::bigint
        from counts c
       where c.kind = 'empty'
    ),
    all_rows as (
      select * from option_rows
      union all select * from other_rows
      union all select * from answered_rows
      union all select * from decade_rows
      union all select * from empty_rows
    )
    select r.qid, r.kind, r.value, r.n
      from all_rows r
      join qs on qs.id = r.qid
     order by qs.sequence, qs.id, r.pos, r.value;
end;
$$;
revoke execute on function public.analysis_answer_distribution(date, date, integer, text)
  from public, anon;
grant execute on function public.analysis_answer_distribution(date, date, integer, text)
  to authenticated, service_role;

-- 3. The person's identifiers redacted wherever staff may have written them: support messages
-- (the text), logged search terms (access_log.detail's term) and export filters
-- (export_log.filter's customer_search). For erasure and retention alike; `terms` as
-- person_terms gives them. Returns how many of each were redacted.
create function public.forget_person_terms(terms text[]) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  messages_count bigint := 0;
  terms_count bigint := 0;
  exports_count bigint := 0;
begin
  if coalesce(cardinality(terms), 0) > 0 then
    update public.support_messages m set message = public.redact_terms(m.message, terms)
     where exists (select 1 from unnest(terms) t where strpos(lower(m.message), t) > 0);
    get diagnostics messages_count = row_count;

    update public.access_log l
       set detail = (l.detail - 'term') || '{"term_redacted": true}'::jsonb
     where l.detail ? 'term' and public.term_names_person(l.detail ->> 'term', terms);
    get diagnostics terms_count = row_count;

    update public.export_log e
       set filter = (e.filter - 'customer_search') || '{"customer_search_redacted": true}'::jsonb
     where e.filter ? 'customer_search'
       and public.term_names_person(e.filter ->> 'customer_search', terms);
    get diagnostics exports_count = row_count;
  end if;
  return jsonb_build_object(
    'support_messages_redacted', messages_count,
    'search_terms_redacted', terms_count,
    'export_filters_redacted', exports_count);
end;
$$;
revoke execute on function public.forget_person_terms(text[]) from public, anon, authenticated;

-- A person's terms: the customer record's and those of each of their leads (a lead typed with
-- another spelling of the name or another phone number still names them). Plain arguments, as
-- person_terms takes them.
create function public.person_and_lead_terms(
  email text,
  phone text,
  first_name text,
  last_name text,
  lead_ids integer[]
) returns text[]
language sql stable security definer set search_path = ''
as $$
  select coalesce(array_agg(distinct x.t), '{}')
    from (
      select unnest(public.person_terms(person_and_lead_terms.email, person_and_lead_terms.phone,
                                        person_and_lead_terms.first_name,
                                        person_and_lead_terms.last_name)) as t
      union all
      select unnest(public.person_terms(r.email, r.phone, r.first_name, r.last_name))
        from public.responses r
       where r.id = any (lead_ids)
    ) x
$$;
revoke execute on function public.person_and_lead_terms(text, text, text, text, integer[])
  from public, anon, authenticated;

-- 4. Everything stored about one customer, as one JSON document (Art. 15 and 20), as in
-- 20261126150000_office_work_privacy.sql, now also with the record's staff_edited list, each
-- mail's kind and creation time, each answer's question id and time, and the retention holds.
create or replace function public.customer_data_export(customer_id integer) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  person public.users;
  terms text[];
  result jsonb;
begin
  if not public.can_export() then
    raise exception 'Keine Berechtigung' using errcode = '42501';
  end if;
  select * into person from public.users u where u.id = customer_data_export.customer_id;
  if not found then
    raise exception 'Kunde nicht gefunden' using errcode = 'P0002';
  end if;
  terms := public.person_terms(person.email, person.phone, person.first_name, person.last_name);
  select jsonb_build_object(
    'exported_at', now(),
    'customer', to_jsonb(person),
    'leads', coalesce((
      select jsonb_agg(to_jsonb(r) - 'payload_hash'
                       || jsonb_build_object(
                            'form_title', (select f.title from public.forms f where f.id = r.form_id),
                            'answers', coalesce((
                              select jsonb_agg(jsonb_build_object(
                                       'question_id', a.question_id,
                                       'question', coalesce(q.question, a.question_text),
                                       'answer', a.answer,
                                       'created_at', a.created_at)
                                       order by q.sequence nulls last, a.id)
                                from public.answers a
                                left join public.questions q on q.id = a.question_id
                               where a.response_id = r.id), '[]'::jsonb),
                            'status_history', coalesce((
                              select jsonb_agg(jsonb_build_object(
                                       'status', c.status, 'note', c.note, 'at', c.changed_at)
                                       order by c.changed_at, c.id)
                                from public.lead_status_changes c
                               where c.response_id = r.id), '[]'::jsonb),
                            'notification_mails', coalesce((
                              select jsonb_agg(jsonb_build_object(
                                       'kind', m.kind, 'state', m.state,
                                       'created_at', m.created_at, 'sent_at', m.sent_at)
                                       order by m.id)
                                from public.lead_mail_outbox m
                               where m.response_id = r.id), '[]'::jsonb))
                       order by r.received_at, r.id)
        from public.responses r
       where r.id = any (public.person_lead_ids(person.id, person.email))), '[]'::jsonb),
    'notes', coalesce((
      select jsonb_agg(jsonb_build_object(
               'created_at', n.created_at, 'updated_at', n.updated_at, 'note', n.body)
               order by n.created_at, n.id)
        from public.customer_notes n where n.customer_id = person.id), '[]'::jsonb),
    'follow_ups', coalesce((
      select jsonb_agg(jsonb_build_object(
               'due_at', f.due_at, 'text', f.body, 'automatic', f.automatic,
               'created_at', f.created_at, 'done_at', f.done_at)
               order by f.due_at, f.id)
        from public.follow_ups f where f.customer_id = person.id), '[]'::jsonb),
    'retention_holds', coalesce((
      select jsonb_agg(jsonb_build_object(
               'reason', h.reason, 'until', h.until, 'created_at', h.created_at)
               order by h.created_at, h.id)
        from public.retention_holds h where h.customer_id = person.id), '[]'::jsonb),
    'consent_records', coalesce((
      select jsonb_agg(to_jsonb(c) - 'id' order by c.given_at)
        from public.consent_records c
       where c.email_sha256 = public.contact_sha256(person.email)), '[]'::jsonb),
    'support_messages', coalesce((
      select jsonb_agg(jsonb_build_object('created_at', m.created_at, 'message', m.message)
                       order by m.created_at)
        from public.support_messages m
       where exists (select 1 from unnest(terms) t where strpos(lower(m.message), t) > 0)),
      '[]'::jsonb),
    'access_log', coalesce((
      select jsonb_agg(jsonb_build_object('at', l.at, 'action', l.action) order by l.at, l.id)
        from public.access_log l where l.customer_id = person.id), '[]'::jsonb)
  ) into result;
  perform public.log_access('customer_exported', person.id);
  return result;
end;
$$;
revoke execute on function public.customer_data_export(integer) from public, anon;
grant execute on function public.customer_data_export(integer) to authenticated, service_role;

-- Erases a customer (Art. 17) as in 20261126150000_office_work_privacy.sql; the redaction now
-- covers the terms of each of the person's leads too (forget_person_terms).
create or replace function public.erase_customer(customer_id integer) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  person public.users;
  terms text[];
  lead_ids integer[];
  counts jsonb;
  answers_count bigint;
  mails_count bigint;
  notes_count bigint;
  follow_ups_count bigint;
  status_count bigint;
  redacted jsonb;
  kept bigint;
  leads_count integer;
begin
  perform public.require_staff(true);
  select * into person from public.users u where u.id = erase_customer.customer_id for update;
  if not found then
    raise exception 'Kunde nicht gefunden' using errcode = 'P0002';
  end if;
  lead_ids := public.person_lead_ids(person.id, person.email);
  terms := public.person_and_lead_terms(person.email, person.phone, person.first_name,
                                        person.last_name, lead_ids);
  select count(*) into answers_count from public.answers a where a.response_id = any (lead_ids);
  select count(*) into kept from public.responses r where r.id = any (lead_ids) and r.offer_info;
  select count(*) into mails_count from public.lead_mail_outbox m
   where m.response_id = any (lead_ids) and m.state = 'pending';
  select count(*) into notes_count from public.customer_notes n where n.customer_id = person.id;
  select count(*) into follow_ups_count from public.follow_ups f where f.customer_id = person.id;
  select count(*) into status_count from public.lead_status_changes c
   where c.response_id = any (lead_ids);

  leads_count := public.delete_leads_keeping_proof(lead_ids, now());
  redacted := public.forget_person_terms(terms);

  perform set_config('app.erasing', 'on', true);
  delete from public.users u where u.id = person.id;
  perform set_config('app.erasing', 'off', true);

  counts := jsonb_build_object(
    'leads', leads_count, 'answers', answers_count, 'files', 0, 'mails_waiting', mails_count,
    'notes', notes_count, 'follow_ups', follow_ups_count, 'status_changes', status_count,
    'consent_records_kept', kept) || redacted;
  insert into public.erasures (user_id, staff_email, customer_id, counts)
  values (auth.uid(), (select s.email from public.staff s where s.user_id = auth.uid()),
          person.id, counts);
  perform public.log_access('customer_erased', person.id, counts);
  return counts;
end;
$$;
revoke execute on function public.erase_customer(integer) from public, anon;
grant execute on function public.erase_customer(integer) to authenticated, service_role;

-- 3. Retention as in 20261125170000_retention.sql; a run now also redacts the address, phone
-- number and name of every customer and lead it removes in support messages, logged search
-- terms and export filters, as an erasure does (the log's own entries older than a year go as
-- before).
create or replace function public.apply_retention(
  p_now timestamptz default now(),
  p_dry_run boolean default true
)
returns table (kind text, items integer, oldest timestamptz)
language plpgsql volatile security definer set search_path = ''
as $$
#variable_conflict use_column
declare
  contact_cutoff timestamptz := p_now - interval '5 years';
  file_cutoff timestamptz := p_now - interval '30 days';
  log_cutoff timestamptz := p_now - interval '1 year';
  berlin_day date := (p_now at time zone 'Europe/Berlin')::date;
  customer_ids integer[];
  lead_ids integer[];
  file_ids uuid[];
  public_path constant text := '/object/public/documents/';
  run_id bigint;
  result jsonb;
  forgotten text[];
begin
  -- Admins may look; only the service role, pg_cron and the server (no API role) remove.
  if auth.role() is not null and not public.may_run_retention() then
    raise exception 'Nur Admins sehen, was die Aufbewahrung löscht.' using errcode = '42501';
  end if;
  if not p_dry_run and auth.role() is not null and auth.role() <> 'service_role' then
    raise exception 'Löschen nach Aufbewahrungsfrist darf nur der Server.' using errcode = '42501';
  end if;
  -- One run at a time; a dry run waits for a real one and then sees what is left.
  perform pg_advisory_xact_lock(hashtext('public.apply_retention'));

  select coalesce(array_agg(u.id), '{}') into customer_ids
    from public.users u
   where greatest(u.created_at,
                  (select max(r.received_at) from public.responses r where r.user_id = u.id))
         < contact_cutoff
     and not exists (select 1 from public.retention_holds h
                      where h.customer_id = u.id and (h.until is null or h.until >= berlin_day));

  select coalesce(array_agg(r.id), '{}') into lead_ids
    from public.responses r
   where r.user_id = any (customer_ids)
      or (r.user_id is null and r.received_at < contact_cutoff);

  -- A file is named by forms.document (its object name) or forms.image (its public address).
  select coalesce(array_agg(o.id), '{}') into file_ids
    from storage.objects o
   where o.bucket_id = 'documents'
     and coalesce(o.updated_at, o.created_at) < file_cutoff
     and not exists (
       select 1 from public.forms f
        where f.document = o.name
           or right(f.image, length(public_path || o.name)) = public_path || o.name);

  -- Counted before anything is removed, so the real run reports what the dry run lists.
  select jsonb_agg(jsonb_build_object('kind', k.kind, 'items', k.items, 'oldest', k.oldest)
                   order by k.position)
    into result
    from (
      select 1 as position, 'leads' as kind, count(*)::integer as items,
             min(r.received_at) as oldest
        from public.responses r where r.id = any (lead_ids)
      union all
      select 2, 'answers', count(*)::integer, min(a.created_at)
        from public.answers a where a.response_id = any (lead_ids)
      union all
      select 3, 'customers', count(*)::integer,
             min(greatest(u.created_at,
                          (select max(r.received_at) from public.responses r
                            where r.user_id = u.id)))
        from public.users u where u.id = any (customer_ids)
      union all
      select 4, 'consent_records', count(*)::integer, min(c.lead_deleted_at)
        from public.consent_records c where c.keep_until <= p_now
      union all
      select 5, 'files', count(*)::integer, min(coalesce(o.updated_at, o.created_at))
        from storage.objects o where o.id = any (file_ids)
      union all
      select 6, 'access_log', count(*)::integer, min(l.at)
        from public.access_log l where l.at < log_cutoff
    ) k;

  if not p_dry_run then
    insert into public.retention_runs (as_of) values (p_now) returning id into run_id;

    -- The people who go: their address, phone number and name as the customer record and each
    -- lead has them, to redact wherever staff wrote them (forget_person_terms).
    select coalesce(array_agg(distinct x.t), '{}') into forgotten
      from (select unnest(public.person_terms(u.email, u.phone, u.first_name, u.last_name)) as t
              from public.users u where u.id = any (customer_ids)
            union all
            select unnest(public.person_terms(r.email, r.phone, r.first_name, r.last_name))
              from public.responses r where r.id = any (lead_ids)) x;
    -- Proof whose own period has ended first: the proof left by today's leads starts its five
    -- years now.
    delete from public.consent_records c where c.keep_until <= p_now;
    perform public.delete_leads_keeping_proof(lead_ids, p_now);
    delete from public.users u where u.id = any (customer_ids);
    perform public.forget_person_terms(forgotten);

    insert into public.retention_file_queue (bucket_id, name, version)
    select o.bucket_id, o.name, o.version from storage.objects o where o.id = any (file_ids)
    on conflict (bucket_id, name) do update set version = excluded.version;
    -- Only the local gateway's emulation (it has no storage.migrations) may lose the rows here:
    -- hosted Storage keeps the file's body apart and must remove both through its API.
    if to_regclass('storage.migrations') is null then
      delete from storage.objects o where o.id = any (file_ids);
    end if;

    delete from public.access_log l where l.at < log_cutoff;

    update public.retention_runs
       set finished_at = clock_timestamp(),
           removed = (select jsonb_object_agg(e ->> 'kind', (e ->> 'items')::integer)
                        from jsonb_array_elements(result) e)
     where id = run_id;
  end if;

  return query
    select e.kind, e.items, e.oldest
      from rows from (jsonb_to_recordset(result) as (kind text, items integer, oldest timestamptz))
           with ordinality as e(kind, items, oldest, n)
     order by e.n;
end;
$$;
revoke execute on function public.apply_retention(timestamptz, boolean) from public, anon;
grant execute on function public.apply_retention(timestamptz, boolean)
  to authenticated, service_role;
