-- Office work: follow-ups (callbacks and tasks) with their change history, and customer notes.
--
-- Hand-written, not captured by `npm run db:diff` (add them to the migration yourself):
-- column privileges.

-- Tables

CREATE TABLE public.customer_notes (
    id bigint GENERATED ALWAYS AS IDENTITY,
    customer_id integer NOT NULL,
    author uuid DEFAULT auth.uid(),
    body text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone,
    CONSTRAINT customer_notes_body_check CHECK (((char_length(btrim(body)) >= 1) AND (char_length(btrim(body)) <= 2000)))
);

CREATE TABLE public.follow_up_changes (
    id bigint GENERATED ALWAYS AS IDENTITY,
    follow_up_id bigint NOT NULL,
    kind public.follow_up_change_kind NOT NULL,
    changed_by uuid,
    changed_at timestamp with time zone DEFAULT now() NOT NULL,
    changed_fields text[] DEFAULT '{}'::text[] NOT NULL,
    body_before text,
    body_after text,
    assignee_before uuid,
    assignee_after uuid,
    due_before timestamp with time zone,
    due_after timestamp with time zone,
    CONSTRAINT follow_up_changes_changed_fields_check CHECK ((changed_fields <@ ARRAY['body'::text, 'assignee'::text, 'due_at'::text]))
);

CREATE TABLE public.follow_ups (
    id bigint GENERATED ALWAYS AS IDENTITY,
    customer_id integer NOT NULL,
    response_id integer,
    due_at timestamp with time zone NOT NULL,
    assignee uuid,
    body text DEFAULT ''::text NOT NULL,
    automatic boolean DEFAULT false NOT NULL,
    created_by uuid DEFAULT auth.uid(),
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    done_at timestamp with time zone,
    done_by uuid,
    CONSTRAINT follow_ups_body_check CHECK ((char_length(body) <= 500))
);

ALTER TABLE ONLY public.customer_notes
    ADD CONSTRAINT customer_notes_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.follow_up_changes
    ADD CONSTRAINT follow_up_changes_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.follow_ups
    ADD CONSTRAINT follow_ups_pkey PRIMARY KEY (id);

CREATE INDEX customer_notes_customer_idx ON public.customer_notes USING btree (customer_id, created_at DESC);

CREATE INDEX follow_up_changes_follow_up_idx ON public.follow_up_changes USING btree (follow_up_id, changed_at, id);

CREATE INDEX follow_ups_customer_idx ON public.follow_ups USING btree (customer_id);

CREATE UNIQUE INDEX follow_ups_one_automatic_per_lead ON public.follow_ups USING btree (response_id) WHERE automatic;

CREATE INDEX follow_ups_open_idx ON public.follow_ups USING btree (due_at, id) WHERE (done_at IS NULL);

CREATE INDEX follow_ups_response_idx ON public.follow_ups USING btree (response_id);

ALTER TABLE ONLY public.customer_notes
    ADD CONSTRAINT customer_notes_author_fkey FOREIGN KEY (author) REFERENCES auth.users(id) ON DELETE SET NULL;

