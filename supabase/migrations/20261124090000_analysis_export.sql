-- Analysis and export for Survey Desk. Plain SQL that `supabase db push` runs on a hosted project as
-- well: no superuser-only statements, every grant explicit.
--
-- 1. Aggregations. The Analyse screen calls these through PostgREST (`supabase.rpc(...)`); the
-- database groups and counts, the browser never downloads rows to count them. Security invoker:
-- row-level security decides, so a pending account counts nothing and anon may not call them.
--
-- Every function takes the same filter:
--   day_from, day_to    Berlin calendar days, both inclusive (null: open-ended). The agent's day
--                       ends at midnight in Germany, not in UTC.
--   questionnaire_id    null: every lead, KFZ callbacks and contact requests included (they are
--                       stored under form 1); a form id: the questionnaire leads of that form only.
--   lead_channel        null: both; 'web' (the website) or 'fair_tablet' (the tablet at a fair).
-- A lead's time is when the visitor sent it, captured_at (set on the device, so a lead queued offline
-- counts on the day of the fair), falling back to received_at. A lead "waited offline" when it
-- arrived at least a minute after it was sent: an online send takes seconds, so such a lead sat in
-- the device's outbox (no connection, or 'Offline simulieren').
--
-- The counts come from daily counters that triggers keep as leads and answers are stored, so that a
-- period of 90 days costs what one of 7 does however many leads there are (bench:analysis, 100,000
-- leads on PGlite: counting the rows themselves, the 90-day screens took 400-530 ms; with the
-- counters 65-220 ms). A lead's day is the Berlin calendar day of its lead time, the unit of every
-- period filter, so sums over days are exact. Export reads the leads themselves.

create index responses_lead_at_idx
  on public.responses ((coalesce(captured_at, received_at)));

-- The selection of leads, for the median, the first and last lead, and export. Without `set
-- search_path` (every name is qualified instead): a SQL function with a SET clause is never
-- inlined, and inlined the planner sees the filter and can use the index above. The bounds are
-- written without `day_from is null or ...`: PostgreSQL plans a SQL function's body without the
-- argument values, and such an OR is no index condition (the first lead of a 90-day period took
-- 56 ms scanning from the oldest lead instead of 1 ms).
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
   where coalesce(r.captured_at, r.received_at)
           >= coalesce(pg_catalog.timezone('Europe/Berlin', day_from::timestamp), '-infinity')
     and coalesce(r.captured_at, r.received_at)
           < coalesce(pg_catalog.timezone('Europe/Berlin', (day_to + 1)::timestamp), 'infinity')
     and (analysis_leads.questionnaire_id is null
          or (r.source = 'questionnaire' and r.form_id = analysis_leads.questionnaire_id))
     and (lead_channel is null or r.channel = lead_channel)
$$;

-- A lead's day: the Berlin calendar day of its lead time, the unit of the counters.
create function public.analysis_lead_day(captured_at timestamptz, received_at timestamptz)
returns date
language sql immutable set search_path = ''
as $$
  select (pg_catalog.timezone('Europe/Berlin', coalesce(captured_at, received_at)))::date
$$;

-- The offline-wait histogram's bucket (1..7) of a lead, null when it did not wait (under a minute,
-- or no capture time). Boundaries as in analysis_offline_delay.
create function public.analysis_delay_bucket(captured_at timestamptz, received_at timestamptz)
returns integer
language sql immutable set search_path = ''
as $$
  select case
    when captured_at is null or received_at - captured_at < interval '60 seconds' then null
    when received_at - captured_at < interval '5 minutes' then 1
    when received_at - captured_at < interval '30 minutes' then 2
    when received_at - captured_at < interval '2 hours' then 3
    when received_at - captured_at < interval '6 hours' then 4
    when received_at - captured_at < interval '1 day' then 5
    when received_at - captured_at < interval '3 days' then 6
    else 7
  end
$$;

create table public.analysis_daily_leads (
  day date not null,
  form_id integer not null,
  source text not null,
  channel text not null,
  leads integer not null default 0,
  offer_requests integer not null default 0,
  waited_1 integer not null default 0,
  waited_2 integer not null default 0,
  waited_3 integer not null default 0,
  waited_4 integer not null default 0,
  waited_5 integer not null default 0,
  waited_6 integer not null default 0,
  waited_7 integer not null default 0,
  primary key (day, form_id, source, channel)
);

