-- The export right (desk_settings.staff_can_export) and the export log: every export is
-- begun and finished through these functions, which log who exported what.
--
-- Hand-written, not captured by `npm run db:diff` (add them to the migration yourself):
-- column privileges, comments, the data rows at the end.

-- Tables

CREATE TABLE public.desk_settings (
    id boolean DEFAULT true NOT NULL,
    staff_can_export boolean DEFAULT false NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT desk_settings_id_check CHECK (id)
);

CREATE TABLE public.export_log (
    id bigint GENERATED ALWAYS AS IDENTITY,
    user_id uuid DEFAULT auth.uid(),
    email text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    scope public.export_scope NOT NULL,
    format public.export_format NOT NULL,
    filter jsonb NOT NULL,
    row_count integer NOT NULL,
    rows_written integer,
    finished_at timestamp with time zone,
    cancelled boolean DEFAULT false NOT NULL,
    rows_sent integer DEFAULT 0 NOT NULL
);

COMMENT ON COLUMN public.export_log.rows_sent IS 'Rows export_responses delivered for this export, counted by the database.';

ALTER TABLE ONLY public.desk_settings
    ADD CONSTRAINT desk_settings_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.export_log
    ADD CONSTRAINT export_log_pkey PRIMARY KEY (id);

CREATE INDEX export_log_created_idx ON public.export_log USING btree (created_at DESC, id DESC);

ALTER TABLE ONLY public.export_log
    ADD CONSTRAINT export_log_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE SET NULL;

-- Functions

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

CREATE FUNCTION public.export_rows(export_filter jsonb, after_id integer, page_size integer) RETURNS TABLE(response_id integer, lead_at timestamp with time zone, captured_at timestamp with time zone, received_at timestamp with time zone, form_id integer, form_title text, source public.lead_source, channel public.lead_channel, status public.lead_status, customer_id integer, salutation text, title text, first_name text, last_name text, email text, phone text, adress text, postcode text, city text, birthdate date, call_time text, existing_customer boolean, message text, offer_info boolean, terms_accepted boolean, data_processing_consent boolean, consent_version text, cookie_consent text, cookie_consent_version text, answers json)
    LANGUAGE sql STABLE
    AS $$
  with page as materialized (
    select l.*
      from public.export_leads((export_rows.export_filter ->> 'day_from')::date,
                               (export_rows.export_filter ->> 'day_to')::date,
                               (export_rows.export_filter ->> 'questionnaire_id')::integer,
                               export_rows.export_filter ->> 'lead_channel',
                               export_rows.export_filter ->> 'customer_search',
                               export_rows.export_filter ->> 'lead_status',
                               export_rows.export_filter ->> 'lead_source',
                               (export_rows.export_filter ->> 'received_from')::date,
                               (export_rows.export_filter ->> 'received_to')::date,
                               (export_rows.export_filter ->> 'open_follow_up')::boolean) l
     where l.id > coalesce(export_rows.after_id, 0)
     order by l.id
     limit export_rows.page_size
  ),
  page_answers as (
    select a.response_id,
           json_agg(json_build_array(a.question_id, coalesce(q.question, a.question_text),
                                     a.answer)
                    order by q.sequence nulls last, a.id) as answers
      from page p
      join public.answers a on a.response_id = p.id
      left join public.questions q on q.id = a.question_id
     where a.response_id > coalesce(export_rows.after_id, 0)
       and a.response_id <= (select max(p.id) from page p)
     group by a.response_id
  )
  select p.id, coalesce(p.captured_at, p.received_at), p.captured_at, p.received_at, p.form_id,
         fo.title, p.source, p.channel, p.status, p.user_id, p.salutation, p.title, p.first_name,
         p.last_name, p.email, p.phone, p.adress, p.postcode, p.city, p.birthdate, p.call_time,
         p.existing_customer, p.message, p.offer_info, p.terms_accepted,
         p.data_processing_consent, p.consent_version, p.cookie_consent,
         p.cookie_consent_version, coalesce(pa.answers, '[]'::json)
    from page p
    join public.forms fo on fo.id = p.form_id
    left join page_answers pa on pa.response_id = p.id
   order by p.id
$$;

