-- The customer list's columns (issue 36, item 2): for each customer the arrival, source,
-- questionnaire and status of the newest lead and the next open follow-up, each sortable on the
-- server; and the customers export with the list's filters and a Status column (item 6).
--
-- customer_summary keeps those facts per customer, refreshed by triggers on responses and
-- follow_ups (refresh_customer_summary), so that the list orders, pages and counts 100,000
-- customers as it does the table, without looking up each customer's newest lead (the lateral
-- lookups customer_list made). The desk reads the list without search or filter from the view
-- customer_list_rows (security invoker: staff read it as they read users; PostgREST orders,
-- ranges and counts it), with them from desk_customer_list as before, which now returns the same
-- columns (those of the newest matching lead with a lead filter). The summary holds no lead
-- content: arrival, source, channel, questionnaire, status and a due time.
--
-- The export: begin_export and export_leads take the list's further filters (status, source of
-- the KFZ and contact forms, the days of arrival, an open follow-up), begin_export logs them
-- with the others and refuses an unknown status or source (22023); export_responses adds each
-- lead's status.
--
-- Hand-written (db:diff does not capture them): the view's security_invoker, the comments, the
-- summary's first rows. Plain SQL that `supabase db push` runs on a hosted project as well.

-- The summary, read by staff only; nobody writes it through the API.

CREATE TABLE public.customer_summary (
    customer_id integer NOT NULL,
    last_lead_at timestamp with time zone,
    lead_source public.lead_source,
    lead_channel public.lead_channel,
    questionnaire_id integer,
    lead_status public.lead_status,
    next_follow_up_at timestamp with time zone
);

COMMENT ON TABLE public.customer_summary IS 'Per customer, what the customer list shows of their leads and follow-ups: arrival, source, channel, questionnaire and status of the newest lead, and the earliest open follow-up. Kept by triggers on responses and follow_ups (refresh_customer_summary); a customer without either may have no row.';

ALTER TABLE ONLY public.customer_summary
    ADD CONSTRAINT customer_summary_pkey PRIMARY KEY (customer_id);

ALTER TABLE ONLY public.customer_summary
    ADD CONSTRAINT customer_summary_customer_id_fkey FOREIGN KEY (customer_id) REFERENCES public.users(id) ON DELETE CASCADE;

ALTER TABLE public.customer_summary ENABLE ROW LEVEL SECURITY;

CREATE POLICY customer_summary_staff_read ON public.customer_summary FOR SELECT TO authenticated USING (( SELECT public.is_staff() AS is_staff));

REVOKE ALL ON TABLE public.customer_summary FROM anon, authenticated;

GRANT SELECT ON TABLE public.customer_summary TO authenticated;

GRANT ALL ON TABLE public.customer_summary TO service_role;


-- The list without search or filter.

CREATE VIEW public.customer_list_rows WITH (security_invoker='true') AS
 SELECT u.id,
    u.first_name,
    u.last_name,
    u.email,
    u.phone,
    u.adress,
    u.postcode,
    u.city,
    u.created_at,
    u.updated_at,
    s.lead_status,
    s.last_lead_at,
    s.lead_source,
    s.lead_channel,
    f.title AS questionnaire_title,
    s.next_follow_up_at
   FROM ((public.users u
     LEFT JOIN public.customer_summary s ON ((s.customer_id = u.id)))
     LEFT JOIN public.forms f ON ((f.id = s.questionnaire_id)));

COMMENT ON VIEW public.customer_list_rows IS 'The customer list without search or filter: each customer with the columns of customer_summary (the questionnaire by its title). Runs as its caller: staff read it, as they read users.';

REVOKE ALL ON TABLE public.customer_list_rows FROM anon, authenticated;

GRANT SELECT ON TABLE public.customer_list_rows TO authenticated;

GRANT ALL ON TABLE public.customer_list_rows TO service_role;


-- The refresh and its triggers (a trigger function is called by the trigger, never directly).

