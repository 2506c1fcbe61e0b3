-- Analysis and export for Survey Desk. Plain SQL that `supabase db push` runs on a hosted project as
-- well: no superuser-only statements, every grant explicit.
--
-- 1. Aggregations. The Analyse screen calls these through PostgREST (`supabase.rpc(...)`); the
-- database groups and counts, the browser never downloads rows to count them. Security invoker:
-- row-level security on responses and answers decides, so a pending account counts nothing and
-- anon may not call them at all.
--
-- Every function takes the same filter:
--   day_from, day_to    Berlin calendar days, both inclusive (null: open-ended). The agent's day
--                       ends at midnight in Germany, not in UTC.
--   questionnaire_id    null: every lead, KFZ callbacks and contact requests included (they are
--                       stored under form 1); a form id: the questionnaire leads of that form only.
--   lead_channel        null: both; 'web' (the website) or 'fair_tablet' (the tablet at a fair).
-- A lead's time is when the visitor sent it, captured_at (set on the device, so a lead queued offline
-- counts on the day of the fair), falling back to received_at.

create index responses_lead_at_idx
  on public.responses ((coalesce(captured_at, received_at)));

-- The selection. Deliberately without `set search_path` (every name is qualified instead): a SQL
-- function with a SET clause is never inlined, and inlined the planner sees the filter and can use
-- the index above instead of running the function as a black box.
create function public.analysis_leads(
  day_from date,
  day_to date,
  questionnaire_id integer,
  lead_channel text
) returns setof public.responses
language sql stable security invoker
as $$
  select r.*
    from public.responses r
   where (day_from is null
          or coalesce(r.captured_at, r.received_at)
             >= pg_catalog.timezone('Europe/Berlin', day_from::timestamp))
     and (day_to is null
          or coalesce(r.captured_at, r.received_at)
             < pg_catalog.timezone('Europe/Berlin', (day_to + 1)::timestamp))
     and (analysis_leads.questionnaire_id is null
          or (r.source = 'questionnaire' and r.form_id = analysis_leads.questionnaire_id))
     and (lead_channel is null or r.channel = lead_channel)
$$;

-- A lead "waited offline" when it arrived at least a minute after it was sent: an online send takes
-- seconds, so such a lead sat in the device's outbox (no connection, or 'Offline simulieren').

