-- Issue 37, the desk at volume: the dashboard's counts.
--
-- customer_count(): 'Kunden insgesamt' as one count. The dashboard asked PostgREST for the exact
-- count of `users` (head), which also built a page of a thousand ids.
--
-- due_follow_ups goes. It returned every due follow-up at once; the work list, the bell and the
-- follow-up list read the counted and paged follow_up_list, and nothing calls it any more.

create function public.customer_count() returns bigint
    language sql stable security definer
    set search_path to ''
    as $$
  -- The dashboard's 'Kunden insgesamt': one count, without the page of a thousand ids that
  -- PostgREST's exact count of the table built beside it. Zero for anyone but staff, as the
  -- table's policy shows them no customer.
  select count(*)
    from public.users u
   where (select public.is_staff())
$$;

revoke all on function public.customer_count() from public, anon;
grant all on function public.customer_count() to authenticated, service_role;

drop function public.due_follow_ups();
