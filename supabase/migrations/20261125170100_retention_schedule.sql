-- The daily retention run on hosted Supabase: pg_cron calls apply_retention at 03:30 UTC. Only
-- where the `cron` schema exists (pg_cron enabled, see README); PGlite and a plain PostgreSQL
-- have none, and there the server's own job runs it (server/jobs/retention-job.ts). Enabling
-- pg_cron later: run the statement below once in the SQL editor.
do $$
begin
  if exists (select 1 from pg_namespace where nspname = 'cron') then
    execute $cron$
      select cron.schedule('universa-retention', '30 3 * * *',
                           'select * from public.apply_retention(now(), false)')
    $cron$;
  end if;
end;
$$;
