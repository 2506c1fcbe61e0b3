-- The Analyse counters per statement instead of per row (issue 25, "ingestion with counters").
-- Plain SQL that `supabase db push` runs on a hosted project as well.
--
-- Before: row-level triggers (20261124090000_analysis_export.sql) did one `insert … on conflict do
-- update` per lead and one per answer. A questionnaire lead with three answers cost four upserts,
-- all on the same few counter rows: bench:sync's 1,000 batched leads took 2.3-3.5 s instead of
-- 1.5 s, and bench:analysis loaded 100,000 leads in 62 s instead of 17 s (EXPLAIN ANALYZE of the
-- hub's insert: the two counter triggers were 0.6 ms of the ~3.7 ms a lead cost on PGlite, and
-- every update of a counter row within the batch's transaction leaves one more row version to
-- step over for the next).
--
-- Now inserts and deletes are counted by statement-level triggers over transition tables, with
-- static SQL (plpgsql keeps the plans): ONE aggregated upsert per table and statement, however
-- many leads and answers it stored. The hub stores a whole batch in one statement
-- (server/hub/responses-repository.ts), so a batch of 50 leads is two upserts in all.
--
-- Updates stay row-level: PostgreSQL allows no transition tables on a trigger with a column list
-- (`after update of …`), and without one a statement trigger would run on every status change
-- of a lead. Updates that move a count are rare corrections by hand; the row triggers with their
-- column lists and WHEN conditions cost nothing on the other updates. Likewise the BEFORE DELETE
-- row trigger that takes a deleted lead's answers away while they are still there (BEFORE
-- triggers have no transition tables, and after the delete the cascade has removed the answers).
--
-- Exactness is unchanged: a delete made by delete_leads_keeping_proof (app.keep_figures on:
-- retention, erasure) leaves every counter as it is; an answer is counted on its lead's day,
-- source and channel; an answer deleted with its lead is taken away once (by the BEFORE DELETE
-- trigger; the answers' own delete trigger skips answers whose lead is gone).

drop trigger analysis_count_lead on public.responses;
drop trigger analysis_count_answer on public.answers;

-- Leads added (sign 1) or removed (-1), grouped by counter row. Two functions, not one taking
-- the sign: a transition table can only be named in the trigger's own function.
create function public.analysis_count_added_leads() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  insert into public.analysis_daily_leads as d
    (day, form_id, source, channel, leads, offer_requests,
     waited_1, waited_2, waited_3, waited_4, waited_5, waited_6, waited_7)
  select x.day, x.form_id, x.source, x.channel, count(*), count(*) filter (where x.offer_info),
         count(*) filter (where x.bucket = 1), count(*) filter (where x.bucket = 2),
         count(*) filter (where x.bucket = 3), count(*) filter (where x.bucket = 4),
         count(*) filter (where x.bucket = 5), count(*) filter (where x.bucket = 6),
         count(*) filter (where x.bucket = 7)
    from (select public.analysis_lead_day(n.captured_at, n.received_at) as day, n.form_id,
                 n.source, n.channel, n.offer_info,
                 public.analysis_delay_bucket(n.waited_offline, n.captured_at, n.received_at)
                   as bucket
            from added_leads n) x
   group by 1, 2, 3, 4
  on conflict (day, form_id, source, channel) do update set
    leads = d.leads + excluded.leads,
    offer_requests = d.offer_requests + excluded.offer_requests,
    waited_1 = d.waited_1 + excluded.waited_1, waited_2 = d.waited_2 + excluded.waited_2,
    waited_3 = d.waited_3 + excluded.waited_3, waited_4 = d.waited_4 + excluded.waited_4,
    waited_5 = d.waited_5 + excluded.waited_5, waited_6 = d.waited_6 + excluded.waited_6,
    waited_7 = d.waited_7 + excluded.waited_7;
  return null;
end;
$$;

create function public.analysis_count_removed_leads() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if public.keeping_figures() then
    return null;
  end if;
  insert into public.analysis_daily_leads as d
    (day, form_id, source, channel, leads, offer_requests,
     waited_1, waited_2, waited_3, waited_4, waited_5, waited_6, waited_7)
  select x.day, x.form_id, x.source, x.channel, -count(*), -count(*) filter (where x.offer_info),
         -count(*) filter (where x.bucket = 1), -count(*) filter (where x.bucket = 2),
         -count(*) filter (where x.bucket = 3), -count(*) filter (where x.bucket = 4),
         -count(*) filter (where x.bucket = 5), -count(*) filter (where x.bucket = 6),
         -count(*) filter (where x.bucket = 7)
    from (select public.analysis_lead_day(o.captured_at, o.received_at) as day, o.form_id,
                 o.source, o.channel, o.offer_info,
                 public.analysis_delay_bucket(o.waited_offline, o.captured_at, o.received_at)
                   as bucket
            from removed_leads o) x
   group by 1, 2, 3, 4
  on conflict (day, form_id, source, channel) do update set
    leads = d.leads + excluded.leads,
    offer_requests = d.offer_requests + excluded.offer_requests,
    waited_1 = d.waited_1 + excluded.waited_1, waited_2 = d.waited_2 + excluded.waited_2,
    waited_3 = d.waited_3 + excluded.waited_3, waited_4 = d.waited_4 + excluded.waited_4,
    waited_5 = d.waited_5 + excluded.waited_5, waited_6 = d.waited_6 + excluded.waited_6,
    waited_7 = d.waited_7 + excluded.waited_7;
  return null;
end;
$$;

-- Answers added or removed, counted on their lead's day, source and channel. AFTER the
-- statement, so a lead stored in the same statement as its answers (the hub's insert with CTEs)
-- is there to be read; an answer whose lead is gone was taken away by the lead's BEFORE DELETE
-- trigger. The grouping matches the counters' key (the trimmed text's md5), so the upsert never
-- meets one counter row twice.
create function public.analysis_count_added_answers() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  insert into public.analysis_daily_answers as d (question_id, day, source, channel, answer, n)
  select a.question_id, public.analysis_lead_day(r.captured_at, r.received_at), r.source,
         r.channel, btrim(a.answer), count(*)
    from added_answers a
    join public.responses r on r.id = a.response_id
   where a.question_id is not null
   group by 1, 2, 3, 4, 5
  on conflict (question_id, day, source, channel, md5(answer)) do update set n = d.n + excluded.n;
  return null;
end;
$$;

create function public.analysis_count_removed_answers() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if public.keeping_figures() then
    return null;
  end if;
  insert into public.analysis_daily_answers as d (question_id, day, source, channel, answer, n)
  select a.question_id, public.analysis_lead_day(r.captured_at, r.received_at), r.source,
         r.channel, btrim(a.answer), -count(*)
    from removed_answers a
    join public.responses r on r.id = a.response_id
    -- A question deleted in the same statement took its counters along.
    join public.questions q on q.id = a.question_id
   group by 1, 2, 3, 4, 5
  on conflict (question_id, day, source, channel, md5(answer)) do update set n = d.n + excluded.n;
  return null;
end;
$$;

revoke execute on function
  public.analysis_count_added_leads(), public.analysis_count_removed_leads(),
  public.analysis_count_added_answers(), public.analysis_count_removed_answers()
  from public, anon, authenticated;

create trigger analysis_count_added_leads
  after insert on public.responses
  referencing new table as added_leads
  for each statement execute function public.analysis_count_added_leads();
create trigger analysis_count_removed_leads
  after delete on public.responses
  referencing old table as removed_leads
  for each statement execute function public.analysis_count_removed_leads();
create trigger analysis_count_added_answers
  after insert on public.answers
  referencing new table as added_answers
  for each statement execute function public.analysis_count_added_answers();
create trigger analysis_count_removed_answers
  after delete on public.answers
  referencing old table as removed_answers
  for each statement execute function public.analysis_count_removed_answers();

-- The row triggers' functions (analysis_count_lead, analysis_count_answer,
-- analysis_move_lead_answers) now run on updates only, and analysis_move_lead_answers also before
-- a lead's delete, as before.
