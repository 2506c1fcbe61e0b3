-- A lead's way through the office beside its status changes (lead_status_history): when the
-- new-lead mail about it went out, and each follow-up about it, made (by whom, or automatically
-- for a callback wish) and done (by whom). The answers page shows these with the status changes
-- as one history. Read with the answers, which customer_leads logs: not logged again.
create function public.lead_activity(customer_id integer)
returns table (
  response_id integer,
  kind text,
  at timestamptz,
  by_name text,
  body text,
  due_at timestamptz
)
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform public.require_staff();
  return query
    with leads as (
      select r.id from public.responses r where r.user_id = lead_activity.customer_id
    )
    select m.response_id, 'mail_sent'::text, m.sent_at, null::text, null::text,
           null::timestamptz
      from public.lead_mail_outbox m
     where m.response_id in (select id from leads) and m.state = 'sent' and m.sent_at is not null
    union all
    select f.response_id, 'follow_up_created'::text, f.created_at,
           coalesce(s.display_name, s.email)::text, f.body, f.due_at
      from public.follow_ups f
      left join public.staff s on s.user_id = f.created_by
     where f.response_id in (select id from leads)
    union all
    select f.response_id, 'follow_up_done'::text, f.done_at,
           coalesce(s.display_name, s.email)::text, f.body, f.due_at
      from public.follow_ups f
      left join public.staff s on s.user_id = f.done_by
     where f.response_id in (select id from leads) and f.done_at is not null
    order by 1, 3;
end;
$$;
revoke execute on function public.lead_activity(integer) from public, anon;
grant execute on function public.lead_activity(integer) to authenticated, service_role;
