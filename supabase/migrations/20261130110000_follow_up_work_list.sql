-- Issue 36, items 1 and 3: the office at real volume. Plain SQL that `supabase db push` runs on a
-- hosted project as well as PGlite.
--
-- 1. follow_up_counts(): the dashboard's work list counts (overdue, due for the rest of today and
--    of this week, for the caller and nobody; and every open follow-up without an assignee),
--    counted in the database, however many follow-ups are open.
-- 2. follow_up_list(assigned, due): the follow-up list ('Wiedervorlagen') by assignee and by
--    when; the desk orders, pages and counts it through PostgREST (count=exact, a range).
-- 3. complete_follow_ups(follow_up_ids): the list's bulk 'Erledigt'; the number marked done.
--    (Bulk 'Zuweisen' is an update of follow_ups.assignee, which staff may write already.)
-- 4. desk_newest_leads also returns the lead's source, and a form title only for a questionnaire
--    lead: a KFZ or contact lead is stored under form 1, whose title ('Tabaluga') is not its
--    source. A changed result type needs the function dropped and created again.

create function public.complete_follow_ups(follow_up_ids bigint[]) RETURNS integer
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

create function public.follow_up_counts() RETURNS TABLE(overdue bigint, today bigint, this_week bigint, unassigned bigint)
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

create function public.follow_up_list(assigned text DEFAULT 'mine_or_unassigned'::text, due text DEFAULT 'open'::text) RETURNS TABLE(id bigint, customer_id integer, customer_name text, response_id integer, due_at timestamp with time zone, body text, automatic boolean, assignee uuid, assignee_name text, overdue boolean, done_at timestamp with time zone, done_by_name text)
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
  -- The follow-up list ('Wiedervorlagen'): by assignee (the caller's and nobody's, the caller's,
  -- nobody's, all) and by when (open, overdue, the rest of today, the rest of this week, done),
  -- with the same bounds as follow_up_counts. The caller orders, pages and counts (PostgREST).
  return query
    select f.id, f.customer_id, btrim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')),
           f.response_id, f.due_at, f.body, f.automatic, f.assignee,
           (select coalesce(s.display_name, s.email) from public.staff s where s.user_id = f.assignee),
           f.done_at is null and f.due_at < now(),
           f.done_at,
           (select coalesce(s.display_name, s.email) from public.staff s where s.user_id = f.done_by)
      from public.follow_ups f
      join public.users u on u.id = f.customer_id
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
           end;
end;
$$;

revoke all on function public.complete_follow_ups(bigint[]) from public, anon;
grant all on function public.complete_follow_ups(bigint[]) to authenticated, service_role;
revoke all on function public.follow_up_counts() from public, anon;
grant all on function public.follow_up_counts() to authenticated, service_role;
revoke all on function public.follow_up_list(text, text) from public, anon;
grant all on function public.follow_up_list(text, text) to authenticated, service_role;

drop function public.desk_newest_leads(integer);

create function public.desk_newest_leads(lead_limit integer DEFAULT 5) RETURNS TABLE(id integer, user_id integer, first_name text, last_name text, source public.lead_source, form_title text, received_at timestamp with time zone)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  perform public.require_staff();
  -- A KFZ or contact lead is stored under form 1 but answered no questionnaire: its form_title is
  -- null and its source names it.
  return query
    select r.id, r.user_id, r.first_name::text, r.last_name::text, r.source,
           (select f.title from public.forms f where f.id = r.questionnaire_id)::text, r.received_at
      from public.responses r
     order by r.received_at desc, r.id desc
     limit least(greatest(coalesce(lead_limit, 5), 0), 50);
end;
$$;

revoke all on function public.desk_newest_leads(integer) from public, anon;
grant all on function public.desk_newest_leads(integer) to authenticated, service_role;
