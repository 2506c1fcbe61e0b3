-- A person's data, as the merged parts of issue 32 left it: the follow-up history
-- (20261128120000_names_and_labels.sql) belongs to the person's export, and a person's leads are
-- never another customer's.

-- The leads of a person: those of the customer record, and leads that belong to no customer but
-- were typed with the person's address. Before, any lead typed with the address counted, even one
-- of another customer: staff could change a real customer's address, create a new customer with
-- the old one, and that customer's export and erasure then reached the real person's leads.
create or replace function public.person_lead_ids(customer_id integer, email text) returns integer[]
language sql stable security definer set search_path = ''
as $$
  select coalesce(array_agg(r.id order by r.id), '{}')
    from public.responses r
   where r.user_id = person_lead_ids.customer_id
      or (r.user_id is null and lower(btrim(r.email)) = lower(btrim(person_lead_ids.email)))
$$;
revoke execute on function public.person_lead_ids(integer, text) from public, anon, authenticated;

-- Everything stored about one customer (Art. 15 and 20), as in
-- 20261128100000_answers_without_free_text.sql, now with each follow-up's history of changes
-- (earlier texts and due times: what the office wrote about the person then).
create or replace function public.customer_data_export(customer_id integer) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  person public.users;
  terms text[];
  result jsonb;
begin
  if not public.can_export() then
    raise exception 'Keine Berechtigung' using errcode = '42501';
  end if;
  select * into person from public.users u where u.id = customer_data_export.customer_id;
  if not found then
    raise exception 'Kunde nicht gefunden' using errcode = 'P0002';
  end if;
  terms := public.person_terms(person.email, person.phone, person.first_name, person.last_name);
  select jsonb_build_object(
    'exported_at', now(),
    'customer', to_jsonb(person),
    'leads', coalesce((
      select jsonb_agg(to_jsonb(r) - 'payload_hash'
                       || jsonb_build_object(
                            'form_title', (select f.title from public.forms f where f.id = r.form_id),
                            'answers', coalesce((
                              select jsonb_agg(jsonb_build_object(
                                       'question_id', a.question_id,
                                       'question', coalesce(q.question, a.question_text),
                                       'answer', a.answer,
                                       'created_at', a.created_at)
                                       order by q.sequence nulls last, a.id)
                                from public.answers a
                                left join public.questions q on q.id = a.question_id
                               where a.response_id = r.id), '[]'::jsonb),
                            'status_history', coalesce((
                              select jsonb_agg(jsonb_build_object(
                                       'status', c.status, 'note', c.note, 'at', c.changed_at)
                                       order by c.changed_at, c.id)
                                from public.lead_status_changes c
                               where c.response_id = r.id), '[]'::jsonb),
                            'notification_mails', coalesce((
                              select jsonb_agg(jsonb_build_object(
                                       'kind', m.kind, 'state', m.state,
                                       'created_at', m.created_at, 'sent_at', m.sent_at)
                                       order by m.id)
                                from public.lead_mail_outbox m
                               where m.response_id = r.id), '[]'::jsonb))
                       order by r.received_at, r.id)
        from public.responses r
       where r.id = any (public.person_lead_ids(person.id, person.email))), '[]'::jsonb),
    'notes', coalesce((
      select jsonb_agg(jsonb_build_object(
               'created_at', n.created_at, 'updated_at', n.updated_at, 'note', n.body)
               order by n.created_at, n.id)
        from public.customer_notes n where n.customer_id = person.id), '[]'::jsonb),
    'follow_ups', coalesce((
      select jsonb_agg(jsonb_build_object(
               'due_at', f.due_at, 'text', f.body, 'automatic', f.automatic,
               'created_at', f.created_at, 'done_at', f.done_at,
               'changes', coalesce((
                 select jsonb_agg(jsonb_build_object(
                          'kind', c.kind, 'at', c.changed_at, 'fields', c.changed_fields,
                          'text_before', c.body_before, 'text_after', c.body_after,
                          'due_before', c.due_before, 'due_after', c.due_after)
                          order by c.changed_at, c.id)
                   from public.follow_up_changes c where c.follow_up_id = f.id), '[]'::jsonb))
               order by f.due_at, f.id)
        from public.follow_ups f where f.customer_id = person.id), '[]'::jsonb),
    'retention_holds', coalesce((
      select jsonb_agg(jsonb_build_object(
               'reason', h.reason, 'until', h.until, 'created_at', h.created_at)
               order by h.created_at, h.id)
        from public.retention_holds h where h.customer_id = person.id), '[]'::jsonb),
    'consent_records', coalesce((
      select jsonb_agg(to_jsonb(c) - 'id' order by c.given_at)
        from public.consent_records c
       where c.email_sha256 = public.contact_sha256(person.email)), '[]'::jsonb),
    'support_messages', coalesce((
      select jsonb_agg(jsonb_build_object('created_at', m.created_at, 'message', m.message)
                       order by m.created_at)
        from public.support_messages m
       where exists (select 1 from unnest(terms) t where strpos(lower(m.message), t) > 0)),
      '[]'::jsonb),
    'access_log', coalesce((
      select jsonb_agg(jsonb_build_object('at', l.at, 'action', l.action) order by l.at, l.id)
        from public.access_log l where l.customer_id = person.id), '[]'::jsonb)
  ) into result;
  perform public.log_access('customer_exported', person.id);
  return result;
end;
$$;
revoke execute on function public.customer_data_export(integer) from public, anon;
grant execute on function public.customer_data_export(integer) to authenticated, service_role;
