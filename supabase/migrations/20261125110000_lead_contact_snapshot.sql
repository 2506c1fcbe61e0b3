-- A lead may create a customer, never change what is known about one.
--
-- Each response keeps the contact details its sender typed: public.responses has carried
-- first_name, last_name, email, phone, adress, postcode, city (and salutation, title, birthdate)
-- since the initial schema, written from the lead itself and never from the customer, so every
-- existing response already holds its own snapshot and nothing is copied into it here (copying
-- the customer's current values would replace what was typed by what was corrected since).
--
-- What changes is the customer record (public.users):
--   * a lead for a new address creates the customer from its details;
--   * a lead for a known address only fills fields that are empty, and never a field staff
--     edited (even one staff emptied on purpose);
--   * staff edits are recorded per field in users.staff_edited by a trigger, for every write by
--     the API roles (the desk writes through PostgREST as `authenticated`), so this holds on
--     hosted Supabase as well as behind the local gateway.
-- Where a lead's details differ from the customer's, the desk shows them beside the customer and
-- staff take them over by hand.

alter table public.users
  add column staff_edited text[] not null default '{}'
    check (staff_edited <@ array['first_name', 'last_name', 'email', 'phone', 'adress',
                                 'postcode', 'city']::text[]);
comment on column public.users.staff_edited is
  'Contact fields staff have set by hand; a lead never overwrites them.';

-- Existing customers: the old hub set first_name, last_name and phone from every lead and kept
-- adress, postcode and city unless a lead brought new ones, so a field that differs from what
-- the newest lead (by arrival) would have left there was changed by staff. Customers without
-- any lead keep an empty list: their filled fields stay filled anyway. This runs before the
-- trigger below exists, which would keep the list as it was for the migration's role.
with newest as (
  select distinct on (r.user_id)
         r.user_id, r.first_name, r.last_name, r.phone
    from public.responses r
   where r.user_id is not null
   order by r.user_id, r.received_at desc, r.id desc
), newest_place as (
  select u.id,
         (select r.adress from public.responses r
           where r.user_id = u.id and r.adress is not null
           order by r.received_at desc, r.id desc limit 1) as adress,
         (select r.postcode from public.responses r
           where r.user_id = u.id and r.postcode is not null
           order by r.received_at desc, r.id desc limit 1) as postcode,
         (select r.city from public.responses r
           where r.user_id = u.id and r.city is not null
           order by r.received_at desc, r.id desc limit 1) as city
    from public.users u
   where exists (select 1 from public.responses r where r.user_id = u.id)
)
update public.users u
   set staff_edited = array_remove(array[
         case when u.first_name is distinct from n.first_name then 'first_name' end,
         case when u.last_name is distinct from n.last_name then 'last_name' end,
         case when u.phone is distinct from n.phone then 'phone' end,
         case when u.adress is distinct from p.adress then 'adress' end,
         case when u.postcode is distinct from p.postcode then 'postcode' end,
         case when u.city is distinct from p.city then 'city' end
       ], null)
  from newest n, newest_place p
 where n.user_id = u.id and p.id = u.id;

-- Runs as the caller, so current_user is the role PostgREST switched to. Whatever the caller sent
-- for staff_edited is ignored: only this trigger decides it.
create function public.record_staff_customer_edit() returns trigger
language plpgsql set search_path = ''
as $$
declare
  edited text[];
begin
  if current_user not in ('authenticated', 'service_role') then
    if tg_op = 'UPDATE' then
      new.staff_edited := old.staff_edited;
    end if;
    return new;
  end if;
  if tg_op = 'INSERT' then
    -- A customer staff create by hand: every field they filled is theirs.
    select coalesce(array_agg(f.name order by f.n), '{}') into edited
      from unnest(array['first_name', 'last_name', 'email', 'phone', 'adress', 'postcode', 'city'],
                  array[new.first_name, new.last_name, new.email, new.phone, new.adress,
                        new.postcode, new.city]) with ordinality as f(name, value, n)
     where nullif(btrim(f.value), '') is not null;
    new.staff_edited := edited;
    return new;
  end if;
  select coalesce(array_agg(f.name order by f.n), '{}') into edited
    from unnest(array['first_name', 'last_name', 'email', 'phone', 'adress', 'postcode', 'city'],
                array[old.first_name, old.last_name, old.email, old.phone, old.adress,
                      old.postcode, old.city],
                array[new.first_name, new.last_name, new.email, new.phone, new.adress,
                      new.postcode, new.city]) with ordinality as f(name, before, after, n)
   where f.name = any(old.staff_edited) or f.before is distinct from f.after;
  new.staff_edited := edited;
  return new;
end;
$$;

create trigger record_staff_customer_edit
  before insert or update on public.users
  for each row execute function public.record_staff_customer_edit();

-- The value a customer field keeps when a lead offers `offered`: the lead fills an empty field
-- that staff have not set; anything else stays.
create function public.lead_fill(kept text, offered text, field text, staff_edited text[])
returns text
language sql immutable set search_path = ''
as $$
  select case
    when nullif(btrim(kept), '') is null and not (field = any(staff_edited))
      then coalesce(nullif(btrim(offered), ''), kept)
    else kept
  end
$$;
revoke execute on function public.lead_fill(text, text, text, text[]) from public, anon;
grant execute on function public.lead_fill(text, text, text, text[]) to service_role;

-- Stores a lead's customer: created from the lead for a new address, else only its empty fields
-- filled. Returns the customer's id. Called by the hub inside the transaction that stores the
-- lead; the hub applies the leads of one batch newest first (captured_at), so a lead typed
-- earlier on a tablet and synced late never fills a field before the newer lead does.
create function public.merge_lead_customer(
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
begin
  for attempt in 1..3 loop
    insert into public.users (first_name, last_name, email, phone, adress, postcode, city)
    values (lead_first_name, lead_last_name, lower(lead_email), nullif(btrim(lead_phone), ''),
            nullif(btrim(lead_adress), ''), nullif(btrim(lead_postcode), ''),
            nullif(btrim(lead_city), ''))
    on conflict ((lower(email))) do nothing
    returning id into customer_id;
    if customer_id is not null then
      return customer_id;
    end if;
    -- Known address: lock the row (a concurrent lead of the same address waits here) and fill.
    select * into customer from public.users u where lower(u.email) = lower(lead_email) for update;
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
-- Only the hub (the database owner) stores leads; the API roles must not reach it as an rpc.
revoke execute on function public.merge_lead_customer(text, text, text, text, text, text, text)
  from public, anon, authenticated;
grant execute on function public.merge_lead_customer(text, text, text, text, text, text, text)
  to service_role;
