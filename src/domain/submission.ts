import { z } from 'zod';
import {
  createContactRequestSchema,
  kfzRequestSchema,
  questionnaireContactSchema,
} from './contact-forms.ts';
import { leadChannels, leadSources, type LeadChannel, type LeadSource } from './database-enums.ts';

/** Where a lead came from; the hub validates the contact fields with that form's rules. */
export { leadSources as submissionSources, type LeadSource as SubmissionSource };

/** Where a lead was captured: the website, or the agent's tablet in kiosk mode at a fair. */
export { leadChannels, type LeadChannel };

/** Limits shared by the hub and the outbox, so the device never queues what the hub refuses. */
export const submissionLimits = {
  maxBodyBytes: 64 * 1024,
  maxBatchItems: 50,
  maxAnswers: 100,
  maxAnswerLength: 4000,
} as const;

export const answerSchema = z.object({
  question_id: z.number().int().positive(),
  // Multi-select answers arrive joined with ', '; a skipped question is ''.
  answer: z.string().max(submissionLimits.maxAnswerLength),
});

const timestamp = z.iso.datetime({ offset: true });
const optionalText = (max: number) => z.string().trim().max(max).optional();

/** Everything of a submission except the contact fields, whose rules depend on `source`. */
export const submissionEnvelopeSchema = z.object({
  client_id: z.uuid(),
  form_id: z.number().int().positive(),
  source: z.enum(leadSources),
  // Left out, it is 'web' when stored. No default here: a lead queued before channels existed
  // must hash as it did, so its resend stays a duplicate rather than a conflict.
  channel: z.enum(leadChannels).optional(),
  /**
   * Set by the device's outbox when it posts: true when the lead could not be handed to the hub
   * at its first attempt and waited on the device (offline, 'Offline simulieren', hub not
   * reached). How the lead travelled, not what it says: never part of its content key or hash.
   */
  waited_offline: z.boolean().optional(),
  answers: z
    .array(answerSchema)
    .max(submissionLimits.maxAnswers)
    .refine((answers) => new Set(answers.map((a) => a.question_id)).size === answers.length, {
      message: 'Jede Frage darf nur einmal beantwortet werden.',
    }),
  create_date: timestamp.optional(),
  changed_date: timestamp.optional(),
  create_user: optionalText(200),
  changed_user: optionalText(200),
  captured_at: timestamp.optional(),
  consent_version: optionalText(100),
  /** The cookie choice at the time ('necessary,statistics') and the banner text version. */
  cookie_consent: optionalText(200),
  cookie_consent_version: optionalText(100),
  /** Honeypot: people never see this field; a filled one marks a bot, whose lead is dropped. */
  website: z.string().max(2000).optional(),
});

export type SubmissionEnvelope = z.output<typeof submissionEnvelopeSchema>;

/** A validated submission with every contact field present (null where the form has none). */
export interface Submission extends SubmissionEnvelope {
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  adress: string | null;
  postcode: string | null;
  city: string | null;
  salutation: string | null;
  title: string | null;
  birthdate: string | null;
  call_time: string | null;
  existing_customer: boolean | null;
  message: string | null;
  offer_info: boolean;
  terms_accepted: boolean;
  data_processing_consent: boolean;
}

export interface SubmissionIssue {
  path: string;
  message: string;
}

export type SubmissionParseResult =
  { success: true; data: Submission } | { success: false; issues: SubmissionIssue[] };

/**
 * Validates a submission as the hub receives it: the envelope, then the contact fields by the
 * rules of the form named in `source` (the same schemas the browser forms use).
 */
export function parseSubmission(input: unknown, today: () => Date): SubmissionParseResult {
  const envelope = submissionEnvelopeSchema.safeParse(input);
  if (!envelope.success) return { success: false, issues: toIssues(envelope.error) };
  const contact = contactSchemaFor(envelope.data.source, today).safeParse(input);
  if (!contact.success) return { success: false, issues: toIssues(contact.error) };
  const c: Record<string, unknown> = contact.data;
  const text = (key: string): string | null => {
    const value = c[key];
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
  };
  return {
    success: true,
    data: {
      ...envelope.data,
      first_name: String(c.first_name),
      last_name: String(c.last_name),
      email: String(c.email),
      phone: String(c.phone),
      adress: text('adress'),
      postcode: text('postcode'),
      city: text('city'),
      salutation: text('salutation'),
      title: text('title'),
      birthdate: text('birthdate'),
      call_time: text('call_time'),
      existing_customer: typeof c.existing_customer === 'boolean' ? c.existing_customer : null,
      message: text('message'),
      offer_info: c.offer_info === true,
      terms_accepted: c.terms_accepted === true,
      data_processing_consent: c.data_processing_consent === true,
    },
  };
}

function contactSchemaFor(source: LeadSource, today: () => Date) {
  switch (source) {
    case 'questionnaire':
      return questionnaireContactSchema;
    case 'kfz':
      return kfzRequestSchema;
    case 'contact':
      return createContactRequestSchema(today);
  }
}

function toIssues(error: z.ZodError): SubmissionIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
}

/**
 * A canonical text of a submission (keys sorted at every depth), so that the same lead sent
 * twice hashes the same whatever order its keys arrived in.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * What a lead says, whatever way it travelled: the same lead re-sent with another delivery
 * field (waited_offline) is still the same lead. Both the device and the hub compare leads by it.
 */
export function withoutDeliveryFields<T extends object>(submission: T): T {
  // canonicalJson leaves out undefined values.
  return { ...submission, waited_offline: undefined };
}

/** What a lead says, apart from when it was made: equal keys mean the same lead. */
export function submissionContentKey(submission: { client_id: string }): string {
  // canonicalJson leaves out undefined values.
  return canonicalJson({
    ...withoutDeliveryFields(submission),
    client_id: undefined,
    create_date: undefined,
    changed_date: undefined,
    captured_at: undefined,
  });
}

/** `POST /api/responses/batch`: up to 50 submissions, each judged on its own. */
export const batchRequestSchema = z.object({
  submissions: z
    .array(z.unknown())
    .min(1, 'Mindestens eine Einsendung ist nötig.')
    .max(
      submissionLimits.maxBatchItems,
      `Höchstens ${submissionLimits.maxBatchItems} Einsendungen pro Anfrage.`,
    ),
});

/** The hub's error body, `{ error: ApiErrorBody }`: a stable code for programs, a German message. */
export const apiErrorBodySchema = z.object({
  code: z.string(),
  message: z.string(),
  details: z.unknown().optional(),
});
export type ApiErrorBody = z.infer<typeof apiErrorBodySchema>;

export const apiErrorReplySchema = z.object({ error: apiErrorBodySchema });

/** One lead's result in the batch reply; `index` is its position in the request. */
export const submissionResultSchema = z.discriminatedUnion('status', [
  z.object({
    index: z.number().int().nonnegative(),
    client_id: z.string(),
    status: z.enum(['created', 'duplicate']),
    id: z.number(),
  }),
  z.object({
    index: z.number().int().nonnegative(),
    // null when the hub could not read a client_id from the submission.
    client_id: z.string().nullable(),
    status: z.literal('rejected'),
    error: apiErrorBodySchema,
  }),
]);
export type SubmissionResult = z.infer<typeof submissionResultSchema>;

/** The reply to `POST /api/responses/batch`. */
export const batchReplySchema = z.object({ results: z.array(submissionResultSchema) });
