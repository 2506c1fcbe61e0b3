-- Retention (issue 23): what the agent may keep, and for how long, decided by the database so it
-- holds the same locally and on hosted Supabase.
--   - A customer (users) and all their leads go five years after the customer's last contact:
--     the newest of their leads' arrival (received_at) and the customer's own creation. A lead
--     without a customer goes five years after it arrived. Leads go through
--     delete_leads_keeping_proof: the Analyse figures stay, a consent to offers leaves its § 7a
--     UWG proof (consent_records), kept five more years from the deletion.
--   - A retention hold (a documented contract, a dispute) keeps a customer and their leads until
--     the hold's date (or until it is lifted).
--   - consent_records go once keep_until has passed; access_log entries after one year.
--   - Uploaded files of the `documents` bucket that no questionnaire names any more (a replaced
--     offer PDF or image, an upload never saved) go 30 days after their last upload.
-- apply_retention(p_now, p_dry_run) is the one function: the dry run (admins) lists what a run at
-- p_now would remove; the real run (the server's daily job, pg_cron, the service role) removes it
-- and records the counts in retention_runs.

-- Admins, and the service role (pg_cron and the server's own connection carry no API role at all
-- and are the owner anyway).
create function public.may_run_retention() returns boolean
language sql stable security definer set search_path = ''
as $$
  select coalesce(auth.role() = 'service_role', false) or public.is_admin()
$$;
revoke execute on function public.may_run_retention() from public, anon;
grant execute on function public.may_run_retention() to authenticated, service_role;

-- "Where a contract is documented": a hold keeps the customer and their leads past the five
-- years, until `until` (a Berlin date, inclusive) or, without one, until an admin lifts it.
create table public.retention_holds (
  id bigint generated always as identity primary key,
  customer_id integer not null references public.users (id) on delete cascade,
  reason text not null check (length(btrim(reason)) >= 3),
  until date,
  created_by uuid default auth.uid(),
  created_at timestamptz not null default now()
);
create index retention_holds_customer_idx on public.retention_holds (customer_id);
comment on table public.retention_holds is
  'Keeps a customer and their leads past the retention period (documented contract), until `until`.';

alter table public.retention_holds enable row level security;
create policy retention_holds_admin_all on public.retention_holds for all to authenticated
  using ((select public.may_run_retention()))
  with check ((select public.may_run_retention()));
-- Who set a hold, and when, is the database's to record: admins write only the hold itself.
revoke all on public.retention_holds from anon, authenticated;
grant select, delete on public.retention_holds to authenticated;
grant insert (customer_id, reason, until), update (reason, until)
  on public.retention_holds to authenticated;
grant all on public.retention_holds to service_role;

-- One row per real run: when it ran, the time it judged by (as_of: its p_now) and what it removed
-- per kind ({"leads": 3, ...}).
create table public.retention_runs (
  id bigint generated always as identity primary key,
  as_of timestamptz not null,
  started_at timestamptz not null default clock_timestamp(),
  finished_at timestamptz,
  removed jsonb not null default '{}'::jsonb
);
create index retention_runs_as_of_idx on public.retention_runs (as_of desc);

alter table public.retention_runs enable row level security;
create policy retention_runs_admin_read on public.retention_runs for select to authenticated
  using ((select public.may_run_retention()));
revoke all on public.retention_runs from anon, authenticated;
grant select on public.retention_runs to authenticated;
grant all on public.retention_runs to service_role;

-- Files whose object row a run gave up: the database cannot remove a stored body. The local
-- server's job removes them from DATA_DIR and empties this queue; on hosted Supabase the object
-- rows stay (Storage refuses direct deletes and would orphan the body) and the names wait here
-- for Storage's API (README).
create table public.retention_file_queue (
  id bigint generated always as identity primary key,
  bucket_id text not null,
  name text not null,
  version text,
  queued_at timestamptz not null default now(),
  unique (bucket_id, name)
);
alter table public.retention_file_queue enable row level security;
revoke all on public.retention_file_queue from anon, authenticated;
grant all on public.retention_file_queue to service_role;

-- What a run at p_now removes, one row per kind (leads, answers, customers, consent_records,
-- files, access_log) with the number of items and the oldest date among them (the date each
-- item's period runs from: arrival, last contact, deletion of its lead, upload, entry). The dry
-- run only computes; the real run computes the same and then removes exactly that.
create function public.apply_retention(
  p_now timestamptz default now(),
  p_dry_run boolean default true
)
returns table (kind text, items integer, oldest timestamptz)
language plpgsql volatile security definer set search_path = ''
as $$
#variable_conflict use_column
declare
  contact_cutoff timestamptz := p_now - interval '5 years';
  file_cutoff timestamptz := p_now - interval '30 days';
  log_cutoff timestamptz := p_now - interval '1 year';
  berlin_day date := (p_now at time zone 'Europe/Berlin')::date;
  customer_ids integer[];
  lead_ids integer[];
  file_ids uuid[];
  public_path constant text := '/object/public/documents/';
  run_id bigint;
  result jsonb;
begin
  -- Admins may look; only the service role, pg_cron and the server (no API role) remove.
  if auth.role() is not null and not public.may_run_retention() then
    raise exception 'Nur Admins sehen, was die Aufbewahrung löscht.' using errcode = '42501';
  end if;
  if not p_dry_run and auth.role() is not null and auth.role() <> 'service_role' then
    raise exception 'Löschen nach Aufbewahrungsfrist darf nur der Server.' using errcode = '42501';
  end if;
  -- One run at a time; a dry run waits for a real one and then sees what is left.
  perform pg_advisory_xact_lock(hashtext('public.apply_retention'));

  select coalesce(array_agg(u.id), '{}') into customer_ids
    from public.users u
   where greatest(u.created_at,
                  (select max(r.received_at) from public.responses r where r.user_id = u.id))
         < contact_cutoff
     and not exists (select 1 from public.retention_holds h
                      where h.customer_id = u.id and (h.until is null or h.until >= berlin_day));

  select coalesce(array_agg(r.id), '{}') into lead_ids
    from public.responses r
   where r.user_id = any (customer_ids)
      or (r.user_id is null and r.received_at < contact_cutoff);

  -- A file is named by forms.document (its object name) or forms.image (its public address).
  select coalesce(array_agg(o.id), '{}') into file_ids
    from storage.objects o
   where o.bucket_id = 'documents'
     and coalesce(o.updated_at, o.created_at) < file_cutoff
     and not exists (
       select 1 from public.forms f
        where f.document = o.name
           or right(f.image, length(public_path || o.name)) = public_path || o.name);

  -- Counted before anything is removed, so the real run reports what the dry run lists.
  select jsonb_agg(jsonb_build_object('kind', k.kind, 'items', k.items, 'oldest', k.oldest)
                   order by k.position)
    into result
    from (
      select 1 as position, 'leads' as kind, count(*)::integer as items,
             min(r.received_at) as oldest
        from public.responses r where r.id = any (lead_ids)
      union all
      select 2, 'answers', count(*)::integer, min(a.created_at)
        from public.answers a where a.response_id = any (lead_ids)
      union all
      select 3, 'customers', count(*)::integer,
             min(greatest(u.created_at,
                          (select max(r.received_at) from public.responses r
                            where r.user_id = u.id)))
        from public.users u where u.id = any (customer_ids)
      union all
      select 4, 'consent_records', count(*)::integer, min(c.lead_deleted_at)
        from public.consent_records c where c.keep_until <= p_now
      union all
      select 5, 'files', count(*)::integer, min(coalesce(o.updated_at, o.created_at))
        from storage.objects o where o.id = any (file_ids)
      union all
      select 6, 'access_log', count(*)::integer, min(l.at)
        from public.access_log l where l.at < log_cutoff
    ) k;

  if not p_dry_run then
    insert into public.retention_runs (as_of) values (p_now) returning id into run_id;

    -- Proof whose own period has ended first: the proof left by today's leads starts its five
    -- years now.
    delete from public.consent_records c where c.keep_until <= p_now;
    perform public.delete_leads_keeping_proof(lead_ids, p_now);
    delete from public.users u where u.id = any (customer_ids);

    insert into public.retention_file_queue (bucket_id, name, version)
    select o.bucket_id, o.name, o.version from storage.objects o where o.id = any (file_ids)
    on conflict (bucket_id, name) do update set version = excluded.version;
    -- Only the local gateway's emulation (it has no storage.migrations) may lose the rows here:
    -- hosted Storage keeps the file's body apart and must remove both through its API.
    if to_regclass('storage.migrations') is null then
      delete from storage.objects o where o.id = any (file_ids);
    end if;

    delete from public.access_log l where l.at < log_cutoff;

    update public.retention_runs
       set finished_at = clock_timestamp(),
           removed = (select jsonb_object_agg(e ->> 'kind', (e ->> 'items')::integer)
                        from jsonb_array_elements(result) e)
     where id = run_id;
  end if;

  return query
    select e.kind, e.items, e.oldest
      from rows from (jsonb_to_recordset(result) as (kind text, items integer, oldest timestamptz))
           with ordinality as e(kind, items, oldest, n)
     order by e.n;
end;
$$;
revoke execute on function public.apply_retention(timestamptz, boolean) from public, anon;
grant execute on function public.apply_retention(timestamptz, boolean)
  to authenticated, service_role;
