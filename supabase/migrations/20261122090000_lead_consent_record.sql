-- Proof of consent per lead (Art. 7(1) DSGVO): besides the ticked boxes and the version of the
-- checkbox texts (consent_version), the visitor's cookie choice and the banner text version.
alter table public.responses
  add column cookie_consent text,
  add column cookie_consent_version text;
