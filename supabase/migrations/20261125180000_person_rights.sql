-- A person's rights (issue 23): the export of everything stored about a customer (Art. 15, 20
-- DSGVO), their erasure (Art. 17) and the access log's entries for the desk's reads and writes
-- (Art. 5(2), 30, 32). Every function here checks the caller's role itself and writes the log
-- itself (security definer), so the same holds on hosted Supabase, where the desk calls them by RPC.

-- The record that an erasure happened: who, when, which customer number and how much went. No
-- name, no address, no hash of them: it proves the erasure without keeping the person.
create table public.erasures (
  id bigint generated always as identity primary key,
  at timestamptz not null default now(),
  user_id uuid,
  staff_email text,
  customer_id integer not null,
  counts jsonb not null
);
create index erasures_customer_idx on public.erasures (customer_id);

alter table public.erasures enable row level security;
create policy erasures_admin_read on public.erasures for select to authenticated
  using ((select public.is_admin()));
revoke all on public.erasures from anon, authenticated;
grant select on public.erasures to authenticated;
grant all on public.erasures to service_role;

-- Raised by every function below for a caller without the role (PostgREST answers 403).
create function public.require_staff(admin_only boolean default false) returns void
language plpgsql stable security definer set search_path = ''
as $$
begin
  if not (case when admin_only then public.is_admin() else public.is_staff() end) then
    raise exception 'Keine Berechtigung' using errcode = '42501';
  end if;
end;
$$;
revoke execute on function public.require_staff(boolean) from public, anon, authenticated;

-- A read logged once per account, customer, action and term within a minute: React Query asks
-- again on focus and the list asks again per page and sort, which is one look, not many.
create function public.log_access_once(action text, customer_id integer, detail jsonb default '{}')
returns void
language plpgsql volatile security definer set search_path = ''
as $$
begin
  if exists (
    select 1 from public.access_log l
     where l.user_id is not distinct from auth.uid()
       and l.action = log_access_once.action
       and l.customer_id is not distinct from log_access_once.customer_id
       and l.detail = coalesce(log_access_once.detail, '{}'::jsonb)
       and l.at > now() - interval '1 minute'
  ) then
    return;
  end if;
  perform public.log_access(action, customer_id, detail);
end;
$$;
revoke execute on function public.log_access_once(text, integer, jsonb)
  from public, anon, authenticated;

-- The customer's details for the sidebar: the row, and 'customer_viewed' in the log.
create function public.open_customer(customer_id integer) returns setof public.users
language plpgsql volatile security definer set search_path = ''
as $$
begin
  perform public.require_staff();
  if exists (select 1 from public.users u where u.id = open_customer.customer_id) then
    perform public.log_access_once('customer_viewed', open_customer.customer_id);
  end if;
  return query select u.* from public.users u where u.id = open_customer.customer_id;
end;
$$;
revoke execute on function public.open_customer(integer) from public, anon;
grant execute on function public.open_customer(integer) to authenticated, service_role;

-- The customer's leads for the answers screen (the desk embeds forms and answers into the
-- result as into the table), and 'answers_viewed' in the log.
create function public.customer_leads(customer_id integer) returns setof public.responses
language plpgsql volatile security definer set search_path = ''
as $$
begin
  perform public.require_staff();
  perform public.log_access_once('answers_viewed', customer_leads.customer_id);
  return query select r.* from public.responses r where r.user_id = customer_leads.customer_id;
end;
$$;
revoke execute on function public.customer_leads(integer) from public, anon;
grant execute on function public.customer_leads(integer) to authenticated, service_role;

-- The customer list's search: search_customers' rows, and the term (not the rows shown) in the
-- log. search_customers itself stays a stable function without a write: the export's filters
-- and the list's count-only request (a HEAD, read only) call it.
create function public.desk_search_customers(term text) returns setof public.users
language plpgsql volatile security definer set search_path = ''
as $$
begin
  perform public.require_staff();
  if nullif(btrim(term), '') is not null then
    perform public.log_access_once('customer_searched', null,
                                   jsonb_build_object('term', btrim(term)));
  end if;
  return query select u.* from public.search_customers(term) u;
end;
$$;
revoke execute on function public.desk_search_customers(text) from public, anon;
grant execute on function public.desk_search_customers(text) to authenticated, service_role;

