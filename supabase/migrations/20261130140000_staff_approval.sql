-- Approving and refusing a registration (issue 36): an account an admin enables gets a mail
-- (staff_mail_outbox, filled by a trigger on staff.role, sent by the hub's job as the new-lead
-- mails are), and refuse_staff_account deletes a pending registration.
--
-- Hand-written beyond the diff: nothing (no column privileges, no data).

create table "public"."staff_mail_outbox" (
    "id" bigint generated always as identity not null,
    "user_id" uuid not null,
    "state" public.lead_mail_state not null default 'pending'::public.lead_mail_state,
    "attempts" integer not null default 0,
    "next_attempt_at" timestamp with time zone not null default now(),
    "sent_at" timestamp with time zone,
    "last_error" text,
    "created_at" timestamp with time zone not null default now()
);

alter table "public"."staff_mail_outbox" enable row level security;

CREATE UNIQUE INDEX staff_mail_outbox_pkey ON public.staff_mail_outbox USING btree (id);

CREATE UNIQUE INDEX staff_mail_outbox_waiting_idx ON public.staff_mail_outbox USING btree (user_id) WHERE (state = 'pending'::public.lead_mail_state);

alter table "public"."staff_mail_outbox" add constraint "staff_mail_outbox_pkey" PRIMARY KEY using index "staff_mail_outbox_pkey";

alter table "public"."staff_mail_outbox" add constraint "staff_mail_outbox_last_error_check" CHECK (((last_error IS NULL) OR (char_length(last_error) <= 64))) not valid;

alter table "public"."staff_mail_outbox" validate constraint "staff_mail_outbox_last_error_check";

alter table "public"."staff_mail_outbox" add constraint "staff_mail_outbox_user_id_fkey" FOREIGN KEY (user_id) REFERENCES public.staff(user_id) ON DELETE CASCADE not valid;

alter table "public"."staff_mail_outbox" validate constraint "staff_mail_outbox_user_id_fkey";

set check_function_bodies = off;

CREATE OR REPLACE FUNCTION public.enqueue_staff_approval_mail()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  -- Only an approval by a signed-in admin (set_staff_role, or the role column through the API)
  -- mails the account: the server's own setup of the first admin, fixtures and SQL run by the
  -- database's owner send nothing. One waiting mail per account at most.
  if (select auth.uid()) is null then
    return null;
  end if;
  insert into public.staff_mail_outbox (user_id) values (new.user_id)
  on conflict (user_id) where state = 'pending'::public.lead_mail_state do nothing;
  return null;
end;
$function$
;

CREATE OR REPLACE FUNCTION public.refuse_staff_account(user_id uuid)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  found_role public.staff_role;
begin
  -- The same lock as set_staff_role: an approval and a refusal of one account at once end with
  -- one of them, and the other is refused (UL002 after an approval, P0002 after a refusal).
  perform pg_catalog.pg_advisory_xact_lock(
    'public.staff'::pg_catalog.regclass::pg_catalog.oid::bigint
  );
  if not (select public.is_admin()) then
    raise exception 'Nur Admins dürfen Registrierungen ablehnen.' using errcode = '42501';
  end if;
  select s.role into found_role from public.staff s
   where s.user_id = refuse_staff_account.user_id;
  if not found then
    raise exception 'Dieses Konto gibt es nicht.' using errcode = 'P0002';
  end if;
  if found_role <> 'pending'::public.staff_role then
    raise exception 'Nur eine wartende Registrierung kann abgelehnt werden.'
      using errcode = 'UL002',
            hint = 'Ein freigeschaltetes Konto bekommt die Rolle „Wartet auf Freischaltung“.';
  end if;
  -- The registration goes as a whole: the account (sessions and tokens with it) and its staff
  -- row. Nothing else names a pending account; the address may register again later.
  delete from auth.users u where u.id = refuse_staff_account.user_id;
end;
$function$
;

CREATE TRIGGER enqueue_staff_approval_mail AFTER UPDATE OF role ON public.staff FOR EACH ROW WHEN (((old.role = 'pending'::public.staff_role) AND (new.role <> 'pending'::public.staff_role))) EXECUTE FUNCTION public.enqueue_staff_approval_mail();

-- No API role reaches the queue or its trigger function; admins call refuse_staff_account.
revoke all on public.staff_mail_outbox from public, anon, authenticated;
grant all on public.staff_mail_outbox to service_role;

revoke execute on function public.enqueue_staff_approval_mail() from public, anon, authenticated;

revoke execute on function public.refuse_staff_account(uuid) from public, anon;
grant execute on function public.refuse_staff_account(uuid) to authenticated, service_role;
