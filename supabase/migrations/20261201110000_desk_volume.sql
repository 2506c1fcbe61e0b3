-- Issue 37, the desk at volume: follow_up_list(assigned, due, page_size, page_offset) orders,
-- pages and counts in the database. Each row carries `total`, the number of all that match; the
-- page's rows alone are joined with their customer and the staff names. Before, PostgREST ordered,
-- ranged and counted (count=exact) the function's whole result, every open follow-up with its
-- names. Without page_size the function still returns every match (in list order). Plain SQL that
-- `supabase db push` runs on a hosted project as well as PGlite. A changed result type needs the
-- function dropped and created again, with its grants.

drop function public.follow_up_list(text, text);

create function public.follow_up_list(assigned text DEFAULT 'mine_or_unassigned'::text, due text DEFAULT 'open'::text, page_size integer DEFAULT NULL::integer, page_offset integer DEFAULT 0) RETURNS TABLE(id bigint, customer_id integer, customer_name text, response_id integer, due_at timestamp with time zone, body text, automatic boolean, assignee uuid, assignee_name text, overdue boolean, done_at timestamp with time zone, done_by_name text, total bigint)
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

revoke all on function public.follow_up_list(text, text, integer, integer) from public, anon;
grant all on function public.follow_up_list(text, text, integer, integer) to authenticated, service_role;
