-- The new-lead mail: its settings and the outbox the mail job sends from.
--
-- Hand-written, not captured by `npm run db:diff` (add them to the migration yourself):
-- column privileges, the data rows at the end.

-- Tables

CREATE TABLE public.lead_mail_outbox (
    id bigint GENERATED ALWAYS AS IDENTITY,
    response_id integer NOT NULL,
    idempotency_key text NOT NULL,
    kind public.lead_mail_mode NOT NULL,
    digest_key text,
    state public.lead_mail_state DEFAULT 'pending'::public.lead_mail_state NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    next_attempt_at timestamp with time zone DEFAULT now() NOT NULL,
    sent_at timestamp with time zone,
    last_error text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT lead_mail_outbox_last_error_check CHECK (((last_error IS NULL) OR (char_length(last_error) <= 64)))
);

CREATE TABLE public.lead_mail_settings (
    id boolean DEFAULT true NOT NULL,
    enabled boolean DEFAULT false NOT NULL,
    address text,
    mode public.lead_mail_mode DEFAULT 'immediate'::public.lead_mail_mode NOT NULL,
    digest_hour smallint DEFAULT 8 NOT NULL,
    digest_sent_on date,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_by uuid,
    CONSTRAINT lead_mail_settings_address_check CHECK (((address IS NULL) OR ((char_length(address) <= 254) AND (address ~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$'::text)))),
    CONSTRAINT lead_mail_settings_check CHECK (((NOT enabled) OR (address IS NOT NULL))),
    CONSTRAINT lead_mail_settings_digest_hour_check CHECK (((digest_hour >= 0) AND (digest_hour <= 23))),
    CONSTRAINT lead_mail_settings_id_check CHECK (id)
);

ALTER TABLE ONLY public.lead_mail_outbox
    ADD CONSTRAINT lead_mail_outbox_idempotency_key_key UNIQUE (idempotency_key);

ALTER TABLE ONLY public.lead_mail_outbox
    ADD CONSTRAINT lead_mail_outbox_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.lead_mail_settings
    ADD CONSTRAINT lead_mail_settings_pkey PRIMARY KEY (id);

CREATE INDEX lead_mail_outbox_digest_idx ON public.lead_mail_outbox USING btree (digest_key) WHERE (digest_key IS NOT NULL);

CREATE INDEX lead_mail_outbox_due_idx ON public.lead_mail_outbox USING btree (next_attempt_at, id) WHERE (state = 'pending'::public.lead_mail_state);

CREATE INDEX lead_mail_outbox_response_idx ON public.lead_mail_outbox USING btree (response_id);

ALTER TABLE ONLY public.lead_mail_outbox
    ADD CONSTRAINT lead_mail_outbox_response_id_fkey FOREIGN KEY (response_id) REFERENCES public.responses(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.lead_mail_settings
    ADD CONSTRAINT lead_mail_settings_updated_by_fkey FOREIGN KEY (updated_by) REFERENCES auth.users(id) ON DELETE SET NULL;

-- Functions

CREATE FUNCTION public.enqueue_lead_mail() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  insert into public.lead_mail_outbox (response_id, idempotency_key, kind)
  select added.id, 'lead:' || added.id, s.mode
    from added
    cross join public.lead_mail_settings s
   where s.id and s.enabled and s.address is not null
  on conflict (idempotency_key) do nothing;
  return null;
end;
$$;

CREATE FUNCTION public.lead_mail_overview() RETURNS TABLE(waiting integer, failed integer, last_sent_at timestamp with time zone)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  if not coalesce((select public.is_admin()), false) then
    raise exception 'Nur Admins sehen die Benachrichtigungen.' using errcode = '42501';
  end if;
  return query
    select (count(*) filter (where o.state = 'pending'))::integer,
           (count(*) filter (where o.state = 'failed'))::integer,
           max(o.sent_at)
      from public.lead_mail_outbox o;
end;
$$;

CREATE FUNCTION public.touch_lead_mail_settings() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
begin
  new.updated_at := now();
  new.updated_by := auth.uid();
  return new;
end;
$$;

-- Triggers

CREATE TRIGGER enqueue_lead_mail AFTER INSERT ON public.responses REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION public.enqueue_lead_mail();

CREATE TRIGGER touch_lead_mail_settings BEFORE UPDATE ON public.lead_mail_settings FOR EACH ROW EXECUTE FUNCTION public.touch_lead_mail_settings();

-- Row-level security

ALTER TABLE public.lead_mail_outbox ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.lead_mail_settings ENABLE ROW LEVEL SECURITY;

CREATE POLICY lead_mail_settings_admin_read ON public.lead_mail_settings FOR SELECT TO authenticated USING (( SELECT public.is_admin() AS is_admin));

CREATE POLICY lead_mail_settings_admin_update ON public.lead_mail_settings FOR UPDATE TO authenticated USING (( SELECT public.is_admin() AS is_admin)) WITH CHECK (( SELECT public.is_admin() AS is_admin));

-- Grants

REVOKE ALL ON FUNCTION public.enqueue_lead_mail() FROM PUBLIC;

REVOKE ALL ON FUNCTION public.lead_mail_overview() FROM PUBLIC;
GRANT ALL ON FUNCTION public.lead_mail_overview() TO authenticated;
GRANT ALL ON FUNCTION public.lead_mail_overview() TO service_role;

REVOKE ALL ON FUNCTION public.touch_lead_mail_settings() FROM PUBLIC;

GRANT ALL ON TABLE public.lead_mail_outbox TO service_role;

GRANT SELECT ON TABLE public.lead_mail_settings TO authenticated;
GRANT ALL ON TABLE public.lead_mail_settings TO service_role;

-- Column privileges (hand-written: db:diff does not capture them)

GRANT UPDATE(enabled) ON TABLE public.lead_mail_settings TO authenticated;

GRANT UPDATE(address) ON TABLE public.lead_mail_settings TO authenticated;

GRANT UPDATE(mode) ON TABLE public.lead_mail_settings TO authenticated;

GRANT UPDATE(digest_hour) ON TABLE public.lead_mail_settings TO authenticated;

-- Data (hand-written: db:diff does not capture rows). The one settings row.
insert into public.lead_mail_settings default values on conflict do nothing;