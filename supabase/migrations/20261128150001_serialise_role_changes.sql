-- Two admins demoting each other at once: the later call read its caller's role before the
-- earlier committed, then its update found no row it was still allowed to change and answered
-- "Dieses Konto gibt es nicht." (P0002). Role changes now take keep_last_admin's lock first.

set check_function_bodies = off;

CREATE OR REPLACE FUNCTION public.set_staff_role(user_id uuid, role text)
 RETURNS void
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
begin
  -- Role changes take their turn on keep_last_admin's lock before the caller's role is read: two
  -- admins demoting each other see each other's committed change, so the later one is refused
  -- (42501, or UL001 for the last admin) instead of finding no row it may update.
  perform pg_catalog.pg_advisory_xact_lock(
    'public.staff'::pg_catalog.regclass::pg_catalog.oid::bigint
  );
  if not (select public.is_admin()) then
    raise exception 'Nur Admins dürfen Rollen vergeben.' using errcode = '42501';
  end if;
  update public.staff s set role = set_staff_role.role::public.staff_role
   where s.user_id = set_staff_role.user_id;
  if not found then
    raise exception 'Dieses Konto gibt es nicht.' using errcode = 'P0002';
  end if;
end;
$function$
;