-- Changes of a customer by an account (staff in the desk): the changed columns' names, never
-- their values. A lead's merge (the hub, no account) and the erasure (logged as such) are not
-- 'changes' by staff.
create function public.log_customer_change() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  changed text[];
begin
  if auth.uid() is null or coalesce(current_setting('app.erasing', true), '') = 'on' then
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

create trigger log_customer_change
  after update or delete on public.users
  for each row execute function public.log_customer_change();

-- The person's identifiers their erasure looks for in free text: address, phone number and
-- full name (lower-cased, at least three characters).
-- (Plain arguments, not the row: a function of a table's row type would be a computed column of
-- `users` in the API and in the generated types.)
create function public.person_terms(email text, phone text, first_name text, last_name text)
returns text[]
language sql immutable set search_path = ''
as $$
  select coalesce(array_agg(distinct t), '{}')
    from unnest(array[lower(btrim(email)), lower(btrim(phone)),
                      lower(btrim(first_name || ' ' || last_name))]) t
   where char_length(t) >= 3
$$;
revoke execute on function public.person_terms(text, text, text, text)
  from public, anon, authenticated;

-- Every occurrence of the terms replaced by '[gelöscht]', case-insensitively and literally.
create function public.redact_terms(content text, terms text[]) returns text
language plpgsql immutable set search_path = ''
as $$
declare
  t text;
begin
  foreach t in array terms loop
    content := regexp_replace(content, regexp_replace(t, '([.*+?^${}()|\[\]\\])', '\\\1', 'g'),
                              '[gelöscht]', 'gi');
  end loop;
  return content;
end;
$$;
revoke execute on function public.redact_terms(text, text[]) from public, anon, authenticated;

-- Whether a logged search term points at the person: at least three characters of their
-- address, phone number or name (a search for "müller" that found them), or holds one of those.
-- Shorter terms name nobody and stay.
create function public.term_names_person(term text, terms text[]) returns boolean
language sql immutable set search_path = ''
as $$
  select exists (
    select 1 from unnest(terms) t
     where char_length(btrim(coalesce(term, ''))) >= 3
       and (strpos(t, lower(btrim(term))) > 0 or strpos(lower(term), t) > 0
            or (length(public.phone_digits(term)) >= 3
                and strpos(public.phone_digits(t), public.phone_digits(term)) > 0
                and t ~ '^[-+0-9 /()]+$'))
  )
$$;
revoke execute on function public.term_names_person(text, text[])
  from public, anon, authenticated;

-- The leads of a person: those of the customer record and those typed with the same address
-- (a lead whose customer's address staff changed later still names the person).
create function public.person_lead_ids(customer_id integer, email text) returns integer[]
language sql stable security definer set search_path = ''
as $$
  select coalesce(array_agg(r.id order by r.id), '{}')
    from public.responses r
   where r.user_id = person_lead_ids.customer_id
      or lower(btrim(r.email)) = lower(btrim(person_lead_ids.email))
$$;
revoke execute on function public.person_lead_ids(integer, text) from public, anon, authenticated;

-- Everything stored about one customer, as one JSON document (Art. 15 and 20): the customer
-- record, every lead with its answers and consent, the kept proofs of consent for the address,
-- support messages that mention the person, and the access log's entries about them (when and
-- what, without the staff account: the accounts are the agency's own people, not recipients).
-- Whoever may export (can_export: admins, staff while an admin allows it): it is a copy of a
-- person's data to take away, and it holds what only admins read (support messages, the log).
create function public.customer_data_export(customer_id integer) returns jsonb
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
                               where a.response_id = r.id), '[]'::jsonb))
                       order by r.received_at, r.id)
        from public.responses r
       where r.id = any (public.person_lead_ids(person.id, person.email))), '[]'::jsonb),
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
create function public.customer_erasure_preview(customer_id integer) returns jsonb
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
    -- Uploads belong to questionnaires, mails are sent at once: nothing of either per person.
    'files', 0,
    'mails_waiting', 0,
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

-- Erases a customer (Art. 17): their leads with answers (delete_leads_keeping_proof: the Analyse
-- figures stay, a consent to offers leaves its hashed proof), the customer record, the person's
-- address, phone number and name in support messages and in logged search terms; writes the
-- erasure record and 'customer_erased'. Admins only: it cannot be undone, and the agency answers
-- such a request as the controller.
create function public.erase_customer(customer_id integer) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  person public.users;
  terms text[];
  lead_ids integer[];
  counts jsonb;
  answers_count bigint;
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
    'leads', leads_count, 'answers', answers_count, 'files', 0, 'mails_waiting', 0,
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
