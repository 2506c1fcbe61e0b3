-- The customer list's filters (issue 24): questionnaire, source, status, period of arrival and
-- "has an open follow-up", combined with the search, and the current status of each customer.
-- With a filter the desk reads the list through desk_customer_list and shapes it like a table
-- read (order, range, count=exact through PostgREST), as it does with desk_search_customers;
-- without one it reads the table or the search as before and the page's statuses through
-- customer_lead_statuses (at the end).
--
-- Security definer: the leads (responses) and follow-ups are not readable by the API roles
-- (20261125190000_logged_lead_reads.sql, 20261126090000_office_work_base.sql). The functions
-- check the role themselves (require_staff) and return a customer's row with two facts of their
-- leads, the status and arrival of the newest, never a lead's content.
--
-- The filters about a lead (questionnaire, source, status, period) hold for one and the same
-- lead: a customer matches when one of their leads meets all of them. "KFZ-Lead of last week"
-- and "Kontaktiert" therefore find the customer whose KFZ lead of last week was contacted, not
-- one with an old contacted questionnaire lead and a new KFZ lead. lead_status and last_lead_at
-- are those of the customer's newest lead among the matching ones (every lead without a lead
-- filter): the row filtered by "Kontaktiert" says "Kontaktiert".
--
-- Arguments (null or left out: no filter):
--   term            the search of search_customers (names, e-mail, city, phone); '' for none
--   form_id         a questionnaire: its questionnaire leads (KFZ and contact leads count for
--                   none, as on Analyse and the questionnaire cards)
--   source          'web' (the website) or 'fair_tablet' (the fair tablet): where it was
--                   captured, as Analyse's "Quelle"; 'kfz' or 'contact': the KFZ callback and the
--                   contact form, from either
--   status          a lead status code (responses.status)
--   received_from,  Berlin calendar days, both inclusive, of the lead's arrival in the desk
--   received_to     (received_at): the office's inbox day, not the capture on a tablet
--   open_follow_up  true: the customer has a follow-up not done; false: has none
--
-- The query is written for the arguments given (execute with bound values): each call is planned
-- for its own filters, so that a status filter uses responses_status_idx and a period the arrival
-- index instead of one generic plan full of "is null or" that no index can serve.

create function public.customer_list(
  term text default '',
  form_id integer default null,
  source text default null,
  status text default null,
  received_from date default null,
  received_to date default null,
  open_follow_up boolean default null
) returns table (
  id public.users.id%type,
  first_name public.users.first_name%type,
  last_name public.users.last_name%type,
  email public.users.email%type,
  phone public.users.phone%type,
  adress public.users.adress%type,
  postcode public.users.postcode%type,
  city public.users.city%type,
  created_at public.users.created_at%type,
  updated_at public.users.updated_at%type,
  lead_status public.responses.status%type,
  last_lead_at public.responses.received_at%type
)
language plpgsql stable security definer set search_path = ''
as $$
declare
  search text := nullif(btrim(coalesce(customer_list.term, '')), '');
  lead_terms text[] := '{}';
  lead_condition text;
  customers text;
  query text;
