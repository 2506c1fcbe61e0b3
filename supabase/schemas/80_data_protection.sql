-- Data protection: consent records, the access log, erasure and the person's rights (data
-- export, erasure preview), and the retention job with its holds and runs.
--
-- Hand-written, not captured by `npm run db:diff` (add them to the migration yourself):
-- column privileges, comments.

-- Tables

CREATE TABLE public.access_log (
    id bigint GENERATED ALWAYS AS IDENTITY,
    at timestamp with time zone DEFAULT now() NOT NULL,
    user_id uuid,
    staff_email text,
    action public.access_action NOT NULL,
    customer_id integer,
    detail jsonb DEFAULT '{}'::jsonb NOT NULL
);

CREATE TABLE public.consent_records (
    id bigint GENERATED ALWAYS AS IDENTITY,
    client_id uuid NOT NULL,
    email_sha256 text NOT NULL,
    phone_sha256 text,
    form_id integer,
    source text NOT NULL,
    consent_version text,
    offer_info boolean NOT NULL,
    terms_accepted boolean NOT NULL,
    data_processing_consent boolean NOT NULL,
    cookie_consent text,
    cookie_consent_version text,
    given_at timestamp with time zone NOT NULL,
    lead_deleted_at timestamp with time zone NOT NULL,
    keep_until timestamp with time zone NOT NULL
);

COMMENT ON TABLE public.consent_records IS 'Proof of consent to offers (§ 7a UWG) kept after its lead was deleted, until keep_until.';

CREATE TABLE public.erasures (
    id bigint GENERATED ALWAYS AS IDENTITY,
    at timestamp with time zone DEFAULT now() NOT NULL,
    user_id uuid,
    staff_email text,
    customer_id integer NOT NULL,
    counts jsonb NOT NULL
);

