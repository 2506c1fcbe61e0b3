-- Survey Desk core: staff approval (an admin-only view of the accounts, a role setter, the last
-- admin kept) and the support form's messages. Plain SQL that `supabase db push` runs on a hosted
-- project as well: no superuser-only statements, every grant explicit.

-- The approval screen needs each account's registration and confirmation times, which live in
-- auth.users, a table `authenticated` must not read. Security definer reads it as the owner; the
-- guard lets only admins through. A refusal (42501, which PostgREST answers with 403) rather than
-- an empty list, so that a desk calling it for the wrong account fails visibly instead of showing
-- "no accounts". Pending accounts (role 'pending') are the dashboard's accounts awaiting approval.
create function public.staff_accounts()
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
    select s.user_id, coalesce(u.email, s.email), u.created_at, u.email_confirmed_at, s.role
      from public.staff s
      join auth.users u on u.id = s.user_id
     order by u.created_at, s.user_id;
end;
$$;

-- Functions are executable by PUBLIC when created; only signed-in callers get past the guard.
revoke execute on function public.staff_accounts() from public, anon;
grant execute on function public.staff_accounts() to authenticated, service_role;

-- Setting a role as one named call. Security invoker: the policies of public.staff decide as for
-- a direct update (admins only), the check constraint refuses an unknown role and the trigger
-- below keeps the last admin. The explicit guard turns what the policy would silently hide (no
-- row updated) into a refusal the desk can show.
create function public.set_staff_role(user_id uuid, role text) returns void
language plpgsql volatile security invoker set search_path = ''
as $$
begin
  if not (select public.is_admin()) then
    raise exception 'Nur Admins dürfen Rollen vergeben.' using errcode = '42501';
  end if;
  update public.staff s set role = set_staff_role.role where s.user_id = set_staff_role.user_id;
  if not found then
    raise exception 'Dieses Konto gibt es nicht.' using errcode = 'P0002';
  end if;
end;
$$;

revoke execute on function public.set_staff_role(uuid, text) from public, anon;
grant execute on function public.set_staff_role(uuid, text) to authenticated, service_role;

-- Without an admin nobody can enable accounts any more, and only the database owner could repair
-- that. So the database, not only the screen, refuses to demote or remove the last admin; this
-- also covers deleting the admin's auth.users row, whose cascade deletes the staff row.
--
-- Concurrency: two admins demoting each other at once would each still see the other as admin
-- (neither change is committed yet) and both succeed. A transaction-scoped advisory lock makes
-- such changes wait for one another; the check after it runs with a fresh snapshot (read
-- committed), so the second sees the first one's committed demotion and is refused. Not
-- `select ... for update` on the admin rows: each transaction already holds its own row's lock
-- when the trigger runs, so locking the other's row would deadlock.
--
-- SQLSTATE UL001 (a class of our own) lets the desk recognise the refusal without reading the
-- message; PostgREST answers it with 400.
create function public.keep_last_admin() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if old.role = 'admin' and (tg_op = 'DELETE' or new.role is distinct from 'admin') then
    -- Keyed by the table's oid: unique in the database, and nothing else locks on it.
    perform pg_catalog.pg_advisory_xact_lock(
      'public.staff'::pg_catalog.regclass::pg_catalog.oid::bigint
    );
    if not exists (
      select from public.staff s where s.role = 'admin' and s.user_id <> old.user_id
    ) then
      raise exception 'Der letzte Admin kann nicht entfernt oder herabgestuft werden.'
        using errcode = 'UL001',
              hint = 'Zuerst ein anderes Konto zum Admin machen.';
    end if;
  end if;
  if tg_op = 'DELETE' then
    return old;
  end if;
  return new;
end;
$$;

-- A trigger function is called by the trigger, never directly.
revoke execute on function public.keep_last_admin() from public, anon, authenticated;

create trigger keep_last_admin
  before update of role or delete on public.staff
  for each row execute function public.keep_last_admin();

-- The support form of the desk (spec: name, e-mail, message). The spec only logs it; we keep it
-- so that an admin can read it. user_id records who sent it and survives the account's deletion
-- as null; the name and e-mail are what the sender typed, as the spec's form asks for them.
create table public.support_messages (
  id bigint generated always as identity primary key,
  user_id uuid default auth.uid() references auth.users (id) on delete set null,
  name text not null check (char_length(btrim(name)) between 1 and 200),
  email text not null check (char_length(email) between 3 and 320 and email like '%_@_%'),
  message text not null
    check (char_length(btrim(message)) >= 1 and char_length(message) <= 5000),
  created_at timestamptz not null default now()
);

alter table public.support_messages enable row level security;

-- Staff and admins write (a pending account has nothing to ask support about from the desk yet),
-- only in their own name; only admins read.
create policy support_messages_staff_insert on public.support_messages for insert to authenticated
  with check ((select public.is_staff()) and user_id = (select auth.uid()));
create policy support_messages_admin_read on public.support_messages for select to authenticated
  using ((select public.is_admin()));

-- Hosted Supabase no longer grants new public tables to the API roles by itself, but a project
-- made earlier still has default privileges that grant everything: the revoke makes the grants
-- below exact in both. anon gets nothing; nobody changes or deletes a message through the API.
-- The identity's sequence needs no grant: an identity default is not checked.
revoke all on public.support_messages from anon, authenticated;
grant select, insert on public.support_messages to authenticated;
grant all on public.support_messages to service_role;
