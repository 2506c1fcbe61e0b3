-- Extensions: pg_trgm for the trigram indexes of the customer search (30_customers.sql).
-- Hosted Supabase keeps extensions in the schema `extensions`.
create extension if not exists pg_trgm with schema extensions;
