-- The desk's customer list: per customer the facts its columns show (newest lead's arrival,
-- source, questionnaire and status; the next open follow-up), kept in customer_summary by
-- triggers so that the list orders, pages and counts 100,000 customers without looking up each
-- customer's leads; the view customer_list_rows that the desk reads without search or filter, and
-- the functions customer_list and desk_customer_list that it reads with them.
--
-- Hand-written, not captured by `npm run db:diff` (add them to the migration yourself):
-- the view's security_invoker, comments, the summary's first rows.

-- Tables

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

-- Views

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

-- Functions

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

-- Triggers

CREATE TRIGGER refresh_customer_summary AFTER INSERT OR DELETE OR UPDATE OF customer_id, due_at, done_at ON public.follow_ups FOR EACH ROW EXECUTE FUNCTION public.refresh_customer_summary_of_follow_up();

CREATE TRIGGER refresh_customer_summary AFTER INSERT OR DELETE OR UPDATE OF user_id, status, received_at, source, channel, form_id ON public.responses FOR EACH ROW EXECUTE FUNCTION public.refresh_customer_summary_of_lead();

-- Row-level security

ALTER TABLE public.customer_summary ENABLE ROW LEVEL SECURITY;

CREATE POLICY customer_summary_staff_read ON public.customer_summary FOR SELECT TO authenticated USING (( SELECT public.is_staff() AS is_staff));

-- Grants

REVOKE ALL ON FUNCTION public.customer_list(term text, form_id integer, source text, status text, received_from date, received_to date, open_follow_up boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION public.customer_list(term text, form_id integer, source text, status text, received_from date, received_to date, open_follow_up boolean) TO authenticated;
GRANT ALL ON FUNCTION public.customer_list(term text, form_id integer, source text, status text, received_from date, received_to date, open_follow_up boolean) TO service_role;

REVOKE ALL ON FUNCTION public.desk_customer_list(term text, form_id integer, source text, status text, received_from date, received_to date, open_follow_up boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION public.desk_customer_list(term text, form_id integer, source text, status text, received_from date, received_to date, open_follow_up boolean) TO authenticated;
GRANT ALL ON FUNCTION public.desk_customer_list(term text, form_id integer, source text, status text, received_from date, received_to date, open_follow_up boolean) TO service_role;

REVOKE ALL ON FUNCTION public.refresh_customer_summary(customer integer) FROM PUBLIC;

REVOKE ALL ON FUNCTION public.refresh_customer_summary_of_follow_up() FROM PUBLIC;

REVOKE ALL ON FUNCTION public.refresh_customer_summary_of_lead() FROM PUBLIC;

GRANT SELECT ON TABLE public.customer_summary TO authenticated;
GRANT ALL ON TABLE public.customer_summary TO service_role;

GRANT SELECT ON TABLE public.customer_list_rows TO authenticated;
GRANT ALL ON TABLE public.customer_list_rows TO service_role;
