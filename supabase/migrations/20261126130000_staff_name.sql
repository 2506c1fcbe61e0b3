-- Issue 24: staff name their own account. Only the caller's own staff row, only its
-- display_name: the table's update policy stays admin-only (it guards roles), so the change goes
-- through this function rather than a column grant. Pending accounts may name themselves too:
-- the row is theirs and holds no customer data.
create function public.set_display_name(name text) returns text
language plpgsql volatile security definer set search_path = ''
as $$
declare
  caller uuid := (select auth.uid());
  cleaned text := nullif(btrim(name), '');
begin
  if caller is null then
    raise exception 'Only a signed-in account has a name' using errcode = '42501';
  end if;
  if char_length(cleaned) > 80 then
    raise exception 'A name has at most 80 characters' using errcode = '22001';
  end if;
  -- An empty name clears it: colleagues see the e-mail address again.
  update public.staff set display_name = cleaned where user_id = caller;
  return cleaned;
end;
$$;

revoke execute on function public.set_display_name(text) from public, anon;
grant execute on function public.set_display_name(text) to authenticated, service_role;
