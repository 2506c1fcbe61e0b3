-- The export's speed (issue 37): pages of up to 20,000 leads in the file's order.
--
-- export_rows is the one query behind a page: the page's leads by id (keyset paging as before),
-- their answers joined and grouped once for the whole page instead of one correlated subquery
-- per lead, each lead's answers as [question_id, question, answer] in the form's order.
-- export_page returns a page as one JSON value: PostgREST (and the local gateway) cut a function's
-- rows at max rows (1,000), never a scalar, so a page of 20,000 leads arrives whole; each lead is
-- an array of export_responses' columns in their order, without the keys repeated per lead. It
-- checks the right, locks the caller's open export and counts what it delivers, as
-- export_responses does; export_responses stays (same columns, now from export_rows).
-- Both plan each page for its own filter (plan_cache_mode force_custom_plan): from the sixth page
-- on, PL/pgSQL's generic plan of export_rows with the logged filter as a parameter took 33 s for
-- 1,000 of 30,000 leads, a custom plan milliseconds.
--
-- Hand-written (db:diff does not capture them): the comments. Plain SQL that `supabase db push`
-- runs on a hosted project as well.

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

CREATE OR REPLACE FUNCTION public.export_responses(export_id bigint, after_id integer DEFAULT 0, page_size integer DEFAULT 1000) RETURNS TABLE(response_id integer, lead_at timestamp with time zone, captured_at timestamp with time zone, received_at timestamp with time zone, form_id integer, form_title text, source public.lead_source, channel public.lead_channel, status public.lead_status, customer_id integer, salutation text, title text, first_name text, last_name text, email text, phone text, adress text, postcode text, city text, birthdate date, call_time text, existing_customer boolean, message text, offer_info boolean, terms_accepted boolean, data_processing_consent boolean, consent_version text, cookie_consent text, cookie_consent_version text, answers jsonb)
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

REVOKE ALL ON FUNCTION public.export_rows(export_filter jsonb, after_id integer, page_size integer) FROM PUBLIC, anon, authenticated;
GRANT ALL ON FUNCTION public.export_rows(export_filter jsonb, after_id integer, page_size integer) TO service_role;

REVOKE ALL ON FUNCTION public.export_page(export_id bigint, after_id integer, page_size integer) FROM PUBLIC, anon;
GRANT ALL ON FUNCTION public.export_page(export_id bigint, after_id integer, page_size integer) TO authenticated;
GRANT ALL ON FUNCTION public.export_page(export_id bigint, after_id integer, page_size integer) TO service_role;
