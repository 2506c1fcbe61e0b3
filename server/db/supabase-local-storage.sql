-- What a hosted Supabase project's Storage already has: the `storage` schema with its buckets and
-- objects tables, as the migrations' bucket and policies expect them. Applied only with the local
-- gateway (GATEWAY=on), after supabase-local.sql, on every start; idempotent. Never part of
-- supabase/migrations.
create schema if not exists storage;
grant usage on schema storage to anon, authenticated, service_role;
