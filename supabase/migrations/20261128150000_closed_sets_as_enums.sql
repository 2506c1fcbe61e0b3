-- Closed sets as enums: every text column whose CHECK allowed a fixed list of values becomes a
-- PostgreSQL enum, so the generated types (src/domain/database.types.ts) carry the union and
-- Constants.public.Enums lists the values at run time. The values, their spelling and the JSON on
-- the wire stay as they are; a value outside the set is refused as before, now with 22P02
-- (invalid_text_representation) where the CHECK gave 23514: both are 400 through PostgREST and
-- the local gateway.
--
-- Enums and the columns that carry them:
--   question_type          questions.type
--   lead_source            responses.source
--   lead_channel           responses.channel
--   lead_status            responses.status, lead_status_changes.status
--   follow_up_change_kind  follow_up_changes.kind
--   export_scope           export_log.scope
--   export_format          export_log.format
--   access_action          access_log.action
--   lead_mail_mode         lead_mail_settings.mode, lead_mail_outbox.kind
--   lead_mail_state        lead_mail_outbox.state
--   staff_role             staff.role
--   analysis_bucket        questions.analysis_bucket
--
-- Sets that stay text (most with a CHECK), and why:
--   users.staff_edited, follow_up_changes.changed_fields: arrays of column names of another
--     table (which fields staff edited or a change touched); their values follow the columns,
--     not a domain of their own.
--   consent_records.source: the proof kept after a lead is deleted; it records the value the
--     lead had when it was stored and must keep it even if the set of sources changes later.
--   analysis_daily_leads.source/channel, analysis_daily_answers.source/channel/kind: counters
--     that only the triggers write from the columns above (no client writes or filters them by
--     these columns); the functions comparing them with their text arguments stay as they are.
--
-- A column's CHECK, default, the triggers and the generated column naming it are dropped and
-- put back around the change of type (PostgreSQL refuses to change the type of a column a
-- trigger's column list or a generated column uses, and re-reads a CHECK comparing with text).
-- Functions whose signature returns these columns (through %type, and export_responses) are
-- dropped and created again (a changed return type needs it; their grants are restated); the
-- others keep their text arguments and results and cast where they meet the enum columns. Plain
-- SQL, for the local runner and `supabase db push` alike.

create type public.question_type as enum ('multiple-choice', 'input');
create type public.lead_source as enum ('questionnaire', 'kfz', 'contact');
create type public.lead_channel as enum ('web', 'fair_tablet');
create type public.lead_status as enum (
  'new', 'contacted', 'appointment', 'offer_sent', 'closed', 'no_interest'
);
create type public.follow_up_change_kind as enum ('changed', 'done', 'reopened');
create type public.export_scope as enum ('customers', 'analysis');
create type public.export_format as enum ('csv', 'xlsx');
create type public.access_action as enum (
  'customer_viewed', 'answers_viewed', 'customer_changed', 'customer_searched',
  'customer_exported', 'customer_erased', 'leads_exported', 'lead_deleted', 'lead_status_changed'
);
create type public.lead_mail_mode as enum ('immediate', 'digest');
create type public.lead_mail_state as enum ('pending', 'sent', 'failed', 'cancelled');
create type public.staff_role as enum ('pending', 'staff', 'admin');
create type public.analysis_bucket as enum ('birth_decade');

-- questions
alter table public.questions
  drop constraint questions_type_check,
  drop constraint questions_analysis_bucket_check;
alter table public.questions
  alter column type type public.question_type using type::public.question_type,
  alter column analysis_bucket type public.analysis_bucket
    using analysis_bucket::public.analysis_bucket;

-- staff: the trigger keeping the last admin names role. staff_role() (and with it is_staff()
-- and is_admin(), which every policy asks) keeps answering text.
drop trigger keep_last_admin on public.staff;
alter table public.staff
  drop constraint staff_role_check,
  alter column role drop default;
alter table public.staff
  alter column role type public.staff_role using role::public.staff_role,
  alter column role set default 'pending';
create trigger keep_last_admin
  before update of role or delete on public.staff
  for each row execute function public.keep_last_admin();

-- responses: the generated questionnaire_id reads source, two triggers name source and channel.
drop trigger analysis_move_lead_answers_update on public.responses;
drop trigger analysis_count_lead_update on public.responses;
alter table public.responses drop column questionnaire_id;
alter table public.responses
  drop constraint responses_source_check,
  drop constraint responses_channel_check,
  drop constraint responses_status_check,
  alter column channel drop default,
  alter column status drop default;
alter table public.responses
  alter column source type public.lead_source using source::public.lead_source,
  alter column channel type public.lead_channel using channel::public.lead_channel,
  alter column status type public.lead_status using status::public.lead_status,
  alter column channel set default 'web',
  alter column status set default 'new';

-- lead_questionnaire_id(text, integer) stays for the counters' text source; this one is the
-- same rule for the enum (an enum's text is not immutable, so a cast cannot stand in for it).
create function public.lead_questionnaire_id(source public.lead_source, form_id integer)
returns integer
language sql immutable parallel safe
as $$
  select case when source = 'questionnaire' then form_id end
$$;
comment on function public.lead_questionnaire_id(public.lead_source, integer) is
  'The questionnaire a lead belongs to: its form when it came from a questionnaire, else null (KFZ and contact leads are stored under form 1 but belong to no questionnaire).';
revoke execute on function public.lead_questionnaire_id(public.lead_source, integer)
  from public, anon;
grant execute on function public.lead_questionnaire_id(public.lead_source, integer)
  to authenticated, service_role;

alter table public.responses
  add column questionnaire_id integer
    generated always as (public.lead_questionnaire_id(source, form_id)) stored;
comment on column public.responses.questionnaire_id is
  'lead_questionnaire_id(source, form_id): the questionnaire this lead counts for, null for KFZ and contact leads.';
create index responses_questionnaire_received_idx
  on public.responses (questionnaire_id, received_at desc)
  where questionnaire_id is not null;

create trigger analysis_move_lead_answers_update
  after update of captured_at, received_at, source, channel on public.responses
  for each row
  when (public.analysis_lead_day(old.captured_at, old.received_at)
          is distinct from public.analysis_lead_day(new.captured_at, new.received_at)
        or old.source is distinct from new.source
        or old.channel is distinct from new.channel)
  execute function public.analysis_move_lead_answers();
create trigger analysis_count_lead_update
  after update of captured_at, received_at, form_id, source, channel, offer_info, waited_offline
  on public.responses
  for each row execute function public.analysis_count_lead();

-- lead_status_changes, follow_up_changes, export_log, access_log
alter table public.lead_status_changes drop constraint lead_status_changes_status_check;
alter table public.lead_status_changes
  alter column status type public.lead_status using status::public.lead_status;

alter table public.follow_up_changes drop constraint follow_up_changes_kind_check;
alter table public.follow_up_changes
  alter column kind type public.follow_up_change_kind using kind::public.follow_up_change_kind;

alter table public.export_log
  drop constraint export_log_scope_check,
  drop constraint export_log_format_check;
alter table public.export_log
  alter column scope type public.export_scope using scope::public.export_scope,
  alter column format type public.export_format using format::public.export_format;

alter table public.access_log drop constraint access_log_action_check;
alter table public.access_log
  alter column action type public.access_action using action::public.access_action;

-- lead mail: the job's partial index reads state.
alter table public.lead_mail_settings
  drop constraint lead_mail_settings_mode_check,
  alter column mode drop default;
alter table public.lead_mail_settings
  alter column mode type public.lead_mail_mode using mode::public.lead_mail_mode,
  alter column mode set default 'immediate';

drop index public.lead_mail_outbox_due_idx;
alter table public.lead_mail_outbox
  drop constraint lead_mail_outbox_kind_check,
  drop constraint lead_mail_outbox_state_check,
  alter column state drop default;
alter table public.lead_mail_outbox
  alter column kind type public.lead_mail_mode using kind::public.lead_mail_mode,
  alter column state type public.lead_mail_state using state::public.lead_mail_state,
  alter column state set default 'pending';
create index lead_mail_outbox_due_idx
  on public.lead_mail_outbox (next_attempt_at, id) where state = 'pending';

-- Functions returning these columns through %type: their results become the enums.
drop function public.desk_customer_list(text, integer, text, text, date, date, boolean);
drop function public.customer_list(text, integer, text, text, date, date, boolean);
drop function public.customer_leads(integer);
drop function public.customer_lead_statuses(integer[]);

create function public.customer_lead_statuses(customer_ids integer[])
returns table (
  customer_id public.users.id%type,
  lead_status public.responses.status%type,
  last_lead_at public.responses.received_at%type
)
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform public.require_staff();
  return query
    select c.id, n.status, n.received_at
      from unnest(customer_lead_statuses.customer_ids[1:100]) as c(id)
      join lateral (
        select r.status, r.received_at from public.responses r
         where r.user_id = c.id
         order by r.received_at desc, r.id desc
         limit 1) n on true;
end;
$$;
revoke execute on function public.customer_lead_statuses(integer[]) from public, anon;
grant execute on function public.customer_lead_statuses(integer[]) to authenticated, service_role;

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

-- The filters stay text (source is a channel or a source); checked before they are cast.
create function public.customer_list(
  term text default '',
  form_id integer default null,
  source text default null,
  status text default null,
  received_from date default null,
  received_to date default null,
  open_follow_up boolean default null
) returns table (
  id public.users.id%type,
  first_name public.users.first_name%type,
  last_name public.users.last_name%type,
  email public.users.email%type,
  phone public.users.phone%type,
  adress public.users.adress%type,
  postcode public.users.postcode%type,
  city public.users.city%type,
  created_at public.users.created_at%type,
  updated_at public.users.updated_at%type,
  lead_status public.responses.status%type,
  last_lead_at public.responses.received_at%type
)
language plpgsql stable security definer set search_path = ''
as $$
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
    -- Every lead counts: each customer's newest, looked up per customer.
    query := format(
      $q$select u.id, u.first_name, u.last_name, u.email, u.phone, u.adress, u.postcode, u.city,
                u.created_at, u.updated_at, n.status, n.received_at
           from %s
           left join lateral (
             select r.status, r.received_at from public.responses r
              where r.user_id = u.id
              order by r.received_at desc, r.id desc
              limit 1) n on true
          where true$q$,
      customers);
  else
    -- The matching leads first (through the filter's index), the newest per customer, then
    -- their customers: one pass over the leads, also when most of them match.
    query := format(
      $q$select u.id, u.first_name, u.last_name, u.email, u.phone, u.adress, u.postcode, u.city,
                u.created_at, u.updated_at, n.status, n.received_at
           from (select distinct on (r.user_id) r.user_id, r.status, r.received_at
                   from public.responses r
                  where r.user_id is not null and %s
                  order by r.user_id, r.received_at desc, r.id desc) n
           join %s on u.id = n.user_id
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
$$;
revoke execute on function public.customer_list(text, integer, text, text, date, date, boolean)
  from public, anon;
grant execute on function public.customer_list(text, integer, text, text, date, date, boolean)
  to authenticated, service_role;

create function public.desk_customer_list(
  term text default '',
  form_id integer default null,
  source text default null,
  status text default null,
  received_from date default null,
  received_to date default null,
  open_follow_up boolean default null
) returns table (
  id public.users.id%type,
  first_name public.users.first_name%type,
  last_name public.users.last_name%type,
  email public.users.email%type,
  phone public.users.phone%type,
  adress public.users.adress%type,
  postcode public.users.postcode%type,
  city public.users.city%type,
  created_at public.users.created_at%type,
  updated_at public.users.updated_at%type,
  lead_status public.responses.status%type,
  last_lead_at public.responses.received_at%type
)
language plpgsql volatile security definer set search_path = ''
as $$
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
revoke execute on function public.desk_customer_list(text, integer, text, text, date, date, boolean)
  from public, anon;
grant execute on function public.desk_customer_list(text, integer, text, text, date, date, boolean)
  to authenticated, service_role;

-- export_responses returns the lead's source and channel as they are stored.
drop function public.export_responses(bigint, integer, integer);
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
  source public.lead_source,
  channel public.lead_channel,
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

-- Text arguments and results as before, cast where they meet the enum columns.
create or replace function public.staff_role() returns text
language sql stable security definer set search_path = ''
as $$
  select role::text from public.staff where user_id = (select auth.uid())
$$;

create or replace function public.set_staff_role(user_id uuid, role text) returns void
language plpgsql volatile security invoker set search_path = ''
as $$
begin
  if not (select public.is_admin()) then
    raise exception 'Nur Admins dürfen Rollen vergeben.' using errcode = '42501';
  end if;
  update public.staff s set role = set_staff_role.role::public.staff_role
   where s.user_id = set_staff_role.user_id;
  if not found then
    raise exception 'Dieses Konto gibt es nicht.' using errcode = 'P0002';
  end if;
end;
$$;

create or replace function public.staff_accounts()
returns table (
  user_id uuid,
  email text,
  registered_at timestamptz,
  confirmed_at timestamptz,
  role text
)
language plpgsql stable security definer set search_path = ''
as $$
begin
  if not (select public.is_admin()) then
    raise exception 'Nur Admins dürfen die Mitarbeiterkonten sehen.' using errcode = '42501';
  end if;
  return query
    select s.user_id, coalesce(u.email, s.email), u.created_at, u.email_confirmed_at, s.role::text
      from public.staff s
      join auth.users u on u.id = s.user_id
     order by u.created_at, s.user_id;
end;
$$;

create or replace function public.set_lead_status(response_id integer, status text, note text default null)
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
  if lead.status::text = new_status and clean_note is null then
    return;
  end if;
  if lead.status::text <> new_status then
    update public.responses r set status = new_status::public.lead_status where r.id = lead.id;
  end if;
  insert into public.lead_status_changes (response_id, status, note, changed_by)
  values (lead.id, new_status::public.lead_status, clean_note, auth.uid())
  returning * into change;
  perform public.log_access('lead_status_changed', lead.user_id,
                            jsonb_build_object('response_id', lead.id, 'status', new_status));
  return next change;
end;
$$;

create or replace function public.lead_status_counts()
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
                  group by r.status) c on c.status::text = s.status
     order by s.position;
end;
$$;

create or replace function public.lead_status_history(customer_id integer)
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
    select c.id, c.response_id, c.status::text, c.note, c.changed_at,
           coalesce(s.display_name, s.email)::text
      from public.lead_status_changes c
      join public.responses r on r.id = c.response_id
      left join public.staff s on s.user_id = c.changed_by
     where r.user_id = lead_status_history.customer_id
     order by c.response_id, c.changed_at, c.id;
end;
$$;

create or replace function public.analysis_conversion(
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

create or replace function public.analysis_leads(
  day_from date,
  day_to date,
  questionnaire_id integer,
  lead_channel text
) returns table (
  id integer,
  captured_at timestamptz,
  received_at timestamptz,
  waited_offline boolean
)
language sql stable security invoker
as $$
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
          or r.questionnaire_id = export_leads.questionnaire_id)
     and (lead_channel is null or r.channel::text = lead_channel)
     and (coalesce(btrim(customer_search), '') = ''
          or r.user_id in (select u.id from public.search_customers(btrim(customer_search)) u))
$$;

create or replace function public.begin_export(
  export_scope text,
  export_format text,
  day_from date default null,
  day_to date default null,
  questionnaire_id integer default null,
  lead_channel text default null,
  customer_search text default null
) returns table (export_id bigint, row_count bigint)
language plpgsql volatile security definer set search_path = ''
as $$
declare
  total bigint;
  new_id bigint;
begin
  perform public.refuse_export_unless_allowed();
  select count(*) into total
    from public.export_leads(day_from, day_to, questionnaire_id, lead_channel, customer_search);
  insert into public.export_log (user_id, email, scope, format, filter, row_count)
  values (
    auth.uid(),
    (select s.email from public.staff s where s.user_id = auth.uid()),
    export_scope::public.export_scope,
    export_format::public.export_format,
    jsonb_strip_nulls(jsonb_build_object(
      'day_from', day_from, 'day_to', day_to, 'questionnaire_id', questionnaire_id,
      'lead_channel', lead_channel, 'customer_search', nullif(btrim(customer_search), '')
    )),
    total
  )
  returning id into new_id;
  return query select new_id, total;
end;
$$;

create or replace function public.log_access(action text, customer_id integer, detail jsonb default '{}')
returns void
language sql volatile security definer set search_path = ''
as $$
  insert into public.access_log (user_id, staff_email, action, customer_id, detail)
  select auth.uid(), (select s.email from public.staff s where s.user_id = auth.uid()),
         log_access.action::public.access_action, log_access.customer_id,
         coalesce(log_access.detail, '{}'::jsonb)
$$;

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
       and l.action::text = log_access_once.action
       and l.customer_id is not distinct from log_access_once.customer_id
       and l.detail = coalesce(log_access_once.detail, '{}'::jsonb)
       and l.at > now() - interval '1 minute'
  ) then
    return;
  end if;
  perform public.log_access(action, customer_id, detail);
end;
$$;

create or replace function public.analysis_add_answer(
  answer_response_id integer,
  answer_question_id integer,
  answer_text text,
  sign integer
) returns void
language plpgsql security definer set search_path = ''
as $$
begin
  insert into public.analysis_daily_answers as d
    (question_id, day, source, channel, kind, value, n)
  select q.id, public.analysis_lead_day(r.captured_at, r.received_at), r.source, r.channel,
         i.kind, i.value, sign * i.n
    from public.responses r, public.questions q,
         public.analysis_answer_items(q.type::text, q."multipleAnswers", q.options,
                                      q.analysis_bucket::text, answer_text) i
   where r.id = answer_response_id and q.id = answer_question_id
  on conflict (question_id, day, source, channel, kind, md5(value))
    do update set n = d.n + excluded.n;
end;
$$;

create or replace function public.analysis_add_lead_answers(r public.responses, sign integer)
returns void
language plpgsql security definer set search_path = ''
as $$
begin
  insert into public.analysis_daily_answers as d
    (question_id, day, source, channel, kind, value, n)
  select a.question_id, public.analysis_lead_day(r.captured_at, r.received_at), r.source,
         r.channel, i.kind, i.value, sign * sum(i.n)
    from public.answers a
    join public.questions q on q.id = a.question_id
    cross join lateral public.analysis_answer_items(
      q.type::text, q."multipleAnswers", q.options, q.analysis_bucket::text, a.answer) i
   where a.response_id = r.id
   group by a.question_id, i.kind, i.value
  on conflict (question_id, day, source, channel, kind, md5(value))
    do update set n = d.n + excluded.n;
end;
$$;

create or replace function public.analysis_count_added_answers() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  insert into public.analysis_daily_answers as d
    (question_id, day, source, channel, kind, value, n)
  select a.question_id, public.analysis_lead_day(r.captured_at, r.received_at), r.source,
         r.channel, i.kind, i.value, sum(i.n)
    from added_answers a
    join public.responses r on r.id = a.response_id
    join public.questions q on q.id = a.question_id
    cross join lateral public.analysis_answer_items(
      q.type::text, q."multipleAnswers", q.options, q.analysis_bucket::text, a.answer) i
   group by 1, 2, 3, 4, 5, 6
  on conflict (question_id, day, source, channel, kind, md5(value))
    do update set n = d.n + excluded.n;
  return null;
end;
$$;

create or replace function public.analysis_count_removed_answers() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if public.keeping_figures() then
    return null;
  end if;
  insert into public.analysis_daily_answers as d
    (question_id, day, source, channel, kind, value, n)
  select a.question_id, public.analysis_lead_day(r.captured_at, r.received_at), r.source,
         r.channel, i.kind, i.value, -sum(i.n)
    from removed_answers a
    join public.responses r on r.id = a.response_id
    -- A question deleted in the same statement took its counters along.
    join public.questions q on q.id = a.question_id
    cross join lateral public.analysis_answer_items(
      q.type::text, q."multipleAnswers", q.options, q.analysis_bucket::text, a.answer) i
   group by 1, 2, 3, 4, 5, 6
  on conflict (question_id, day, source, channel, kind, md5(value))
    do update set n = d.n + excluded.n;
  return null;
end;
$$;
