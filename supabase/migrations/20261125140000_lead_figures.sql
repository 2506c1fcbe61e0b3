-- Every figure right (issue 21, items 2 and 3). Plain SQL that `supabase db push` runs on a hosted
-- project as well: no superuser-only statements, every grant explicit.
--
-- 1. A questionnaire lead. KFZ callbacks and contact requests are stored under form 1 (the spec),
--    so counting by form_id made them Tabaluga leads on the dashboard and the questionnaire cards
--    while Analyse counted source = 'questionnaire'. Now one definition, lead_questionnaire_id(),
--    gives a lead's questionnaire: its form when it came from a questionnaire, else none. Its
--    results are stored as responses.questionnaire_id and analysis_daily_leads.questionnaire_id,
--    and every count reads those: the dashboard and the questionnaire cards through
--    questionnaire_lead_counts(), Analyse and export through the filters below.
--
-- 2. Waited offline. Analyse guessed it from a gap of at least a minute between capture and
--    arrival, which a device clock running behind or a slow send turned into false figures. The
--    device's outbox knows: it posts waited_offline (true when the lead could not be handed to the
--    hub at its first attempt), the hub stores it in responses.waited_offline, and the counters,
--    the histogram and the median read that flag. Rows stored before keep the old rule's answer.

-- 1. The one definition of a questionnaire lead. Immutable, so stored generated columns may use
-- it; no `set search_path` (the body names nothing of ours), so PostgreSQL inlines it where a
-- query calls it. A changed definition needs a migration that re-adds the generated columns: a
-- stored value is not computed again when the function is replaced.
create function public.lead_questionnaire_id(source text, form_id integer) returns integer
language sql immutable parallel safe
as $$
  select case when source = 'questionnaire' then form_id end
$$;
comment on function public.lead_questionnaire_id(text, integer) is
  'The questionnaire a lead belongs to: its form when it came from a questionnaire, else null (KFZ and contact leads are stored under form 1 but belong to no questionnaire).';
revoke execute on function public.lead_questionnaire_id(text, integer) from public, anon;
grant execute on function public.lead_questionnaire_id(text, integer)
  to authenticated, service_role;

alter table public.responses
  add column questionnaire_id integer
    generated always as (public.lead_questionnaire_id(source, form_id)) stored;
comment on column public.responses.questionnaire_id is
  'lead_questionnaire_id(source, form_id): the questionnaire this lead counts for, null for KFZ and contact leads.';
-- The dashboard's and the cards' counts: per questionnaire, since a time of arrival.
create index responses_questionnaire_received_idx
  on public.responses (questionnaire_id, received_at desc)
  where questionnaire_id is not null;

-- 2. The flag. Adding it with a constant default rewrites nothing; the rows stored before get the
-- old rule's answer, the best there is for them. (No trigger counts this update: the counters are
-- rebuilt at the end.)
alter table public.responses add column waited_offline boolean not null default false;
comment on column public.responses.waited_offline is
  'The lead waited on the device before it reached the hub (offline, ''Offline simulieren'', hub not reached), as the device reported it. Leads stored before 2026-11-25 and leads from senders that do not say: arrived at least a minute after captured_at.';
update public.responses
   set waited_offline = true
 where received_at - captured_at >= interval '60 seconds';

-- Waited leads are few: the median reads them through this index instead of every lead.
drop index public.responses_offline_lead_at_idx;
create index responses_offline_lead_at_idx
  on public.responses ((coalesce(captured_at, received_at)))
  where waited_offline;

-- The offline-wait histogram's bucket (1..7) of a lead, null when it did not wait. The wait is
-- from the lead's time to its arrival, never below 0: a waited lead whose device clock ran ahead,
-- or that has no capture time, is in the first bucket. Boundaries as in analysis_offline_delay.
drop function public.analysis_delay_bucket(timestamptz, timestamptz);
create function public.analysis_delay_bucket(
  waited_offline boolean,
  captured_at timestamptz,
  received_at timestamptz
) returns integer
language sql immutable set search_path = ''
as $$
  select case
    when waited_offline is not true then null
    when received_at - coalesce(captured_at, received_at) < interval '5 minutes' then 1
    when received_at - captured_at < interval '30 minutes' then 2
    when received_at - captured_at < interval '2 hours' then 3
    when received_at - captured_at < interval '6 hours' then 4
    when received_at - captured_at < interval '1 day' then 5
    when received_at - captured_at < interval '3 days' then 6
    else 7
  end
