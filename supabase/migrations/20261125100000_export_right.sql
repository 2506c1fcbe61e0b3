-- The export right cannot be walked around (security review, item 6).
--
-- Before: begin_export checked the right, but export_leads and analysis_leads returned whole
-- lead rows to any staff account through /rest/v1/rpc, unlogged; export_responses took its filter
-- from the client on every page, and finish_export recorded whatever row count the client sent.
-- Now:
--   * analysis_leads returns only what the analysis needs (id and the two times), no personal
--     data;
--   * export_leads is no longer callable by the API roles: only begin_export and
--     export_responses (security definer, each checking the right) read it;
--   * export_responses reads the pages of one begun export, with the filter begin_export logged,
--     only for the account that began it, checking the right on every page, and counts the rows
--     it delivers into the log;
--   * finish_export records that count, not a number from the client.

drop function public.analysis_leads(date, date, integer, text);
create function public.analysis_leads(
  day_from date,
  day_to date,
  questionnaire_id integer,
  lead_channel text
) returns table (id integer, captured_at timestamptz, received_at timestamptz)
language sql stable security invoker
as $$
  select r.id, r.captured_at, r.received_at
    from public.responses r
   where coalesce(r.captured_at, r.received_at)
           >= coalesce(pg_catalog.timezone('Europe/Berlin', day_from::timestamp), '-infinity')
     and coalesce(r.captured_at, r.received_at)
           < coalesce(pg_catalog.timezone('Europe/Berlin', (day_to + 1)::timestamp), 'infinity')
     and (analysis_leads.questionnaire_id is null
          or (r.source = 'questionnaire' and r.form_id = analysis_leads.questionnaire_id))
     and (lead_channel is null or r.channel = lead_channel)
$$;
revoke execute on function public.analysis_leads(date, date, integer, text) from public, anon;
grant execute on function public.analysis_leads(date, date, integer, text)
  to authenticated, service_role;

-- The leads an export covers, whole rows: the analysis filter plus the customers screen's search
-- term. Not inlined through analysis_leads any more (that returns no personal data now); the same
-- conditions, so the planner still uses the lead-time index.
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
          or (r.source = 'questionnaire' and r.form_id = export_leads.questionnaire_id))
     and (lead_channel is null or r.channel = lead_channel)
     and (coalesce(btrim(customer_search), '') = ''
          or r.user_id in (select u.id from public.search_customers(btrim(customer_search)) u))
$$;
revoke execute on function public.export_leads(date, date, integer, text, text)
  from public, anon, authenticated;
grant execute on function public.export_leads(date, date, integer, text, text) to service_role;

alter table public.export_log add column rows_sent integer not null default 0;
comment on column public.export_log.rows_sent is
  'Rows export_responses delivered for this export, counted by the database.';

drop function public.export_responses(date, date, integer, text, text, integer, integer);

-- One page of one's own begun export: one row per lead, its answers as a list in question order.
-- Keyset paging by id (after_id) keeps every page as fast as the first.
create function public.export_responses(
  export_id bigint,
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
language plpgsql volatile security definer set search_path = ''
as $$
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
           fo.title, l.source, l.channel, l.user_id, l.salutation, l.title, l.first_name,
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
                               f ->> 'customer_search') l
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
revoke execute on function public.export_responses(bigint, integer, integer) from public, anon;
grant execute on function public.export_responses(bigint, integer, integer)
  to authenticated, service_role;

drop function public.finish_export(bigint, integer, boolean);

-- Closes the record of one's own export with the rows the database delivered for it, or marks
-- it cancelled.
create function public.finish_export(export_id bigint, was_cancelled boolean)
returns void
language plpgsql volatile security definer set search_path = ''
as $$
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
revoke execute on function public.finish_export(bigint, boolean) from public, anon;
grant execute on function public.finish_export(bigint, boolean) to authenticated, service_role;
