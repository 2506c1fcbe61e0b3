// The database's closed sets (PostgreSQL enums in the public schema) under short names: each
// union is the generated `Database` type's, each list is the generated `Constants` array, in the
// enum's order. src, sw and server read these sets from here, never restate them.
import { Constants, type Database } from './database.types.ts';

type PublicEnums = Database['public']['Enums'];
const values = Constants.public.Enums;

/** Where a lead came from (responses.source); the hub validates its contact fields by it. */
export type LeadSource = PublicEnums['lead_source'];
export const leadSources = values.lead_source;

/** Where a lead was captured (responses.channel): the website or the tablet at a fair. */
export type LeadChannel = PublicEnums['lead_channel'];
export const leadChannels = values.lead_channel;

/** Where the office stands with a lead (responses.status, lead_status_changes.status). */
export type LeadStatus = PublicEnums['lead_status'];
export const leadStatuses = values.lead_status;

/** A question's kind (questions.type). */
export type QuestionType = PublicEnums['question_type'];
export const questionTypes = values.question_type;

/** What a follow-up's history records (follow_up_changes.kind). */
export type FollowUpChangeKind = PublicEnums['follow_up_change_kind'];
export const followUpChangeKinds = values.follow_up_change_kind;

/** What an export covers and how it is written (export_log.scope, export_log.format). */
export type ExportScope = PublicEnums['export_scope'];
export const exportScopes = values.export_scope;
export type ExportFormat = PublicEnums['export_format'];
export const exportFormats = values.export_format;

/** What the access log records (access_log.action). */
export type AccessAction = PublicEnums['access_action'];
export const accessActions = values.access_action;

/** When new-lead mail goes out (lead_mail_settings.mode, lead_mail_outbox.kind). */
export type LeadMailMode = PublicEnums['lead_mail_mode'];
export const leadMailModes = values.lead_mail_mode;

/** Where a queued mail stands (lead_mail_outbox.state). */
export type LeadMailState = PublicEnums['lead_mail_state'];
export const leadMailStates = values.lead_mail_state;

/** A desk account's role (staff.role): 'pending' until an admin enables it. */
export type StaffRole = PublicEnums['staff_role'];
export const staffRoles = values.staff_role;

/** How Analyse groups a question's answers beyond counting them (questions.analysis_bucket). */
export type AnalysisBucket = PublicEnums['analysis_bucket'];
export const analysisBuckets = values.analysis_bucket;

/** Whether `value` is one of `set`'s values (for text read from elsewhere, e.g. a URL). */
export function isOneOf<T extends string>(set: readonly T[], value: unknown): value is T {
  return typeof value === 'string' && (set as readonly string[]).includes(value);
}