CREATE TABLE public.retention_file_queue (
    id bigint GENERATED ALWAYS AS IDENTITY,
    bucket_id text NOT NULL,
    name text NOT NULL,
    version text,
    queued_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE public.retention_holds (
    id bigint GENERATED ALWAYS AS IDENTITY,
    customer_id integer NOT NULL,
    reason text NOT NULL,
    until date,
    created_by uuid DEFAULT auth.uid(),
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT retention_holds_reason_check CHECK ((length(btrim(reason)) >= 3))
);

COMMENT ON TABLE public.retention_holds IS 'Keeps a customer and their leads past the retention period (documented contract), until `until`.';

CREATE TABLE public.retention_runs (
    id bigint GENERATED ALWAYS AS IDENTITY,
    as_of timestamp with time zone NOT NULL,
    started_at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    finished_at timestamp with time zone,
    removed jsonb DEFAULT '{}'::jsonb NOT NULL
);

ALTER TABLE ONLY public.access_log
    ADD CONSTRAINT access_log_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.consent_records
    ADD CONSTRAINT consent_records_client_id_key UNIQUE (client_id);

ALTER TABLE ONLY public.consent_records
    ADD CONSTRAINT consent_records_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.erasures
    ADD CONSTRAINT erasures_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.retention_file_queue
    ADD CONSTRAINT retention_file_queue_bucket_id_name_key UNIQUE (bucket_id, name);

ALTER TABLE ONLY public.retention_file_queue
    ADD CONSTRAINT retention_file_queue_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.retention_holds
    ADD CONSTRAINT retention_holds_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.retention_runs
    ADD CONSTRAINT retention_runs_pkey PRIMARY KEY (id);

CREATE INDEX access_log_at_idx ON public.access_log USING btree (at DESC, id DESC);

CREATE INDEX access_log_customer_idx ON public.access_log USING btree (customer_id, at DESC);

CREATE INDEX access_log_user_idx ON public.access_log USING btree (user_id, at DESC);

CREATE INDEX consent_records_email_idx ON public.consent_records USING btree (email_sha256);

CREATE INDEX consent_records_keep_until_idx ON public.consent_records USING btree (keep_until);

CREATE INDEX erasures_customer_idx ON public.erasures USING btree (customer_id);

CREATE INDEX retention_holds_customer_idx ON public.retention_holds USING btree (customer_id);

CREATE INDEX retention_runs_as_of_idx ON public.retention_runs USING btree (as_of DESC);

ALTER TABLE ONLY public.retention_holds
    ADD CONSTRAINT retention_holds_customer_id_fkey FOREIGN KEY (customer_id) REFERENCES public.users(id) ON DELETE CASCADE;

-- Functions

CREATE FUNCTION public.delete_leads_keeping_proof(lead_ids integer[], deleted_at timestamp with time zone) RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  deleted integer;
begin
  insert into public.consent_records
    (client_id, email_sha256, phone_sha256, form_id, source, consent_version, offer_info,
     terms_accepted, data_processing_consent, cookie_consent, cookie_consent_version, given_at,
     lead_deleted_at, keep_until)
  select r.client_id, public.contact_sha256(r.email), public.contact_sha256(r.phone), r.form_id,
         r.source, r.consent_version, r.offer_info, r.terms_accepted, r.data_processing_consent,
         r.cookie_consent, r.cookie_consent_version, coalesce(r.captured_at, r.received_at),
         deleted_at, deleted_at + interval '5 years'
    from public.responses r
   where r.id = any (lead_ids) and r.offer_info
  on conflict (client_id) do nothing;

  perform set_config('app.keep_figures', 'on', true);
  delete from public.responses r where r.id = any (lead_ids);
  get diagnostics deleted = row_count;
  perform set_config('app.keep_figures', 'off', true);
  return deleted;
end;
$$;

CREATE FUNCTION public.redact_terms(content text, terms text[]) RETURNS text
    LANGUAGE plpgsql IMMUTABLE
    SET search_path TO ''
    AS $_$
declare
  t text;
begin
  foreach t in array terms loop
    content := regexp_replace(content, regexp_replace(t, '([.*+?^${}()|\[\]\\])', '\\\1', 'g'),
                              '[gelöscht]', 'gi');
  end loop;
  return content;
end;
$_$;

CREATE FUNCTION public.term_names_person(term text, terms text[]) RETURNS boolean
    LANGUAGE sql IMMUTABLE
    SET search_path TO ''
    AS $_$
  select exists (
    select 1 from unnest(terms) t
     where char_length(btrim(coalesce(term, ''))) >= 3
       and (strpos(t, lower(btrim(term))) > 0 or strpos(lower(term), t) > 0
            or (length(public.phone_digits(term)) >= 3
                and strpos(public.phone_digits(t), public.phone_digits(term)) > 0
                and t ~ '^[-+0-9 /()]+$'))
  )
$_$;

CREATE FUNCTION public.forget_person_terms(terms text[]) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  messages_count bigint := 0;
  terms_count bigint := 0;
  exports_count bigint := 0;
begin
  if coalesce(cardinality(terms), 0) > 0 then
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
  end if;
  return jsonb_build_object(
    'support_messages_redacted', messages_count,
    'search_terms_redacted', terms_count,
    'export_filters_redacted', exports_count);
end;
$$;

CREATE FUNCTION public.may_run_retention() RETURNS boolean
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $$
  select coalesce(auth.role() = 'service_role', false) or public.is_admin()
$$;

CREATE FUNCTION public.person_terms(email text, phone text, first_name text, last_name text) RETURNS text[]
    LANGUAGE sql IMMUTABLE
    SET search_path TO ''
    AS $$
  select coalesce(array_agg(distinct t), '{}')
    from unnest(array[lower(btrim(email)), lower(btrim(phone)),
                      lower(btrim(first_name || ' ' || last_name))]) t
   where char_length(t) >= 3
$$;

CREATE FUNCTION public.apply_retention(p_now timestamp with time zone DEFAULT now(), p_dry_run boolean DEFAULT true) RETURNS TABLE(kind text, items integer, oldest timestamp with time zone)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
#variable_conflict use_column
declare
  contact_cutoff timestamptz := p_now - interval '5 years';
  file_cutoff timestamptz := p_now - interval '30 days';
  log_cutoff timestamptz := p_now - interval '1 year';
  berlin_day date := (p_now at time zone 'Europe/Berlin')::date;
  customer_ids integer[];
  lead_ids integer[];
  file_ids uuid[];
  public_path constant text := '/object/public/documents/';
  run_id bigint;
  result jsonb;
  forgotten text[];
begin
  -- Admins may look; only the service role, pg_cron and the server (no API role) remove.
  if auth.role() is not null and not public.may_run_retention() then
    raise exception 'Nur Admins sehen, was die Aufbewahrung löscht.' using errcode = '42501';
  end if;
  if not p_dry_run and auth.role() is not null and auth.role() <> 'service_role' then
    raise exception 'Löschen nach Aufbewahrungsfrist darf nur der Server.' using errcode = '42501';
  end if;
  -- One run at a time; a dry run waits for a real one and then sees what is left.
  perform pg_advisory_xact_lock(hashtext('public.apply_retention'));

  select coalesce(array_agg(u.id), '{}') into customer_ids
    from public.users u
   where greatest(u.created_at,
                  (select max(r.received_at) from public.responses r where r.user_id = u.id))
         < contact_cutoff
     and not exists (select 1 from public.retention_holds h
                      where h.customer_id = u.id and (h.until is null or h.until >= berlin_day));

  select coalesce(array_agg(r.id), '{}') into lead_ids
    from public.responses r
   where r.user_id = any (customer_ids)
      or (r.user_id is null and r.received_at < contact_cutoff);

  -- A file is named by forms.document (its object name) or forms.image (its public address).
  select coalesce(array_agg(o.id), '{}') into file_ids
    from storage.objects o
   where o.bucket_id = 'documents'
     and coalesce(o.updated_at, o.created_at) < file_cutoff
     and not exists (
       select 1 from public.forms f
        where f.document = o.name
           or right(f.image, length(public_path || o.name)) = public_path || o.name);

  -- Counted before anything is removed, so the real run reports what the dry run lists.
  select jsonb_agg(jsonb_build_object('kind', k.kind, 'items', k.items, 'oldest', k.oldest)
                   order by k.position)
    into result
    from (
      select 1 as position, 'leads' as kind, count(*)::integer as items,
             min(r.received_at) as oldest
        from public.responses r where r.id = any (lead_ids)
      union all
      select 2, 'answers', count(*)::integer, min(a.created_at)
        from public.answers a where a.response_id = any (lead_ids)
      union all
      select 3, 'customers', count(*)::integer,
             min(greatest(u.created_at,
                          (select max(r.received_at) from public.responses r
                            where r.user_id = u.id)))
        from public.users u where u.id = any (customer_ids)
      union all
      select 4, 'consent_records', count(*)::integer, min(c.lead_deleted_at)
        from public.consent_records c where c.keep_until <= p_now
      union all
      select 5, 'files', count(*)::integer, min(coalesce(o.updated_at, o.created_at))
        from storage.objects o where o.id = any (file_ids)
      union all
      select 6, 'access_log', count(*)::integer, min(l.at)
        from public.access_log l where l.at < log_cutoff
    ) k;

  if not p_dry_run then
    insert into public.retention_runs (as_of) values (p_now) returning id into run_id;

    -- The people who go: their address, phone number and name as the customer record and each
    -- lead has them, to redact wherever staff wrote them (forget_person_terms).
    select coalesce(array_agg(distinct x.t), '{}') into forgotten
      from (select unnest(public.person_terms(u.email, u.phone, u.first_name, u.last_name)) as t
              from public.users u where u.id = any (customer_ids)
            union all
            select unnest(public.person_terms(r.email, r.phone, r.first_name, r.last_name))
              from public.responses r where r.id = any (lead_ids)) x;
    -- Proof whose own period has ended first: the proof left by today's leads starts its five
    -- years now.
    delete from public.consent_records c where c.keep_until <= p_now;
    perform public.delete_leads_keeping_proof(lead_ids, p_now);
    delete from public.users u where u.id = any (customer_ids);
    perform public.forget_person_terms(forgotten);

    insert into public.retention_file_queue (bucket_id, name, version)
    select o.bucket_id, o.name, o.version from storage.objects o where o.id = any (file_ids)
    on conflict (bucket_id, name) do update set version = excluded.version;
    -- Only the local gateway's emulation (it has no storage.migrations) may lose the rows here:
    -- hosted Storage keeps the file's body apart and must remove both through its API.
    if to_regclass('storage.migrations') is null then
      delete from storage.objects o where o.id = any (file_ids);
    end if;

    delete from public.access_log l where l.at < log_cutoff;

    update public.retention_runs
       set finished_at = clock_timestamp(),
           removed = (select jsonb_object_agg(e ->> 'kind', (e ->> 'items')::integer)
                        from jsonb_array_elements(result) e)
     where id = run_id;
  end if;

  return query
    select e.kind, e.items, e.oldest
      from rows from (jsonb_to_recordset(result) as (kind text, items integer, oldest timestamptz))
           with ordinality as e(kind, items, oldest, n)
     order by e.n;
end;
$$;

CREATE FUNCTION public.log_access(action text, customer_id integer, detail jsonb DEFAULT '{}'::jsonb) RETURNS void
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO ''
    AS $$
  insert into public.access_log (user_id, staff_email, action, customer_id, detail)
  select auth.uid(), (select s.email from public.staff s where s.user_id = auth.uid()),
         log_access.action::public.access_action, log_access.customer_id,
         coalesce(log_access.detail, '{}'::jsonb)
$$;

CREATE FUNCTION public.person_lead_ids(customer_id integer, email text) RETURNS integer[]
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $$
  select coalesce(array_agg(r.id order by r.id), '{}')
    from public.responses r
   where r.user_id = person_lead_ids.customer_id
      or (r.user_id is null and lower(btrim(r.email)) = lower(btrim(person_lead_ids.email)))
$$;

CREATE FUNCTION public.customer_data_export(customer_id integer) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
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

CREATE FUNCTION public.customer_erasure_preview(customer_id integer) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $$
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

CREATE FUNCTION public.person_and_lead_terms(email text, phone text, first_name text, last_name text, lead_ids integer[]) RETURNS text[]
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $$
  select coalesce(array_agg(distinct x.t), '{}')
    from (
      select unnest(public.person_terms(person_and_lead_terms.email, person_and_lead_terms.phone,
                                        person_and_lead_terms.first_name,
                                        person_and_lead_terms.last_name)) as t
      union all
      select unnest(public.person_terms(r.email, r.phone, r.first_name, r.last_name))
        from public.responses r
       where r.id = any (lead_ids)
    ) x
$$;

CREATE FUNCTION public.erase_customer(customer_id integer) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
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
  redacted jsonb;
  kept bigint;
  leads_count integer;
begin
  perform public.require_staff(true);
  select * into person from public.users u where u.id = erase_customer.customer_id for update;
  if not found then
    raise exception 'Kunde nicht gefunden' using errcode = 'P0002';
  end if;
  lead_ids := public.person_lead_ids(person.id, person.email);
  terms := public.person_and_lead_terms(person.email, person.phone, person.first_name,
                                        person.last_name, lead_ids);
  select count(*) into answers_count from public.answers a where a.response_id = any (lead_ids);
  select count(*) into kept from public.responses r where r.id = any (lead_ids) and r.offer_info;
  select count(*) into mails_count from public.lead_mail_outbox m
   where m.response_id = any (lead_ids) and m.state = 'pending';
  select count(*) into notes_count from public.customer_notes n where n.customer_id = person.id;
  select count(*) into follow_ups_count from public.follow_ups f where f.customer_id = person.id;
  select count(*) into status_count from public.lead_status_changes c
   where c.response_id = any (lead_ids);

  leads_count := public.delete_leads_keeping_proof(lead_ids, now());
  redacted := public.forget_person_terms(terms);

  perform set_config('app.erasing', 'on', true);
  delete from public.users u where u.id = person.id;
  perform set_config('app.erasing', 'off', true);

  counts := jsonb_build_object(
    'leads', leads_count, 'answers', answers_count, 'files', 0, 'mails_waiting', mails_count,
    'notes', notes_count, 'follow_ups', follow_ups_count, 'status_changes', status_count,
    'consent_records_kept', kept) || redacted;
  insert into public.erasures (user_id, staff_email, customer_id, counts)
  values (auth.uid(), (select s.email from public.staff s where s.user_id = auth.uid()),
          person.id, counts);
  perform public.log_access('customer_erased', person.id, counts);
  return counts;
end;
$$;

CREATE FUNCTION public.keeping_figures() RETURNS boolean
    LANGUAGE sql STABLE
    SET search_path TO ''
    AS $$
  select coalesce(current_setting('app.keep_figures', true), '') = 'on'
$$;

CREATE FUNCTION public.log_access_once(action text, customer_id integer, detail jsonb DEFAULT '{}'::jsonb) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended(
    concat_ws('|', 'log_access_once', auth.uid(), log_access_once.action,
              log_access_once.customer_id, coalesce(log_access_once.detail, '{}'::jsonb)), 0));
  if exists (
    select 1 from public.access_log l
     where l.user_id is not distinct from auth.uid()
       and l.action::text = log_access_once.action
       and l.customer_id is not distinct from log_access_once.customer_id
       and l.detail = coalesce(log_access_once.detail, '{}'::jsonb)
       and l.at > now() - interval '1 minute'
  ) then
    return;
  end if;
  perform public.log_access(action, customer_id, detail);
