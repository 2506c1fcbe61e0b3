-- Issue 32, items 5 and 8: names are names, labels are the account's own, follow-up changes have
-- a history. Plain SQL that `supabase db push` runs on a hosted project as well as PGlite.
--
-- 1. Contact names (customers in `users`, leads in `responses`) hold no control character, line
--    break, invisible or bidi formatting character, no symbol that builds a link, an address or
--    markup (: / @ < > and the other ASCII symbols, full-width look-alikes of : / @ . and the
--    ideographic full stop), no period directly before another character (an abbreviation's
--    period ends a word: "Dr. Anna", "Dr.-Ing."; "evil.example" is no name), no leading or
--    trailing space, and 1 to 100 characters. The forms' rule (src/domain/contact-forms.ts,
--    isName) is stricter: letters only; the database keeps digits so that rows staff or imports
--    numbered ("Kunde 2") stay valid, none of which can form a line or a link.
-- 2. A staff display name holds no control or formatting character and no '@': a label is never
--    an e-mail address. set_display_name also refuses another account's name.
-- 3. A support message carries its sender's own name (display name, else address) and address,
--    whatever the form sent.
-- 4. Every change of a follow-up (text, assignee, due time, done, open again) is recorded with who
--    and when in follow_up_changes; lead_activity shows them in the lead's 'Verlauf'.

-- ---------------------------------------------------------------------------------------------
-- 1. Names. Existing values are made plain first, so that the constraints can be added: a run of
-- forbidden characters becomes one space, a period before another character gets a space after
-- it, spaces are collapsed and trimmed, the value is cut to 100 characters; a value with nothing
-- left becomes 'Unbekannt'. Only rows that change are written; the migration runs as the owner,
-- so no staff edit and no access-log entry is recorded for it.
create function pg_temp.plain_name(value text) returns text
language sql immutable
as $$
  select coalesce(nullif(btrim(left(btrim(regexp_replace(regexp_replace(regexp_replace(
           value,
           '[\u0001-\u001f\u007f-\u00a0\u00ad\u061c\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\u3002\ufe52\ufeff\uff0e\uff0f\uff1a\uff20\uff61\ufff9-\ufffb!"#$%&()*+,/:;<=>?@\[\\\]^_`{|}~]+',
           ' ', 'g'),
           '\.(?=[^- ])', '. ', 'g'),
           ' {2,}', ' ', 'g')), 100)), ''), 'Unbekannt')
$$;

update public.users u
   set first_name = pg_temp.plain_name(u.first_name),
       last_name = pg_temp.plain_name(u.last_name)
 where u.first_name is distinct from pg_temp.plain_name(u.first_name)
    or u.last_name is distinct from pg_temp.plain_name(u.last_name);

update public.responses r
   set first_name = pg_temp.plain_name(r.first_name),
       last_name = pg_temp.plain_name(r.last_name)
 where r.first_name is distinct from pg_temp.plain_name(r.first_name)
    or r.last_name is distinct from pg_temp.plain_name(r.last_name);

drop function pg_temp.plain_name(text);

alter table public.users
  add constraint users_first_name_plain check (
    char_length(first_name) between 1 and 100 and first_name = btrim(first_name)
    and first_name !~ '[\u0001-\u001f\u007f-\u00a0\u00ad\u061c\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\u3002\ufe52\ufeff\uff0e\uff0f\uff1a\uff20\uff61\ufff9-\ufffb!"#$%&()*+,/:;<=>?@\[\\\]^_`{|}~]'
    and first_name !~ '\.[^- ]'),
  add constraint users_last_name_plain check (
    char_length(last_name) between 1 and 100 and last_name = btrim(last_name)
    and last_name !~ '[\u0001-\u001f\u007f-\u00a0\u00ad\u061c\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\u3002\ufe52\ufeff\uff0e\uff0f\uff1a\uff20\uff61\ufff9-\ufffb!"#$%&()*+,/:;<=>?@\[\\\]^_`{|}~]'
    and last_name !~ '\.[^- ]');