CREATE FUNCTION public.refresh_customer_summary(customer integer) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  if customer is null then
    return;
  end if;
  -- The row first, then its lock, then the facts in a statement of their own: a transaction
  -- that changed the same customer's leads or follow-ups has committed by then and is seen.
  insert into public.customer_summary (customer_id)
  select u.id from public.users u where u.id = customer
  on conflict (customer_id) do nothing;
  perform 1 from public.customer_summary s where s.customer_id = customer for update;
  update public.customer_summary s
     set last_lead_at = n.received_at,
         lead_source = n.source,
         lead_channel = n.channel,
         questionnaire_id = n.questionnaire_id,
         lead_status = n.status,
         next_follow_up_at = (select min(f.due_at) from public.follow_ups f
                               where f.customer_id = customer and f.done_at is null)
    from (select customer as id) c
    left join lateral (
      select r.received_at, r.source, r.channel, r.questionnaire_id, r.status
        from public.responses r
       where r.user_id = c.id
       order by r.received_at desc, r.id desc
       limit 1) n on true
   where s.customer_id = c.id;
end;
$$;

REVOKE ALL ON FUNCTION public.refresh_customer_summary(customer integer) FROM PUBLIC, anon, authenticated;

CREATE FUNCTION public.refresh_customer_summary_of_follow_up() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    perform public.refresh_customer_summary(old.customer_id);
  end if;
  if tg_op in ('INSERT', 'UPDATE') and (tg_op = 'INSERT' or new.customer_id <> old.customer_id) then
    perform public.refresh_customer_summary(new.customer_id);
  end if;
  return null;
end;
$$;

REVOKE ALL ON FUNCTION public.refresh_customer_summary_of_follow_up() FROM PUBLIC, anon, authenticated;

CREATE FUNCTION public.refresh_customer_summary_of_lead() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    perform public.refresh_customer_summary(old.user_id);
  end if;
  if tg_op = 'INSERT' or (tg_op = 'UPDATE' and new.user_id is distinct from old.user_id) then
    perform public.refresh_customer_summary(new.user_id);
  end if;
  return null;
end;
$$;

REVOKE ALL ON FUNCTION public.refresh_customer_summary_of_lead() FROM PUBLIC, anon, authenticated;

CREATE TRIGGER refresh_customer_summary AFTER INSERT OR DELETE OR UPDATE OF customer_id, due_at, done_at ON public.follow_ups FOR EACH ROW EXECUTE FUNCTION public.refresh_customer_summary_of_follow_up();

CREATE TRIGGER refresh_customer_summary AFTER INSERT OR DELETE OR UPDATE OF user_id, status, received_at, source, channel, form_id ON public.responses FOR EACH ROW EXECUTE FUNCTION public.refresh_customer_summary_of_lead();


-- The first rows: every customer with a lead or a follow-up.
insert into public.customer_summary (customer_id, last_lead_at, lead_source, lead_channel,
                                     questionnaire_id, lead_status, next_follow_up_at)
select u.id, n.received_at, n.source, n.channel, n.questionnaire_id, n.status, f.due_at
  from public.users u
  left join lateral (
    select r.received_at, r.source, r.channel, r.questionnaire_id, r.status
      from public.responses r
     where r.user_id = u.id
     order by r.received_at desc, r.id desc
     limit 1) n on true
  left join lateral (
    select min(o.due_at) as due_at from public.follow_ups o
     where o.customer_id = u.id and o.done_at is null) f on true
 where n.received_at is not null or f.due_at is not null
    or exists (select 1 from public.follow_ups o where o.customer_id = u.id);

-- The list's functions return the new columns (a changed result type: dropped and created).
drop function public.desk_customer_list(text, integer, text, text, date, date, boolean);
drop function public.customer_list(text, integer, text, text, date, date, boolean);

CREATE FUNCTION public.customer_list(term text DEFAULT ''::text, form_id integer DEFAULT NULL::integer, source text DEFAULT NULL::text, status text DEFAULT NULL::text, received_from date DEFAULT NULL::date, received_to date DEFAULT NULL::date, open_follow_up boolean DEFAULT NULL::boolean) RETURNS TABLE(id integer, first_name text, last_name text, email text, phone text, adress text, postcode text, city text, created_at timestamp with time zone, updated_at timestamp with time zone, lead_status public.lead_status, last_lead_at timestamp with time zone, lead_source public.lead_source, lead_channel public.lead_channel, questionnaire_title text, next_follow_up_at timestamp with time zone)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $_$
declare
  search text := nullif(btrim(coalesce(customer_list.term, '')), '');
  lead_terms text[] := '{}';
  lead_condition text;
  customers text;
  query text;