end;
$$;

-- Row-level security

ALTER TABLE public.access_log ENABLE ROW LEVEL SECURITY;

CREATE POLICY access_log_admin_read ON public.access_log FOR SELECT TO authenticated USING (( SELECT public.is_admin() AS is_admin));

ALTER TABLE public.consent_records ENABLE ROW LEVEL SECURITY;

CREATE POLICY consent_records_admin_read ON public.consent_records FOR SELECT TO authenticated USING (( SELECT public.is_admin() AS is_admin));

ALTER TABLE public.erasures ENABLE ROW LEVEL SECURITY;

CREATE POLICY erasures_admin_read ON public.erasures FOR SELECT TO authenticated USING (( SELECT public.is_admin() AS is_admin));

ALTER TABLE public.retention_file_queue ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.retention_holds ENABLE ROW LEVEL SECURITY;

CREATE POLICY retention_holds_admin_all ON public.retention_holds TO authenticated USING (( SELECT public.may_run_retention() AS may_run_retention)) WITH CHECK (( SELECT public.may_run_retention() AS may_run_retention));

ALTER TABLE public.retention_runs ENABLE ROW LEVEL SECURITY;

CREATE POLICY retention_runs_admin_read ON public.retention_runs FOR SELECT TO authenticated USING (( SELECT public.may_run_retention() AS may_run_retention));