$$;
revoke execute on function public.analysis_delay_bucket(boolean, timestamptz, timestamptz)
  from public, anon;
grant execute on function public.analysis_delay_bucket(boolean, timestamptz, timestamptz)
  to authenticated, service_role;

-- The counters carry the same questionnaire as their leads.
alter table public.analysis_daily_leads
  add column questionnaire_id integer
    generated always as (public.lead_questionnaire_id(source, form_id)) stored;

create or replace function public.analysis_add_lead(r public.responses, sign integer) returns void
language plpgsql security definer set search_path = ''
as $$
declare
  bucket constant integer :=
    public.analysis_delay_bucket(r.waited_offline, r.captured_at, r.received_at);
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

-- A corrected flag moves its lead's count like a corrected time does.
drop trigger analysis_count_lead_update on public.responses;
create trigger analysis_count_lead_update
  after update of captured_at, received_at, form_id, source, channel, offer_info, waited_offline
  on public.responses
  for each row execute function public.analysis_count_lead();

-- The counters again from the rows, now by the flag.
delete from public.analysis_daily_leads;
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
               public.analysis_delay_bucket(r.waited_offline, r.captured_at, r.received_at)
                 as bucket
          from public.responses r) x
 group by 1, 2, 3, 4;

-- The Analyse filter, on the counters and on the rows: a questionnaire means its questionnaire
-- leads (questionnaire_id), never every lead stored under its form.
create or replace function public.analysis_days(
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
          or d.questionnaire_id = analysis_days.questionnaire_id)
     and (lead_channel is null or d.channel = lead_channel)
$$;

-- Times and the flag, still no personal data. Without `set search_path`, so that it is inlined
-- and its filter meets the lead-time indexes (see 20261124090000_analysis_export.sql).
drop function public.analysis_leads(date, date, integer, text);
create function public.analysis_leads(
  day_from date,
  day_to date,
  questionnaire_id integer,
  lead_channel text
) returns table (
  id integer,
  captured_at timestamptz,
  received_at timestamptz,
  waited_offline boolean
)
language sql stable security invoker
as $$
  select r.id, r.captured_at, r.received_at, r.waited_offline
    from public.responses r
   where coalesce(r.captured_at, r.received_at)
           >= coalesce(pg_catalog.timezone('Europe/Berlin', day_from::timestamp), '-infinity')
     and coalesce(r.captured_at, r.received_at)
           < coalesce(pg_catalog.timezone('Europe/Berlin', (day_to + 1)::timestamp), 'infinity')
     and (analysis_leads.questionnaire_id is null
          or r.questionnaire_id = analysis_leads.questionnaire_id)
     and (lead_channel is null or r.channel = lead_channel)
$$;
revoke execute on function public.analysis_leads(date, date, integer, text) from public, anon;
grant execute on function public.analysis_leads(date, date, integer, text)
  to authenticated, service_role;

create or replace function public.export_leads(
  day_from date,
  day_to date,
  questionnaire_id integer,
  lead_channel text,
  customer_search text
) returns setof public.responses
language sql stable security invoker
as $$
  select r.*
    from public.responses r
   where coalesce(r.captured_at, r.received_at)
           >= coalesce(pg_catalog.timezone('Europe/Berlin', day_from::timestamp), '-infinity')
     and coalesce(r.captured_at, r.received_at)
           < coalesce(pg_catalog.timezone('Europe/Berlin', (day_to + 1)::timestamp), 'infinity')
     and (export_leads.questionnaire_id is null
          or r.questionnaire_id = export_leads.questionnaire_id)
     and (lead_channel is null or r.channel = lead_channel)
     and (coalesce(btrim(customer_search), '') = ''
          or r.user_id in (select u.id from public.search_customers(btrim(customer_search)) u))
$$;
revoke execute on function public.export_leads(date, date, integer, text, text)
  from public, anon, authenticated;
