-- The demo generators leave the production schema: seed_demo and demo_answer make demo
-- customers, leads and answers for `npm run seed:demo`, the benches and the tests, never for a
-- real installation. supabase/seed-demo.sql defines them where demo data is wanted.
drop function if exists public.seed_demo(integer, double precision, text, integer, timestamptz);
drop function if exists public.demo_answer(text, jsonb, boolean, text, timestamptz);