-- Answers per day and distinct (trimmed) text. Keyed by the text's md5: a long free-text answer
-- would not fit a btree key, and a lead must never be refused because of its statistics.
create table public.analysis_daily_answers (
  question_id integer not null references public.questions (id) on delete cascade,
  day date not null,
  source text not null,
  channel text not null,
  answer text not null,
  n integer not null default 0
);
create unique index analysis_daily_answers_key
  on public.analysis_daily_answers (question_id, day, source, channel, md5(answer));

-- Offline leads are few: the median reads them through this index instead of every lead.
create index responses_offline_lead_at_idx
  on public.responses ((coalesce(captured_at, received_at)))
  where received_at - captured_at >= interval '60 seconds';

-- Staff read the counts (as they read the leads); nobody writes them but the triggers.
alter table public.analysis_daily_leads enable row level security;
alter table public.analysis_daily_answers enable row level security;
create policy analysis_daily_leads_staff_read on public.analysis_daily_leads for select
  to authenticated using ((select public.is_staff()));
create policy analysis_daily_answers_staff_read on public.analysis_daily_answers for select
  to authenticated using ((select public.is_staff()));
revoke all on public.analysis_daily_leads, public.analysis_daily_answers from anon, authenticated;
grant select on public.analysis_daily_leads, public.analysis_daily_answers to authenticated;
grant all on public.analysis_daily_leads, public.analysis_daily_answers to service_role;

