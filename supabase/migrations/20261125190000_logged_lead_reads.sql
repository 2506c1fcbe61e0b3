-- A staff account cannot skip the access log (issue 23): the leads (responses) and their answers
-- are no longer readable or writable by the API roles directly. Every read the desk needs goes
-- through a security definer function below that checks the role itself and either writes the
-- log (a person's leads and answers, the newest lead's contact details) or returns only what a
-- list shows (counts, the newest leads' names). The same holds on hosted Supabase, where the
-- desk calls them by RPC. The desk never wrote leads or answers: leads come in through the hub,
-- which writes as the database owner, and go through delete_leads_keeping_proof.
-- The customer list (public.users) stays readable: it is the list, not a person's details.

drop policy responses_staff_all on public.responses;
drop policy answers_staff_all on public.answers;
revoke all on public.responses, public.answers from anon, authenticated;

-- The customer's leads for the answers screen, each with its questionnaire's title and its
-- answers (question as asked, in the questionnaire's current order, answers of deleted
-- questions last), and 'answers_viewed' in the log. The answers come with the lead: the caller
-- cannot embed them from the table any more.
drop function public.customer_leads(integer);
create function public.customer_leads(customer_id integer)
returns table (
  id public.responses.id%type,
  form_id public.responses.form_id%type,
  source public.responses.source%type,
  channel public.responses.channel%type,
  create_date public.responses.create_date%type,
  captured_at public.responses.captured_at%type,
  received_at public.responses.received_at%type,
  offer_info public.responses.offer_info%type,
  terms_accepted public.responses.terms_accepted%type,
  data_processing_consent public.responses.data_processing_consent%type,
  consent_version public.responses.consent_version%type,
  cookie_consent public.responses.cookie_consent%type,
  cookie_consent_version public.responses.cookie_consent_version%type,
  salutation public.responses.salutation%type,
  title public.responses.title%type,
  birthdate public.responses.birthdate%type,
  call_time public.responses.call_time%type,
  existing_customer public.responses.existing_customer%type,
  message public.responses.message%type,
  first_name public.responses.first_name%type,
  last_name public.responses.last_name%type,
  email public.responses.email%type,
  phone public.responses.phone%type,
  adress public.responses.adress%type,
  postcode public.responses.postcode%type,
  city public.responses.city%type,
  form_title text,
  answers jsonb
)
language plpgsql volatile security definer set search_path = ''
as $$
begin
  perform public.require_staff();
  perform public.log_access_once('answers_viewed', customer_leads.customer_id);
  return query
    select r.id, r.form_id, r.source, r.channel, r.create_date, r.captured_at, r.received_at,
           r.offer_info, r.terms_accepted, r.data_processing_consent, r.consent_version,
           r.cookie_consent, r.cookie_consent_version, r.salutation, r.title, r.birthdate,
           r.call_time, r.existing_customer, r.message, r.first_name, r.last_name, r.email,
           r.phone, r.adress, r.postcode, r.city,
           (select f.title from public.forms f where f.id = r.form_id)::text,
           coalesce((
             select jsonb_agg(jsonb_build_object(
                      'id', a.id, 'answer', a.answer, 'question_text', a.question_text,
                      'question_id', a.question_id,
                      'questions', case when q.id is null then null
                                        else jsonb_build_object('question', q.question,
                                                                'sequence', q.sequence) end)
                    order by q.sequence nulls last, a.id)
               from public.answers a
               left join public.questions q on q.id = a.question_id
              where a.response_id = r.id), '[]'::jsonb)
      from public.responses r
     where r.user_id = customer_leads.customer_id;
end;
$$;
revoke execute on function public.customer_leads(integer) from public, anon;
grant execute on function public.customer_leads(integer) to authenticated, service_role;

-- The contact details typed with the customer's leads (the 100 received last), for the
-- sidebar's notice of a lead whose details differ from the customer's. Part of opening the
-- details: 'customer_viewed', once a minute as open_customer writes it.
create function public.customer_lead_contacts(customer_id integer)
returns table (
  id public.responses.id%type,
  captured_at public.responses.captured_at%type,
  received_at public.responses.received_at%type,
  first_name public.responses.first_name%type,
  last_name public.responses.last_name%type,
  email public.responses.email%type,
  phone public.responses.phone%type,
  adress public.responses.adress%type,
  postcode public.responses.postcode%type,
  city public.responses.city%type
)
language plpgsql volatile security definer set search_path = ''
as $$
begin
  perform public.require_staff();
  if exists (select 1 from public.users u where u.id = customer_lead_contacts.customer_id) then
    perform public.log_access_once('customer_viewed', customer_lead_contacts.customer_id);
  end if;
  return query
    select r.id, r.captured_at, r.received_at, r.first_name, r.last_name, r.email, r.phone,
           r.adress, r.postcode, r.city
      from public.responses r
     where r.user_id = customer_lead_contacts.customer_id
     order by r.received_at desc, r.id desc
     limit 100;
end;
$$;
revoke execute on function public.customer_lead_contacts(integer) from public, anon;
grant execute on function public.customer_lead_contacts(integer) to authenticated, service_role;

-- The dashboard's newest leads: who sent which form when, as the customer list shows names.
-- Not logged: no answers, no contact details, and opening one is (open_customer).
create function public.desk_newest_leads(lead_limit integer default 5)
returns table (
  id integer,
  user_id integer,
  first_name text,
  last_name text,
  form_title text,
  received_at timestamptz
)
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform public.require_staff();
  return query
    select r.id, r.user_id, r.first_name::text, r.last_name::text,
           (select f.title from public.forms f where f.id = r.form_id)::text, r.received_at
      from public.responses r
     order by r.received_at desc, r.id desc
     limit least(greatest(coalesce(lead_limit, 5), 0), 50);
end;
$$;
revoke execute on function public.desk_newest_leads(integer) from public, anon;
grant execute on function public.desk_newest_leads(integer) to authenticated, service_role;

-- The dashboard's "Rückrufwünsche": leads received since `received_since` that name a time to
-- call back. A count only; 0 for an account without the role.
create function public.callbacks_waiting(received_since timestamptz)
returns bigint
language sql stable security definer set search_path = ''
as $$
  select count(*)
    from public.responses r
   where (select public.is_staff())
     and r.received_at >= received_since
     and r.call_time is not null
$$;
revoke execute on function public.callbacks_waiting(timestamptz) from public, anon;
grant execute on function public.callbacks_waiting(timestamptz) to authenticated, service_role;

-- Counts only, as before; security definer now, so it reads the leads itself. An account
-- without the role counts nothing (as row-level security decided before).
create or replace function public.questionnaire_lead_counts(received_since timestamptz default null)
returns table (form_id integer, leads bigint)
language sql stable security definer set search_path = ''
as $$
  select f.id, count(r.id)
    from public.forms f
    left join public.responses r
      on r.questionnaire_id = f.id
     and r.received_at >= coalesce(received_since, '-infinity')
     and (select public.is_staff())
   group by f.id
   order by f.id
$$;

-- The lead times analysis_overview shows (median wait of the leads that waited offline, first
-- and last lead of the filter, first lead ever): times only, read as the owner; nulls for an
-- account without the role. analysis_leads stays inlined into these queries.
create function public.analysis_lead_times(
  day_from date,
  day_to date,
  questionnaire_id integer,
  lead_channel text
) returns table (
  median_delay_seconds double precision,
  first_lead_at timestamptz,
  last_lead_at timestamptz,
  data_since timestamptz
)
language sql stable security definer set search_path = ''
as $$
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
revoke execute on function public.analysis_lead_times(date, date, integer, text)
  from public, anon;
grant execute on function public.analysis_lead_times(date, date, integer, text)
  to authenticated, service_role;

-- analysis_leads reads the leads as the caller: only the owner's functions and service_role.
revoke execute on function public.analysis_leads(date, date, integer, text) from authenticated;

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
         t.median_delay_seconds, t.first_lead_at, t.last_lead_at, t.data_since
    from counts c,
         public.analysis_lead_times(day_from, day_to, questionnaire_id, lead_channel) t
$$;

-- Opening a customer's details now asks two logged functions at once (open_customer and
-- customer_lead_contacts): the once-a-minute check waits for a concurrent entry of the same
-- account, action, customer and detail, so that the look is one entry, not two.
create or replace function public.log_access_once(action text, customer_id integer, detail jsonb default '{}')
returns void
language plpgsql volatile security definer set search_path = ''
as $$
begin
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended(
    concat_ws('|', 'log_access_once', auth.uid(), log_access_once.action,
              log_access_once.customer_id, coalesce(log_access_once.detail, '{}'::jsonb)), 0));
  if exists (
    select 1 from public.access_log l
     where l.user_id is not distinct from auth.uid()
       and l.action = log_access_once.action
       and l.customer_id is not distinct from log_access_once.customer_id
       and l.detail = coalesce(log_access_once.detail, '{}'::jsonb)
       and l.at > now() - interval '1 minute'
  ) then
    return;
  end if;
  perform public.log_access(action, customer_id, detail);
end;
$$;
