-- Customers' identity is the database's (issue 32, items 3 and 4), and the catalogue keeps the
-- promises tests/database/catalogue-invariants.test.ts checks.
--
--   * A customer's e-mail address is stored trimmed and lower-case, and the table refuses any
--     other form. Before, the check was only `email = lower(email)`: staff could store a real
--     customer's address with a trailing space as a second customer (the unique index on
--     lower(email) saw two addresses), and every function that finds a person's leads by
--     lower(btrim(email)) then took that "decoy" for the real person.
--   * Existing rows are normalised; rows that then share one address are one person and are
--     merged into the oldest by the rule a lead follows (only empty fields are filled, never one
--     staff edited there), with a 'customer_changed' entry in the access log on both numbers.
--   * The API roles write only the fields a person has: id, created_at, updated_at and
--     staff_edited of a customer (and the ids and creation times of forms and questions, the
--     sender of a support message, an account's id, address and creation time) are refused with
--     42501. Staff could insert customers at the next identity values, and every later lead
--     from a new address then failed in merge_lead_customer with 23505 on users_pkey.
--   * A customer staff insert is logged ('customer_changed' with {"created": true}), as their
--     updates and deletes are.

-- The one normal form of an address: without the white space JavaScript's trim() removes (what
-- the desk and the hub trim) at either end, in lower case.
create function public.normalized_email(email text) returns text
language sql immutable strict parallel safe set search_path = ''
as $$
  select lower(regexp_replace(
    email,
    '^[\s\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+|[\s\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+$',
    '', 'g'))
$$;
comment on function public.normalized_email(text) is
  'An e-mail address as customers store it: trimmed (as JavaScript trims) and lower-case.';
-- The check below runs it as the writing role: the hub and signed-in accounts.
revoke execute on function public.normalized_email(text) from public, anon;
grant execute on function public.normalized_email(text) to authenticated, service_role;

-- Customers whose addresses are one address once normalised: merged into the oldest (the number
-- the person has had longest). Everything that points at a duplicate (leads, follow-ups, notes,
-- holds: every foreign key to users) moves over; the kept customer's empty fields that staff did
-- not set are filled from the duplicate (lead_fill, the rule of merge_lead_customer), and a field
-- so taken stays staff's when staff had set it on the duplicate. The trigger that keeps
-- staff_edited for non-API roles is off meanwhile, so the list can be written here.
alter table public.users disable trigger record_staff_customer_edit;
do $$
declare
  groups record;
  keep public.users;
  dup public.users;
  dup_id integer;
  ref record;
  moved integer;
  moved_leads integer;
