-- The dashboard's "Rückrufwünsche" counted every lead of the last seven days that named a time to
-- call back, and nothing ever took one off. Now each such lead brings its follow-up
-- (20261126110000_follow_ups_notes.sql): the figure counts the callback follow-ups not yet done,
-- so marking one done takes it off. `received_since` still narrows it to recent ones when given.
create or replace function public.callbacks_waiting(received_since timestamptz default null)
returns bigint
language sql stable security definer set search_path = ''
as $$
  select count(*)
    from public.follow_ups f
   where (select public.is_staff())
     and f.automatic
     and f.done_at is null
     and f.created_at >= coalesce(received_since, '-infinity')
$$;
revoke execute on function public.callbacks_waiting(timestamptz) from public, anon;
grant execute on function public.callbacks_waiting(timestamptz) to authenticated, service_role;