begin
  perform public.require_staff();
  if customer_list.source is not null
     and customer_list.source not in ('web', 'fair_tablet', 'kfz', 'contact') then
    raise exception 'Unbekannte Quelle: %', customer_list.source using errcode = '22023';
  end if;
  if customer_list.status is not null
     and customer_list.status not in ('new', 'contacted', 'appointment', 'offer_sent', 'closed',
                                      'no_interest') then
    raise exception 'Unbekannter Status: %', customer_list.status using errcode = '22023';
  end if;

  -- The lead's conditions refer to the arguments as $2..$6 of the execute below.
  if customer_list.form_id is not null then
    lead_terms := array_append(lead_terms, 'r.questionnaire_id = $2');
  end if;
  if customer_list.source in ('web', 'fair_tablet') then
    lead_terms := array_append(lead_terms, 'r.channel = $3::public.lead_channel');
  elsif customer_list.source in ('kfz', 'contact') then
    lead_terms := array_append(lead_terms, 'r.source = $3::public.lead_source');
  end if;
  if customer_list.status is not null then
    lead_terms := array_append(lead_terms, 'r.status = $4::public.lead_status');
  end if;
  if customer_list.received_from is not null then
    lead_terms := array_append(lead_terms,
      'r.received_at >= pg_catalog.timezone(''Europe/Berlin'', $5::timestamp)');
  end if;
  if customer_list.received_to is not null then
    lead_terms := array_append(lead_terms,
      'r.received_at < pg_catalog.timezone(''Europe/Berlin'', ($6 + 1)::timestamp)');
  end if;
  lead_condition := array_to_string(lead_terms, ' and ');

  customers := case when search is null then 'public.users u'
                    else 'public.search_customers($1) u' end;
  if lead_condition = '' then
    -- Every lead counts: each customer's newest, as customer_summary keeps it.
    query := format(
      $q$select u.id, u.first_name, u.last_name, u.email, u.phone, u.adress, u.postcode, u.city,
                u.created_at, u.updated_at, s.lead_status, s.last_lead_at, s.lead_source,
                s.lead_channel, fo.title::text, s.next_follow_up_at
           from %s
           left join public.customer_summary s on s.customer_id = u.id
           left join public.forms fo on fo.id = s.questionnaire_id
          where true$q$,
      customers);
  else
    -- The matching leads first (through the filter's index), the newest per customer, then
    -- their customers: one pass over the leads, also when most of them match.
    query := format(
      $q$select u.id, u.first_name, u.last_name, u.email, u.phone, u.adress, u.postcode, u.city,
                u.created_at, u.updated_at, n.status, n.received_at, n.source, n.channel,
                fo.title::text, s.next_follow_up_at
           from (select distinct on (r.user_id) r.user_id, r.status, r.received_at, r.source,
                        r.channel, r.questionnaire_id
                   from public.responses r
                  where r.user_id is not null and %s
                  order by r.user_id, r.received_at desc, r.id desc) n
           join %s on u.id = n.user_id
           left join public.customer_summary s on s.customer_id = u.id
           left join public.forms fo on fo.id = n.questionnaire_id
          where true$q$,
      lead_condition, customers);
  end if;
  query := query || case customer_list.open_follow_up
    when true then ' and exists (select 1 from public.follow_ups f
                                  where f.customer_id = u.id and f.done_at is null)'
    when false then ' and not exists (select 1 from public.follow_ups f
                                       where f.customer_id = u.id and f.done_at is null)'
    else '' end;
  return query execute query
    using search, customer_list.form_id, customer_list.source, customer_list.status,
          customer_list.received_from, customer_list.received_to;
end;
$_$;

CREATE FUNCTION public.desk_customer_list(term text DEFAULT ''::text, form_id integer DEFAULT NULL::integer, source text DEFAULT NULL::text, status text DEFAULT NULL::text, received_from date DEFAULT NULL::date, received_to date DEFAULT NULL::date, open_follow_up boolean DEFAULT NULL::boolean) RETURNS TABLE(id integer, first_name text, last_name text, email text, phone text, adress text, postcode text, city text, created_at timestamp with time zone, updated_at timestamp with time zone, lead_status public.lead_status, last_lead_at timestamp with time zone, lead_source public.lead_source, lead_channel public.lead_channel, questionnaire_title text, next_follow_up_at timestamp with time zone)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  perform public.require_staff();
  if nullif(btrim(coalesce(desk_customer_list.term, '')), '') is not null then
    perform public.log_access_once('customer_searched', null,
                                   jsonb_build_object('term', btrim(desk_customer_list.term)));
  end if;
  return query
    select * from public.customer_list(desk_customer_list.term, desk_customer_list.form_id,
                                       desk_customer_list.source, desk_customer_list.status,
                                       desk_customer_list.received_from,
                                       desk_customer_list.received_to,
                                       desk_customer_list.open_follow_up);
