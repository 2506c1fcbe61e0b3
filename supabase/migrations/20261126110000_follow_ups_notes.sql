-- Follow-ups (Wiedervorlage) and notes per customer (issue 24): who may read and write them, the
-- automatic follow-up for a callback wish, and the functions the desk reads them through.
--
-- Follow-ups: staff and admins read all of them, create them, change due time, assignee and
-- text, and mark them done or open again (complete_follow_up, reopen_follow_up). The database
-- sets created_by, done_at and done_by; nobody deletes one (a wrong one is marked done, the
-- customer's erasure takes them all by the foreign key's cascade).
-- Notes: staff and admins read all notes and add their own; the author may change or delete a
-- note for 15 minutes after writing it, then it is fixed.
-- Pending accounts and anon reach nothing.

-- ---------------------------------------------------------------------------------------------
-- Callback windows. The site offers Morgens, Mittags, Nachmittags and Abends without hours
-- (src/domain/contact-forms.ts); these are the office's hours for them, defined here only. The
-- desk shows them in the automatic follow-up's text.
create function public.call_time_window(call_time text, out start_hour integer, out end_hour integer)
language sql immutable set search_path = ''
as $$
  select w.s, w.e
    from (values ('Morgens', 8, 12), ('Mittags', 12, 14), ('Nachmittags', 14, 17),
                 ('Abends', 17, 20)) as w(name, s, e)
   where w.name = call_time
$$;

-- When the office should call back a lead stored at `stored_at` that asks for `call_time`: the
-- start of the next such window, in Berlin, on a working day (Monday to Friday), that has not
-- ended yet at `stored_at`; inside a window that is `stored_at` itself. Null for no or an unknown
-- call time. The windows lie between 8 and 20 o'clock, away from the hour the clocks change, so
-- local time converts back to one instant on either DST change.
create function public.callback_due_at(call_time text, stored_at timestamptz)
returns timestamptz
language plpgsql immutable set search_path = ''
as $$
declare
  w record;
  local_now timestamp := stored_at at time zone 'Europe/Berlin';
  day date;
  window_start timestamp;
  window_end timestamp;
begin
  select * into w from public.call_time_window(call_time);
  if w.start_hour is null then
    return null;
  end if;
  for offset_days in 0..7 loop
    day := local_now::date + offset_days;
    continue when extract(isodow from day) in (6, 7);
    window_start := day + make_interval(hours => w.start_hour);
    window_end := day + make_interval(hours => w.end_hour);
    if local_now < window_end then
      if local_now >= window_start then
        return stored_at;
      end if;
      return window_start at time zone 'Europe/Berlin';
    end if;
  end loop;
  return null;
end;
$$;

-- The automatic follow-up's text, e.g. 'Rückruf gewünscht: Nachmittags (14–17 Uhr)'.
create function public.callback_follow_up_body(call_time text) returns text
language sql immutable set search_path = ''
as $$
  select 'Rückruf gewünscht: ' || call_time || ' (' || w.start_hour || '–' || w.end_hour || ' Uhr)'
    from public.call_time_window(call_time) w
   where w.start_hour is not null
$$;

revoke execute on function public.call_time_window(text), public.callback_due_at(text, timestamptz),
  public.callback_follow_up_body(text) from public, anon;
grant execute on function public.call_time_window(text), public.callback_due_at(text, timestamptz),
  public.callback_follow_up_body(text) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- One follow-up per KFZ or contact lead with a callback wish, made with the lead. The hub sets
-- the lead's customer (user_id) in the same insert (merge_lead_customer in the statement that
-- stores it), so an insert trigger sees it. Once per statement: a batch of 1000 leads is one
-- insert … select. A lead sent again is not stored again (client_id), and the unique index
-- keeps it to one follow-up even so.
create function public.add_callback_follow_ups() returns trigger
language plpgsql security definer set search_path = ''
as $$
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
revoke execute on function public.add_callback_follow_ups() from public, anon, authenticated;

create trigger add_callback_follow_ups
  after insert on public.responses
  referencing new table as new_leads
  for each statement execute function public.add_callback_follow_ups();

-- ---------------------------------------------------------------------------------------------
-- Follow-ups through the API: the columns a client may set; created_by is the caller's account
-- by default and not writable, done_at/done_by only through the functions below.
alter table public.follow_ups alter column created_by set default auth.uid();

-- The assignee is an enabled account (staff or admin), and a follow-up's lead is one of its
-- customer's. Definer: the caller may not read every staff row or any lead.
create function public.check_follow_up() returns trigger
language plpgsql security definer set search_path = ''
as $$
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
revoke execute on function public.check_follow_up() from public, anon, authenticated;

create trigger check_follow_up
  before insert or update of assignee, response_id, customer_id on public.follow_ups
  for each row execute function public.check_follow_up();

create policy follow_ups_staff_read on public.follow_ups for select to authenticated
  using ((select public.is_staff()));
create policy follow_ups_staff_insert on public.follow_ups for insert to authenticated
  with check ((select public.is_staff()) and created_by = (select auth.uid()) and not automatic
              and done_at is null);
create policy follow_ups_staff_update on public.follow_ups for update to authenticated
  using ((select public.is_staff())) with check ((select public.is_staff()));

grant select on public.follow_ups to authenticated;
grant insert (customer_id, response_id, due_at, assignee, body) on public.follow_ups
  to authenticated;
grant update (due_at, assignee, body) on public.follow_ups to authenticated;
grant all on public.follow_ups to service_role;

