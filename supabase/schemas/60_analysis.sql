-- Analyse: daily counters of leads and answers kept by triggers, and the functions the desk's
-- charts read. Answers with free text are never counted (only options and buckets).
-- Each counter key has a row per shard (the writing connection's, analysis_counter_shard), so
-- concurrent leads never wait for one common row; every reader sums over the shards.
--
-- Hand-written, not captured by `npm run db:diff` (add them to the migration yourself):
-- comments.

-- Tables

CREATE TABLE public.analysis_daily_leads (
    day date NOT NULL,
    form_id integer NOT NULL,
    source text NOT NULL,
    channel text NOT NULL,
    leads integer DEFAULT 0 NOT NULL,
    offer_requests integer DEFAULT 0 NOT NULL,
    waited_1 integer DEFAULT 0 NOT NULL,
    waited_2 integer DEFAULT 0 NOT NULL,
    waited_3 integer DEFAULT 0 NOT NULL,
    waited_4 integer DEFAULT 0 NOT NULL,
    waited_5 integer DEFAULT 0 NOT NULL,
    waited_6 integer DEFAULT 0 NOT NULL,
    waited_7 integer DEFAULT 0 NOT NULL,
    questionnaire_id integer GENERATED ALWAYS AS (public.lead_questionnaire_id(source, form_id)) STORED,
    shard smallint DEFAULT 0 NOT NULL
);

CREATE TABLE public.analysis_daily_answers (
    question_id integer NOT NULL,
    day date NOT NULL,
    source text NOT NULL,
    channel text NOT NULL,
    n integer DEFAULT 0 NOT NULL,
    kind text NOT NULL,
    value text NOT NULL,
    shard smallint DEFAULT 0 NOT NULL,
    CONSTRAINT analysis_daily_answers_kind_check CHECK ((kind = ANY (ARRAY['option'::text, 'other'::text, 'answered'::text, 'decade'::text, 'empty'::text]))),
    CONSTRAINT analysis_daily_answers_value_check CHECK (((kind = 'option'::text) OR ((kind = 'decade'::text) AND (value ~ '^[0-9]{3}0$'::text)) OR (value = ''::text)))
);

COMMENT ON TABLE public.analysis_daily_answers IS 'Answers per Berlin day, question, source and channel, by kind (analysis_answer_items): options chosen, other, answered, birth decade, empty. Never the text a visitor typed.';

COMMENT ON COLUMN public.analysis_daily_answers.shard IS 'Which of the key''s rows: each connection adds to its own (analysis_counter_shard), so concurrent leads wait for no common row. A key''s count is the sum over its shards; one shard alone may be negative.';

COMMENT ON COLUMN public.analysis_daily_leads.shard IS 'Which of the key''s rows: each connection adds to its own (analysis_counter_shard), so concurrent leads wait for no common row. A key''s figures are the sums over its shards; one shard alone may be negative.';

ALTER TABLE ONLY public.analysis_daily_leads
    ADD CONSTRAINT analysis_daily_leads_pkey PRIMARY KEY (day, form_id, source, channel, shard);

CREATE UNIQUE INDEX analysis_daily_answers_key ON public.analysis_daily_answers USING btree (question_id, day, source, channel, kind, md5(value), shard);

ALTER TABLE ONLY public.analysis_daily_answers
    ADD CONSTRAINT analysis_daily_answers_question_id_fkey FOREIGN KEY (question_id) REFERENCES public.questions(id) ON DELETE CASCADE;

-- Functions

CREATE FUNCTION public.analysis_answer_items(question_type text, multi boolean, options jsonb, bucket text, answer text) RETURNS TABLE(kind text, value text, n integer)
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $_$
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
$_$;

CREATE FUNCTION public.analysis_lead_day(captured_at timestamp with time zone, received_at timestamp with time zone) RETURNS date
    LANGUAGE sql IMMUTABLE
    SET search_path TO ''
    AS $$
  select (pg_catalog.timezone('Europe/Berlin', coalesce(captured_at, received_at)))::date
$$;

CREATE FUNCTION public.analysis_counter_shard() RETURNS smallint
    LANGUAGE sql STABLE
    SET search_path TO ''
    AS $$
  select (pg_catalog.pg_backend_pid() % 16)::smallint
$$;

CREATE FUNCTION public.analysis_add_answer(answer_response_id integer, answer_question_id integer, answer_text text, sign integer) RETURNS void
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

CREATE FUNCTION public.analysis_delay_bucket(waited_offline boolean, captured_at timestamp with time zone, received_at timestamp with time zone) RETURNS integer
    LANGUAGE sql IMMUTABLE
    SET search_path TO ''
    AS $$
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

CREATE FUNCTION public.analysis_add_lead(r public.responses, sign integer) RETURNS void
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

CREATE FUNCTION public.analysis_add_lead_answers(r public.responses, sign integer) RETURNS void
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

CREATE FUNCTION public.analysis_answer_distribution(day_from date, day_to date, questionnaire_id integer, lead_channel text DEFAULT NULL::text) RETURNS TABLE(question_id integer, kind text, value text, n bigint)
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS $_$
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
$_$;

CREATE FUNCTION public.analysis_conversion(day_from date, day_to date, questionnaire_id integer DEFAULT NULL::integer, lead_channel text DEFAULT NULL::text) RETURNS TABLE(dimension text, source text, form_id integer, form_title text, channel text, leads bigint, closed bigint, rate double precision)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  perform public.require_staff();
  return query
    with filtered as (
      select r.source, r.questionnaire_id, r.channel, r.status
        from public.responses r
       where coalesce(r.captured_at, r.received_at)
               >= coalesce(pg_catalog.timezone('Europe/Berlin', day_from::timestamp), '-infinity')
         and coalesce(r.captured_at, r.received_at)
               < coalesce(pg_catalog.timezone('Europe/Berlin', (day_to + 1)::timestamp),
                          'infinity')
         and (analysis_conversion.questionnaire_id is null
              or r.questionnaire_id = analysis_conversion.questionnaire_id)
         and (lead_channel is null or r.channel::text = lead_channel)
    ),
    groups as (
      select 'form'::text as dimension, f.source::text as source, f.questionnaire_id,
             null::text as channel, count(*) as leads,
             count(*) filter (where f.status = 'closed') as closed
        from filtered f
       group by f.source, f.questionnaire_id
      union all
      select 'channel', null, null, f.channel::text, count(*),
             count(*) filter (where f.status = 'closed')
        from filtered f
       group by f.channel
    )
    select g.dimension, g.source, g.questionnaire_id,
           (select fo.title from public.forms fo where fo.id = g.questionnaire_id)::text,
           g.channel, g.leads::bigint, g.closed::bigint,
           (g.closed::double precision / g.leads)
      from groups g
     order by g.dimension desc, g.questionnaire_id nulls last, g.source, g.channel;
end;
$$;

CREATE FUNCTION public.analysis_count_added_answers() RETURNS trigger
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

CREATE FUNCTION public.analysis_count_added_leads() RETURNS trigger
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

CREATE FUNCTION public.analysis_count_answer() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  if tg_op = 'DELETE' and public.keeping_figures() then
    return null;
  end if;
  if tg_op <> 'INSERT' then
    perform public.analysis_add_answer(old.response_id, old.question_id, old.answer, -1);
  end if;
  if tg_op <> 'DELETE' then
    perform public.analysis_add_answer(new.response_id, new.question_id, new.answer, 1);
  end if;
  return null;
end;
$$;

CREATE FUNCTION public.analysis_count_lead() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  if tg_op = 'DELETE' and public.keeping_figures() then
    return null;
  end if;
  if tg_op <> 'INSERT' then
    perform public.analysis_add_lead(old, -1);
  end if;
  if tg_op <> 'DELETE' then
    perform public.analysis_add_lead(new, 1);
  end if;
  return null;
end;
$$;

CREATE FUNCTION public.analysis_count_removed_answers() RETURNS trigger
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

CREATE FUNCTION public.analysis_count_removed_leads() RETURNS trigger
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

CREATE FUNCTION public.analysis_days(day_from date, day_to date, questionnaire_id integer, lead_channel text) RETURNS SETOF public.analysis_daily_leads
    LANGUAGE sql STABLE
    AS $$
  select d.*
    from public.analysis_daily_leads d
   where d.day >= coalesce(day_from, '-infinity')
     and d.day <= coalesce(day_to, 'infinity')
     and (analysis_days.questionnaire_id is null
          or d.questionnaire_id = analysis_days.questionnaire_id)
     and (lead_channel is null or d.channel = lead_channel)
$$;

CREATE FUNCTION public.analysis_leads(day_from date, day_to date, questionnaire_id integer, lead_channel text) RETURNS TABLE(id integer, captured_at timestamp with time zone, received_at timestamp with time zone, waited_offline boolean)
    LANGUAGE sql STABLE
    AS $$
  select r.id, r.captured_at, r.received_at, r.waited_offline
    from public.responses r
   where coalesce(r.captured_at, r.received_at)
           >= coalesce(pg_catalog.timezone('Europe/Berlin', day_from::timestamp), '-infinity')
     and coalesce(r.captured_at, r.received_at)
           < coalesce(pg_catalog.timezone('Europe/Berlin', (day_to + 1)::timestamp), 'infinity')
     and (analysis_leads.questionnaire_id is null
          or r.questionnaire_id = analysis_leads.questionnaire_id)
     and (lead_channel is null or r.channel::text = lead_channel)
$$;

CREATE FUNCTION public.analysis_lead_times(day_from date, day_to date, questionnaire_id integer, lead_channel text) RETURNS TABLE(median_delay_seconds double precision, first_lead_at timestamp with time zone, last_lead_at timestamp with time zone, data_since timestamp with time zone)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $$
  select (select percentile_cont(0.5) within group (
                   order by greatest(extract(epoch from
                              l.received_at - coalesce(l.captured_at, l.received_at)), 0)
                            ::double precision)
            from public.analysis_leads(day_from, day_to, questionnaire_id, lead_channel) l
           where l.waited_offline),
         (select min(coalesce(l.captured_at, l.received_at))
            from public.analysis_leads(day_from, day_to, questionnaire_id, lead_channel) l),
         (select max(coalesce(l.captured_at, l.received_at))
            from public.analysis_leads(day_from, day_to, questionnaire_id, lead_channel) l),
         (select min(coalesce(r.captured_at, r.received_at)) from public.responses r)
   where (select public.is_staff())
  union all
  select null, null, null, null where not (select public.is_staff())
$$;

CREATE FUNCTION public.analysis_leads_over_time(day_from date, day_to date, questionnaire_id integer DEFAULT NULL::integer, lead_channel text DEFAULT NULL::text, bucket text DEFAULT 'day'::text) RETURNS TABLE(period_start date, channel text, source text, leads bigint)
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS $$
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

CREATE FUNCTION public.analysis_move_lead_answers() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  if tg_op = 'DELETE' and public.keeping_figures() then
    return old;
  end if;
  perform public.analysis_add_lead_answers(old, -1);
  if tg_op = 'UPDATE' then
    perform public.analysis_add_lead_answers(new, 1);
    return new;
  end if;
  return old;
end;
$$;

CREATE FUNCTION public.analysis_offline_delay(day_from date, day_to date, questionnaire_id integer DEFAULT NULL::integer, lead_channel text DEFAULT NULL::text) RETURNS TABLE(lower_seconds integer, upper_seconds integer, n bigint)
    LANGUAGE sql STABLE
    SET search_path TO ''
    AS $$
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

CREATE FUNCTION public.analysis_overview(day_from date, day_to date, questionnaire_id integer DEFAULT NULL::integer, lead_channel text DEFAULT NULL::text) RETURNS TABLE(leads bigint, web_leads bigint, fair_tablet_leads bigint, questionnaire_leads bigint, kfz_leads bigint, contact_leads bigint, offer_requests bigint, offline_leads bigint, median_delay_seconds double precision, first_lead_at timestamp with time zone, last_lead_at timestamp with time zone, data_since timestamp with time zone)
    LANGUAGE sql STABLE
    SET search_path TO ''
    AS $$
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
         t.median_delay_seconds, t.first_lead_at, t.last_lead_at, t.data_since
    from counts c,
         public.analysis_lead_times(day_from, day_to, questionnaire_id, lead_channel) t
$$;

-- Triggers

CREATE TRIGGER analysis_count_added_answers AFTER INSERT ON public.answers REFERENCING NEW TABLE AS added_answers FOR EACH STATEMENT EXECUTE FUNCTION public.analysis_count_added_answers();

CREATE TRIGGER analysis_count_added_leads AFTER INSERT ON public.responses REFERENCING NEW TABLE AS added_leads FOR EACH STATEMENT EXECUTE FUNCTION public.analysis_count_added_leads();

CREATE TRIGGER analysis_count_answer_update AFTER UPDATE OF answer, question_id ON public.answers FOR EACH ROW WHEN (((old.answer IS DISTINCT FROM new.answer) OR (old.question_id IS DISTINCT FROM new.question_id))) EXECUTE FUNCTION public.analysis_count_answer();

CREATE TRIGGER analysis_count_lead_update AFTER UPDATE OF captured_at, received_at, form_id, source, channel, offer_info, waited_offline ON public.responses FOR EACH ROW EXECUTE FUNCTION public.analysis_count_lead();

CREATE TRIGGER analysis_count_removed_answers AFTER DELETE ON public.answers REFERENCING OLD TABLE AS removed_answers FOR EACH STATEMENT EXECUTE FUNCTION public.analysis_count_removed_answers();

CREATE TRIGGER analysis_count_removed_leads AFTER DELETE ON public.responses REFERENCING OLD TABLE AS removed_leads FOR EACH STATEMENT EXECUTE FUNCTION public.analysis_count_removed_leads();

CREATE TRIGGER analysis_move_lead_answers_delete BEFORE DELETE ON public.responses FOR EACH ROW EXECUTE FUNCTION public.analysis_move_lead_answers();

CREATE TRIGGER analysis_move_lead_answers_update AFTER UPDATE OF captured_at, received_at, source, channel ON public.responses FOR EACH ROW WHEN (((public.analysis_lead_day(old.captured_at, old.received_at) IS DISTINCT FROM public.analysis_lead_day(new.captured_at, new.received_at)) OR (old.source IS DISTINCT FROM new.source) OR (old.channel IS DISTINCT FROM new.channel))) EXECUTE FUNCTION public.analysis_move_lead_answers();

-- Row-level security

ALTER TABLE public.analysis_daily_answers ENABLE ROW LEVEL SECURITY;

CREATE POLICY analysis_daily_answers_staff_read ON public.analysis_daily_answers FOR SELECT TO authenticated USING (( SELECT public.is_staff() AS is_staff));

ALTER TABLE public.analysis_daily_leads ENABLE ROW LEVEL SECURITY;

CREATE POLICY analysis_daily_leads_staff_read ON public.analysis_daily_leads FOR SELECT TO authenticated USING (( SELECT public.is_staff() AS is_staff));

-- Grants

REVOKE ALL ON FUNCTION public.analysis_add_answer(answer_response_id integer, answer_question_id integer, answer_text text, sign integer) FROM PUBLIC;

REVOKE ALL ON FUNCTION public.analysis_add_lead(r public.responses, sign integer) FROM PUBLIC;

REVOKE ALL ON FUNCTION public.analysis_add_lead_answers(r public.responses, sign integer) FROM PUBLIC;

REVOKE ALL ON FUNCTION public.analysis_answer_distribution(day_from date, day_to date, questionnaire_id integer, lead_channel text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.analysis_answer_distribution(day_from date, day_to date, questionnaire_id integer, lead_channel text) TO authenticated;
GRANT ALL ON FUNCTION public.analysis_answer_distribution(day_from date, day_to date, questionnaire_id integer, lead_channel text) TO service_role;

REVOKE ALL ON FUNCTION public.analysis_answer_items(question_type text, multi boolean, options jsonb, bucket text, answer text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.analysis_answer_items(question_type text, multi boolean, options jsonb, bucket text, answer text) TO authenticated;
GRANT ALL ON FUNCTION public.analysis_answer_items(question_type text, multi boolean, options jsonb, bucket text, answer text) TO service_role;

REVOKE ALL ON FUNCTION public.analysis_conversion(day_from date, day_to date, questionnaire_id integer, lead_channel text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.analysis_conversion(day_from date, day_to date, questionnaire_id integer, lead_channel text) TO authenticated;
GRANT ALL ON FUNCTION public.analysis_conversion(day_from date, day_to date, questionnaire_id integer, lead_channel text) TO service_role;

REVOKE ALL ON FUNCTION public.analysis_counter_shard() FROM PUBLIC;
GRANT ALL ON FUNCTION public.analysis_counter_shard() TO service_role;

REVOKE ALL ON FUNCTION public.analysis_count_added_answers() FROM PUBLIC;

REVOKE ALL ON FUNCTION public.analysis_count_added_leads() FROM PUBLIC;

REVOKE ALL ON FUNCTION public.analysis_count_answer() FROM PUBLIC;

REVOKE ALL ON FUNCTION public.analysis_count_lead() FROM PUBLIC;

REVOKE ALL ON FUNCTION public.analysis_count_removed_answers() FROM PUBLIC;

REVOKE ALL ON FUNCTION public.analysis_count_removed_leads() FROM PUBLIC;

GRANT SELECT ON TABLE public.analysis_daily_leads TO authenticated;
GRANT ALL ON TABLE public.analysis_daily_leads TO service_role;

REVOKE ALL ON FUNCTION public.analysis_days(day_from date, day_to date, questionnaire_id integer, lead_channel text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.analysis_days(day_from date, day_to date, questionnaire_id integer, lead_channel text) TO authenticated;
GRANT ALL ON FUNCTION public.analysis_days(day_from date, day_to date, questionnaire_id integer, lead_channel text) TO service_role;

REVOKE ALL ON FUNCTION public.analysis_delay_bucket(waited_offline boolean, captured_at timestamp with time zone, received_at timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION public.analysis_delay_bucket(waited_offline boolean, captured_at timestamp with time zone, received_at timestamp with time zone) TO authenticated;
GRANT ALL ON FUNCTION public.analysis_delay_bucket(waited_offline boolean, captured_at timestamp with time zone, received_at timestamp with time zone) TO service_role;

REVOKE ALL ON FUNCTION public.analysis_lead_times(day_from date, day_to date, questionnaire_id integer, lead_channel text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.analysis_lead_times(day_from date, day_to date, questionnaire_id integer, lead_channel text) TO authenticated;
GRANT ALL ON FUNCTION public.analysis_lead_times(day_from date, day_to date, questionnaire_id integer, lead_channel text) TO service_role;

REVOKE ALL ON FUNCTION public.analysis_leads(day_from date, day_to date, questionnaire_id integer, lead_channel text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.analysis_leads(day_from date, day_to date, questionnaire_id integer, lead_channel text) TO service_role;

REVOKE ALL ON FUNCTION public.analysis_leads_over_time(day_from date, day_to date, questionnaire_id integer, lead_channel text, bucket text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.analysis_leads_over_time(day_from date, day_to date, questionnaire_id integer, lead_channel text, bucket text) TO authenticated;
GRANT ALL ON FUNCTION public.analysis_leads_over_time(day_from date, day_to date, questionnaire_id integer, lead_channel text, bucket text) TO service_role;

REVOKE ALL ON FUNCTION public.analysis_move_lead_answers() FROM PUBLIC;

REVOKE ALL ON FUNCTION public.analysis_offline_delay(day_from date, day_to date, questionnaire_id integer, lead_channel text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.analysis_offline_delay(day_from date, day_to date, questionnaire_id integer, lead_channel text) TO authenticated;
GRANT ALL ON FUNCTION public.analysis_offline_delay(day_from date, day_to date, questionnaire_id integer, lead_channel text) TO service_role;

REVOKE ALL ON FUNCTION public.analysis_overview(day_from date, day_to date, questionnaire_id integer, lead_channel text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.analysis_overview(day_from date, day_to date, questionnaire_id integer, lead_channel text) TO authenticated;
GRANT ALL ON FUNCTION public.analysis_overview(day_from date, day_to date, questionnaire_id integer, lead_channel text) TO service_role;

GRANT SELECT ON TABLE public.analysis_daily_answers TO authenticated;
GRANT ALL ON TABLE public.analysis_daily_answers TO service_role;
