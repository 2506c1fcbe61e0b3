-- Staff accounts: one row per auth.users account (the trigger on auth.users makes it), the role
-- that decides what an account may do (pending, staff, admin), and the helpers every other
-- area's policies ask: is_staff(), is_admin(), staff_role(), require_staff(). An admin enables a
-- pending account (set_staff_role; the account gets a mail through staff_mail_outbox, sent by the
-- hub's job) or refuses it (refuse_staff_account deletes the registration).
--
-- Hand-written, not captured by `npm run db:diff` (add them to the migration yourself):
-- column privileges.

-- Tables

CREATE TABLE public.staff (
    user_id uuid NOT NULL,
    email text NOT NULL,
    role public.staff_role DEFAULT 'pending'::public.staff_role NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    display_name text,
    CONSTRAINT staff_display_name_check CHECK (((display_name IS NULL) OR ((char_length(btrim(display_name)) >= 1) AND (char_length(btrim(display_name)) <= 80)))),
    CONSTRAINT staff_display_name_plain CHECK (((display_name !~ '[\u0001-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]'::text) AND (strpos(display_name, '@'::text) = 0)))
);

CREATE TABLE public.staff_mail_outbox (
    id bigint GENERATED ALWAYS AS IDENTITY,
    user_id uuid NOT NULL,
    state public.lead_mail_state DEFAULT 'pending'::public.lead_mail_state NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    next_attempt_at timestamp with time zone DEFAULT now() NOT NULL,
    sent_at timestamp with time zone,
    last_error text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT staff_mail_outbox_last_error_check CHECK (((last_error IS NULL) OR (char_length(last_error) <= 64)))
);

ALTER TABLE ONLY public.staff
    ADD CONSTRAINT staff_pkey PRIMARY KEY (user_id);

ALTER TABLE ONLY public.staff_mail_outbox
    ADD CONSTRAINT staff_mail_outbox_pkey PRIMARY KEY (id);

CREATE UNIQUE INDEX staff_mail_outbox_waiting_idx ON public.staff_mail_outbox USING btree (user_id) WHERE (state = 'pending'::public.lead_mail_state);

ALTER TABLE ONLY public.staff
    ADD CONSTRAINT staff_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.staff_mail_outbox
    ADD CONSTRAINT staff_mail_outbox_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.staff(user_id) ON DELETE CASCADE;

-- Functions

CREATE FUNCTION public.enqueue_staff_approval_mail() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  -- Only an approval by a signed-in admin (set_staff_role, or the role column through the API)
  -- mails the account: the server's own setup of the first admin, fixtures and SQL run by the
  -- database's owner send nothing. One waiting mail per account at most.
  if (select auth.uid()) is null then
    return null;
  end if;
  insert into public.staff_mail_outbox (user_id) values (new.user_id)
  on conflict (user_id) where state = 'pending'::public.lead_mail_state do nothing;
  return null;
end;
$$;

CREATE FUNCTION public.handle_new_auth_user() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  insert into public.staff (user_id, email) values (new.id, lower(new.email))
  on conflict (user_id) do nothing;
  return new;
end;
$$;

CREATE FUNCTION public.staff_role() RETURNS text
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $$
  select role::text from public.staff where user_id = (select auth.uid())
$$;

CREATE FUNCTION public.is_admin() RETURNS boolean
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $$
  select coalesce((select public.staff_role()) = 'admin', false)
$$;

CREATE FUNCTION public.is_staff() RETURNS boolean
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $$
  select coalesce((select public.staff_role()) in ('staff', 'admin'), false)
$$;

CREATE FUNCTION public.keep_last_admin() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  if old.role = 'admin' and (tg_op = 'DELETE' or new.role is distinct from 'admin') then
    -- Keyed by the table's oid: unique in the database, and nothing else locks on it.
    perform pg_catalog.pg_advisory_xact_lock(
      'public.staff'::pg_catalog.regclass::pg_catalog.oid::bigint
    );
    if not exists (
      select from public.staff s where s.role = 'admin' and s.user_id <> old.user_id
    ) then
      raise exception 'Der letzte Admin kann nicht entfernt oder herabgestuft werden.'
        using errcode = 'UL001',
              hint = 'Zuerst ein anderes Konto zum Admin machen.';
    end if;
  end if;
  if tg_op = 'DELETE' then
    return old;
  end if;
  return new;
end;
$$;

CREATE FUNCTION public.refuse_staff_account(user_id uuid) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  found_role public.staff_role;
begin
  -- The same lock as set_staff_role: an approval and a refusal of one account at once end with
  -- one of them, and the other is refused (UL002 after an approval, P0002 after a refusal).
  perform pg_catalog.pg_advisory_xact_lock(
    'public.staff'::pg_catalog.regclass::pg_catalog.oid::bigint
  );
  if not (select public.is_admin()) then
    raise exception 'Nur Admins dürfen Registrierungen ablehnen.' using errcode = '42501';
  end if;
  select s.role into found_role from public.staff s
   where s.user_id = refuse_staff_account.user_id;
  if not found then
    raise exception 'Dieses Konto gibt es nicht.' using errcode = 'P0002';
  end if;
  if found_role <> 'pending'::public.staff_role then
    raise exception 'Nur eine wartende Registrierung kann abgelehnt werden.'
      using errcode = 'UL002',
            hint = 'Ein freigeschaltetes Konto bekommt die Rolle „Wartet auf Freischaltung“.';
  end if;
  -- The registration goes as a whole: the account (sessions and tokens with it) and its staff
  -- row. Nothing else names a pending account; the address may register again later.
  delete from auth.users u where u.id = refuse_staff_account.user_id;
end;
$$;

CREATE FUNCTION public.require_staff(admin_only boolean DEFAULT false) RETURNS void
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  if not (case when admin_only then public.is_admin() else public.is_staff() end) then
    raise exception 'Keine Berechtigung' using errcode = '42501';
  end if;
end;
$$;

CREATE FUNCTION public.set_display_name(name text) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  caller uuid := (select auth.uid());
  cleaned text := nullif(btrim(name), '');
begin
  if caller is null then
    raise exception 'Only a signed-in account has a name' using errcode = '42501';
  end if;
  if cleaned ~ '[\u0001-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]' then
    raise exception 'Ein Name hat keine Zeilenumbrüche oder Steuerzeichen.' using errcode = '22023';
  end if;
  if char_length(cleaned) > 80 then
    raise exception 'A name has at most 80 characters' using errcode = '22001';
  end if;
  if strpos(cleaned, '@') > 0 then
    raise exception 'Ein Anzeigename ist keine E-Mail-Adresse.' using errcode = '22023';
  end if;
  if exists (
    select 1 from public.staff s
     where s.user_id <> caller
       and (lower(btrim(s.display_name)) = lower(cleaned) or lower(s.email) = lower(cleaned))
  ) then
    raise exception 'Diesen Namen zeigt schon ein anderes Konto.' using errcode = '23505';
  end if;
  update public.staff set display_name = cleaned where user_id = caller;
  return cleaned;
end;
$$;

CREATE FUNCTION public.set_staff_role(user_id uuid, role text) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
begin
  -- Role changes take their turn on keep_last_admin's lock before the caller's role is read: two
  -- admins demoting each other see each other's committed change, so the later one is refused
  -- (42501, or UL001 for the last admin) instead of finding no row it may update.
  perform pg_catalog.pg_advisory_xact_lock(
    'public.staff'::pg_catalog.regclass::pg_catalog.oid::bigint
  );
  if not (select public.is_admin()) then
    raise exception 'Nur Admins dürfen Rollen vergeben.' using errcode = '42501';
  end if;
  update public.staff s set role = set_staff_role.role::public.staff_role
   where s.user_id = set_staff_role.user_id;
  if not found then
    raise exception 'Dieses Konto gibt es nicht.' using errcode = 'P0002';
  end if;
end;
$$;

CREATE FUNCTION public.staff_accounts() RETURNS TABLE(user_id uuid, email text, registered_at timestamp with time zone, confirmed_at timestamp with time zone, role text)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  if not (select public.is_admin()) then
    raise exception 'Nur Admins dürfen die Mitarbeiterkonten sehen.' using errcode = '42501';
  end if;
  return query
    select s.user_id, coalesce(u.email, s.email), u.created_at, u.email_confirmed_at, s.role::text
      from public.staff s
      join auth.users u on u.id = s.user_id
     order by u.created_at, s.user_id;
end;
$$;

CREATE FUNCTION public.staff_directory() RETURNS TABLE(user_id uuid, name text, role text)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  perform public.require_staff();
  return query
    select s.user_id, coalesce(s.display_name, s.email)::text, s.role::text
      from public.staff s
     where s.role in ('staff', 'admin')
     order by lower(coalesce(s.display_name, s.email)), s.user_id;
end;
$$;

-- Triggers

CREATE TRIGGER enqueue_staff_approval_mail AFTER UPDATE OF role ON public.staff FOR EACH ROW WHEN (((old.role = 'pending'::public.staff_role) AND (new.role <> 'pending'::public.staff_role))) EXECUTE FUNCTION public.enqueue_staff_approval_mail();

CREATE TRIGGER keep_last_admin BEFORE DELETE OR UPDATE OF role ON public.staff FOR EACH ROW EXECUTE FUNCTION public.keep_last_admin();

CREATE TRIGGER on_auth_user_created AFTER INSERT ON auth.users FOR EACH ROW EXECUTE FUNCTION public.handle_new_auth_user();

-- Row-level security

ALTER TABLE public.staff ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.staff_mail_outbox ENABLE ROW LEVEL SECURITY;

CREATE POLICY staff_admin_delete ON public.staff FOR DELETE TO authenticated USING (( SELECT public.is_admin() AS is_admin));

CREATE POLICY staff_admin_update ON public.staff FOR UPDATE TO authenticated USING (( SELECT public.is_admin() AS is_admin)) WITH CHECK (( SELECT public.is_admin() AS is_admin));

CREATE POLICY staff_read_own_or_admin ON public.staff FOR SELECT TO authenticated USING (((user_id = ( SELECT auth.uid() AS uid)) OR ( SELECT public.is_admin() AS is_admin)));

-- Grants

REVOKE ALL ON FUNCTION public.enqueue_staff_approval_mail() FROM PUBLIC;

REVOKE ALL ON FUNCTION public.handle_new_auth_user() FROM PUBLIC;

GRANT ALL ON FUNCTION public.is_admin() TO anon;
GRANT ALL ON FUNCTION public.is_admin() TO authenticated;
GRANT ALL ON FUNCTION public.is_admin() TO service_role;

GRANT ALL ON FUNCTION public.is_staff() TO anon;
GRANT ALL ON FUNCTION public.is_staff() TO authenticated;
GRANT ALL ON FUNCTION public.is_staff() TO service_role;

REVOKE ALL ON FUNCTION public.keep_last_admin() FROM PUBLIC;

REVOKE ALL ON FUNCTION public.refuse_staff_account(user_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION public.refuse_staff_account(user_id uuid) TO authenticated;
GRANT ALL ON FUNCTION public.refuse_staff_account(user_id uuid) TO service_role;

REVOKE ALL ON FUNCTION public.require_staff(admin_only boolean) FROM PUBLIC;

REVOKE ALL ON FUNCTION public.set_display_name(name text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.set_display_name(name text) TO authenticated;
GRANT ALL ON FUNCTION public.set_display_name(name text) TO service_role;

REVOKE ALL ON FUNCTION public.set_staff_role(user_id uuid, role text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.set_staff_role(user_id uuid, role text) TO authenticated;
GRANT ALL ON FUNCTION public.set_staff_role(user_id uuid, role text) TO service_role;

REVOKE ALL ON FUNCTION public.staff_accounts() FROM PUBLIC;
GRANT ALL ON FUNCTION public.staff_accounts() TO authenticated;
GRANT ALL ON FUNCTION public.staff_accounts() TO service_role;

REVOKE ALL ON FUNCTION public.staff_directory() FROM PUBLIC;
GRANT ALL ON FUNCTION public.staff_directory() TO authenticated;
GRANT ALL ON FUNCTION public.staff_directory() TO service_role;

GRANT ALL ON FUNCTION public.staff_role() TO anon;
GRANT ALL ON FUNCTION public.staff_role() TO authenticated;
GRANT ALL ON FUNCTION public.staff_role() TO service_role;

GRANT SELECT,DELETE ON TABLE public.staff TO authenticated;
GRANT ALL ON TABLE public.staff TO service_role;

GRANT ALL ON TABLE public.staff_mail_outbox TO service_role;

-- Column privileges (hand-written: db:diff does not capture them)

GRANT UPDATE(role) ON TABLE public.staff TO authenticated;

GRANT UPDATE(display_name) ON TABLE public.staff TO authenticated;