-- Grants

REVOKE ALL ON FUNCTION public.apply_retention(p_now timestamp with time zone, p_dry_run boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION public.apply_retention(p_now timestamp with time zone, p_dry_run boolean) TO authenticated;
GRANT ALL ON FUNCTION public.apply_retention(p_now timestamp with time zone, p_dry_run boolean) TO service_role;

REVOKE ALL ON FUNCTION public.customer_data_export(customer_id integer) FROM PUBLIC;
GRANT ALL ON FUNCTION public.customer_data_export(customer_id integer) TO authenticated;
GRANT ALL ON FUNCTION public.customer_data_export(customer_id integer) TO service_role;

REVOKE ALL ON FUNCTION public.customer_erasure_preview(customer_id integer) FROM PUBLIC;
GRANT ALL ON FUNCTION public.customer_erasure_preview(customer_id integer) TO authenticated;
GRANT ALL ON FUNCTION public.customer_erasure_preview(customer_id integer) TO service_role;

REVOKE ALL ON FUNCTION public.delete_leads_keeping_proof(lead_ids integer[], deleted_at timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION public.delete_leads_keeping_proof(lead_ids integer[], deleted_at timestamp with time zone) TO service_role;

REVOKE ALL ON FUNCTION public.erase_customer(customer_id integer) FROM PUBLIC;
GRANT ALL ON FUNCTION public.erase_customer(customer_id integer) TO authenticated;
GRANT ALL ON FUNCTION public.erase_customer(customer_id integer) TO service_role;

REVOKE ALL ON FUNCTION public.forget_person_terms(terms text[]) FROM PUBLIC;

REVOKE ALL ON FUNCTION public.log_access(action text, customer_id integer, detail jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION public.log_access(action text, customer_id integer, detail jsonb) TO service_role;

REVOKE ALL ON FUNCTION public.log_access_once(action text, customer_id integer, detail jsonb) FROM PUBLIC;

REVOKE ALL ON FUNCTION public.may_run_retention() FROM PUBLIC;
GRANT ALL ON FUNCTION public.may_run_retention() TO authenticated;
GRANT ALL ON FUNCTION public.may_run_retention() TO service_role;

REVOKE ALL ON FUNCTION public.person_and_lead_terms(email text, phone text, first_name text, last_name text, lead_ids integer[]) FROM PUBLIC;

REVOKE ALL ON FUNCTION public.person_lead_ids(customer_id integer, email text) FROM PUBLIC;

REVOKE ALL ON FUNCTION public.person_terms(email text, phone text, first_name text, last_name text) FROM PUBLIC;

REVOKE ALL ON FUNCTION public.redact_terms(content text, terms text[]) FROM PUBLIC;

REVOKE ALL ON FUNCTION public.term_names_person(term text, terms text[]) FROM PUBLIC;

GRANT SELECT ON TABLE public.access_log TO authenticated;
GRANT ALL ON TABLE public.access_log TO service_role;

GRANT SELECT ON TABLE public.consent_records TO authenticated;
GRANT ALL ON TABLE public.consent_records TO service_role;

GRANT SELECT ON TABLE public.erasures TO authenticated;
GRANT ALL ON TABLE public.erasures TO service_role;

GRANT ALL ON TABLE public.retention_file_queue TO service_role;

GRANT SELECT,DELETE ON TABLE public.retention_holds TO authenticated;
GRANT ALL ON TABLE public.retention_holds TO service_role;

GRANT SELECT ON TABLE public.retention_runs TO authenticated;
GRANT ALL ON TABLE public.retention_runs TO service_role;

-- Column privileges (hand-written: db:diff does not capture them)

GRANT INSERT(customer_id) ON TABLE public.retention_holds TO authenticated;

GRANT INSERT(reason),UPDATE(reason) ON TABLE public.retention_holds TO authenticated;

GRANT INSERT(until),UPDATE(until) ON TABLE public.retention_holds TO authenticated;
