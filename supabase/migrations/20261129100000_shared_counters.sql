-- The counters every server instance shares (server/db/shared-counters.ts): request limits per
-- client, sign-in failures and waits, the mail minute per address. They were in each process's
-- memory, so two instances behind one proxy doubled every limit and forgot each other's waits.
-- The keys are keyed hashes (HMAC with the server's JWT secret), never an IP or e-mail address.

create table public.request_counters (
  scope text not null,
  key_hash text not null,
  hits integer not null,
  started_at timestamptz not null,
  expires_at timestamptz not null,
  blocked_until timestamptz,
  primary key (scope, key_hash)
);
create index request_counters_expires_at_idx on public.request_counters (expires_at);
comment on table public.request_counters is 'Counters shared by every server instance: a scope (which limit), a keyed hash of the client or address, hits since started_at; a row past expires_at counts as absent.';
alter table public.request_counters enable row level security;
revoke all on public.request_counters from anon, authenticated;
grant all on public.request_counters to service_role;
