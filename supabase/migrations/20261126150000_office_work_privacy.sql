-- The office's daily work in a person's rights (issue 24): the data export carries each lead's
-- status history and mails about it, the customer's notes and follow-ups; the erasure preview
-- and the erasure count the notes, follow-ups and waiting new-lead mails they take with them
-- (by the foreign keys' cascades: nothing else needs deleting by hand).

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
    'customer', to_jsonb(person) - 'staff_edited',
    'leads', coalesce((
      select jsonb_agg(to_jsonb(r) - 'payload_hash'
                       || jsonb_build_object(
                            'form_title', (select f.title from public.forms f where f.id = r.form_id),
                            'answers', coalesce((
                              select jsonb_agg(jsonb_build_object(
                                       'question', coalesce(q.question, a.question_text),
                                       'answer', a.answer) order by q.sequence nulls last, a.id)
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
                                       'state', m.state, 'sent_at', m.sent_at)
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
               'due_at', f.due_at, 'text', f.body, 'created_at', f.created_at,
               'done_at', f.done_at)
               order by f.due_at, f.id)
        from public.follow_ups f where f.customer_id = person.id), '[]'::jsonb),
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

-- What an erasure removes and keeps, counted before it is confirmed. Admins only, as the erasure.
create or replace function public.customer_erasure_preview(customer_id integer) returns jsonb
language plpgsql stable security definer set search_path = ''
as $$
declare
  person public.users;
  terms text[];
  lead_ids integer[];
begin
  perform public.require_staff(true);
  select * into person from public.users u where u.id = customer_erasure_preview.customer_id;
  if not found then
    raise exception 'Kunde nicht gefunden' using errcode = 'P0002';
  end if;
  terms := public.person_terms(person.email, person.phone, person.first_name, person.last_name);
  lead_ids := public.person_lead_ids(person.id, person.email);
  return jsonb_build_object(
    'leads', cardinality(lead_ids),
    'answers', (select count(*) from public.answers a where a.response_id = any (lead_ids)),
    -- Uploads belong to questionnaires: no file is stored per person.
    'files', 0,
    'mails_waiting', (select count(*) from public.lead_mail_outbox m
                       where m.response_id = any (lead_ids) and m.state = 'pending'),
    'notes', (select count(*) from public.customer_notes n where n.customer_id = person.id),
    'follow_ups', (select count(*) from public.follow_ups f where f.customer_id = person.id),
    'status_changes', (select count(*) from public.lead_status_changes c
                        where c.response_id = any (lead_ids)),
    'support_messages', (select count(*) from public.support_messages m
                          where exists (select 1 from unnest(terms) t
                                         where strpos(lower(m.message), t) > 0)),
    'consent_records_kept', (select count(*) from public.responses r
                              where r.id = any (lead_ids) and r.offer_info)
                            + (select count(*) from public.consent_records c
                                where c.email_sha256 = public.contact_sha256(person.email)),
    'consent_kept_until', (now() + interval '5 years')
  );
end;
$$;
revoke execute on function public.customer_erasure_preview(integer) from public, anon;
grant execute on function public.customer_erasure_preview(integer) to authenticated, service_role;

-- Erases a customer (Art. 17), as before (20261125180000_person_rights.sql); the notes,
-- follow-ups, status history and waiting new-lead mails go by the foreign keys' cascades and are
-- counted here first, for the erasure record.
create or replace function public.erase_customer(customer_id integer) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  person public.users;
  terms text[];
  lead_ids integer[];
  counts jsonb;
  answers_count bigint;
  mails_count bigint;
  notes_count bigint;
  follow_ups_count bigint;
  status_count bigint;
  messages_count bigint;
  terms_count bigint;
  exports_count bigint;
  kept bigint;
  leads_count integer;
begin
  perform public.require_staff(true);
  select * into person from public.users u where u.id = erase_customer.customer_id for update;
  if not found then
    raise exception 'Kunde nicht gefunden' using errcode = 'P0002';
  end if;
  terms := public.person_terms(person.email, person.phone, person.first_name, person.last_name);
  lead_ids := public.person_lead_ids(person.id, person.email);
  select count(*) into answers_count from public.answers a where a.response_id = any (lead_ids);
  select count(*) into kept from public.responses r where r.id = any (lead_ids) and r.offer_info;
  select count(*) into mails_count from public.lead_mail_outbox m
   where m.response_id = any (lead_ids) and m.state = 'pending';
  select count(*) into notes_count from public.customer_notes n where n.customer_id = person.id;
  select count(*) into follow_ups_count from public.follow_ups f where f.customer_id = person.id;
  select count(*) into status_count from public.lead_status_changes c
   where c.response_id = any (lead_ids);

  leads_count := public.delete_leads_keeping_proof(lead_ids, now());

  update public.support_messages m set message = public.redact_terms(m.message, terms)
   where exists (select 1 from unnest(terms) t where strpos(lower(m.message), t) > 0);
  get diagnostics messages_count = row_count;

  update public.access_log l
     set detail = (l.detail - 'term') || '{"term_redacted": true}'::jsonb
   where l.detail ? 'term' and public.term_names_person(l.detail ->> 'term', terms);
  get diagnostics terms_count = row_count;

  update public.export_log e
     set filter = (e.filter - 'customer_search') || '{"customer_search_redacted": true}'::jsonb
   where e.filter ? 'customer_search'
     and public.term_names_person(e.filter ->> 'customer_search', terms);
  get diagnostics exports_count = row_count;

  perform set_config('app.erasing', 'on', true);
  delete from public.users u where u.id = person.id;
  perform set_config('app.erasing', 'off', true);

  counts := jsonb_build_object(
    'leads', leads_count, 'answers', answers_count, 'files', 0, 'mails_waiting', mails_count,
    'notes', notes_count, 'follow_ups', follow_ups_count, 'status_changes', status_count,
    'support_messages_redacted', messages_count, 'search_terms_redacted', terms_count,
    'export_filters_redacted', exports_count, 'consent_records_kept', kept);
  insert into public.erasures (user_id, staff_email, customer_id, counts)
  values (auth.uid(), (select s.email from public.staff s where s.user_id = auth.uid()),
          person.id, counts);
  perform public.log_access('customer_erased', person.id, counts);
  return counts;
end;
$$;
revoke execute on function public.erase_customer(integer) from public, anon;
grant execute on function public.erase_customer(integer) to authenticated, service_role;