alter table public.responses
  add constraint responses_first_name_plain check (
    char_length(first_name) between 1 and 100 and first_name = btrim(first_name)
    and first_name !~ '[\u0001-\u001f\u007f-\u00a0\u00ad\u061c\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\u3002\ufe52\ufeff\uff0e\uff0f\uff1a\uff20\uff61\ufff9-\ufffb!"#$%&()*+,/:;<=>?@\[\\\]^_`{|}~]'
    and first_name !~ '\.[^- ]'),
  add constraint responses_last_name_plain check (
    char_length(last_name) between 1 and 100 and last_name = btrim(last_name)
    and last_name !~ '[\u0001-\u001f\u007f-\u00a0\u00ad\u061c\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\u3002\ufe52\ufeff\uff0e\uff0f\uff1a\uff20\uff61\ufff9-\ufffb!"#$%&()*+,/:;<=>?@\[\\\]^_`{|}~]'
    and last_name !~ '\.[^- ]');

-- ---------------------------------------------------------------------------------------------
-- 2. Display names. Existing ones lose control and formatting characters; one holding '@' is
-- cleared (colleagues see the account's own address again).
update public.staff s
   set display_name = nullif(btrim(regexp_replace(s.display_name,
         '[\u0001-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]+',
         ' ', 'g')), '')
 where s.display_name ~ '[\u0001-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]';
update public.staff s set display_name = null where strpos(s.display_name, '@') > 0;

alter table public.staff
  add constraint staff_display_name_plain check (
    display_name !~ '[\u0001-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]'
    and strpos(display_name, '@') = 0);

-- The caller's own name. Refused (nothing changes): a control or formatting character (22023), more
-- than 80 characters (22001), an '@' (22023: a label is never an address, neither another
-- account's nor one that registers later), and the name or address another account shows
-- (23505, compared without case). An empty name clears it: colleagues see the address again.
create or replace function public.set_display_name(name text) returns text
language plpgsql volatile security definer set search_path = ''
as $$
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

revoke execute on function public.set_display_name(text) from public, anon;
grant execute on function public.set_display_name(text) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- 3. Support messages: the sender's account names itself. A message with a sender (every message
-- from the desk: the insert policy demands user_id = auth.uid()) gets the account's display name
-- (else its address) and its address, whatever was sent; only the service role, without a
-- sender, writes a name and address of its own. Definer: staff may not read other staff rows.
create function public.stamp_support_message_sender() returns trigger
language plpgsql security definer set search_path = ''
as $$
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
revoke execute on function public.stamp_support_message_sender() from public, anon, authenticated;

create trigger stamp_support_message_sender
  before insert on public.support_messages
  for each row execute function public.stamp_support_message_sender();

-- Messages sent so far name their sender the same way (a name typed into the old form said
-- nothing about who sent it).
update public.support_messages m
   set name = left(coalesce(s.display_name, s.email), 200), email = s.email
  from public.staff s
 where s.user_id = m.user_id
   and (m.name, m.email) is distinct from (left(coalesce(s.display_name, s.email), 200), s.email);

-- ---------------------------------------------------------------------------------------------
-- 4. Follow-up history. One row per change: 'changed' with the fields that changed and their
-- values before and after, 'done' and 'reopened'; who (the caller; null for the service role, or
-- once the account is gone) and when. Written only by the trigger below; read only through
-- lead_activity (no API role reads or writes the table). Goes with its follow-up (cascade), so
-- the customer's erasure takes it too.
create table public.follow_up_changes (
  id bigint generated always as identity primary key,
  follow_up_id bigint not null references public.follow_ups (id) on delete cascade,
  kind text not null check (kind in ('changed', 'done', 'reopened')),
  changed_by uuid references auth.users (id) on delete set null,
  changed_at timestamptz not null default now(),
  changed_fields text[] not null default '{}'
    check (changed_fields <@ array['body', 'assignee', 'due_at']::text[]),
  body_before text,
  body_after text,
  assignee_before uuid,
  assignee_after uuid,
  due_before timestamptz,
  due_after timestamptz
);
create index follow_up_changes_follow_up_idx
  on public.follow_up_changes (follow_up_id, changed_at, id);

alter table public.follow_up_changes enable row level security;
revoke all on public.follow_up_changes from public, anon, authenticated;
grant select on public.follow_up_changes to service_role;

-- After every update of a follow-up, as the definer (staff may not write the history). An update
-- made by a foreign key's action (an assignee's account deleted, a lead deleted) is no one's
-- change and is not recorded: it runs one trigger level deeper.
create function public.record_follow_up_change() returns trigger
language plpgsql security definer set search_path = ''
as $$
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
revoke execute on function public.record_follow_up_change() from public, anon, authenticated;