-- The key figures, one row.
create function public.analysis_overview(
  day_from date,
  day_to date,
  questionnaire_id integer default null,
  lead_channel text default null
) returns table (
  leads bigint,
  web_leads bigint,
  fair_tablet_leads bigint,
  questionnaire_leads bigint,
  kfz_leads bigint,
  contact_leads bigint,
  offer_requests bigint,
  offline_leads bigint,
  median_delay_seconds double precision,
  first_lead_at timestamptz,
  last_lead_at timestamptz,
  data_since timestamptz
)
language sql stable security invoker set search_path = ''
as $$
  select count(*),
         count(*) filter (where l.channel = 'web'),
         count(*) filter (where l.channel = 'fair_tablet'),
         count(*) filter (where l.source = 'questionnaire'),
         count(*) filter (where l.source = 'kfz'),
         count(*) filter (where l.source = 'contact'),
         count(*) filter (where l.source = 'questionnaire' and l.offer_info),
         count(*) filter (where l.received_at - l.captured_at >= interval '60 seconds'),
         percentile_cont(0.5) within group (
           order by extract(epoch from l.received_at - l.captured_at)::double precision
         ) filter (where l.received_at - l.captured_at >= interval '60 seconds'),
         min(coalesce(l.captured_at, l.received_at)),
         max(coalesce(l.captured_at, l.received_at)),
         -- Whether there is enough history at all (the spec's "about 30 days"), whatever the filter.
         (select min(coalesce(r.captured_at, r.received_at)) from public.responses r)
    from public.analysis_leads(day_from, day_to, questionnaire_id, lead_channel) l
$$;

-- Leads per Berlin day or ISO week (from Monday), by channel and kind of lead. Only non-empty
-- groups: the screen fills the gaps.
create function public.analysis_leads_over_time(
  day_from date,
  day_to date,
  questionnaire_id integer default null,
  lead_channel text default null,
  bucket text default 'day'
) returns table (period_start date, channel text, source text, leads bigint)
language plpgsql stable security invoker set search_path = ''
as $$
begin
  if bucket is null or bucket not in ('day', 'week') then
    raise exception 'bucket must be day or week' using errcode = '22023';
  end if;
  return query
    select date_trunc(bucket, pg_catalog.timezone('Europe/Berlin',
             coalesce(l.captured_at, l.received_at)))::date,
           l.channel, l.source, count(*)
      from public.analysis_leads(day_from, day_to, questionnaire_id, lead_channel) l
     group by 1, 2, 3
     order by 1, 2, 3;
end;
$$;

-- How the leads of one questionnaire answered each of its current questions.
--   option  a multiple-choice option, every option listed (n may be 0). A multi-select answer is
--           stored as its options joined with ', ' and counts for each option it contains.
--   other   multiple-choice: an answer matching no current option (an option renamed since), by
--           its text; input: the non-empty answers beyond the ten most frequent, value null.
--   value   input: one of its ten most frequent (trimmed) answers.
--   year    the Tabaluga children's birth dates: children per birth year.
--   empty   answers left empty (value '').
create function public.analysis_answer_distribution(
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
      select q.id, q.sequence, q.type, q."multipleAnswers" as multi, q.key, q.options
        from public.questions q
       where q.form_id = analysis_answer_distribution.questionnaire_id
    ),
    -- Counted once per distinct answer: the matching below then looks at a few hundred groups
    -- instead of every answer row.
    ans as (
      select a.question_id as qid, btrim(a.answer) as answer, count(*) as n
        from public.analysis_leads(day_from, day_to, questionnaire_id, lead_channel) l
        join public.answers a on a.response_id = l.id
       where a.question_id in (select qs.id from qs)
       group by 1, 2
    ),
    opts as (
      select qs.id as qid, qs.multi, o.value as option,
             case when o.key ~ '^[0-9]{1,9}$' then o.key::integer end as ord, o.key
        from qs, jsonb_each_text(qs.options) o
       where qs.type = 'multiple-choice'
    ),
    option_rows as (
      select o.qid, 'option'::text as kind, o.option as value, coalesce(sum(a.n), 0)::bigint as n,
             row_number() over (partition by o.qid order by o.ord nulls last, o.key) as pos
        from opts o
        left join ans a
          on a.qid = o.qid
         and (a.answer = o.option
              or (o.multi and strpos(', ' || a.answer || ', ', ', ' || o.option || ', ') > 0))
       group by o.qid, o.option, o.ord, o.key
    ),
    unmatched_rows as (
      select a.qid, 'other'::text as kind, a.answer as value, a.n,
             1000 + row_number() over (partition by a.qid order by a.n desc, a.answer) as pos
        from ans a
       where a.answer <> ''
         and a.qid in (select qs.id from qs where qs.type = 'multiple-choice')
         and not exists (
           select from opts o
            where o.qid = a.qid
              and (a.answer = o.option
                   or (o.multi and strpos(', ' || a.answer || ', ', ', ' || o.option || ', ') > 0)))
    ),
    input_values as (
      select a.qid, a.answer as value, a.n,
             row_number() over (partition by a.qid order by a.n desc, a.answer) as rank
        from ans a
       where a.answer <> ''
         and a.qid in (
           select qs.id from qs
            where qs.type = 'input' and qs.key is distinct from 'tabaluga_child_dates')
    ),
    value_rows as (
      select v.qid, 'value'::text as kind, v.value, v.n, v.rank as pos
        from input_values v where v.rank <= 10
      union all
      select v.qid, 'other', null, sum(v.n)::bigint, 1000
        from input_values v where v.rank > 10
       group by v.qid
    ),
    year_rows as (
      select a.qid, 'year'::text as kind, y.year as value, sum(a.n)::bigint as n,
             y.year::integer as pos
        from ans a
        cross join lateral (
          -- One date per child, as the date input gives it (2019-05-01); a typed German date
          -- (01.05.2019) is read too. LIKE rather than a regular expression: several times faster
          -- over tens of thousands of answers.
          select case when d like '____-__-__' then left(d, 4)
                      when d like '%_.%_.____' then right(d, 4) end as year
            from string_to_table(a.answer, ', ') d
        ) y
       where a.qid in (select qs.id from qs where qs.key = 'tabaluga_child_dates')
         and y.year ~ '^[0-9]{4}$'
       group by a.qid, y.year
    ),
    empty_rows as (
      select a.qid, 'empty'::text as kind, ''::text as value, a.n, 100000 as pos
        from ans a
       where a.answer = ''
    ),
    all_rows as (
      select * from option_rows
      union all select * from unmatched_rows
      union all select * from value_rows
      union all select * from year_rows
      union all select * from empty_rows
    )
    select r.qid, r.kind, r.value, r.n
      from all_rows r
      join qs on qs.id = r.qid
     order by qs.sequence, qs.id, r.pos, r.value;
end;
$$;

-- How long the leads that waited offline took from capture to arrival: every bucket, empty ones
-- with 0. The median is in analysis_overview.
create function public.analysis_offline_delay(
  day_from date,
  day_to date,
  questionnaire_id integer default null,
  lead_channel text default null
) returns table (lower_seconds integer, upper_seconds integer, n bigint)
language sql stable security invoker set search_path = ''
as $$
  with buckets (lower_seconds, upper_seconds) as (
    values (60, 300), (300, 1800), (1800, 7200), (7200, 21600), (21600, 86400),
           (86400, 259200), (259200, null::integer)
  ),
  delays as (
    select extract(epoch from l.received_at - l.captured_at) as seconds
      from public.analysis_leads(day_from, day_to, questionnaire_id, lead_channel) l
     where l.received_at - l.captured_at >= interval '60 seconds'
  )
  select b.lower_seconds, b.upper_seconds, count(d.seconds)
    from buckets b
    left join delays d
      on d.seconds >= b.lower_seconds
     and (b.upper_seconds is null or d.seconds < b.upper_seconds)
   group by b.lower_seconds, b.upper_seconds
   order by b.lower_seconds
$$;

revoke execute on function
  public.analysis_leads(date, date, integer, text),
  public.analysis_overview(date, date, integer, text),
  public.analysis_leads_over_time(date, date, integer, text, text),
  public.analysis_answer_distribution(date, date, integer, text),
  public.analysis_offline_delay(date, date, integer, text)
  from public, anon;
grant execute on function
  public.analysis_leads(date, date, integer, text),
  public.analysis_overview(date, date, integer, text),
  public.analysis_leads_over_time(date, date, integer, text, text),
  public.analysis_answer_distribution(date, date, integer, text),
  public.analysis_offline_delay(date, date, integer, text)
  to authenticated, service_role;

-- 2. Export. Admins export; a setting lets staff export too. The right is checked by the database
-- (the functions below refuse with 42501, which PostgREST answers with 403), not only by hiding a
-- button, and every export is recorded for admins to read.

create table public.desk_settings (
  -- One row: the primary key can only be true.
  id boolean primary key default true check (id),
  staff_can_export boolean not null default false,
  updated_at timestamptz not null default now()
);
insert into public.desk_settings default values;

alter table public.desk_settings enable row level security;
create policy desk_settings_staff_read on public.desk_settings for select to authenticated
  using ((select public.is_staff()));
create policy desk_settings_admin_update on public.desk_settings for update to authenticated
  using ((select public.is_admin())) with check ((select public.is_admin()));

create function public.touch_desk_settings() returns trigger
language plpgsql set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end;
$$;
revoke execute on function public.touch_desk_settings() from public, anon, authenticated;
create trigger touch_desk_settings
  before update on public.desk_settings
  for each row execute function public.touch_desk_settings();

revoke all on public.desk_settings from anon, authenticated;
grant select on public.desk_settings to authenticated;
grant update (staff_can_export) on public.desk_settings to authenticated;
grant all on public.desk_settings to service_role;

create function public.can_export() returns boolean
language sql stable security definer set search_path = ''
as $$
  select (select public.is_admin())
      or ((select public.is_staff())
          and coalesce((select s.staff_can_export from public.desk_settings s where s.id), false))
$$;
revoke execute on function public.can_export() from public, anon;
grant execute on function public.can_export() to authenticated, service_role;

create table public.export_log (
  id bigint generated always as identity primary key,
  user_id uuid default auth.uid() references auth.users (id) on delete set null,
  email text,
  created_at timestamptz not null default now(),
  scope text not null check (scope in ('customers', 'analysis')),
  format text not null check (format in ('csv', 'xlsx')),
  filter jsonb not null,
  row_count integer not null,
  rows_written integer,
  finished_at timestamptz,
  cancelled boolean not null default false
);
create index export_log_created_idx on public.export_log (created_at desc, id desc);

alter table public.export_log enable row level security;
create policy export_log_admin_read on public.export_log for select to authenticated
  using ((select public.is_admin()));
-- Written only by the functions below (security definer), so nobody rewrites the record.
revoke all on public.export_log from anon, authenticated;
grant select on public.export_log to authenticated;
grant all on public.export_log to service_role;

-- The leads an export covers: the analysis filter plus the customers screen's search term
-- (matched as search_customers matches it).
create function public.export_leads(
  day_from date,
  day_to date,
  questionnaire_id integer,
  lead_channel text,
  customer_search text
) returns setof public.responses
language sql stable security invoker
as $$
  select l.*
    from public.analysis_leads(day_from, day_to, questionnaire_id, lead_channel) l
   where coalesce(btrim(customer_search), '') = ''
      or l.user_id in (select u.id from public.search_customers(btrim(customer_search)) u)
$$;
revoke execute on function public.export_leads(date, date, integer, text, text) from public, anon;
grant execute on function public.export_leads(date, date, integer, text, text)
  to authenticated, service_role;

create function public.refuse_export_unless_allowed() returns void
language plpgsql stable set search_path = ''
as $$
begin
  if not (select public.can_export()) then
    raise exception 'Export not allowed for this account' using errcode = '42501';
  end if;
end;
$$;
revoke execute on function public.refuse_export_unless_allowed() from public, anon;
grant execute on function public.refuse_export_unless_allowed() to authenticated, service_role;

-- Starts an export: checks the right, counts the rows (for the progress bar) and records it.
create function public.begin_export(
  export_scope text,
  export_format text,
  day_from date default null,
  day_to date default null,
  questionnaire_id integer default null,
  lead_channel text default null,
  customer_search text default null
) returns table (export_id bigint, row_count bigint)
language plpgsql volatile security definer set search_path = ''
as $$
declare
  total bigint;
  new_id bigint;
begin
  perform public.refuse_export_unless_allowed();
  select count(*) into total
    from public.export_leads(day_from, day_to, questionnaire_id, lead_channel, customer_search);
  insert into public.export_log (user_id, email, scope, format, filter, row_count)
  values (
    auth.uid(),
    (select s.email from public.staff s where s.user_id = auth.uid()),
    export_scope,
    export_format,
    jsonb_strip_nulls(jsonb_build_object(
      'day_from', day_from, 'day_to', day_to, 'questionnaire_id', questionnaire_id,
      'lead_channel', lead_channel, 'customer_search', nullif(btrim(customer_search), '')
    )),
    total
  )
  returning id into new_id;
  return query select new_id, total;
end;
$$;
revoke execute on function public.begin_export(text, text, date, date, integer, text, text)
  from public, anon;
grant execute on function public.begin_export(text, text, date, date, integer, text, text)
  to authenticated, service_role;

-- One page of an export: one row per lead, its answers as a list in question order. Keyset paging
-- by id (after_id) keeps every page as fast as the first.
create function public.export_responses(
  day_from date default null,
  day_to date default null,
  questionnaire_id integer default null,
  lead_channel text default null,
  customer_search text default null,
  after_id integer default 0,
  page_size integer default 1000
) returns table (
  response_id integer,
  lead_at timestamptz,
  captured_at timestamptz,
  received_at timestamptz,
  form_id integer,
  form_title text,
  source text,
  channel text,
  customer_id integer,
  salutation text,
  title text,
  first_name text,
  last_name text,
  email text,
  phone text,
  adress text,
  postcode text,
  city text,
  birthdate date,
  call_time text,
  existing_customer boolean,
  message text,
  offer_info boolean,
  terms_accepted boolean,
  data_processing_consent boolean,
  consent_version text,
  cookie_consent text,
  cookie_consent_version text,
  answers jsonb
)
language plpgsql stable security invoker set search_path = ''
as $$
begin
  perform public.refuse_export_unless_allowed();
  if page_size is null or page_size < 1 or page_size > 5000 then
    raise exception 'page_size must be between 1 and 5000' using errcode = '22023';
  end if;
  return query
    select l.id, coalesce(l.captured_at, l.received_at), l.captured_at, l.received_at, l.form_id,
           f.title, l.source, l.channel, l.user_id, l.salutation, l.title, l.first_name,
           l.last_name, l.email, l.phone, l.adress, l.postcode, l.city, l.birthdate, l.call_time,
           l.existing_customer, l.message, l.offer_info, l.terms_accepted,
           l.data_processing_consent, l.consent_version, l.cookie_consent,
           l.cookie_consent_version,
           coalesce((
             select jsonb_agg(jsonb_build_object(
                      'question_id', a.question_id,
                      'question', coalesce(q.question, a.question_text),
                      'answer', a.answer)
                    order by q.sequence nulls last, a.id)
               from public.answers a
               left join public.questions q on q.id = a.question_id
              where a.response_id = l.id
           ), '[]'::jsonb)
      from public.export_leads(day_from, day_to, questionnaire_id, lead_channel, customer_search) l
      join public.forms f on f.id = l.form_id
     where l.id > coalesce(after_id, 0)
     order by l.id
     limit page_size;
end;
$$;
revoke execute on function
  public.export_responses(date, date, integer, text, text, integer, integer) from public, anon;
grant execute on function
  public.export_responses(date, date, integer, text, text, integer, integer)
  to authenticated, service_role;

-- Closes the record of one's own export: how many rows were written, or that it was cancelled.
create function public.finish_export(export_id bigint, rows_written integer, was_cancelled boolean)
returns void
language plpgsql volatile security definer set search_path = ''
as $$
begin
  update public.export_log e
     set rows_written = finish_export.rows_written,
         cancelled = coalesce(was_cancelled, false),
         finished_at = now()
   where e.id = finish_export.export_id
     and e.user_id = auth.uid()
     and e.finished_at is null;
  if not found then
    raise exception 'No open export with this id' using errcode = 'P0002';
  end if;
end;
$$;
revoke execute on function public.finish_export(bigint, integer, boolean) from public, anon;
grant execute on function public.finish_export(bigint, integer, boolean)
  to authenticated, service_role;
