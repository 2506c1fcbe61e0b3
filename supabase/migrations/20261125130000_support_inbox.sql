-- The support inbox (issue 21, item 9). Until now the desk's support form stored its messages in
-- support_messages and nobody looked at them. Admins now read them in the desk, mark them read
-- and done (and undo either), and the header's bell counts the unread ones. Plain SQL that
-- `supabase db push` runs on a hosted project as well: no superuser-only statements, every grant
-- explicit.

alter table public.support_messages
  add column read_at timestamptz,
  add column read_by uuid references auth.users (id) on delete set null,
  add column done_at timestamptz,
  add column done_by uuid references auth.users (id) on delete set null;

-- Who marked a message, and when, is the database's word, not the browser's: an admin sets
-- read_at or done_at to any time (or null to undo), and this trigger records now() and the caller.
-- Done implies read, so that a message settled without opening it leaves the bell too.
-- Security invoker: it only rewrites the row being updated, which the caller may update anyway.
create function public.stamp_support_message_state() returns trigger
language plpgsql set search_path = ''
as $$
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

-- A trigger function is called by the trigger, never directly.
revoke execute on function public.stamp_support_message_state() from public, anon, authenticated;

create trigger stamp_support_message_state
  before update on public.support_messages
  for each row execute function public.stamp_support_message_state();

-- Only admins change the state (staff see no message, so they have nothing to mark).
create policy support_messages_admin_update on public.support_messages for update to authenticated
  using ((select public.is_admin())) with check ((select public.is_admin()));

-- Column privileges keep the message itself as it was sent: an admin may set the two state
-- columns and nothing else (an update of message, name, email or the sender is refused with
-- 42501). The sender, for the same reason, may no longer insert a message already marked read or
-- done, nor choose its time: insert is narrowed to the form's fields and the sender (whom the
-- insert policy checks). Nobody deletes a message through the API.
revoke insert, update on public.support_messages from authenticated;
grant insert (user_id, name, email, message) on public.support_messages to authenticated;
grant update (read_at, done_at) on public.support_messages to authenticated;

-- The bell counts the unread, the inbox lists the open ones newest first and the settled ones by
-- when they were settled; each reads a small part of the table.
create index support_messages_unread_idx on public.support_messages (created_at desc, id desc)
  where read_at is null;
create index support_messages_open_idx on public.support_messages (created_at desc, id desc)
  where done_at is null;
create index support_messages_done_idx on public.support_messages (done_at desc, id desc)
  where done_at is not null;