end;
$$;

REVOKE ALL ON FUNCTION public.customer_list(term text, form_id integer, source text, status text, received_from date, received_to date, open_follow_up boolean) FROM PUBLIC, anon;
GRANT ALL ON FUNCTION public.customer_list(term text, form_id integer, source text, status text, received_from date, received_to date, open_follow_up boolean) TO authenticated;
GRANT ALL ON FUNCTION public.customer_list(term text, form_id integer, source text, status text, received_from date, received_to date, open_follow_up boolean) TO service_role;

REVOKE ALL ON FUNCTION public.desk_customer_list(term text, form_id integer, source text, status text, received_from date, received_to date, open_follow_up boolean) FROM PUBLIC, anon;
GRANT ALL ON FUNCTION public.desk_customer_list(term text, form_id integer, source text, status text, received_from date, received_to date, open_follow_up boolean) TO authenticated;
GRANT ALL ON FUNCTION public.desk_customer_list(term text, form_id integer, source text, status text, received_from date, received_to date, open_follow_up boolean) TO service_role;


-- The export with the list's filters and each lead's status.
drop function public.export_responses(bigint, integer, integer);
drop function public.begin_export(text, text, date, date, integer, text, text);
drop function public.export_leads(date, date, integer, text, text);

CREATE FUNCTION public.export_leads(day_from date, day_to date, questionnaire_id integer, lead_channel text, customer_search text, lead_status text DEFAULT NULL::text, lead_source text DEFAULT NULL::text, received_from date DEFAULT NULL::date, received_to date DEFAULT NULL::date, open_follow_up boolean DEFAULT NULL::boolean) RETURNS SETOF public.responses
    LANGUAGE sql STABLE
    AS $$
  select r.*
    from public.responses r
   where coalesce(r.captured_at, r.received_at)
           >= coalesce(pg_catalog.timezone('Europe/Berlin', day_from::timestamp), '-infinity')
     and coalesce(r.captured_at, r.received_at)
           < coalesce(pg_catalog.timezone('Europe/Berlin', (day_to + 1)::timestamp), 'infinity')
     and (export_leads.questionnaire_id is null
          or r.questionnaire_id = export_leads.questionnaire_id)
     and (lead_channel is null or r.channel::text = lead_channel)
     and (coalesce(btrim(customer_search), '') = ''
          or r.user_id in (select u.id from public.search_customers(btrim(customer_search)) u))
     and (export_leads.lead_status is null or r.status::text = export_leads.lead_status)
     and (export_leads.lead_source is null or r.source::text = export_leads.lead_source)
     and (received_from is null
          or r.received_at >= pg_catalog.timezone('Europe/Berlin', received_from::timestamp))
     and (received_to is null
          or r.received_at < pg_catalog.timezone('Europe/Berlin', (received_to + 1)::timestamp))
     and (open_follow_up is null
          or open_follow_up = exists (select 1 from public.follow_ups f
                                       where f.customer_id = r.user_id and f.done_at is null))
$$;

