-- Survey Desk's customer search: `rpc('search_customers', {term})`, shaped like a table read
-- (select, order, range, count=exact).
--
-- Why a function rather than `.from('users').or('first_name.ilike.*x*,...')`: under row-level
-- security PostgreSQL may push a condition below the policy only when its operator is leakproof,
-- and ilike (texticlike) is not. The trigram indexes on public.users are then unusable for an API
-- role and every search (and its count) reads all customers: 100,000 rows, 250-380 ms.
--
-- Security definer runs the search as the owner, where no policy stands in the way of the indexes.
-- The guard repeats the policy users_staff_all's decision (staff and admins see every customer,
-- everyone else none) so that the function reveals nothing the table would not; service_role,
-- which bypasses row-level security on the table, sees every customer here too.
--
-- enable_seqscan is off because the planner prices ilike with a pattern it does not know (the
-- function is planned once for any term) as cheap and would scan the table; the bitmap scan over
-- the trigram indexes is what makes a search fast, and a short term (fewer than three characters,
-- which trigrams cannot narrow) still works with the setting off, only slower.
create function public.search_customers(term text) returns setof public.users
language sql stable security definer
set search_path = ''
set enable_seqscan = off
as $$
  select u.*
    from public.users u,
         -- The term is matched literally: %, _ and the escape character \ lose their meaning.
         (select '%' || replace(replace(replace(term, '\', '\\'), '%', '\%'), '_', '\_') || '%'
            as pattern) p
   where ((select public.is_staff()) or (select auth.role()) = 'service_role')
     and (u.first_name ilike p.pattern or u.last_name ilike p.pattern
          or u.email ilike p.pattern or u.city ilike p.pattern)
$$;

-- Functions are executable by PUBLIC when created; only signed-in callers may search.
revoke execute on function public.search_customers(text) from public, anon;
grant execute on function public.search_customers(text) to authenticated, service_role;