COMMENT ON FUNCTION public.export_rows(export_filter jsonb, after_id integer, page_size integer) IS 'One page of an export in the file''s order: the leads of a logged filter after after_id by id, each with its answers as [question_id, question, answer] in the form''s order. Called by export_page and export_responses, not through the API.';

CREATE FUNCTION public.can_export() RETURNS boolean
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $$
  select (select public.is_admin())
      or ((select public.is_staff())
          and coalesce((select s.staff_can_export from public.desk_settings s where s.id), false))
$$;

CREATE FUNCTION public.refuse_export_unless_allowed() RETURNS void
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS $$
begin
  if not (select public.can_export()) then
    raise exception 'Export not allowed for this account' using errcode = '42501';
  end if;
end;
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
    SET plan_cache_mode TO 'force_custom_plan'
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
    select r.response_id, r.lead_at, r.captured_at, r.received_at, r.form_id, r.form_title,
           r.source, r.channel, r.status, r.customer_id, r.salutation, r.title, r.first_name,
           r.last_name, r.email, r.phone, r.adress, r.postcode, r.city, r.birthdate, r.call_time,
           r.existing_customer, r.message, r.offer_info, r.terms_accepted,
           r.data_processing_consent, r.consent_version, r.cookie_consent,
           r.cookie_consent_version,
           (select coalesce(jsonb_agg(jsonb_build_object('question_id', e.answer -> 0,
                                                         'question', e.answer ->> 1,
                                                         'answer', e.answer ->> 2)
                                      order by e.n), '[]'::jsonb)
              from json_array_elements(r.answers) with ordinality as e(answer, n))
      from public.export_rows(f, after_id, page_size) r
     order by r.response_id;
  get diagnostics delivered = row_count;
  update public.export_log e
     set rows_sent = e.rows_sent + delivered
   where e.id = export_responses.export_id;
end;
$$;

CREATE FUNCTION public.export_page(export_id bigint, after_id integer DEFAULT 0, page_size integer DEFAULT 10000) RETURNS json
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    SET plan_cache_mode TO 'force_custom_plan'
    AS $$
declare
  f jsonb;
  page json;
  delivered integer;
begin
  perform public.refuse_export_unless_allowed();
  if page_size is null or page_size < 1 or page_size > 20000 then
    raise exception 'page_size must be between 1 and 20000' using errcode = '22023';
  end if;
  select e.filter into f
    from public.export_log e
   where e.id = export_page.export_id
     and e.user_id = auth.uid()
     and e.finished_at is null
     for update;
  if not found then
    raise exception 'No open export with this id' using errcode = 'P0002';
  end if;
  select coalesce(json_agg(json_build_array(
           r.response_id, r.lead_at, r.captured_at, r.received_at, r.form_id, r.form_title,
           r.source, r.channel, r.status, r.customer_id, r.salutation, r.title, r.first_name,
           r.last_name, r.email, r.phone, r.adress, r.postcode, r.city, r.birthdate, r.call_time,
           r.existing_customer, r.message, r.offer_info, r.terms_accepted,
           r.data_processing_consent, r.consent_version, r.cookie_consent,
           r.cookie_consent_version, r.answers) order by r.response_id), '[]'::json),
         count(*)::integer
    into page, delivered
    from public.export_rows(f, after_id, page_size) r;
  update public.export_log e
     set rows_sent = e.rows_sent + delivered
   where e.id = export_page.export_id;
  return page;
end;
$$;

COMMENT ON FUNCTION public.export_page(export_id bigint, after_id integer, page_size integer) IS 'One page of the caller''s open export as one JSON array (a scalar, so PostgREST''s max rows do not cut it): each lead an array of export_responses'' columns in their order, its answers as [question_id, question, answer]. Checks the right on every page and counts what it delivers in export_log.rows_sent.';

CREATE FUNCTION public.finish_export(export_id bigint, was_cancelled boolean) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  update public.export_log e
     set rows_written = e.rows_sent,
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

CREATE FUNCTION public.touch_desk_settings() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
begin
  new.updated_at := now();
  return new;
end;
$$;

-- Triggers

CREATE TRIGGER touch_desk_settings BEFORE UPDATE ON public.desk_settings FOR EACH ROW EXECUTE FUNCTION public.touch_desk_settings();

-- Row-level security

ALTER TABLE public.desk_settings ENABLE ROW LEVEL SECURITY;

