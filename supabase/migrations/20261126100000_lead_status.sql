-- A lead's status (issue 24): staff set it with an optional note, every change is kept with who
-- and when, the answers screen shows it with its history, the dashboard counts the leads per
-- status and Analyse shows how many leads of a period were closed. The leads stay readable and
-- writable by the API roles only through the security definer functions below, each of which
-- checks the role (20261125190000_logged_lead_reads.sql); lead_status_changes gets no privilege
-- at all, its rows come and go through these functions and the leads' cascade.

-- Who is who among the accounts that work in the desk, for every screen that names a colleague
-- (status history, follow-ups, notes): the display name, else the e-mail address. Pending
-- accounts are no colleagues yet and are left out; a caller without the role gets 42501.
create function public.staff_directory()
returns table (user_id uuid, name text, role text)
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform public.require_staff();
  return query
    select s.user_id, coalesce(s.display_name, s.email)::text, s.role::text
      from public.staff s
     where s.role in ('staff', 'admin')
     order by lower(coalesce(s.display_name, s.email)), s.user_id;
end;
$$;
revoke execute on function public.staff_directory() from public, anon;
grant execute on function public.staff_directory() to authenticated, service_role;

-- A change of a lead's status is an entry in the access log (who changed which customer's lead,
-- to what); the note is not: it may say anything about the person.
alter table public.access_log drop constraint access_log_action_check;
alter table public.access_log add constraint access_log_action_check check (action in (
  'customer_viewed', 'answers_viewed', 'customer_changed', 'customer_searched',
  'customer_exported', 'customer_erased', 'leads_exported', 'lead_deleted',
  'lead_status_changed'));

-- Sets a lead's status and records the change (with the note, trimmed; empty means none).
-- Setting the status a lead already has is a note on the lead: a history row as well, but only
-- with a note; without one nothing happens (a repeated click writes no second row). The change
-- comes back as its row (none when nothing happened).
create function public.set_lead_status(response_id integer, status text, note text default null)
returns setof public.lead_status_changes
language plpgsql volatile security definer set search_path = ''
as $$
declare
  new_status constant text := set_lead_status.status;
  clean_note constant text := nullif(btrim(set_lead_status.note), '');
  lead record;
  change public.lead_status_changes%rowtype;
begin
  perform public.require_staff();
  if new_status is null or new_status not in
       ('new', 'contacted', 'appointment', 'offer_sent', 'closed', 'no_interest') then
    raise exception 'Unbekannter Status: %', coalesce(new_status, 'leer')
      using errcode = '22023',
            hint = 'new, contacted, appointment, offer_sent, closed oder no_interest';
  end if;
  if char_length(clean_note) > 1000 then
    raise exception 'Die Notiz darf höchstens 1000 Zeichen lang sein.' using errcode = '22023';
  end if;
  select r.id, r.user_id, r.status into lead
    from public.responses r
   where r.id = set_lead_status.response_id
     for update;
  if not found then
    raise exception 'Lead nicht gefunden' using errcode = 'P0002';
  end if;
  if lead.status = new_status and clean_note is null then
    return;
  end if;
  if lead.status <> new_status then
    update public.responses r set status = new_status where r.id = lead.id;
  end if;
  insert into public.lead_status_changes (response_id, status, note, changed_by)
  values (lead.id, new_status, clean_note, auth.uid())
  returning * into change;
  perform public.log_access('lead_status_changed', lead.user_id,
                            jsonb_build_object('response_id', lead.id, 'status', new_status));
  return next change;
end;
$$;
revoke execute on function public.set_lead_status(integer, text, text) from public, anon;
grant execute on function public.set_lead_status(integer, text, text)
  to authenticated, service_role;

-- Every status change of a customer's leads, oldest first per lead, with the name of who made
-- it (null when that account is gone). Not logged: the desk reads it with the answers, whose
-- read (customer_leads) is in the log already, and it holds no contact details or answers.
create function public.lead_status_history(customer_id integer)
returns table (
  id bigint,
  response_id integer,
  status text,
  note text,
  changed_at timestamptz,
  changed_by_name text
)
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform public.require_staff();
  return query
    select c.id, c.response_id, c.status, c.note, c.changed_at,
           coalesce(s.display_name, s.email)::text
      from public.lead_status_changes c
      join public.responses r on r.id = c.response_id
      left join public.staff s on s.user_id = c.changed_by
     where r.user_id = lead_status_history.customer_id
     order by c.response_id, c.changed_at, c.id;
end;
$$;
revoke execute on function public.lead_status_history(integer) from public, anon;
grant execute on function public.lead_status_history(integer) to authenticated, service_role;

-- The dashboard's leads per status: all six, in the pipeline's order, zeros included.
create function public.lead_status_counts()
returns table (status text, leads bigint)
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform public.require_staff();
  return query
    select s.status, coalesce(c.leads, 0)::bigint
      from unnest(array['new', 'contacted', 'appointment', 'offer_sent', 'closed',
                        'no_interest']) with ordinality as s (status, position)
      left join (select r.status, count(*) as leads
                   from public.responses r
                  group by r.status) c on c.status = s.status
     order by s.position;
end;
$$;
revoke execute on function public.lead_status_counts() from public, anon;
grant execute on function public.lead_status_counts() to authenticated, service_role;

-- Analyse's "Abschlussquote": of the leads in the filter (the same period, questionnaire and
-- channel as analysis_overview), how many stand at 'closed' now. Grouped twice: by what the lead
-- came from (dimension 'form': a questionnaire by its id (form_id) and title, or a KFZ callback or a
-- contact request, which belong to no questionnaire) and by its channel (dimension 'channel':
-- web or fair_tablet). Only groups with leads; rate is closed / leads.
create function public.analysis_conversion(
  day_from date,
  day_to date,
  questionnaire_id integer default null,
  lead_channel text default null
) returns table (
  dimension text,
  source text,
  form_id integer,
  form_title text,
  channel text,
  leads bigint,
  closed bigint,
  rate double precision
)
language plpgsql stable security definer set search_path = ''
as $$
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
         and (lead_channel is null or r.channel = lead_channel)
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
revoke execute on function public.analysis_conversion(date, date, integer, text)
  from public, anon;
grant execute on function public.analysis_conversion(date, date, integer, text)
  to authenticated, service_role;

-- The customer's leads for the answers screen now carry their status. A function's result
-- columns cannot be changed in place: dropped and made again, otherwise as in
-- 20261125190000_logged_lead_reads.sql (require_staff, 'answers_viewed' in the log).
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
  status public.responses.status%type,
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
           r.phone, r.adress, r.postcode, r.city, r.status,
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
