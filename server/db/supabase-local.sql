-- What a hosted Supabase project already has and the migrations rely on: the API roles, the
-- `auth` schema with its users table and claim helpers, and the `extensions` schema.
-- Applied only when the local gateway stands in for Supabase (GATEWAY=on); idempotent, so it
-- runs on every start before the migrations. Never part of supabase/migrations.
do $$
begin
  if not exists (select from pg_roles where rolname = 'anon') then
    create role anon nologin noinherit;
  end if;
  if not exists (select from pg_roles where rolname = 'authenticated') then
    create role authenticated nologin noinherit;
  end if;
  if not exists (select from pg_roles where rolname = 'service_role') then
    create role service_role nologin noinherit bypassrls;
  end if;
end
$$;

create schema if not exists extensions;
create schema if not exists auth;
grant usage on schema public, extensions, auth to anon, authenticated, service_role;

create table if not exists auth.users (
  id uuid primary key default gen_random_uuid(),
  aud text not null default 'authenticated',
  role text not null default 'authenticated',
  email text not null,
  encrypted_password text not null,
  email_confirmed_at timestamptz,
  confirmation_token text,
  confirmation_sent_at timestamptz,
  last_sign_in_at timestamptz,
  raw_app_meta_data jsonb not null default '{"provider":"email","providers":["email"]}',
  raw_user_meta_data jsonb not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index if not exists auth_users_email_key on auth.users (lower(email));
-- Password recovery (GoTrue's columns of the same names): the hash of the mailed link's secret,
-- and when it was sent, for its lifetime. Added separately so an existing local database gets them.
alter table auth.users add column if not exists recovery_token text;
alter table auth.users add column if not exists recovery_sent_at timestamptz;

-- GoTrue's sessions and refresh tokens, the columns the gateway uses. A refresh token is used once:
-- refreshing revokes it and issues a child (`parent`), so a reused one shows up. Neither table is
-- granted to the API roles: only the gateway's auth part reads them. Unlike GoTrue no client IP or
-- user agent is kept: nothing here needs them.
create table if not exists auth.sessions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  refreshed_at timestamptz,
  not_after timestamptz,
  aal text not null default 'aal1'
);
create index if not exists sessions_user_id_idx on auth.sessions (user_id);
-- How the session began, as its tokens' `amr` tell: 'password', or 'otp' for the session a
-- recovery link opens (GoTrue keeps this in mfa_amr_claims). A recovery session may set a new
-- password without the current one.
alter table auth.sessions add column if not exists amr_method text not null default 'password';

create table if not exists auth.refresh_tokens (
  id bigserial primary key,
  token text not null unique,
  user_id uuid not null references auth.users (id) on delete cascade,
  session_id uuid not null references auth.sessions (id) on delete cascade,
  parent text,
  revoked boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index if not exists refresh_tokens_session_id_revoked_idx
  on auth.refresh_tokens (session_id, revoked);
create index if not exists refresh_tokens_parent_idx on auth.refresh_tokens (parent);

create or replace function auth.jwt() returns jsonb
language sql stable
as $$
  select coalesce(nullif(current_setting('request.jwt.claims', true), ''), '{}')::jsonb
$$;

create or replace function auth.uid() returns uuid
language sql stable
as $$
  select nullif(auth.jwt() ->> 'sub', '')::uuid
$$;

create or replace function auth.role() returns text
language sql stable
as $$
  select nullif(auth.jwt() ->> 'role', '')
$$;

-- The local gateway's bound on one request's work (not part of Supabase; GATEWAY=on only). PGlite
-- runs every statement to its end in the server's own thread and ignores statement_timeout, so
-- each embedded row a read builds spends one unit of the budget asRole sets for the transaction,
-- and a read past it ends with an error instead of holding the server.
create schema if not exists gateway;
grant usage on schema gateway to anon, authenticated, service_role;
create or replace function gateway.spend_row() returns boolean
language plpgsql volatile
as $$
declare
  rows_left integer := coalesce(nullif(current_setting('gateway.rows_left', true), ''), '0')::integer - 1;
begin
  if rows_left < 0 then
    raise exception 'The response would embed more rows than one request may'
      using errcode = '54000',
            detail = 'At most ' || coalesce(current_setting('gateway.row_budget', true), '?')
                     || ' embedded rows per request',
            hint = 'Ask for fewer rows (limit) or embed less';
  end if;
  perform set_config('gateway.rows_left', rows_left::text, true);
  return true;
end;
$$;
grant execute on function gateway.spend_row() to anon, authenticated, service_role;
