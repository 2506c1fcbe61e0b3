-- Storage: the public bucket `documents` (questionnaire documents and images) and who may
-- write to it (staff). The `storage` schema itself belongs to Supabase (locally:
-- server/db/supabase-local-storage.sql).
--
-- Hand-written, not captured by `npm run db:diff` (add it to the migration yourself): the
-- bucket's row (data). The policies on storage.objects are diffed like those in `public`.

-- Data. PDFs and raster images only: an HTML or SVG file served from the app's origin could run
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

-- Row-level security

CREATE POLICY documents_read_all ON storage.objects FOR SELECT TO anon, authenticated USING ((bucket_id = 'documents'::text));

CREATE POLICY documents_staff_delete ON storage.objects FOR DELETE TO authenticated USING (((bucket_id = 'documents'::text) AND ( SELECT public.is_staff() AS is_staff)));

CREATE POLICY documents_staff_insert ON storage.objects FOR INSERT TO authenticated WITH CHECK (((bucket_id = 'documents'::text) AND ( SELECT public.is_staff() AS is_staff)));

CREATE POLICY documents_staff_update ON storage.objects FOR UPDATE TO authenticated USING (((bucket_id = 'documents'::text) AND ( SELECT public.is_staff() AS is_staff))) WITH CHECK (((bucket_id = 'documents'::text) AND ( SELECT public.is_staff() AS is_staff)));
