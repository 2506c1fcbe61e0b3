-- The support inbox: messages from the public site, read and done by staff.
--
-- Hand-written, not captured by `npm run db:diff` (add them to the migration yourself):
-- column privileges.

-- Tables

CREATE TABLE public.support_messages (
    id bigint GENERATED ALWAYS AS IDENTITY,
    user_id uuid DEFAULT auth.uid(),
    name text NOT NULL,
    email text NOT NULL,
    message text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    read_at timestamp with time zone,
    read_by uuid,
    done_at timestamp with time zone,
    done_by uuid,
    CONSTRAINT support_messages_email_check CHECK (((char_length(email) BETWEEN 3 AND 320) AND (email ~~ '%_@_%'::text))),
    CONSTRAINT support_messages_message_check CHECK (((char_length(btrim(message)) >= 1) AND (char_length(message) <= 5000))),
    CONSTRAINT support_messages_name_check CHECK (((char_length(btrim(name)) >= 1) AND (char_length(btrim(name)) <= 200)))
);

ALTER TABLE ONLY public.support_messages
    ADD CONSTRAINT support_messages_pkey PRIMARY KEY (id);

CREATE INDEX support_messages_done_idx ON public.support_messages USING btree (done_at DESC, id DESC) WHERE (done_at IS NOT NULL);

CREATE INDEX support_messages_open_idx ON public.support_messages USING btree (created_at DESC, id DESC) WHERE (done_at IS NULL);

CREATE INDEX support_messages_unread_idx ON public.support_messages USING btree (created_at DESC, id DESC) WHERE (read_at IS NULL);

ALTER TABLE ONLY public.support_messages
    ADD CONSTRAINT support_messages_done_by_fkey FOREIGN KEY (done_by) REFERENCES auth.users(id) ON DELETE SET NULL;

ALTER TABLE ONLY public.support_messages
    ADD CONSTRAINT support_messages_read_by_fkey FOREIGN KEY (read_by) REFERENCES auth.users(id) ON DELETE SET NULL;

ALTER TABLE ONLY public.support_messages
    ADD CONSTRAINT support_messages_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE SET NULL;

-- Functions

CREATE FUNCTION public.stamp_support_message_sender() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  label text;
  address text;
begin
  if new.user_id is null then
    return new;
  end if;
  select coalesce(s.display_name, s.email), s.email into label, address
    from public.staff s where s.user_id = new.user_id;
  if not found then
    raise exception 'Eine Support-Nachricht kommt von einem Konto.' using errcode = '42501';
  end if;
  new.name := left(label, 200);
  new.email := address;
  return new;
end;
$$;

CREATE FUNCTION public.stamp_support_message_state() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
begin
  if new.read_at is distinct from old.read_at then
    if new.read_at is null then
      new.read_by := null;
    else
      new.read_at := pg_catalog.now();
      new.read_by := (select auth.uid());
    end if;
  end if;
  if new.done_at is distinct from old.done_at then
    if new.done_at is null then
      new.done_by := null;
    else
      new.done_at := pg_catalog.now();
      new.done_by := (select auth.uid());
    end if;
  end if;
  if new.done_at is not null and new.read_at is null then
    new.read_at := new.done_at;
    new.read_by := new.done_by;
  end if;
  return new;
end;
$$;

-- Triggers

CREATE TRIGGER stamp_support_message_sender BEFORE INSERT ON public.support_messages FOR EACH ROW EXECUTE FUNCTION public.stamp_support_message_sender();

CREATE TRIGGER stamp_support_message_state BEFORE UPDATE ON public.support_messages FOR EACH ROW EXECUTE FUNCTION public.stamp_support_message_state();

-- Row-level security

ALTER TABLE public.support_messages ENABLE ROW LEVEL SECURITY;

CREATE POLICY support_messages_admin_read ON public.support_messages FOR SELECT TO authenticated USING (( SELECT public.is_admin() AS is_admin));

CREATE POLICY support_messages_admin_update ON public.support_messages FOR UPDATE TO authenticated USING (( SELECT public.is_admin() AS is_admin)) WITH CHECK (( SELECT public.is_admin() AS is_admin));

CREATE POLICY support_messages_staff_insert ON public.support_messages FOR INSERT TO authenticated WITH CHECK ((( SELECT public.is_staff() AS is_staff) AND (user_id = ( SELECT auth.uid() AS uid))));

-- Grants

REVOKE ALL ON FUNCTION public.stamp_support_message_sender() FROM PUBLIC;

REVOKE ALL ON FUNCTION public.stamp_support_message_state() FROM PUBLIC;

GRANT SELECT ON TABLE public.support_messages TO authenticated;
GRANT ALL ON TABLE public.support_messages TO service_role;

-- Column privileges (hand-written: db:diff does not capture them)

GRANT INSERT(name) ON TABLE public.support_messages TO authenticated;

GRANT INSERT(email) ON TABLE public.support_messages TO authenticated;

GRANT INSERT(message) ON TABLE public.support_messages TO authenticated;

GRANT UPDATE(read_at) ON TABLE public.support_messages TO authenticated;

GRANT UPDATE(done_at) ON TABLE public.support_messages TO authenticated;
