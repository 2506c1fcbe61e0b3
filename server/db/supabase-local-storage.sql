-- What a hosted Supabase project's Storage already has: the `storage` schema with its buckets and
-- objects tables, as the migrations' bucket and policies expect them. Applied only with the local
-- gateway (GATEWAY=on), after supabase-local.sql, on every start; idempotent. Never part of
-- supabase/migrations. Columns, indexes, helper functions and grants follow Storage's own
-- migrations, so a policy written here behaves the same on a hosted project.
create schema if not exists storage;
grant usage on schema storage to anon, authenticated, service_role;

create table if not exists storage.buckets (
  id text primary key,
  name text not null,
  owner uuid,
  owner_id text,
  public boolean default false,
  avif_autodetection boolean default false,
  file_size_limit bigint,
  allowed_mime_types text[],
  created_at timestamptz default now(),
  updated_at timestamptz default now()
);
create unique index if not exists bname on storage.buckets (name);

create table if not exists storage.objects (
  id uuid primary key default gen_random_uuid(),
  bucket_id text references storage.buckets (id),
  name text,
  owner uuid,
  owner_id text,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  last_accessed_at timestamptz default now(),
  metadata jsonb,
  user_metadata jsonb,
  path_tokens text[] generated always as (string_to_array(name, '/')) stored,
  version text
);
create unique index if not exists bucketid_objname on storage.objects (bucket_id, name);
create index if not exists name_prefix_search on storage.objects (name text_pattern_ops);

-- Without policies nobody but the service role sees a row: buckets and objects are opened by
-- the policies of supabase/migrations, exactly as on a hosted project.
alter table storage.buckets enable row level security;
alter table storage.objects enable row level security;

-- Storage grants everything on both tables to the API roles and lets row-level security decide.
grant all on storage.buckets, storage.objects to anon, authenticated, service_role;

-- Policies may split an object's name as Storage's helpers do.
create or replace function storage.foldername(name text) returns text[]
language sql immutable
as $$
  select (string_to_array(name, '/'))[1:array_length(string_to_array(name, '/'), 1) - 1]
$$;

create or replace function storage.filename(name text) returns text
language sql immutable
as $$
  select (string_to_array(name, '/'))[array_length(string_to_array(name, '/'), 1)]
$$;

create or replace function storage.extension(name text) returns text
language sql immutable
as $$
  select reverse(split_part(reverse(storage.filename(name)), '.', 1))
$$;

grant execute on function storage.foldername(text), storage.filename(text), storage.extension(text)
  to anon, authenticated, service_role;