create trigger record_follow_up_change
  after update of body, assignee, due_at, done_at on public.follow_ups
  for each row execute function public.record_follow_up_change();

-- Follow-ups done before the history existed keep their 'erledigt' step.
insert into public.follow_up_changes (follow_up_id, kind, changed_by, changed_at)
select f.id, 'done', f.done_by, f.done_at
  from public.follow_ups f
 where f.done_at is not null;

-- The lead's way through the office beside its status changes: the new-lead mail, each follow-up
-- about it made (with its first text, due time and assignee), changed (the new values of what
-- changed: `changed` names the fields), done and opened again, each with who and when. Read with
-- the answers, which customer_leads logs: not logged again. The columns grow, so the function is
-- made anew.
drop function public.lead_activity(integer);
create function public.lead_activity(customer_id integer)
returns table (
  response_id integer,
  kind text,
  at timestamptz,
  by_name text,
  body text,
  due_at timestamptz,
  assignee_name text,
  changed text[]
)
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform public.require_staff();
  return query
    with leads as (
      select r.id from public.responses r where r.user_id = lead_activity.customer_id
    ),
    lead_follow_ups as (
      select f.* from public.follow_ups f where f.response_id in (select id from leads)
    ),
    changes as (
      select c.*, f.response_id, f.body as current_body, f.due_at as current_due
        from public.follow_up_changes c
        join lead_follow_ups f on f.id = c.follow_up_id
    )
    select m.response_id, 'mail_sent'::text, m.sent_at, null::text, null::text,
           null::timestamptz, null::text, null::text[]
      from public.lead_mail_outbox m
     where m.response_id in (select id from leads) and m.state = 'sent' and m.sent_at is not null
    union all
    -- As it was made: the values before the first change of each field.
    select f.response_id, 'follow_up_created'::text, f.created_at,
           coalesce(s.display_name, s.email)::text,
           coalesce((select c.body_before from changes c
                      where c.follow_up_id = f.id and 'body' = any(c.changed_fields)
                      order by c.changed_at, c.id limit 1), f.body),
           coalesce((select c.due_before from changes c
                      where c.follow_up_id = f.id and 'due_at' = any(c.changed_fields)
                      order by c.changed_at, c.id limit 1), f.due_at),
           (select coalesce(a.display_name, a.email)::text from public.staff a
             where a.user_id = case
               when exists (select 1 from changes c
                             where c.follow_up_id = f.id and 'assignee' = any(c.changed_fields))
               then (select c.assignee_before from changes c
                      where c.follow_up_id = f.id and 'assignee' = any(c.changed_fields)
                      order by c.changed_at, c.id limit 1)
               else f.assignee end),
           null::text[]
      from lead_follow_ups f
      left join public.staff s on s.user_id = f.created_by
    union all
    select c.response_id,
           case c.kind when 'changed' then 'follow_up_changed' when 'done' then 'follow_up_done'
                else 'follow_up_reopened' end,
           c.changed_at,
           coalesce(s.display_name, s.email)::text,
           case when c.kind = 'changed' then c.body_after else c.current_body end,
           case when c.kind = 'changed' then c.due_after else c.current_due end,
           (select coalesce(a.display_name, a.email)::text from public.staff a
             where a.user_id = c.assignee_after),
           case when c.kind = 'changed' then c.changed_fields end
      from changes c
      left join public.staff s on s.user_id = c.changed_by
    order by 1, 3;
end;
$$;
revoke execute on function public.lead_activity(integer) from public, anon;
grant execute on function public.lead_activity(integer) to authenticated, service_role;
