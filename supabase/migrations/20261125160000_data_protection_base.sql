-- Data protection you can prove (issue 23): what retention, a person's erasure and the access log
-- share.
--   - delete_leads_keeping_proof: the one way leads are deleted for data protection. The Analyse
--     counters keep counting them (a lead received stays a lead received, DESIGN: figures never
--     move backwards), and a lead with consent to offers leaves its consent record behind
--     (§ 7a UWG: proof kept five years after its last use).
--   - access_log: who read, changed, exported or erased what, written only by security definer
--     functions and triggers, so a staff account can neither skip nor rewrite it.

-- § 7a UWG proof of a consent whose lead is gone. No name, no address: the e-mail address and
-- phone number only as SHA-256, enough to answer "did this address consent, and to which text?".
create table public.consent_records (
  id bigint generated always as identity primary key,
  client_id uuid not null unique,
  email_sha256 text not null,
  phone_sha256 text,
  form_id integer,
  source text not null,
  consent_version text,
  offer_info boolean not null,
  terms_accepted boolean not null,
  data_processing_consent boolean not null,
  cookie_consent text,
  cookie_consent_version text,
  given_at timestamptz not null,
  lead_deleted_at timestamptz not null,
  keep_until timestamptz not null
);
create index consent_records_keep_until_idx on public.consent_records (keep_until);
create index consent_records_email_idx on public.consent_records (email_sha256);
comment on table public.consent_records is
  'Proof of consent to offers (§ 7a UWG) kept after its lead was deleted, until keep_until.';

alter table public.consent_records enable row level security;
create policy consent_records_admin_read on public.consent_records for select to authenticated
  using ((select public.is_admin()));
revoke all on public.consent_records from anon, authenticated;
grant select on public.consent_records to authenticated;
grant all on public.consent_records to service_role;

-- Lower-cased, trimmed, SHA-256 in hex: the same text for the same address however it was typed.
create function public.contact_sha256(contact text) returns text
language sql immutable set search_path = ''
as $$
  select case when nullif(btrim(contact), '') is null then null
              else encode(sha256(convert_to(lower(btrim(contact)), 'UTF8')), 'hex') end
$$;

-- The Analyse counters skip a delete made with app.keep_figures on: set only (transaction-local)
-- by delete_leads_keeping_proof, which the API roles cannot call; PostgREST exposes no set_config.
create function public.keeping_figures() returns boolean
language sql stable set search_path = ''
as $$
  select coalesce(current_setting('app.keep_figures', true), '') = 'on'
$$;

create or replace function public.analysis_count_lead() returns trigger
language plpgsql security definer set search_path = ''
as $$
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

create or replace function public.analysis_count_answer() returns trigger
language plpgsql security definer set search_path = ''
as $$
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

create or replace function public.analysis_move_lead_answers() returns trigger
language plpgsql security definer set search_path = ''
as $$
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

-- Deletes the leads (their answers by cascade) and returns how many went. The counters stay; a
-- lead with consent to offers leaves its consent record, kept five years from now (its last
-- possible use was today).
create function public.delete_leads_keeping_proof(lead_ids integer[], deleted_at timestamptz)
returns integer
language plpgsql volatile security definer set search_path = ''
as $$
declare
  deleted integer;
begin
  insert into public.consent_records
    (client_id, email_sha256, phone_sha256, form_id, source, consent_version, offer_info,
     terms_accepted, data_processing_consent, cookie_consent, cookie_consent_version, given_at,
     lead_deleted_at, keep_until)
  select r.client_id, public.contact_sha256(r.email), public.contact_sha256(r.phone), r.form_id,
         r.source, r.consent_version, r.offer_info, r.terms_accepted, r.data_processing_consent,
         r.cookie_consent, r.cookie_consent_version, coalesce(r.captured_at, r.received_at),
         deleted_at, deleted_at + interval '5 years'
    from public.responses r
   where r.id = any (lead_ids) and r.offer_info
  on conflict (client_id) do nothing;

  perform set_config('app.keep_figures', 'on', true);
  delete from public.responses r where r.id = any (lead_ids);
  get diagnostics deleted = row_count;
  perform set_config('app.keep_figures', 'off', true);
  return deleted;
end;
$$;
revoke execute on function public.delete_leads_keeping_proof(integer[], timestamptz)
  from public, anon, authenticated;
grant execute on function public.delete_leads_keeping_proof(integer[], timestamptz) to service_role;

-- Accountability (Art. 5(2), 30, 32 DSGVO): who opened, changed, searched, exported or erased
-- which customer, and when. customer_id has no foreign key: the entry outlives an erased customer
-- and proves the erasure; staff_email is the account's address at the time (the account may go).
create table public.access_log (
  id bigint generated always as identity primary key,
  at timestamptz not null default now(),
  user_id uuid,
  staff_email text,
  action text not null check (action in (
    'customer_viewed', 'answers_viewed', 'customer_changed', 'customer_searched',
    'customer_exported', 'customer_erased', 'leads_exported', 'lead_deleted')),
  customer_id integer,
  detail jsonb not null default '{}'::jsonb
);
create index access_log_at_idx on public.access_log (at desc, id desc);
create index access_log_customer_idx on public.access_log (customer_id, at desc);
create index access_log_user_idx on public.access_log (user_id, at desc);

alter table public.access_log enable row level security;
create policy access_log_admin_read on public.access_log for select to authenticated
  using ((select public.is_admin()));
-- Nobody rewrites the record: the API roles may only read (admins, by the policy above).
revoke all on public.access_log from anon, authenticated;
grant select on public.access_log to authenticated;
grant all on public.access_log to service_role;

-- Writes one entry as the calling account. Callable only from security definer code.
create function public.log_access(action text, customer_id integer, detail jsonb default '{}')
returns void
language sql volatile security definer set search_path = ''
as $$
  insert into public.access_log (user_id, staff_email, action, customer_id, detail)
  select auth.uid(), (select s.email from public.staff s where s.user_id = auth.uid()),
         log_access.action, log_access.customer_id, coalesce(log_access.detail, '{}'::jsonb)
$$;
revoke execute on function public.log_access(text, integer, jsonb)
  from public, anon, authenticated;
grant execute on function public.log_access(text, integer, jsonb) to service_role;
