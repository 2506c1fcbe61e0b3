-- The `documents` bucket: offer PDFs and questionnaire images. Anyone reads them (visitors open
-- a questionnaire's PDF at the fair); staff and admins write them. Storage's schema and tables
-- exist on every Supabase project already (locally: server/db/supabase-local-storage.sql), with
-- row-level security on and all privileges granted to the API roles, so the policies below are
-- the whole of the access rules and no grant is needed here.
--
-- Object names carry their version (forms/<form id>/<uuid>-<file name>): a replaced document is
-- a new object under a new name, so a cached copy of the old one (the service worker keeps PDFs
-- cache-first) is never mistaken for it.

-- PDFs and raster images only: an HTML or SVG file served from the app's origin could run
-- script. 20 MB as the gateway's upload limit.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values (
  'documents',
  'documents',
  true,
  20 * 1024 * 1024,
  array['application/pdf', 'image/png', 'image/jpeg', 'image/webp', 'image/gif']
)
on conflict (id) do nothing;

create policy documents_read_all on storage.objects for select to anon, authenticated
  using (bucket_id = 'documents');
create policy documents_staff_insert on storage.objects for insert to authenticated
  with check (bucket_id = 'documents' and (select public.is_staff()));
create policy documents_staff_update on storage.objects for update to authenticated
  using (bucket_id = 'documents' and (select public.is_staff()))
  with check (bucket_id = 'documents' and (select public.is_staff()));
create policy documents_staff_delete on storage.objects for delete to authenticated
  using (bucket_id = 'documents' and (select public.is_staff()));