begin
  for groups in
    select array_agg(u.id order by u.created_at, u.id) as ids
      from public.users u
     group by public.normalized_email(u.email)
    having count(*) > 1
  loop
    foreach dup_id in array groups.ids[2:] loop
      select * into keep from public.users u where u.id = groups.ids[1];
      select * into dup from public.users u where u.id = dup_id;
      moved_leads := 0;
      for ref in
        select c.conrelid::regclass as tbl, a.attname as col
          from pg_catalog.pg_constraint c
          join pg_catalog.pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
         where c.contype = 'f' and c.confrelid = 'public.users'::regclass
           and cardinality(c.conkey) = 1
         order by (c.conrelid = 'public.responses'::regclass) desc, 1, 2
      loop
        execute format('update %s set %I = $1 where %I = $2', ref.tbl, ref.col, ref.col)
          using keep.id, dup.id;
        get diagnostics moved = row_count;
        if ref.tbl = 'public.responses'::regclass then
          moved_leads := moved_leads + moved;
        end if;
      end loop;
      update public.users u
         set first_name = public.lead_fill(u.first_name, dup.first_name, 'first_name', u.staff_edited),
             last_name = public.lead_fill(u.last_name, dup.last_name, 'last_name', u.staff_edited),
             phone = public.lead_fill(u.phone, dup.phone, 'phone', u.staff_edited),
             adress = public.lead_fill(u.adress, dup.adress, 'adress', u.staff_edited),
             postcode = public.lead_fill(u.postcode, dup.postcode, 'postcode', u.staff_edited),
             city = public.lead_fill(u.city, dup.city, 'city', u.staff_edited),
             staff_edited = array(
               select f.name
                 from unnest(array['first_name', 'last_name', 'email', 'phone', 'adress',
                                   'postcode', 'city'],
                             array[u.first_name, u.last_name, u.email, u.phone, u.adress,
                                   u.postcode, u.city],
                             array[public.lead_fill(u.first_name, dup.first_name, 'first_name', u.staff_edited),
                                   public.lead_fill(u.last_name, dup.last_name, 'last_name', u.staff_edited),
                                   u.email,
                                   public.lead_fill(u.phone, dup.phone, 'phone', u.staff_edited),
                                   public.lead_fill(u.adress, dup.adress, 'adress', u.staff_edited),
                                   public.lead_fill(u.postcode, dup.postcode, 'postcode', u.staff_edited),
                                   public.lead_fill(u.city, dup.city, 'city', u.staff_edited)])
                      with ordinality as f(name, before, after, n)
                where f.name = any (u.staff_edited)
                   or (f.before is distinct from f.after and f.name = any (dup.staff_edited))
                order by f.n),
             updated_at = now()
       where u.id = keep.id;
      delete from public.users u where u.id = dup.id;
      perform public.log_access('customer_changed', dup.id,
        jsonb_build_object('merged_into', keep.id, 'reason', 'email_normalized'));
      perform public.log_access('customer_changed', keep.id,
        jsonb_build_object('merged_from', dup.id, 'leads', moved_leads,
                           'reason', 'email_normalized'));
    end loop;
  end loop;
end;
$$;
update public.users u
   set email = public.normalized_email(u.email)
 where u.email is distinct from public.normalized_email(u.email);
alter table public.users enable trigger record_staff_customer_edit;

alter table public.users
  add constraint users_email_normalized check (email = public.normalized_email(email));

-- Rows inserted at ids ahead of an identity's sequence (as staff could) would make a later
-- default id collide: every sequence moves past the highest id its column holds (never back, so
-- an erased customer's number is not given again).
do $$
declare
  col record;
  highest bigint;
  last bigint;
begin
  for col in
    select c.oid::regclass as tbl, a.attname as name,
           pg_catalog.pg_get_serial_sequence(c.oid::regclass::text, a.attname) as seq
      from pg_catalog.pg_attribute a
      join pg_catalog.pg_class c on c.oid = a.attrelid
      join pg_catalog.pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind = 'r' and a.attidentity <> ''
       and not a.attisdropped
  loop
    execute format('select max(%I)::bigint from %s', col.name, col.tbl) into highest;
    execute format('select case when is_called then last_value else last_value - 1 end from %s',
                   col.seq) into last;
    if highest is not null and highest > last then
      perform pg_catalog.setval(col.seq, highest, true);
    end if;
  end loop;
end;
$$;

-- The hub's merge, with the address normalised as the table now demands (the hub's forms
-- normalise already; this keeps any other caller from failing on the check).
create or replace function public.merge_lead_customer(
  lead_first_name text,
  lead_last_name text,
  lead_email text,
  lead_phone text,
  lead_adress text,
  lead_postcode text,
  lead_city text
) returns integer
language plpgsql volatile set search_path = ''
as $$
declare
  customer public.users;
  customer_id integer;
  address text := public.normalized_email(lead_email);
