-- Closed sets as enums: the generated types (src/domain/database.types.ts) carry each as a union,
-- and Constants.public.Enums lists the values at run time. A new value is `alter type ... add
-- value` (db:diff writes it); removing or renaming a value needs a hand-written migration that
-- converts the columns.
--
--   question_type          questions.type
--   analysis_bucket        questions.analysis_bucket
--   staff_role             staff.role
--   lead_source            responses.source
--   lead_channel           responses.channel
--   lead_status            responses.status, lead_status_changes.status
--   follow_up_change_kind  follow_up_changes.kind
--   export_scope           export_log.scope
--   export_format          export_log.format
--   access_action          access_log.action
--   lead_mail_mode         lead_mail_settings.mode, lead_mail_outbox.kind
--   lead_mail_state        lead_mail_outbox.state, staff_mail_outbox.state
--
-- Sets that stay text (most with a CHECK), and why:
--   users.staff_edited, follow_up_changes.changed_fields: arrays of column names of another
--     table; their values follow those columns, not a domain of their own.
--   consent_records.source: the proof kept after a lead is deleted records the value the lead
--     had when it was stored and keeps it even if the set of sources changes later.
--   analysis_daily_leads.source/channel, analysis_daily_answers.source/channel/kind: counters
--     only the triggers write, from the enum columns; no client writes or filters them.

CREATE TYPE public.access_action AS ENUM (
    'customer_viewed',
    'answers_viewed',
    'customer_changed',
    'customer_searched',
    'customer_exported',
    'customer_erased',
    'leads_exported',
    'lead_deleted',
    'lead_status_changed'
);

CREATE TYPE public.analysis_bucket AS ENUM (
    'birth_decade'
);

CREATE TYPE public.export_format AS ENUM (
    'csv',
    'xlsx'
);

CREATE TYPE public.export_scope AS ENUM (
    'customers',
    'analysis'
);

CREATE TYPE public.follow_up_change_kind AS ENUM (
    'changed',
    'done',
    'reopened'
);

CREATE TYPE public.lead_channel AS ENUM (
    'web',
    'fair_tablet'
);

CREATE TYPE public.lead_mail_mode AS ENUM (
    'immediate',
    'digest'
);

CREATE TYPE public.lead_mail_state AS ENUM (
    'pending',
    'sent',
    'failed',
    'cancelled'
);

CREATE TYPE public.lead_source AS ENUM (
    'questionnaire',
    'kfz',
    'contact'
);

CREATE TYPE public.lead_status AS ENUM (
    'new',
    'contacted',
    'appointment',
    'offer_sent',
    'closed',
    'no_interest'
);

CREATE TYPE public.question_type AS ENUM (
    'multiple-choice',
    'input'
);

CREATE TYPE public.staff_role AS ENUM (
    'pending',
    'staff',
    'admin'
);