CREATE POLICY desk_settings_admin_update ON public.desk_settings FOR UPDATE TO authenticated USING (( SELECT public.is_admin() AS is_admin)) WITH CHECK (( SELECT public.is_admin() AS is_admin));

CREATE POLICY desk_settings_staff_read ON public.desk_settings FOR SELECT TO authenticated USING (( SELECT public.is_staff() AS is_staff));

ALTER TABLE public.export_log ENABLE ROW LEVEL SECURITY;

CREATE POLICY export_log_admin_read ON public.export_log FOR SELECT TO authenticated USING (( SELECT public.is_admin() AS is_admin));

-- Grants

REVOKE ALL ON FUNCTION public.begin_export(export_scope text, export_format text, day_from date, day_to date, questionnaire_id integer, lead_channel text, customer_search text, lead_status text, lead_source text, received_from date, received_to date, open_follow_up boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION public.begin_export(export_scope text, export_format text, day_from date, day_to date, questionnaire_id integer, lead_channel text, customer_search text, lead_status text, lead_source text, received_from date, received_to date, open_follow_up boolean) TO authenticated;
GRANT ALL ON FUNCTION public.begin_export(export_scope text, export_format text, day_from date, day_to date, questionnaire_id integer, lead_channel text, customer_search text, lead_status text, lead_source text, received_from date, received_to date, open_follow_up boolean) TO service_role;

REVOKE ALL ON FUNCTION public.can_export() FROM PUBLIC;
GRANT ALL ON FUNCTION public.can_export() TO authenticated;
GRANT ALL ON FUNCTION public.can_export() TO service_role;

REVOKE ALL ON FUNCTION public.export_leads(day_from date, day_to date, questionnaire_id integer, lead_channel text, customer_search text, lead_status text, lead_source text, received_from date, received_to date, open_follow_up boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION public.export_leads(day_from date, day_to date, questionnaire_id integer, lead_channel text, customer_search text, lead_status text, lead_source text, received_from date, received_to date, open_follow_up boolean) TO service_role;

REVOKE ALL ON FUNCTION public.export_page(export_id bigint, after_id integer, page_size integer) FROM PUBLIC;
GRANT ALL ON FUNCTION public.export_page(export_id bigint, after_id integer, page_size integer) TO authenticated;
GRANT ALL ON FUNCTION public.export_page(export_id bigint, after_id integer, page_size integer) TO service_role;

REVOKE ALL ON FUNCTION public.export_responses(export_id bigint, after_id integer, page_size integer) FROM PUBLIC;
GRANT ALL ON FUNCTION public.export_responses(export_id bigint, after_id integer, page_size integer) TO authenticated;
GRANT ALL ON FUNCTION public.export_responses(export_id bigint, after_id integer, page_size integer) TO service_role;

REVOKE ALL ON FUNCTION public.export_rows(export_filter jsonb, after_id integer, page_size integer) FROM PUBLIC;
GRANT ALL ON FUNCTION public.export_rows(export_filter jsonb, after_id integer, page_size integer) TO service_role;

REVOKE ALL ON FUNCTION public.finish_export(export_id bigint, was_cancelled boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION public.finish_export(export_id bigint, was_cancelled boolean) TO authenticated;
GRANT ALL ON FUNCTION public.finish_export(export_id bigint, was_cancelled boolean) TO service_role;

REVOKE ALL ON FUNCTION public.refuse_export_unless_allowed() FROM PUBLIC;
GRANT ALL ON FUNCTION public.refuse_export_unless_allowed() TO authenticated;
GRANT ALL ON FUNCTION public.refuse_export_unless_allowed() TO service_role;

REVOKE ALL ON FUNCTION public.touch_desk_settings() FROM PUBLIC;

GRANT SELECT ON TABLE public.desk_settings TO authenticated;
GRANT ALL ON TABLE public.desk_settings TO service_role;

GRANT SELECT ON TABLE public.export_log TO authenticated;
GRANT ALL ON TABLE public.export_log TO service_role;

-- Column privileges (hand-written: db:diff does not capture them)

GRANT UPDATE(staff_can_export) ON TABLE public.desk_settings TO authenticated;

-- Data (hand-written: db:diff does not capture rows). The one settings row.
insert into public.desk_settings default values on conflict do nothing;