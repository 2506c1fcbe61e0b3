import type { SupabaseClient } from '@supabase/supabase-js';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { leadChannels, submissionSources, type LeadChannel } from '../../domain/submission.ts';
import {
  callWithNulls,
  type FunctionName,
  type NullableArgs,
  type SameColumns,
} from './database-functions.ts';
import type { Database } from '../../domain/database.types.ts';
import { formQuestionsQuery, type QuestionRow } from './questions.ts';
import { useSupabase } from './supabase-context.ts';

// The Analyse screen's figures. The database groups and counts (security-invoker functions, so
// row-level security decides what is counted); the browser only receives the aggregates.

export type AnalysisChannel = LeadChannel;

export interface AnalysisFilter {
  /** Berlin calendar days 'YYYY-MM-DD', both inclusive. */
  dayFrom: string;
  dayTo: string;
  /** null: every lead, KFZ callbacks and contact requests included. */
  questionnaireId: number | null;
  channel: AnalysisChannel | null;
}

export type TimeBucket = 'day' | 'week';

export const analysisKeys = {
  all: ['analysis'] as const,
  overview: (filter: AnalysisFilter) => [...analysisKeys.all, 'overview', filter] as const,
  overTime: (filter: AnalysisFilter, bucket: TimeBucket) =>
    [...analysisKeys.all, 'over-time', filter, bucket] as const,
  answers: (filter: AnalysisFilter) => [...analysisKeys.all, 'answers', filter] as const,
  offlineDelay: (filter: AnalysisFilter) => [...analysisKeys.all, 'offline-delay', filter] as const,
  conversion: (filter: AnalysisFilter) => [...analysisKeys.all, 'conversion', filter] as const,
};

// bigint columns arrive as JSON numbers from the gateway; a string would still be a count.
const count = z.coerce.number().int().nonnegative();
const moment = z.string().nullable();

const overviewRow = z.object({
  leads: count,
  web_leads: count,
  fair_tablet_leads: count,
  questionnaire_leads: count,
  kfz_leads: count,
  contact_leads: count,
  offer_requests: count,
  offline_leads: count,
  median_delay_seconds: z.coerce.number().nullable(),
  first_lead_at: moment,
  last_lead_at: moment,
  data_since: moment,
});
export type AnalysisOverview = z.infer<typeof overviewRow>;

const overTimeRow = z.object({
  period_start: z.string(),
  channel: z.string(),
  source: z.string(),
  leads: count,
});
export type OverTimeRow = z.infer<typeof overTimeRow>;

// Never a visitor's text: an option's own text, a birth decade ('1980'), or nothing
// (analysis_answer_distribution, 20261128100000_answers_without_free_text.sql).
const answerRow = z.object({
  question_id: z.number().int(),
  kind: z.enum(['option', 'other', 'answered', 'decade', 'empty']),
  value: z.string().nullable(),
  n: count,
});
export type AnswerRow = z.infer<typeof answerRow>;

const delayRow = z.object({
  lower_seconds: z.number().int(),
  upper_seconds: z.number().int().nullable(),
  n: count,
});
export type DelayRow = z.infer<typeof delayRow>;

// The share of a group's leads that stand at 'Abgeschlossen' (analysis_conversion): per form (a
// questionnaire by form_id, or a KFZ or contact lead, source) and per channel.
const conversionRow = z.object({
  dimension: z.enum(['form', 'channel']),
  source: z.enum(submissionSources).nullable(),
  form_id: z.number().int().nullable(),
  form_title: z.string().nullable(),
  channel: z.enum(leadChannels).nullable(),
  leads: count,
  closed: count,
  rate: z.coerce.number(),
});
export type ConversionRow = z.infer<typeof conversionRow>;

// Each schema has exactly the columns its function returns (a renamed column fails typecheck).
true satisfies SameColumns<
  AnalysisOverview,
  'analysis_overview',
  'median_delay_seconds' | 'first_lead_at' | 'last_lead_at' | 'data_since'
>;
true satisfies SameColumns<OverTimeRow, 'analysis_leads_over_time'>;
true satisfies SameColumns<AnswerRow, 'analysis_answer_distribution', 'value'>;
true satisfies SameColumns<DelayRow, 'analysis_offline_delay', 'upper_seconds'>;
true satisfies SameColumns<
  ConversionRow,
  'analysis_conversion',
  'source' | 'form_id' | 'form_title' | 'channel'
>;

export function filterArgs(filter: AnalysisFilter) {
  return {
    day_from: filter.dayFrom,
    day_to: filter.dayTo,
    questionnaire_id: filter.questionnaireId,
    lead_channel: filter.channel,
  } satisfies NullableArgs<'analysis_overview'>;
}

