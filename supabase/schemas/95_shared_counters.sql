-- The counters every server instance shares (server/db/shared-counters.ts): request limits per
-- client, sign-in failures and waits, the mail minute per address. Only the server reads and
-- writes them, with its own connection; the keys are keyed hashes, never an address.
--
-- Hand-written, not captured by `npm run db:diff` (add them to the migration yourself):
-- the comment.

-- Tables

CREATE TABLE public.request_counters (
    scope text NOT NULL,
    key_hash text NOT NULL,
    hits integer NOT NULL,
    started_at timestamp with time zone NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    blocked_until timestamp with time zone
);

COMMENT ON TABLE public.request_counters IS 'Counters shared by every server instance: a scope (which limit), a keyed hash of the client or address, hits since started_at; a row past expires_at counts as absent.';

ALTER TABLE ONLY public.request_counters
    ADD CONSTRAINT request_counters_pkey PRIMARY KEY (scope, key_hash);

CREATE INDEX request_counters_expires_at_idx ON public.request_counters USING btree (expires_at);

-- Row-level security

ALTER TABLE public.request_counters ENABLE ROW LEVEL SECURITY;

-- Grants

GRANT ALL ON TABLE public.request_counters TO service_role;
