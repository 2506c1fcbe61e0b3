-- The day's counter rows out of every lead's transaction, and one SQL call per lead (issue 37,
-- "the hub's hot spots"). Plain SQL that `supabase db push` runs on a hosted project as well.
--
-- Before: every lead of a day and form added to the same row of analysis_daily_leads (and every
-- lead choosing a popular option to the same row of analysis_daily_answers) and held that row's
-- lock until its commit, so concurrent leads on PostgreSQL waited for each other one by one
-- (bench:load, 200 leads/s: p99 82 ms).
--
-- Now each key of the counters has up to 16 rows, one per shard, and a statement adds to the
-- shard of its connection (analysis_counter_shard: the backend's process id modulo 16). The
-- server's pool holds ten connections, so concurrent leads almost always write different rows;
-- PGlite has one connection and so one shard. Nothing else changes: a lead, an answer, a
-- correction or a deletion is counted as before, only in the current connection's shard, and a
-- key's figures are the sum over its shards (a shard that took a deletion counted in another may
-- be negative). Every reader already sums (analysis_days' callers, analysis_answer_distribution),
-- so the figures Analyse and the dashboard show stay exact. The rows counted so far are shard 0.
--
-- store_leads holds the one statement that stores leads with their customers and answers (it
-- was the hub's SQL text); intake_lead checks one lead (known client_id, form, questions) and
-- stores it, so the hub's single lead is one call instead of a lookup, a transaction with a check
-- and the insert. A client_id stored by another request meanwhile undoes the lead's customer
-- merge (an inner block) and answers as the duplicate check would.
--
-- Hand-written (db:diff does not capture them): the comments on the columns.

ALTER TABLE public.analysis_daily_leads ADD COLUMN shard smallint DEFAULT 0 NOT NULL;

ALTER TABLE public.analysis_daily_answers ADD COLUMN shard smallint DEFAULT 0 NOT NULL;

ALTER TABLE ONLY public.analysis_daily_leads DROP CONSTRAINT analysis_daily_leads_pkey;

ALTER TABLE ONLY public.analysis_daily_leads
    ADD CONSTRAINT analysis_daily_leads_pkey PRIMARY KEY (day, form_id, source, channel, shard);

DROP INDEX public.analysis_daily_answers_key;

CREATE UNIQUE INDEX analysis_daily_answers_key ON public.analysis_daily_answers USING btree (question_id, day, source, channel, kind, md5(value), shard);

COMMENT ON COLUMN public.analysis_daily_answers.shard IS 'Which of the key''s rows: each connection adds to its own (analysis_counter_shard), so concurrent leads wait for no common row. A key''s count is the sum over its shards; one shard alone may be negative.';

COMMENT ON COLUMN public.analysis_daily_leads.shard IS 'Which of the key''s rows: each connection adds to its own (analysis_counter_shard), so concurrent leads wait for no common row. A key''s figures are the sums over its shards; one shard alone may be negative.';

-- Each connection's shard, and the writers adding to it.

CREATE FUNCTION public.analysis_counter_shard() RETURNS smallint
    LANGUAGE sql STABLE
    SET search_path TO ''
    AS $$
  select (pg_catalog.pg_backend_pid() % 16)::smallint
$$;

REVOKE ALL ON FUNCTION public.analysis_counter_shard() FROM PUBLIC;
GRANT ALL ON FUNCTION public.analysis_counter_shard() TO service_role;

CREATE OR REPLACE FUNCTION public.analysis_add_answer(answer_response_id integer, answer_question_id integer, answer_text text, sign integer) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  insert into public.analysis_daily_answers as d
    (question_id, day, source, channel, kind, value, n, shard)
  select q.id, public.analysis_lead_day(r.captured_at, r.received_at), r.source, r.channel,
         i.kind, i.value, sign * i.n, public.analysis_counter_shard()
    from public.responses r, public.questions q,
         public.analysis_answer_items(q.type::text, q."multipleAnswers", q.options,
                                      q.analysis_bucket::text, answer_text) i
   where r.id = answer_response_id and q.id = answer_question_id
  on conflict (question_id, day, source, channel, kind, md5(value), shard)
    do update set n = d.n + excluded.n;
end;
$$;

CREATE OR REPLACE FUNCTION public.analysis_add_lead(r public.responses, sign integer) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  bucket constant integer :=
    public.analysis_delay_bucket(r.waited_offline, r.captured_at, r.received_at);
begin
  insert into public.analysis_daily_leads as d
    (day, form_id, source, channel, leads, offer_requests,
     waited_1, waited_2, waited_3, waited_4, waited_5, waited_6, waited_7, shard)
  values (
    public.analysis_lead_day(r.captured_at, r.received_at), r.form_id, r.source, r.channel, sign,
    case when r.offer_info then sign else 0 end,
    case when bucket = 1 then sign else 0 end, case when bucket = 2 then sign else 0 end,
    case when bucket = 3 then sign else 0 end, case when bucket = 4 then sign else 0 end,
    case when bucket = 5 then sign else 0 end, case when bucket = 6 then sign else 0 end,
    case when bucket = 7 then sign else 0 end, public.analysis_counter_shard())
  on conflict (day, form_id, source, channel, shard) do update set
    leads = d.leads + excluded.leads,
    offer_requests = d.offer_requests + excluded.offer_requests,
    waited_1 = d.waited_1 + excluded.waited_1, waited_2 = d.waited_2 + excluded.waited_2,
    waited_3 = d.waited_3 + excluded.waited_3, waited_4 = d.waited_4 + excluded.waited_4,
    waited_5 = d.waited_5 + excluded.waited_5, waited_6 = d.waited_6 + excluded.waited_6,
    waited_7 = d.waited_7 + excluded.waited_7;
end;
$$;

CREATE OR REPLACE FUNCTION public.analysis_add_lead_answers(r public.responses, sign integer) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  insert into public.analysis_daily_answers as d
    (question_id, day, source, channel, kind, value, n, shard)
  select a.question_id, public.analysis_lead_day(r.captured_at, r.received_at), r.source,
         r.channel, i.kind, i.value, sign * sum(i.n), public.analysis_counter_shard()
    from public.answers a
    join public.questions q on q.id = a.question_id
    cross join lateral public.analysis_answer_items(
      q.type::text, q."multipleAnswers", q.options, q.analysis_bucket::text, a.answer) i
   where a.response_id = r.id
   group by a.question_id, i.kind, i.value
  on conflict (question_id, day, source, channel, kind, md5(value), shard)
    do update set n = d.n + excluded.n;
end;
$$;

CREATE OR REPLACE FUNCTION public.analysis_count_added_answers() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  insert into public.analysis_daily_answers as d
    (question_id, day, source, channel, kind, value, n, shard)
  select a.question_id, public.analysis_lead_day(r.captured_at, r.received_at), r.source,
         r.channel, i.kind, i.value, sum(i.n), public.analysis_counter_shard()
    from added_answers a
    join public.responses r on r.id = a.response_id
    join public.questions q on q.id = a.question_id
    cross join lateral public.analysis_answer_items(
      q.type::text, q."multipleAnswers", q.options, q.analysis_bucket::text, a.answer) i
   group by 1, 2, 3, 4, 5, 6
  on conflict (question_id, day, source, channel, kind, md5(value), shard)
    do update set n = d.n + excluded.n;
  return null;
end;
$$;

CREATE OR REPLACE FUNCTION public.analysis_count_added_leads() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  insert into public.analysis_daily_leads as d
    (day, form_id, source, channel, leads, offer_requests,
     waited_1, waited_2, waited_3, waited_4, waited_5, waited_6, waited_7, shard)
  select x.day, x.form_id, x.source, x.channel, count(*), count(*) filter (where x.offer_info),
         count(*) filter (where x.bucket = 1), count(*) filter (where x.bucket = 2),
         count(*) filter (where x.bucket = 3), count(*) filter (where x.bucket = 4),
         count(*) filter (where x.bucket = 5), count(*) filter (where x.bucket = 6),
         count(*) filter (where x.bucket = 7), public.analysis_counter_shard()
    from (select public.analysis_lead_day(n.captured_at, n.received_at) as day, n.form_id,
                 n.source, n.channel, n.offer_info,
                 public.analysis_delay_bucket(n.waited_offline, n.captured_at, n.received_at)
                   as bucket
            from added_leads n) x
   group by 1, 2, 3, 4
  on conflict (day, form_id, source, channel, shard) do update set
    leads = d.leads + excluded.leads,
    offer_requests = d.offer_requests + excluded.offer_requests,
    waited_1 = d.waited_1 + excluded.waited_1, waited_2 = d.waited_2 + excluded.waited_2,
    waited_3 = d.waited_3 + excluded.waited_3, waited_4 = d.waited_4 + excluded.waited_4,
    waited_5 = d.waited_5 + excluded.waited_5, waited_6 = d.waited_6 + excluded.waited_6,
    waited_7 = d.waited_7 + excluded.waited_7;
  return null;
end;
$$;

CREATE OR REPLACE FUNCTION public.analysis_count_removed_answers() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  if public.keeping_figures() then
    return null;
  end if;
  insert into public.analysis_daily_answers as d
    (question_id, day, source, channel, kind, value, n, shard)
  select a.question_id, public.analysis_lead_day(r.captured_at, r.received_at), r.source,
         r.channel, i.kind, i.value, -sum(i.n), public.analysis_counter_shard()
    from removed_answers a
    join public.responses r on r.id = a.response_id
    -- A question deleted in the same statement took its counters along.
    join public.questions q on q.id = a.question_id
    cross join lateral public.analysis_answer_items(
      q.type::text, q."multipleAnswers", q.options, q.analysis_bucket::text, a.answer) i
   group by 1, 2, 3, 4, 5, 6
  on conflict (question_id, day, source, channel, kind, md5(value), shard)
    do update set n = d.n + excluded.n;
  return null;
end;
$$;

CREATE OR REPLACE FUNCTION public.analysis_count_removed_leads() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  if public.keeping_figures() then
    return null;
  end if;
  insert into public.analysis_daily_leads as d
    (day, form_id, source, channel, leads, offer_requests,
     waited_1, waited_2, waited_3, waited_4, waited_5, waited_6, waited_7, shard)
  select x.day, x.form_id, x.source, x.channel, -count(*), -count(*) filter (where x.offer_info),
         -count(*) filter (where x.bucket = 1), -count(*) filter (where x.bucket = 2),
         -count(*) filter (where x.bucket = 3), -count(*) filter (where x.bucket = 4),
         -count(*) filter (where x.bucket = 5), -count(*) filter (where x.bucket = 6),
         -count(*) filter (where x.bucket = 7), public.analysis_counter_shard()
    from (select public.analysis_lead_day(o.captured_at, o.received_at) as day, o.form_id,
                 o.source, o.channel, o.offer_info,
                 public.analysis_delay_bucket(o.waited_offline, o.captured_at, o.received_at)
                   as bucket
            from removed_leads o) x
   group by 1, 2, 3, 4
  on conflict (day, form_id, source, channel, shard) do update set
    leads = d.leads + excluded.leads,
    offer_requests = d.offer_requests + excluded.offer_requests,
    waited_1 = d.waited_1 + excluded.waited_1, waited_2 = d.waited_2 + excluded.waited_2,
    waited_3 = d.waited_3 + excluded.waited_3, waited_4 = d.waited_4 + excluded.waited_4,
    waited_5 = d.waited_5 + excluded.waited_5, waited_6 = d.waited_6 + excluded.waited_6,
    waited_7 = d.waited_7 + excluded.waited_7;
  return null;
end;
$$;

-- One lead in one call: the duplicate and reference checks, the customer, the response and its
-- answers (store_leads, which the hub's batches call too).

CREATE FUNCTION public.store_leads(batch jsonb) RETURNS jsonb
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
declare
  stored jsonb;
begin
  -- The leads travel as one JSON array, read into response rows by jsonb_populate_record (the
  -- table's own column types). The customers are merged one after the other in the array's
  -- order (merge_lead_customer is volatile: each call sees the ones before), then the responses,
  -- then the answers in each lead's order. A client_id already stored is missing from the answer;
  -- its customer merge has run, and the caller rolls it back.
  with input as materialized (
    select x.n, x.lead -> 'answers' as answers,
           jsonb_populate_record(null::public.responses, x.lead) as r
      from jsonb_array_elements(batch) with ordinality as x(lead, n)
  ), customer as materialized (
    select i.n,
           public.merge_lead_customer((i.r).first_name, (i.r).last_name, (i.r).email,
             (i.r).phone, (i.r).adress, (i.r).postcode, (i.r).city) as id
      from input i
     order by i.n
  ), response as (
    insert into public.responses (
      client_id, payload_hash, form_id, user_id, source, channel,
      first_name, last_name, email, phone, adress, postcode, city,
      salutation, title, birthdate, call_time, existing_customer, message,
      offer_info, terms_accepted, data_processing_consent, consent_version,
      create_date, changed_date, create_user, changed_user, captured_at,
      cookie_consent, cookie_consent_version, waited_offline)
    select (i.r).client_id, (i.r).payload_hash, (i.r).form_id, c.id, (i.r).source,
           (i.r).channel, (i.r).first_name, (i.r).last_name, (i.r).email, (i.r).phone,
           (i.r).adress, (i.r).postcode, (i.r).city, (i.r).salutation, (i.r).title,
           (i.r).birthdate, (i.r).call_time, (i.r).existing_customer, (i.r).message,
           (i.r).offer_info, (i.r).terms_accepted, (i.r).data_processing_consent,
           (i.r).consent_version, (i.r).create_date, (i.r).changed_date, (i.r).create_user,
           (i.r).changed_user, (i.r).captured_at, (i.r).cookie_consent,
           (i.r).cookie_consent_version, (i.r).waited_offline
      from input i join customer c on c.n = i.n
     order by i.n
    on conflict (client_id) do nothing
    returning id, client_id
  ), stored_answers as (
    insert into public.answers (response_id, question_id, answer)
    select response.id, (a.value ->> 'question_id')::int, a.value ->> 'answer'
      from response
      join input i on (i.r).client_id = response.client_id
      cross join jsonb_array_elements(i.answers) with ordinality as a(value, n)
     order by i.n, a.n
  )
  select coalesce(jsonb_object_agg(response.client_id, response.id), '{}'::jsonb)
    into stored
    from response;
  return stored;
end;
$$;

REVOKE ALL ON FUNCTION public.store_leads(batch jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION public.store_leads(batch jsonb) TO service_role;

CREATE FUNCTION public.intake_lead(lead jsonb) RETURNS TABLE(outcome text, stored_id integer, missing_question_ids integer[])
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
declare
  lead_client_id constant uuid := (lead ->> 'client_id')::uuid;
  lead_form_id constant integer := (lead ->> 'form_id')::integer;
  lead_hash constant text := lead ->> 'payload_hash';
  earlier record;
  missing integer[];
  new_id integer;
begin
  select r.id, r.payload_hash into earlier
    from public.responses r
   where r.client_id = lead_client_id;
  if found then
    return query select case when earlier.payload_hash = lead_hash then 'duplicate' else 'conflict' end,
                        earlier.id, null::integer[];
    return;
  end if;
  -- Both checks come before the first write, so a refusal leaves nothing behind.
  if not exists (select from public.forms f where f.id = lead_form_id) then
    return query select 'unknown-form'::text, null::integer, null::integer[];
    return;
  end if;
  select coalesce(array_agg(a.question_id order by a.n), '{}') into missing
    from (select (x.value ->> 'question_id')::integer as question_id, x.n
            from jsonb_array_elements(coalesce(lead -> 'answers', '[]'::jsonb))
                 with ordinality as x(value, n)) a
   where not exists (select from public.questions q
                      where q.id = a.question_id and q.form_id = lead_form_id);
  if cardinality(missing) > 0 then
    return query select 'unknown-questions'::text, null::integer, missing;
    return;
  end if;
  begin
    new_id := (public.store_leads(jsonb_build_array(lead)) ->> lead_client_id::text)::integer;
    if new_id is null then
      -- Another request stored this client_id since the lookup: undo our customer merge.
      raise exception 'lead stored meanwhile' using errcode = 'UL900';
    end if;
  exception when sqlstate 'UL900' then
    select r.id, r.payload_hash into earlier
      from public.responses r
     where r.client_id = lead_client_id;
    if not found then
      raise exception 'lead neither stored nor found' using errcode = '40001';
    end if;
    return query select case when earlier.payload_hash = lead_hash then 'duplicate' else 'conflict' end,
                        earlier.id, null::integer[];
    return;
  end;
  return query select 'created'::text, new_id, null::integer[];
end;
$$;

REVOKE ALL ON FUNCTION public.intake_lead(lead jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION public.intake_lead(lead jsonb) TO service_role;
