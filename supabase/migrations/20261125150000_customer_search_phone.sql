-- The customer search finds phone numbers too (issue 21, item 10): staff call back and look a
-- customer up by the number on their phone's display. Numbers are stored as typed ("0171 2345678",
-- "+49 171/234 56-78"), so a term made only of phone characters is compared by its digits with
-- the number's digits, both without the German prefixes (+49, 0049, 0); any other term matches
-- the number as text, like the other columns. `create or replace` keeps the search's grants
-- (authenticated and service_role only).

-- The national digits of a German number: '+49 171/234' and '(0171) 234' both give '171234'.
-- Without SET, so that the planner inlines it and the index below serves the search.
create function public.phone_digits(phone text) returns text
language sql immutable parallel safe
as $$
  select pg_catalog.regexp_replace(
           pg_catalog.regexp_replace(coalesce(phone, ''), '[^0-9+]', '', 'g'),
           '^(\+49|0049|0)|[^0-9]', '', 'g')
$$;
revoke execute on function public.phone_digits(text) from public, anon;
grant execute on function public.phone_digits(text) to authenticated, service_role;

create index users_phone_digits_trgm_idx
  on public.users using gin ((public.phone_digits(phone)) extensions.gin_trgm_ops);
create index users_phone_trgm_idx on public.users using gin (phone extensions.gin_trgm_ops);

create or replace function public.search_customers(term text) returns setof public.users
language sql stable security definer
set search_path = ''
set enable_seqscan = off
as $$
  select u.*
    from public.users u,
         -- The term is matched literally: %, _ and the escape character \ lose their meaning.
         (select '%' || replace(replace(replace(term, '\', '\\'), '%', '\%'), '_', '\_') || '%'
                   as pattern,
                 -- A phone number typed into the search: its digits, at least three of them.
                 case when term ~ '^[-+0-9 /()]+$' and length(public.phone_digits(term)) >= 3
                      then '%' || public.phone_digits(term) || '%'
                 end as digits) p
   where ((select public.is_staff()) or (select auth.role()) = 'service_role')
     and (u.first_name ilike p.pattern or u.last_name ilike p.pattern
          or u.email ilike p.pattern or u.city ilike p.pattern
          or u.phone ilike p.pattern
          or public.phone_digits(u.phone) like p.digits)
$$;