begin
  perform public.require_staff();
  if customer_list.source is not null
     and customer_list.source not in ('web', 'fair_tablet', 'kfz', 'contact') then
    raise exception 'Unbekannte Quelle: %', customer_list.source using errcode = '22023';
  end if;
  if customer_list.status is not null
     and customer_list.status not in ('new', 'contacted', 'appointment', 'offer_sent', 'closed',
                                      'no_interest') then
    raise exception 'Unbekannter Status: %', customer_list.status using errcode = '22023';
  end if;

  -- The lead's conditions refer to the arguments as $2..$6 of the execute below.
  if customer_list.form_id is not null then
    lead_terms := array_append(lead_terms, 'r.questionnaire_id = $2');
  end if;
  if customer_list.source in ('web', 'fair_tablet') then
    lead_terms := array_append(lead_terms, 'r.channel = $3');
  elsif customer_list.source in ('kfz', 'contact') then
    lead_terms := array_append(lead_terms, 'r.source = $3');
  end if;
  if customer_list.status is not null then
    lead_terms := array_append(lead_terms, 'r.status = $4');
  end if;
  if customer_list.received_from is not null then
    lead_terms := array_append(lead_terms,
      'r.received_at >= pg_catalog.timezone(''Europe/Berlin'', $5::timestamp)');
  end if;
  if customer_list.received_to is not null then
    lead_terms := array_append(lead_terms,
      'r.received_at < pg_catalog.timezone(''Europe/Berlin'', ($6 + 1)::timestamp)');
  end if;
  lead_condition := array_to_string(lead_terms, ' and ');

  customers := case when search is null then 'public.users u'
                    else 'public.search_customers($1) u' end;
  if lead_condition = '' then
    -- Every lead counts: each customer's newest, looked up per customer.
    query := format(
      $q$select u.id, u.first_name, u.last_name, u.email, u.phone, u.adress, u.postcode, u.city,
                u.created_at, u.updated_at, n.status, n.received_at
           from %s
           left join lateral (
             select r.status, r.received_at from public.responses r
              where r.user_id = u.id
              order by r.received_at desc, r.id desc
              limit 1) n on true
          where true$q$,
      customers);
  else
    -- The matching leads first (through the filter's index), the newest per customer, then
    -- their customers: one pass over the leads, also when most of them match.
    query := format(
      $q$select u.id, u.first_name, u.last_name, u.email, u.phone, u.adress, u.postcode, u.city,
                u.created_at, u.updated_at, n.status, n.received_at
           from (select distinct on (r.user_id) r.user_id, r.status, r.received_at
                   from public.responses r
                  where r.user_id is not null and %s
                  order by r.user_id, r.received_at desc, r.id desc) n
           join %s on u.id = n.user_id
          where true$q$,
      lead_condition, customers);
  end if;
  query := query || case customer_list.open_follow_up
    when true then ' and exists (select 1 from public.follow_ups f
                                  where f.customer_id = u.id and f.done_at is null)'
    when false then ' and not exists (select 1 from public.follow_ups f
                                       where f.customer_id = u.id and f.done_at is null)'
    else '' end;
  return query execute query
    using search, customer_list.form_id, customer_list.source, customer_list.status,
          customer_list.received_from, customer_list.received_to;
end;
$$;
revoke execute on function public.customer_list(text, integer, text, text, date, date, boolean)
  from public, anon;
grant execute on function public.customer_list(text, integer, text, text, date, date, boolean)
  to authenticated, service_role;

-- The list as the desk reads it: customer_list's rows, and a search term (not the rows shown) in
-- the access log, once a minute, as desk_search_customers writes it. customer_list itself writes
-- nothing: the list's count-only request (a HEAD, read only) calls it.
create function public.desk_customer_list(
  term text default '',
  form_id integer default null,
  source text default null,
  status text default null,
  received_from date default null,
  received_to date default null,
  open_follow_up boolean default null
) returns table (
  id public.users.id%type,
  first_name public.users.first_name%type,
  last_name public.users.last_name%type,
  email public.users.email%type,
  phone public.users.phone%type,
  adress public.users.adress%type,
  postcode public.users.postcode%type,
  city public.users.city%type,
  created_at public.users.created_at%type,
  updated_at public.users.updated_at%type,
  lead_status public.responses.status%type,
  last_lead_at public.responses.received_at%type
)
language plpgsql volatile security definer set search_path = ''
as $$
begin
  perform public.require_staff();
  if nullif(btrim(coalesce(desk_customer_list.term, '')), '') is not null then
    perform public.log_access_once('customer_searched', null,
                                   jsonb_build_object('term', btrim(desk_customer_list.term)));
  end if;
  return query
    select * from public.customer_list(desk_customer_list.term, desk_customer_list.form_id,
                                       desk_customer_list.source, desk_customer_list.status,
                                       desk_customer_list.received_from,
                                       desk_customer_list.received_to,
                                       desk_customer_list.open_follow_up);
end;
$$;
revoke execute on function public.desk_customer_list(text, integer, text, text, date, date, boolean)
  from public, anon;
grant execute on function public.desk_customer_list(text, integer, text, text, date, date, boolean)
  to authenticated, service_role;

-- The status column of the list without lead or follow-up filters: the desk reads that list as
-- before (the table, or the search), where an index serves order and range, and asks here for
-- the newest lead of the page's customers only. Through customer_list every customer's newest
-- lead would be looked up to show ten (bench:gateway, 100,000 customers on PostgreSQL: 760 ms
-- for the first page against 24 ms).
create function public.customer_lead_statuses(customer_ids integer[])
returns table (
  customer_id public.users.id%type,
  lead_status public.responses.status%type,
  last_lead_at public.responses.received_at%type
)
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform public.require_staff();
  return query
    select c.id, n.status, n.received_at
      from unnest(customer_lead_statuses.customer_ids[1:100]) as c(id)
      join lateral (
        select r.status, r.received_at from public.responses r
         where r.user_id = c.id
         order by r.received_at desc, r.id desc
         limit 1) n on true;
end;
$$;
revoke execute on function public.customer_lead_statuses(integer[]) from public, anon;
grant execute on function public.customer_lead_statuses(integer[]) to authenticated, service_role;