CREATE FUNCTION public.begin_export(export_scope text, export_format text, day_from date DEFAULT NULL::date, day_to date DEFAULT NULL::date, questionnaire_id integer DEFAULT NULL::integer, lead_channel text DEFAULT NULL::text, customer_search text DEFAULT NULL::text, lead_status text DEFAULT NULL::text, lead_source text DEFAULT NULL::text, received_from date DEFAULT NULL::date, received_to date DEFAULT NULL::date, open_follow_up boolean DEFAULT NULL::boolean) RETURNS TABLE(export_id bigint, row_count bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  total bigint;
  new_id bigint;
begin
  perform public.refuse_export_unless_allowed();
  if lead_status is not null
     and lead_status not in ('new', 'contacted', 'appointment', 'offer_sent', 'closed',
                             'no_interest') then
    raise exception 'Unbekannter Status: %', lead_status using errcode = '22023';
  end if;
  if lead_source is not null and lead_source not in ('questionnaire', 'kfz', 'contact') then
    raise exception 'Unbekannte Quelle: %', lead_source using errcode = '22023';
  end if;
  select count(*) into total
    from public.export_leads(day_from, day_to, questionnaire_id, lead_channel, customer_search,
                             lead_status, lead_source, received_from, received_to,
                             open_follow_up);
  insert into public.export_log (user_id, email, scope, format, filter, row_count)
  values (
    auth.uid(),
    (select s.email from public.staff s where s.user_id = auth.uid()),
    export_scope::public.export_scope,
    export_format::public.export_format,
    jsonb_strip_nulls(jsonb_build_object(
      'day_from', day_from, 'day_to', day_to, 'questionnaire_id', questionnaire_id,
      'lead_channel', lead_channel, 'customer_search', nullif(btrim(customer_search), ''),
      'lead_status', lead_status, 'lead_source', lead_source, 'received_from', received_from,
      'received_to', received_to, 'open_follow_up', open_follow_up
    )),
    total
  )
  returning id into new_id;
  return query select new_id, total;
end;
$$;

CREATE FUNCTION public.export_responses(export_id bigint, after_id integer DEFAULT 0, page_size integer DEFAULT 1000) RETURNS TABLE(response_id integer, lead_at timestamp with time zone, captured_at timestamp with time zone, received_at timestamp with time zone, form_id integer, form_title text, source public.lead_source, channel public.lead_channel, status public.lead_status, customer_id integer, salutation text, title text, first_name text, last_name text, email text, phone text, adress text, postcode text, city text, birthdate date, call_time text, existing_customer boolean, message text, offer_info boolean, terms_accepted boolean, data_processing_consent boolean, consent_version text, cookie_consent text, cookie_consent_version text, answers jsonb)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  f jsonb;
  delivered integer;
begin
  perform public.refuse_export_unless_allowed();
  if page_size is null or page_size < 1 or page_size > 5000 then
    raise exception 'page_size must be between 1 and 5000' using errcode = '22023';
  end if;
  select e.filter into f
    from public.export_log e
   where e.id = export_responses.export_id
     and e.user_id = auth.uid()
     and e.finished_at is null
     for update;
  if not found then
    raise exception 'No open export with this id' using errcode = 'P0002';
  end if;
  return query
    select l.id, coalesce(l.captured_at, l.received_at), l.captured_at, l.received_at, l.form_id,
           fo.title, l.source, l.channel, l.status, l.user_id, l.salutation, l.title, l.first_name,
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
      from public.export_leads((f ->> 'day_from')::date, (f ->> 'day_to')::date,
                               (f ->> 'questionnaire_id')::integer, f ->> 'lead_channel',
                               f ->> 'customer_search', f ->> 'lead_status', f ->> 'lead_source',
                               (f ->> 'received_from')::date, (f ->> 'received_to')::date,
                               (f ->> 'open_follow_up')::boolean) l
      join public.forms fo on fo.id = l.form_id
     where l.id > coalesce(after_id, 0)
     order by l.id
     limit page_size;
  get diagnostics delivered = row_count;
  update public.export_log e
     set rows_sent = e.rows_sent + delivered
   where e.id = export_responses.export_id;
end;
$$;

REVOKE ALL ON FUNCTION public.begin_export(export_scope text, export_format text, day_from date, day_to date, questionnaire_id integer, lead_channel text, customer_search text, lead_status text, lead_source text, received_from date, received_to date, open_follow_up boolean) FROM PUBLIC, anon;
GRANT ALL ON FUNCTION public.begin_export(export_scope text, export_format text, day_from date, day_to date, questionnaire_id integer, lead_channel text, customer_search text, lead_status text, lead_source text, received_from date, received_to date, open_follow_up boolean) TO authenticated;
GRANT ALL ON FUNCTION public.begin_export(export_scope text, export_format text, day_from date, day_to date, questionnaire_id integer, lead_channel text, customer_search text, lead_status text, lead_source text, received_from date, received_to date, open_follow_up boolean) TO service_role;

REVOKE ALL ON FUNCTION public.export_leads(day_from date, day_to date, questionnaire_id integer, lead_channel text, customer_search text, lead_status text, lead_source text, received_from date, received_to date, open_follow_up boolean) FROM PUBLIC, anon, authenticated;
GRANT ALL ON FUNCTION public.export_leads(day_from date, day_to date, questionnaire_id integer, lead_channel text, customer_search text, lead_status text, lead_source text, received_from date, received_to date, open_follow_up boolean) TO service_role;

REVOKE ALL ON FUNCTION public.export_responses(export_id bigint, after_id integer, page_size integer) FROM PUBLIC, anon;
GRANT ALL ON FUNCTION public.export_responses(export_id bigint, after_id integer, page_size integer) TO authenticated;
GRANT ALL ON FUNCTION public.export_responses(export_id bigint, after_id integer, page_size integer) TO service_role;