ALTER TABLE ONLY public.customer_notes
    ADD CONSTRAINT customer_notes_customer_id_fkey FOREIGN KEY (customer_id) REFERENCES public.users(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.follow_up_changes
    ADD CONSTRAINT follow_up_changes_changed_by_fkey FOREIGN KEY (changed_by) REFERENCES auth.users(id) ON DELETE SET NULL;

ALTER TABLE ONLY public.follow_up_changes
    ADD CONSTRAINT follow_up_changes_follow_up_id_fkey FOREIGN KEY (follow_up_id) REFERENCES public.follow_ups(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.follow_ups
    ADD CONSTRAINT follow_ups_assignee_fkey FOREIGN KEY (assignee) REFERENCES auth.users(id) ON DELETE SET NULL;

ALTER TABLE ONLY public.follow_ups
    ADD CONSTRAINT follow_ups_created_by_fkey FOREIGN KEY (created_by) REFERENCES auth.users(id) ON DELETE SET NULL;

ALTER TABLE ONLY public.follow_ups
    ADD CONSTRAINT follow_ups_customer_id_fkey FOREIGN KEY (customer_id) REFERENCES public.users(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.follow_ups
    ADD CONSTRAINT follow_ups_done_by_fkey FOREIGN KEY (done_by) REFERENCES auth.users(id) ON DELETE SET NULL;

ALTER TABLE ONLY public.follow_ups
    ADD CONSTRAINT follow_ups_response_id_fkey FOREIGN KEY (response_id) REFERENCES public.responses(id) ON DELETE SET NULL;

-- Functions

CREATE FUNCTION public.callback_follow_up_body(call_time text) RETURNS text
    LANGUAGE sql IMMUTABLE
    SET search_path TO ''
    AS $$
  select 'Rückruf gewünscht: ' || call_time || ' (' || w.start_hour || '–' || w.end_hour || ' Uhr)'
    from public.call_time_window(call_time) w
   where w.start_hour is not null
$$;

CREATE FUNCTION public.add_callback_follow_ups() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  insert into public.follow_ups (customer_id, response_id, due_at, body, automatic)
  select n.user_id, n.id, public.callback_due_at(n.call_time, n.received_at),
         public.callback_follow_up_body(n.call_time), true
    from new_leads n
   where n.source in ('kfz', 'contact')
     and n.user_id is not null
     and public.callback_due_at(n.call_time, n.received_at) is not null
  on conflict (response_id) where automatic do nothing;
  return null;
end;
$$;

CREATE FUNCTION public.callbacks_waiting(received_since timestamp with time zone DEFAULT NULL::timestamp with time zone) RETURNS bigint
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $$
  select count(*)
    from public.follow_ups f
   where (select public.is_staff())
     and f.automatic
     and f.done_at is null
     and f.created_at >= coalesce(received_since, '-infinity')
$$;

CREATE FUNCTION public.check_follow_up() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  if new.assignee is not null
     and (tg_op = 'INSERT' or new.assignee is distinct from old.assignee) and not exists (
    select 1 from public.staff s where s.user_id = new.assignee and s.role in ('staff', 'admin')
  ) then
    raise exception 'Zuständig kann nur ein freigeschaltetes Konto sein.' using errcode = '23514';
  end if;
  if new.response_id is not null and (tg_op = 'INSERT' or new.response_id is distinct from old.response_id)
     and not exists (
       select 1 from public.responses r where r.id = new.response_id and r.user_id = new.customer_id
     ) then
    raise exception 'Der Lead gehört nicht zu diesem Kunden.' using errcode = '23514';
  end if;
  return new;
end;
$$;

CREATE FUNCTION public.complete_follow_up(follow_up_id bigint) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  perform public.require_staff();
  update public.follow_ups f set done_at = now(), done_by = auth.uid()
   where f.id = follow_up_id and f.done_at is null;
  return found;
end;
$$;

CREATE FUNCTION public.complete_follow_ups(follow_up_ids bigint[]) RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  completed integer;
begin
  perform public.require_staff();
  update public.follow_ups f set done_at = now(), done_by = auth.uid()
   where f.id = any (complete_follow_ups.follow_up_ids) and f.done_at is null;
  get diagnostics completed = row_count;
  return completed;
end;
$$;

CREATE FUNCTION public.customer_follow_ups(of_customer integer) RETURNS TABLE(id bigint, customer_id integer, customer_name text, response_id integer, due_at timestamp with time zone, body text, automatic boolean, assignee uuid, assignee_name text, overdue boolean)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  perform public.require_staff();
  return query
    select f.id, f.customer_id, btrim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')),
           f.response_id, f.due_at, f.body, f.automatic, f.assignee,
           (select coalesce(s.display_name, s.email) from public.staff s where s.user_id = f.assignee),
           f.due_at < now()
      from public.follow_ups f
      join public.users u on u.id = f.customer_id
     where f.customer_id = customer_follow_ups.of_customer and f.done_at is null
     order by f.due_at, f.id;
end;
$$;

CREATE FUNCTION public.customer_note_list(customer_id integer) RETURNS TABLE(id bigint, body text, author uuid, author_name text, mine boolean, created_at timestamp with time zone, updated_at timestamp with time zone)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  perform public.require_staff();
  return query
    select n.id, n.body, n.author,
           (select coalesce(s.display_name, s.email) from public.staff s where s.user_id = n.author),
           n.author is not distinct from auth.uid() and n.author is not null,
           n.created_at, n.updated_at
      from public.customer_notes n
     where n.customer_id = customer_note_list.customer_id
     order by n.created_at desc, n.id desc;
end;
$$;

CREATE FUNCTION public.follow_up_counts() RETURNS TABLE(overdue bigint, today bigint, this_week bigint, unassigned bigint)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  berlin_today date := (now() at time zone 'Europe/Berlin')::date;
  today_end timestamptz := (berlin_today + 1)::timestamp at time zone 'Europe/Berlin';
  week_end timestamptz := (berlin_today - extract(isodow from berlin_today)::integer + 8)::timestamp
                          at time zone 'Europe/Berlin';
  caller uuid := auth.uid();
begin
  perform public.require_staff();
  -- The dashboard's work list: the caller's and nobody's open follow-ups overdue, due for the
  -- rest of today and for the rest of this week (Monday to Sunday in Berlin, today included),
  -- and every open follow-up without an assignee. follow_up_list gives the same rows.
  return query
    select count(*) filter (where mine and f.due_at < now()),
           count(*) filter (where mine and f.due_at >= now() and f.due_at < today_end),
           count(*) filter (where mine and f.due_at >= now() and f.due_at < week_end),
           count(*) filter (where f.assignee is null)
      from public.follow_ups f
      cross join lateral (select f.assignee is null or f.assignee = caller as mine) m
     where f.done_at is null;
end;
$$;

CREATE FUNCTION public.follow_up_list(assigned text DEFAULT 'mine_or_unassigned'::text, due text DEFAULT 'open'::text, page_size integer DEFAULT NULL::integer, page_offset integer DEFAULT 0) RETURNS TABLE(id bigint, customer_id integer, customer_name text, response_id integer, due_at timestamp with time zone, body text, automatic boolean, assignee uuid, assignee_name text, overdue boolean, done_at timestamp with time zone, done_by_name text, total bigint)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  berlin_today date := (now() at time zone 'Europe/Berlin')::date;
  today_end timestamptz := (berlin_today + 1)::timestamp at time zone 'Europe/Berlin';
  week_end timestamptz := (berlin_today - extract(isodow from berlin_today)::integer + 8)::timestamp
                          at time zone 'Europe/Berlin';
  caller uuid := auth.uid();
begin
  perform public.require_staff();
  if follow_up_list.assigned is null
     or follow_up_list.assigned not in ('mine_or_unassigned', 'mine', 'unassigned', 'all') then
    raise exception 'Unbekannte Auswahl der Zuständigen.' using errcode = '22023';
  end if;
  if follow_up_list.due is null
     or follow_up_list.due not in ('open', 'overdue', 'today', 'week', 'done') then
    raise exception 'Unbekannte Auswahl der Fälligkeit.' using errcode = '22023';
  end if;
  if follow_up_list.page_offset is null or follow_up_list.page_offset < 0
     or follow_up_list.page_size not between 1 and 1000 then
    raise exception 'Ungültige Seite der Wiedervorlagen.' using errcode = '22023';
  end if;
  -- The follow-up list ('Wiedervorlagen'): by assignee (the caller's and nobody's, the caller's,
  -- nobody's, all) and by when (open, overdue, the rest of today, the rest of this week, done),
  -- with the same bounds as follow_up_counts; the earliest due first, done ones the latest first.
  -- The function pages itself (page_size rows after page_offset; all of them without page_size)
  -- and gives every row the number of all that match: ordered and counted on the follow-ups'
  -- ids alone, so with thousands open only the page's rows are joined with their customer and
  -- the staff names (PostgREST's count and range over the whole set took that per row).
  return query
    with page as (
      select m.follow_up_id, m.list_position, m.matching_total
        from (select f.id as follow_up_id,
                     row_number() over (
                       order by case when follow_up_list.due = 'done' then f.due_at end desc,
                                case when follow_up_list.due = 'done' then f.id end desc,
                                f.due_at, f.id) as list_position,
                     count(*) over () as matching_total
                from public.follow_ups f
               where case follow_up_list.assigned
                       when 'mine' then f.assignee = caller
                       when 'unassigned' then f.assignee is null
                       when 'mine_or_unassigned' then f.assignee is null or f.assignee = caller
                       else true
                     end
                 and case follow_up_list.due
                       when 'done' then f.done_at is not null
                       when 'overdue' then f.done_at is null and f.due_at < now()
                       when 'today' then f.done_at is null and f.due_at >= now() and f.due_at < today_end
                       when 'week' then f.done_at is null and f.due_at >= now() and f.due_at < week_end
                       else f.done_at is null
                     end) m
       order by m.list_position
       limit follow_up_list.page_size offset follow_up_list.page_offset
    )
    select f.id, f.customer_id, btrim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')),
           f.response_id, f.due_at, f.body, f.automatic, f.assignee,
           (select coalesce(s.display_name, s.email) from public.staff s where s.user_id = f.assignee),
           f.done_at is null and f.due_at < now(),
           f.done_at,
           (select coalesce(s.display_name, s.email) from public.staff s where s.user_id = f.done_by),
           p.matching_total
      from page p
      join public.follow_ups f on f.id = p.follow_up_id
      join public.users u on u.id = f.customer_id
     order by p.list_position;
end;
$$;

CREATE FUNCTION public.guard_customer_note() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
begin
  if current_user in ('anon', 'authenticated')
     and (new.customer_id is distinct from old.customer_id or new.author is distinct from old.author
          or new.created_at is distinct from old.created_at) then
    raise exception 'Kunde, Verfasser und Zeitpunkt einer Notiz bleiben.' using errcode = '42501';
  end if;
  if new.body is distinct from old.body then
    new.updated_at := now();
  elsif current_user in ('anon', 'authenticated') then
    new.updated_at := old.updated_at;
  end if;
  return new;
end;
$$;

CREATE FUNCTION public.record_follow_up_change() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  fields text[] := array_remove(array[
    case when new.body is distinct from old.body then 'body' end,
    case when new.assignee is distinct from old.assignee then 'assignee' end,
    case when new.due_at is distinct from old.due_at then 'due_at' end
  ], null);
  caller uuid := (select auth.uid());
begin
  if pg_catalog.pg_trigger_depth() > 1 then
    return null;
  end if;
  if cardinality(fields) > 0 then
    insert into public.follow_up_changes (follow_up_id, kind, changed_by, changed_fields,
      body_before, body_after, assignee_before, assignee_after, due_before, due_after)
    values (new.id, 'changed', caller, fields,
      case when 'body' = any(fields) then old.body end,
      case when 'body' = any(fields) then new.body end,
      case when 'assignee' = any(fields) then old.assignee end,
      case when 'assignee' = any(fields) then new.assignee end,
      case when 'due_at' = any(fields) then old.due_at end,
      case when 'due_at' = any(fields) then new.due_at end);
  end if;
  if new.done_at is not null and old.done_at is null then
    insert into public.follow_up_changes (follow_up_id, kind, changed_by, changed_at)
    values (new.id, 'done', coalesce(new.done_by, caller), new.done_at);
  elsif new.done_at is null and old.done_at is not null then
    insert into public.follow_up_changes (follow_up_id, kind, changed_by)
    values (new.id, 'reopened', caller);
  end if;
  return null;
end;
$$;

CREATE FUNCTION public.reopen_follow_up(follow_up_id bigint) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  perform public.require_staff();
  update public.follow_ups f set done_at = null, done_by = null
   where f.id = follow_up_id and f.done_at is not null;
  return found;
end;
$$;

-- Triggers

CREATE TRIGGER add_callback_follow_ups AFTER INSERT ON public.responses REFERENCING NEW TABLE AS new_leads FOR EACH STATEMENT EXECUTE FUNCTION public.add_callback_follow_ups();

CREATE TRIGGER check_follow_up BEFORE INSERT OR UPDATE OF assignee, response_id, customer_id ON public.follow_ups FOR EACH ROW EXECUTE FUNCTION public.check_follow_up();

CREATE TRIGGER guard_customer_note BEFORE UPDATE ON public.customer_notes FOR EACH ROW EXECUTE FUNCTION public.guard_customer_note();

CREATE TRIGGER record_follow_up_change AFTER UPDATE OF body, assignee, due_at, done_at ON public.follow_ups FOR EACH ROW EXECUTE FUNCTION public.record_follow_up_change();

-- Row-level security

ALTER TABLE public.customer_notes ENABLE ROW LEVEL SECURITY;

CREATE POLICY customer_notes_author_delete ON public.customer_notes FOR DELETE TO authenticated USING ((( SELECT public.is_staff() AS is_staff) AND (author = ( SELECT auth.uid() AS uid)) AND (created_at > (now() - '00:15:00'::interval))));

CREATE POLICY customer_notes_author_update ON public.customer_notes FOR UPDATE TO authenticated USING ((( SELECT public.is_staff() AS is_staff) AND (author = ( SELECT auth.uid() AS uid)) AND (created_at > (now() - '00:15:00'::interval)))) WITH CHECK ((( SELECT public.is_staff() AS is_staff) AND (author = ( SELECT auth.uid() AS uid))));

CREATE POLICY customer_notes_staff_insert ON public.customer_notes FOR INSERT TO authenticated WITH CHECK ((( SELECT public.is_staff() AS is_staff) AND (author = ( SELECT auth.uid() AS uid))));

CREATE POLICY customer_notes_staff_read ON public.customer_notes FOR SELECT TO authenticated USING (( SELECT public.is_staff() AS is_staff));

ALTER TABLE public.follow_up_changes ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.follow_ups ENABLE ROW LEVEL SECURITY;

CREATE POLICY follow_ups_staff_insert ON public.follow_ups FOR INSERT TO authenticated WITH CHECK ((( SELECT public.is_staff() AS is_staff) AND (created_by = ( SELECT auth.uid() AS uid)) AND (NOT automatic) AND (done_at IS NULL)));

CREATE POLICY follow_ups_staff_read ON public.follow_ups FOR SELECT TO authenticated USING (( SELECT public.is_staff() AS is_staff));

CREATE POLICY follow_ups_staff_update ON public.follow_ups FOR UPDATE TO authenticated USING (( SELECT public.is_staff() AS is_staff)) WITH CHECK (( SELECT public.is_staff() AS is_staff));

-- Grants

REVOKE ALL ON FUNCTION public.add_callback_follow_ups() FROM PUBLIC;

REVOKE ALL ON FUNCTION public.callback_follow_up_body(call_time text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.callback_follow_up_body(call_time text) TO authenticated;
GRANT ALL ON FUNCTION public.callback_follow_up_body(call_time text) TO service_role;

REVOKE ALL ON FUNCTION public.callbacks_waiting(received_since timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION public.callbacks_waiting(received_since timestamp with time zone) TO authenticated;
GRANT ALL ON FUNCTION public.callbacks_waiting(received_since timestamp with time zone) TO service_role;

REVOKE ALL ON FUNCTION public.check_follow_up() FROM PUBLIC;

REVOKE ALL ON FUNCTION public.complete_follow_up(follow_up_id bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION public.complete_follow_up(follow_up_id bigint) TO authenticated;
GRANT ALL ON FUNCTION public.complete_follow_up(follow_up_id bigint) TO service_role;

REVOKE ALL ON FUNCTION public.complete_follow_ups(follow_up_ids bigint[]) FROM PUBLIC;
GRANT ALL ON FUNCTION public.complete_follow_ups(follow_up_ids bigint[]) TO authenticated;
GRANT ALL ON FUNCTION public.complete_follow_ups(follow_up_ids bigint[]) TO service_role;

REVOKE ALL ON FUNCTION public.customer_follow_ups(of_customer integer) FROM PUBLIC;
GRANT ALL ON FUNCTION public.customer_follow_ups(of_customer integer) TO authenticated;
GRANT ALL ON FUNCTION public.customer_follow_ups(of_customer integer) TO service_role;

REVOKE ALL ON FUNCTION public.customer_note_list(customer_id integer) FROM PUBLIC;
GRANT ALL ON FUNCTION public.customer_note_list(customer_id integer) TO authenticated;
GRANT ALL ON FUNCTION public.customer_note_list(customer_id integer) TO service_role;

REVOKE ALL ON FUNCTION public.follow_up_counts() FROM PUBLIC;
GRANT ALL ON FUNCTION public.follow_up_counts() TO authenticated;
GRANT ALL ON FUNCTION public.follow_up_counts() TO service_role;

REVOKE ALL ON FUNCTION public.follow_up_list(assigned text, due text, page_size integer, page_offset integer) FROM PUBLIC;
GRANT ALL ON FUNCTION public.follow_up_list(assigned text, due text, page_size integer, page_offset integer) TO authenticated;
GRANT ALL ON FUNCTION public.follow_up_list(assigned text, due text, page_size integer, page_offset integer) TO service_role;

REVOKE ALL ON FUNCTION public.guard_customer_note() FROM PUBLIC;

REVOKE ALL ON FUNCTION public.record_follow_up_change() FROM PUBLIC;

REVOKE ALL ON FUNCTION public.reopen_follow_up(follow_up_id bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION public.reopen_follow_up(follow_up_id bigint) TO authenticated;
GRANT ALL ON FUNCTION public.reopen_follow_up(follow_up_id bigint) TO service_role;

GRANT SELECT,DELETE ON TABLE public.customer_notes TO authenticated;
GRANT ALL ON TABLE public.customer_notes TO service_role;

GRANT SELECT ON TABLE public.follow_up_changes TO service_role;

GRANT SELECT ON TABLE public.follow_ups TO authenticated;
GRANT ALL ON TABLE public.follow_ups TO service_role;

-- Column privileges (hand-written: db:diff does not capture them)

GRANT INSERT(customer_id) ON TABLE public.customer_notes TO authenticated;

GRANT INSERT(body),UPDATE(body) ON TABLE public.customer_notes TO authenticated;

GRANT INSERT(customer_id) ON TABLE public.follow_ups TO authenticated;

GRANT INSERT(response_id) ON TABLE public.follow_ups TO authenticated;

GRANT INSERT(due_at),UPDATE(due_at) ON TABLE public.follow_ups TO authenticated;

GRANT INSERT(assignee),UPDATE(assignee) ON TABLE public.follow_ups TO authenticated;

GRANT INSERT(body),UPDATE(body) ON TABLE public.follow_ups TO authenticated;
