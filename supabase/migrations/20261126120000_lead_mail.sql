-- New-lead mail (issue 24): when a lead is stored, the agent gets a mail (form, name, callback
-- wish, a link to the desk), at once or as one digest a day. The mail is queued in
-- lead_mail_outbox by a trigger in the lead's own transaction, so a lead and its mail are stored
-- or lost together; the server's worker (server/jobs/lead-mail-job.ts) sends the queue after the
-- commit, retries with backoff and sends each mail once (its idempotency key names the file or
-- the SMTP Message-ID).

-- The one settings row: admins read and change it; the worker reads it as the database owner.
create table public.lead_mail_settings (
  -- One row: the primary key can only be true.
  id boolean primary key default true check (id),
  enabled boolean not null default false,
  address text check (
    address is null
    or (char_length(address) <= 254 and address ~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$')
  ),
  mode text not null default 'immediate' check (mode in ('immediate', 'digest')),
  -- The hour (Europe/Berlin) the digest goes out.
  digest_hour smallint not null default 8 check (digest_hour between 0 and 23),
  -- The Berlin day whose digest the worker has gathered (its own column; no API role writes it).
  digest_sent_on date,
  updated_at timestamptz not null default now(),
  updated_by uuid references auth.users (id) on delete set null,
  check (not enabled or address is not null)
);
insert into public.lead_mail_settings default values;

alter table public.lead_mail_settings enable row level security;
create policy lead_mail_settings_admin_read on public.lead_mail_settings for select
  to authenticated using ((select public.is_admin()));
create policy lead_mail_settings_admin_update on public.lead_mail_settings for update
  to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));

create function public.touch_lead_mail_settings() returns trigger
language plpgsql set search_path = ''
as $$
begin
  new.updated_at := now();
  new.updated_by := auth.uid();
  return new;
end;
$$;
revoke execute on function public.touch_lead_mail_settings() from public, anon, authenticated;
create trigger touch_lead_mail_settings
  before update on public.lead_mail_settings
  for each row execute function public.touch_lead_mail_settings();

revoke all on public.lead_mail_settings from public, anon, authenticated;
grant select on public.lead_mail_settings to authenticated;
grant update (enabled, address, mode, digest_hour) on public.lead_mail_settings to authenticated;
grant all on public.lead_mail_settings to service_role;

-- The queue. One row per lead (idempotency_key 'lead:<id>'); a digest's rows share its
-- digest_key ('digest:<Berlin date>') once the worker has gathered them. Rows hang off the lead
-- (on delete cascade): erasing a customer or the retention run takes a waiting mail with it.
-- last_error is a code (an SMTP reply code or a Node error code), never a message: those may
-- quote an address. Sent and given-up rows stay 30 days (the worker purges them), so a crash
-- mid-send finds the row's key and does not mail twice.
create table public.lead_mail_outbox (
  id bigint generated always as identity primary key,
  response_id integer not null references public.responses (id) on delete cascade,
  idempotency_key text not null unique,
  kind text not null check (kind in ('immediate', 'digest')),
  digest_key text,
  state text not null default 'pending' check (state in ('pending', 'sent', 'failed', 'cancelled')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  sent_at timestamptz,
  last_error text check (last_error is null or char_length(last_error) <= 64),
  created_at timestamptz not null default now()
);
create index lead_mail_outbox_due_idx on public.lead_mail_outbox (next_attempt_at, id)
  where state = 'pending';
create index lead_mail_outbox_response_idx on public.lead_mail_outbox (response_id);
create index lead_mail_outbox_digest_idx on public.lead_mail_outbox (digest_key)
  where digest_key is not null;

-- Only the server (database owner) and the service role touch the queue.
alter table public.lead_mail_outbox enable row level security;
revoke all on public.lead_mail_outbox from public, anon, authenticated;
grant all on public.lead_mail_outbox to service_role;

-- One statement per insert on responses, whatever the batch's size (the ingestion stores 1000
-- leads in one statement): one insert … select, nothing per row in plpgsql. Security definer:
-- the inserting role (the hub's connection, or the service role) needs no right on the queue.
create function public.enqueue_lead_mail() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  insert into public.lead_mail_outbox (response_id, idempotency_key, kind)
  select added.id, 'lead:' || added.id, s.mode
    from added
    cross join public.lead_mail_settings s
   where s.id and s.enabled and s.address is not null
  on conflict (idempotency_key) do nothing;
  return null;
end;
$$;
revoke execute on function public.enqueue_lead_mail() from public, anon, authenticated;
create trigger enqueue_lead_mail
  after insert on public.responses
  referencing new table as added
  for each statement execute function public.enqueue_lead_mail();

-- What the staff page shows admins about the queue: counts and the last sent mail, no lead.
create function public.lead_mail_overview()
returns table (waiting integer, failed integer, last_sent_at timestamptz)
language plpgsql stable security definer set search_path = ''
as $$
begin
  if not coalesce((select public.is_admin()), false) then
    raise exception 'Nur Admins sehen die Benachrichtigungen.' using errcode = '42501';
  end if;
  return query
    select (count(*) filter (where o.state = 'pending'))::integer,
           (count(*) filter (where o.state = 'failed'))::integer,
           max(o.sent_at)
      from public.lead_mail_outbox o;
end;
$$;
revoke execute on function public.lead_mail_overview() from public, anon;
grant execute on function public.lead_mail_overview() to authenticated, service_role;