-- The triggers are row-level and their statements static PL/pgSQL, whose plans stay cached: a
-- lead then costs a few hundredths of a millisecond more. (Statement-level triggers over transition
-- tables with dynamic SQL made bench:sync's 1,000 batched leads take 1.7 times as long.)

-- Adds one lead to its day's counters (sign 1) or takes it away (-1).
create function public.analysis_add_lead(r public.responses, sign integer) returns void
language plpgsql security definer set search_path = ''
as $$
declare
  bucket constant integer := public.analysis_delay_bucket(r.captured_at, r.received_at);
begin
  insert into public.analysis_daily_leads as d
    (day, form_id, source, channel, leads, offer_requests,
     waited_1, waited_2, waited_3, waited_4, waited_5, waited_6, waited_7)
  values (
    public.analysis_lead_day(r.captured_at, r.received_at), r.form_id, r.source, r.channel, sign,
    case when r.offer_info then sign else 0 end,
    case when bucket = 1 then sign else 0 end, case when bucket = 2 then sign else 0 end,
    case when bucket = 3 then sign else 0 end, case when bucket = 4 then sign else 0 end,
    case when bucket = 5 then sign else 0 end, case when bucket = 6 then sign else 0 end,
    case when bucket = 7 then sign else 0 end)
  on conflict (day, form_id, source, channel) do update set
    leads = d.leads + excluded.leads,
    offer_requests = d.offer_requests + excluded.offer_requests,
    waited_1 = d.waited_1 + excluded.waited_1, waited_2 = d.waited_2 + excluded.waited_2,
    waited_3 = d.waited_3 + excluded.waited_3, waited_4 = d.waited_4 + excluded.waited_4,
    waited_5 = d.waited_5 + excluded.waited_5, waited_6 = d.waited_6 + excluded.waited_6,
    waited_7 = d.waited_7 + excluded.waited_7;
end;
$$;

-- Adds one answer to its lead's day (sign 1) or takes it away (-1). Nothing when the lead is gone
-- (its BEFORE DELETE trigger already took its answers away, and the cascade deletes them after)
-- or the question is (its counters are deleted with it).
create function public.analysis_add_answer(
  answer_response_id integer,
  answer_question_id integer,
  answer_text text,
  sign integer
) returns void
language plpgsql security definer set search_path = ''
as $$
begin
  insert into public.analysis_daily_answers as d (question_id, day, source, channel, answer, n)
  select q.id, public.analysis_lead_day(r.captured_at, r.received_at), r.source, r.channel,
         btrim(answer_text), sign
    from public.responses r, public.questions q
   where r.id = answer_response_id and q.id = answer_question_id
  on conflict (question_id, day, source, channel, md5(answer)) do update set n = d.n + excluded.n;
end;
$$;

-- All answers of a lead at once: a lead deleted, or moved to another day, source or channel.
create function public.analysis_add_lead_answers(r public.responses, sign integer) returns void
language plpgsql security definer set search_path = ''
as $$
begin
  insert into public.analysis_daily_answers as d (question_id, day, source, channel, answer, n)
  select a.question_id, public.analysis_lead_day(r.captured_at, r.received_at), r.source,
         r.channel, btrim(a.answer), sign * count(*)
    from public.answers a
   where a.response_id = r.id and a.question_id is not null
   group by a.question_id, btrim(a.answer)
  on conflict (question_id, day, source, channel, md5(answer)) do update set n = d.n + excluded.n;
end;
$$;

create function public.analysis_count_lead() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if tg_op <> 'INSERT' then
    perform public.analysis_add_lead(old, -1);
  end if;
  if tg_op <> 'DELETE' then
    perform public.analysis_add_lead(new, 1);
  end if;
  return null;
end;
$$;

-- Answers are stored in the same statement as their lead (the hub's one insert with CTEs); AFTER
-- row triggers fire at the end of that statement, when the lead is there to be read.
create function public.analysis_count_answer() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if tg_op <> 'INSERT' then
    perform public.analysis_add_answer(old.response_id, old.question_id, old.answer, -1);
  end if;
  if tg_op <> 'DELETE' then
    perform public.analysis_add_answer(new.response_id, new.question_id, new.answer, 1);
  end if;
  return null;
end;
$$;

create function public.analysis_move_lead_answers() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  perform public.analysis_add_lead_answers(old, -1);
  if tg_op = 'UPDATE' then
    perform public.analysis_add_lead_answers(new, 1);
    return new;
  end if;
  return old;
end;
$$;

revoke execute on function
  public.analysis_add_lead(public.responses, integer),
  public.analysis_add_answer(integer, integer, text, integer),
  public.analysis_add_lead_answers(public.responses, integer),
  public.analysis_count_lead(), public.analysis_count_answer(),
  public.analysis_move_lead_answers()
  from public, anon, authenticated;

create trigger analysis_count_lead after insert or delete on public.responses
  for each row execute function public.analysis_count_lead();
create trigger analysis_count_lead_update
  after update of captured_at, received_at, form_id, source, channel, offer_info
  on public.responses
  for each row execute function public.analysis_count_lead();

create trigger analysis_count_answer after insert or delete on public.answers
  for each row execute function public.analysis_count_answer();
-- Only a changed text or question moves a count (a deleted question's null is skipped above).
create trigger analysis_count_answer_update after update of answer, question_id on public.answers
  for each row
  when (old.answer is distinct from new.answer or old.question_id is distinct from new.question_id)
  execute function public.analysis_count_answer();

-- Before the delete, while the lead's answers are still there to be counted.
create trigger analysis_move_lead_answers_delete before delete on public.responses
  for each row execute function public.analysis_move_lead_answers();
create trigger analysis_move_lead_answers_update
  after update of captured_at, received_at, source, channel on public.responses
  for each row
  when (public.analysis_lead_day(old.captured_at, old.received_at)
          is distinct from public.analysis_lead_day(new.captured_at, new.received_at)
        or old.source is distinct from new.source or old.channel is distinct from new.channel)
  execute function public.analysis_move_lead_answers();

-- The leads and answers stored before this migration.
insert into public.analysis_daily_leads
  (day, form_id, source, channel, leads, offer_requests,
   waited_1, waited_2, waited_3, waited_4, waited_5, waited_6, waited_7)
select x.day, x.form_id, x.source, x.channel, count(*), count(*) filter (where x.offer_info),
       count(*) filter (where x.bucket = 1), count(*) filter (where x.bucket = 2),
       count(*) filter (where x.bucket = 3), count(*) filter (where x.bucket = 4),
       count(*) filter (where x.bucket = 5), count(*) filter (where x.bucket = 6),
       count(*) filter (where x.bucket = 7)
  from (select public.analysis_lead_day(r.captured_at, r.received_at) as day, r.form_id,
               r.source, r.channel, r.offer_info,
               public.analysis_delay_bucket(r.captured_at, r.received_at) as bucket
          from public.responses r) x
 group by 1, 2, 3, 4;

insert into public.analysis_daily_answers (question_id, day, source, channel, answer, n)
select a.question_id, public.analysis_lead_day(r.captured_at, r.received_at), r.source, r.channel,
       btrim(a.answer), count(*)
  from public.answers a
  join public.responses r on r.id = a.response_id
 where a.question_id is not null
 group by 1, 2, 3, 4, 5;

-- The filter of the counters: the same days, questionnaire and channel as analysis_leads.
create function public.analysis_days(
  day_from date,
  day_to date,
  questionnaire_id integer,
  lead_channel text
) returns setof public.analysis_daily_leads
language sql stable security invoker
as $$
  select d.*
    from public.analysis_daily_leads d
   where d.day >= coalesce(day_from, '-infinity')
     and d.day <= coalesce(day_to, 'infinity')
     and (analysis_days.questionnaire_id is null
          or (d.source = 'questionnaire' and d.form_id = analysis_days.questionnaire_id))
     and (lead_channel is null or d.channel = lead_channel)
$$;
revoke execute on function public.analysis_days(date, date, integer, text) from public, anon;
grant execute on function public.analysis_days(date, date, integer, text)
  to authenticated, service_role;

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
  with counts as (
    select coalesce(sum(d.leads), 0)::bigint as leads,
           coalesce(sum(d.leads) filter (where d.channel = 'web'), 0)::bigint as web,
           coalesce(sum(d.leads) filter (where d.channel = 'fair_tablet'), 0)::bigint as tablet,
           coalesce(sum(d.leads) filter (where d.source = 'questionnaire'), 0)::bigint as questionnaire,
           coalesce(sum(d.leads) filter (where d.source = 'kfz'), 0)::bigint as kfz,
           coalesce(sum(d.leads) filter (where d.source = 'contact'), 0)::bigint as contact,
           coalesce(sum(d.offer_requests) filter (where d.source = 'questionnaire'), 0)::bigint
             as offers,
           coalesce(sum(d.waited_1 + d.waited_2 + d.waited_3 + d.waited_4 + d.waited_5
                         + d.waited_6 + d.waited_7), 0)::bigint as offline
      from public.analysis_days(day_from, day_to, questionnaire_id, lead_channel) d
  )
  select c.leads, c.web, c.tablet, c.questionnaire, c.kfz, c.contact, c.offers, c.offline,
         -- The same condition as the partial index on offline leads, so that it is used.
         (select percentile_cont(0.5) within group (
                   order by extract(epoch from l.received_at - l.captured_at)::double precision)
            from public.analysis_leads(day_from, day_to, questionnaire_id, lead_channel) l
           where l.received_at - l.captured_at >= interval '60 seconds'),
         (select min(coalesce(l.captured_at, l.received_at))
            from public.analysis_leads(day_from, day_to, questionnaire_id, lead_channel) l),
         (select max(coalesce(l.captured_at, l.received_at))
            from public.analysis_leads(day_from, day_to, questionnaire_id, lead_channel) l),
         -- Whether there is enough history at all (the spec's "about 30 days"), whatever the filter.
         (select min(coalesce(r.captured_at, r.received_at)) from public.responses r)
    from counts c
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
    select date_trunc(bucket, d.day::timestamp)::date, d.channel, d.source, sum(d.leads)::bigint
      from public.analysis_days(day_from, day_to, questionnaire_id, lead_channel) d
     group by 1, 2, 3
    having sum(d.leads) > 0
     order by 1, 2, 3;
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
  with sums as (
    select coalesce(sum(d.waited_1), 0) as w1, coalesce(sum(d.waited_2), 0) as w2,
           coalesce(sum(d.waited_3), 0) as w3, coalesce(sum(d.waited_4), 0) as w4,
           coalesce(sum(d.waited_5), 0) as w5, coalesce(sum(d.waited_6), 0) as w6,
           coalesce(sum(d.waited_7), 0) as w7
      from public.analysis_days(day_from, day_to, questionnaire_id, lead_channel) d
  )
  select b.lower_seconds, b.upper_seconds, b.n::bigint
    from sums s,
         lateral (values (60, 300, s.w1), (300, 1800, s.w2), (1800, 7200, s.w3),
                         (7200, 21600, s.w4), (21600, 86400, s.w5), (86400, 259200, s.w6),
                         (259200, null::integer, s.w7)) b (lower_seconds, upper_seconds, n)
   order by b.lower_seconds
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
      select d.question_id as qid, d.answer, sum(d.n)::bigint as n
        from public.analysis_daily_answers d
       where d.question_id in (select qs.id from qs)
         and d.source = 'questionnaire'
         and d.day >= coalesce(day_from, '-infinity')
         and d.day <= coalesce(day_to, 'infinity')
         and (lead_channel is null or d.channel = lead_channel)
       group by 1, 2
      having sum(d.n) > 0
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