begin
  for attempt in 1..3 loop
    insert into public.users (first_name, last_name, email, phone, adress, postcode, city)
    values (lead_first_name, lead_last_name, address, nullif(btrim(lead_phone), ''),
            nullif(btrim(lead_adress), ''), nullif(btrim(lead_postcode), ''),
            nullif(btrim(lead_city), ''))
    on conflict ((lower(email))) do nothing
    returning id into customer_id;
    if customer_id is not null then
      return customer_id;
    end if;
    -- Known address: lock the row (a concurrent lead of the same address waits here) and fill.
    select * into customer from public.users u where lower(u.email) = address for update;
    if found then
      update public.users u
         set first_name = public.lead_fill(u.first_name, lead_first_name, 'first_name', u.staff_edited),
             last_name = public.lead_fill(u.last_name, lead_last_name, 'last_name', u.staff_edited),
             phone = public.lead_fill(u.phone, lead_phone, 'phone', u.staff_edited),
             adress = public.lead_fill(u.adress, lead_adress, 'adress', u.staff_edited),
             postcode = public.lead_fill(u.postcode, lead_postcode, 'postcode', u.staff_edited),
             city = public.lead_fill(u.city, lead_city, 'city', u.staff_edited),
             updated_at = now()
       where u.id = customer.id
         and (public.lead_fill(u.first_name, lead_first_name, 'first_name', u.staff_edited),
              public.lead_fill(u.last_name, lead_last_name, 'last_name', u.staff_edited),
              public.lead_fill(u.phone, lead_phone, 'phone', u.staff_edited),
              public.lead_fill(u.adress, lead_adress, 'adress', u.staff_edited),
              public.lead_fill(u.postcode, lead_postcode, 'postcode', u.staff_edited),
              public.lead_fill(u.city, lead_city, 'city', u.staff_edited))
             is distinct from (u.first_name, u.last_name, u.phone, u.adress, u.postcode, u.city);
      return customer.id;
    end if;
    -- Deleted between the insert and the select: try the insert again.
  end loop;
  raise exception 'customer for lead not stored' using errcode = '40001';
end;
$$;
revoke execute on function public.merge_lead_customer(text, text, text, text, text, text, text)
  from public, anon, authenticated;
grant execute on function public.merge_lead_customer(text, text, text, text, text, text, text)
  to service_role;

-- Changes of a customer by an account, now with the customers an account creates: staff create
-- none in the desk (customers come from leads), so every one made through the API is worth a
-- line, and a request that inserts a thousand leaves a thousand.
create or replace function public.log_customer_change() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  changed text[];
begin
  if auth.uid() is null or coalesce(current_setting('app.erasing', true), '') = 'on' then
    return null;
  end if;
  if tg_op = 'INSERT' then
    perform public.log_access('customer_changed', new.id, jsonb_build_object('created', true));
    return null;
  end if;
  if tg_op = 'DELETE' then
    perform public.log_access('customer_changed', old.id, jsonb_build_object('deleted', true));
    return null;
  end if;
  select coalesce(array_agg(n.key order by n.key), '{}') into changed
    from jsonb_each(to_jsonb(new)) n
   where n.key not in ('updated_at', 'staff_edited')
     and n.value is distinct from to_jsonb(old) -> n.key;
  if cardinality(changed) > 0 then
    perform public.log_access('customer_changed', new.id, jsonb_build_object('columns', changed));
  end if;
  return null;
end;
$$;
revoke execute on function public.log_customer_change() from public, anon, authenticated;

drop trigger log_customer_change on public.users;
create trigger log_customer_change
  after insert or update or delete on public.users
  for each row execute function public.log_customer_change();

-- What the API roles may write: a person's fields, never what the database stamps. (A column
-- privilege does not narrow a table privilege, so the table's goes first.)
revoke insert, update on public.users from anon, authenticated;
grant insert (first_name, last_name, email, phone, adress, postcode, city),
      update (first_name, last_name, email, phone, adress, postcode, city)
  on public.users to authenticated;

revoke insert, update on public.forms from anon, authenticated;
grant insert (title, description, document, image),
      update (title, description, document, image)
  on public.forms to authenticated;

revoke insert, update on public.questions from anon, authenticated;
grant insert (form_id, question, type, options, required, "multipleAnswers", sequence,
              information, custome_description, key),
      update (form_id, question, type, options, required, "multipleAnswers", sequence,
              information, custome_description, key)
  on public.questions to authenticated;

-- An account's id, address and creation time come from its sign-up (handle_new_auth_user).
revoke update on public.staff from anon, authenticated;
grant update (role, display_name) on public.staff to authenticated;

-- The sender of a support message is the caller (the column's default; the insert policy
-- refused anyone else already).
revoke insert (user_id) on public.support_messages from authenticated;

-- A trigger function is called by its trigger, never by a role.
revoke execute on function public.handle_new_auth_user() from public, anon, authenticated;