async function callRpc<Name extends FunctionName, T>(
  supabase: SupabaseClient<Database>,
  name: Name,
  args: NullableArgs<Name>,
  row: z.ZodType<T>,
): Promise<T[]> {
  const { data, error } = await callWithNulls(supabase, name, args);
  if (error) throw error;
  return z.array(row).parse(data ?? []);
}

const emptyOverview: AnalysisOverview = {
  leads: 0,
  web_leads: 0,
  fair_tablet_leads: 0,
  questionnaire_leads: 0,
  kfz_leads: 0,
  contact_leads: 0,
  offer_requests: 0,
  offline_leads: 0,
  median_delay_seconds: null,
  first_lead_at: null,
  last_lead_at: null,
  data_since: null,
};

export async function readOverview(
  supabase: SupabaseClient<Database>,
  filter: AnalysisFilter,
): Promise<AnalysisOverview> {
  const rows = await callRpc(supabase, 'analysis_overview', filterArgs(filter), overviewRow);
  return rows[0] ?? emptyOverview;
}

export function readLeadsOverTime(
  supabase: SupabaseClient<Database>,
  filter: AnalysisFilter,
  bucket: TimeBucket,
): Promise<OverTimeRow[]> {
  return callRpc(
    supabase,
    'analysis_leads_over_time',
    { ...filterArgs(filter), bucket },
    overTimeRow,
  );
}

export function readAnswerDistribution(
  supabase: SupabaseClient<Database>,
  filter: AnalysisFilter,
): Promise<AnswerRow[]> {
  return callRpc(supabase, 'analysis_answer_distribution', filterArgs(filter), answerRow);
}

export function readOfflineDelay(
  supabase: SupabaseClient<Database>,
  filter: AnalysisFilter,
): Promise<DelayRow[]> {
  return callRpc(supabase, 'analysis_offline_delay', filterArgs(filter), delayRow);
}

export function readConversion(
  supabase: SupabaseClient<Database>,
  filter: AnalysisFilter,
): Promise<ConversionRow[]> {
  return callRpc(supabase, 'analysis_conversion', filterArgs(filter), conversionRow);
}

// The previous selection's figures stay on screen while a changed filter loads (no flicker to
// skeletons on every click); the sections mark themselves busy meanwhile.
const keepShown = { placeholderData: keepPreviousData } as const;

export function useAnalysisOverview(filter: AnalysisFilter) {
  const supabase = useSupabase();
  return useQuery({
    queryKey: analysisKeys.overview(filter),
    queryFn: () => readOverview(supabase, filter),
    ...keepShown,
  });
}

export function useLeadsOverTime(filter: AnalysisFilter, bucket: TimeBucket) {
  const supabase = useSupabase();
  return useQuery({
    queryKey: analysisKeys.overTime(filter, bucket),
    queryFn: () => readLeadsOverTime(supabase, filter, bucket),
    ...keepShown,
  });
}

/**
 * Only for one questionnaire: the database requires it. No previous figures meanwhile: another
 * questionnaire's answers must not stand under this one's questions.
 */
export function useAnswerDistribution(filter: AnalysisFilter) {
  const supabase = useSupabase();
  return useQuery({
    queryKey: analysisKeys.answers(filter),
    queryFn: () => readAnswerDistribution(supabase, filter),
    enabled: filter.questionnaireId !== null,
  });
}

export function useOfflineDelay(filter: AnalysisFilter) {
  const supabase = useSupabase();
  return useQuery({
    queryKey: analysisKeys.offlineDelay(filter),
    queryFn: () => readOfflineDelay(supabase, filter),
    ...keepShown,
  });
}

export function useConversion(filter: AnalysisFilter) {
  const supabase = useSupabase();
  return useQuery({
    queryKey: analysisKeys.conversion(filter),
    queryFn: () => readConversion(supabase, filter),
    ...keepShown,
  });
}

export type AnalysisQuestion = Pick<QuestionRow, 'id' | 'question' | 'type' | 'key'>;

/**
 * The chosen questionnaire's questions in their order: the headings of its distributions. The
 * editor's cache entry (formQuestionsQuery), so a question edited there shows here at once.
 */
export function useAnalysisQuestions(questionnaireId: number | null) {
  const supabase = useSupabase();
  return useQuery({
    ...formQuestionsQuery(supabase, questionnaireId ?? 0),
    select: (rows): AnalysisQuestion[] =>
      rows.map(({ id, question, type, key }) => ({ id, question, type, key })),
    enabled: questionnaireId !== null,
  });
}