grant execute on function public.export_leads(date, date, integer, text, text) to service_role;

-- The key figures, one row; the median wait of the leads that waited offline, from their flag.
create or replace function public.analysis_overview(
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
           coalesce(sum(d.leads) filter (where d.questionnaire_id is not null), 0)::bigint
             as questionnaire,
           coalesce(sum(d.leads) filter (where d.source = 'kfz'), 0)::bigint as kfz,
           coalesce(sum(d.leads) filter (where d.source = 'contact'), 0)::bigint as contact,
           coalesce(sum(d.offer_requests) filter (where d.questionnaire_id is not null), 0)::bigint
             as offers,
           coalesce(sum(d.waited_1 + d.waited_2 + d.waited_3 + d.waited_4 + d.waited_5
                         + d.waited_6 + d.waited_7), 0)::bigint as offline
      from public.analysis_days(day_from, day_to, questionnaire_id, lead_channel) d
  )
  select c.leads, c.web, c.tablet, c.questionnaire, c.kfz, c.contact, c.offers, c.offline,
         -- The same condition as the partial index on waited leads, so that it is used; the wait
         -- as analysis_delay_bucket measures it.
         (select percentile_cont(0.5) within group (
                   order by greatest(extract(epoch from
                              l.received_at - coalesce(l.captured_at, l.received_at)), 0)
                            ::double precision)
            from public.analysis_leads(day_from, day_to, questionnaire_id, lead_channel) l
           where l.waited_offline),
         (select min(coalesce(l.captured_at, l.received_at))
            from public.analysis_leads(day_from, day_to, questionnaire_id, lead_channel) l),
         (select max(coalesce(l.captured_at, l.received_at))
            from public.analysis_leads(day_from, day_to, questionnaire_id, lead_channel) l),
         -- Whether there is enough history at all (the spec's "about 30 days"), whatever the filter.
         (select min(coalesce(r.captured_at, r.received_at)) from public.responses r)
    from counts c
$$;

-- The histogram of the waits: every bucket, empty ones with 0. The first now starts at 0: a lead
-- that waited offline counts however short its wait.
create or replace function public.analysis_offline_delay(
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
         lateral (values (0, 300, s.w1), (300, 1800, s.w2), (1800, 7200, s.w3),
                         (7200, 21600, s.w4), (21600, 86400, s.w5), (86400, 259200, s.w6),
                         (259200, null::integer, s.w7)) b (lower_seconds, upper_seconds, n)
   order by b.lower_seconds
$$;

-- The answers of one questionnaire's leads: an answer counts where its lead's questionnaire
-- (lead_questionnaire_id of its source and its question's form) is the one asked for. Otherwise as
-- in 20261124090000_analysis_export.sql.
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
      select q.id, q.form_id, q.sequence, q.type, q."multipleAnswers" as multi, q.key, q.options
        from public.questions q
       where q.form_id = analysis_answer_distribution.questionnaire_id
    ),
    -- Counted once per distinct answer: the matching below then looks at a few hundred groups
    -- instead of every answer row.
    ans as (
      select d.question_id as qid, d.answer, sum(d.n)::bigint as n
        from public.analysis_daily_answers d
        join qs on qs.id = d.question_id
       where public.lead_questionnaire_id(d.source, qs.form_id)
               = analysis_answer_distribution.questionnaire_id
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

-- The dashboard's "Leads je Fragebogen" and the questionnaire cards: every questionnaire with the
-- number of its questionnaire leads, arrived since `received_since` (null: ever). Security
-- invoker: row-level security decides, so a pending account counts nothing.
create function public.questionnaire_lead_counts(received_since timestamptz default null)
returns table (form_id integer, leads bigint)
language sql stable security invoker set search_path = ''
as $$
  select f.id, count(r.id)
    from public.forms f
    left join public.responses r
      on r.questionnaire_id = f.id
     and r.received_at >= coalesce(received_since, '-infinity')
   group by f.id
   order by f.id
$$;
revoke execute on function public.questionnaire_lead_counts(timestamptz) from public, anon;
grant execute on function public.questionnaire_lead_counts(timestamptz)
  to authenticated, service_role;