-- Marks a follow-up done by the caller, now. Returns whether it was open.
create function public.complete_follow_up(follow_up_id bigint) returns boolean
language plpgsql volatile security definer set search_path = ''
as $$
begin
  perform public.require_staff();
  update public.follow_ups f set done_at = now(), done_by = auth.uid()
   where f.id = follow_up_id and f.done_at is null;
  return found;
end;
$$;

-- Opens a done follow-up again (a click on 'Erledigt' by mistake). Returns whether it was done.
create function public.reopen_follow_up(follow_up_id bigint) returns boolean
language plpgsql volatile security definer set search_path = ''
as $$
begin
  perform public.require_staff();
  update public.follow_ups f set done_at = null, done_by = null
   where f.id = follow_up_id and f.done_at is not null;
  return found;
end;
$$;
revoke execute on function public.complete_follow_up(bigint), public.reopen_follow_up(bigint)
  from public, anon;
grant execute on function public.complete_follow_up(bigint), public.reopen_follow_up(bigint)
  to authenticated, service_role;

-- The accounts a follow-up may be assigned to, with the name colleagues see (display name, else
-- the e-mail address). Until public.staff_directory() (lead status migration) is on main the
-- follow-ups read names here.
create function public.follow_up_staff()
returns table (user_id uuid, name text, role text)
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform public.require_staff();
  return query
    select s.user_id, coalesce(s.display_name, s.email), s.role
      from public.staff s
     where s.role in ('staff', 'admin')
     order by lower(coalesce(s.display_name, s.email)), s.user_id;
end;
$$;

-- A follow-up as the desk lists it: customer's and assignee's names, and whether it is overdue.
-- The customer's name comes from the customer list (readable by staff), never from a lead.
create function public.due_follow_ups()
returns table (
  id bigint,
  customer_id integer,
  customer_name text,
  response_id integer,
  due_at timestamptz,
  body text,
  automatic boolean,
  assignee uuid,
  assignee_name text,
  overdue boolean
)
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform public.require_staff();
  -- 'Heute fällig' and the bell: the caller's and nobody's open follow-ups due by the end of
  -- today in Berlin, the oldest (overdue) first.
  return query
    select f.id, f.customer_id, btrim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')),
           f.response_id, f.due_at, f.body, f.automatic, f.assignee,
           (select coalesce(s.display_name, s.email) from public.staff s where s.user_id = f.assignee),
           f.due_at < now()
      from public.follow_ups f
      join public.users u on u.id = f.customer_id
     where f.done_at is null
       and (f.assignee is null or f.assignee = auth.uid())
       and f.due_at < (((now() at time zone 'Europe/Berlin')::date + 1)::timestamp
                       at time zone 'Europe/Berlin')
     order by f.due_at, f.id;
end;
$$;

-- A customer's open follow-ups, for the sidebar: all of them, whoever they are for.
create function public.customer_follow_ups(of_customer integer)
returns table (
  id bigint,
  customer_id integer,
  customer_name text,
  response_id integer,
  due_at timestamptz,
  body text,
  automatic boolean,
  assignee uuid,
  assignee_name text,
  overdue boolean
)
language plpgsql stable security definer set search_path = ''
as $$
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
revoke execute on function public.follow_up_staff(), public.due_follow_ups(),
  public.customer_follow_ups(integer) from public, anon;
grant execute on function public.follow_up_staff(), public.due_follow_ups(),
  public.customer_follow_ups(integer) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Notes. The author is the caller (default, not writable); body, and only within 15 minutes.
alter table public.customer_notes alter column author set default auth.uid();

-- What a note keeps when the API roles change it: its customer, author and time of writing
-- (besides the column grants, so a later grant cannot open them). Every change of the text
-- stamps updated_at (the desk shows 'bearbeitet'). Runs as the caller: the database owner (tests
-- with a controlled clock, maintenance) may set a note's time.
create function public.guard_customer_note() returns trigger
language plpgsql set search_path = ''
as $$
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
revoke execute on function public.guard_customer_note() from public, anon, authenticated;

create trigger guard_customer_note
  before update on public.customer_notes
  for each row execute function public.guard_customer_note();

create policy customer_notes_staff_read on public.customer_notes for select to authenticated
  using ((select public.is_staff()));
create policy customer_notes_staff_insert on public.customer_notes for insert to authenticated
  with check ((select public.is_staff()) and author = (select auth.uid()));
-- A late save matches no row (PostgREST answers with an empty list); the desk then says
-- 'Notizen sind nach 15 Minuten fest.'
create policy customer_notes_author_update on public.customer_notes for update to authenticated
  using ((select public.is_staff()) and author = (select auth.uid())
         and created_at > now() - interval '15 minutes')
  with check ((select public.is_staff()) and author = (select auth.uid()));
-- Deleting follows the same rule: a note written by mistake goes within the 15 minutes.
create policy customer_notes_author_delete on public.customer_notes for delete to authenticated
  using ((select public.is_staff()) and author = (select auth.uid())
         and created_at > now() - interval '15 minutes');

grant select, delete on public.customer_notes to authenticated;
grant insert (customer_id, body) on public.customer_notes to authenticated;
grant update (body) on public.customer_notes to authenticated;
grant all on public.customer_notes to service_role;

-- A customer's notes newest first, with the author's name and whether the caller wrote it.
create function public.customer_note_list(customer_id integer)
returns table (
  id bigint,
  body text,
  author uuid,
  author_name text,
  mine boolean,
  created_at timestamptz,
  updated_at timestamptz
)
language plpgsql stable security definer set search_path = ''
as $$
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
revoke execute on function public.customer_note_list(integer) from public, anon;
grant execute on function public.customer_note_list(integer) to authenticated, service_role;
