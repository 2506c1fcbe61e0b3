import type { SupabaseClient } from '@supabase/supabase-js';
import { z } from 'zod';
import type { Database } from '../../domain/database.types.ts';

// How many leads each questionnaire brought in, counted by the database's one definition of a
// questionnaire lead (questionnaire_lead_counts, migration 20261125140000_lead_figures.sql): a
// KFZ callback or contact request is stored under form 1 but belongs to no questionnaire. The
// dashboard and the questionnaire cards read it here; Analyse filters by the same definition.

// bigint arrives as a JSON number from the gateway; a string would still be a count.
const countRow = z.object({
  form_id: z.number().int(),
  leads: z.coerce.number().int().nonnegative(),
});

/** Leads per questionnaire id, arrived since `receivedSince` (ISO time; left out: ever). */
export async function readQuestionnaireLeadCounts(
  supabase: SupabaseClient<Database>,
  receivedSince?: string,
): Promise<Map<number, number>> {
  const { data, error } = await supabase.rpc('questionnaire_lead_counts', {
    ...(receivedSince ? { received_since: receivedSince } : {}),
  });
  if (error) throw error;
  const rows = z.array(countRow).parse(data ?? []);
  return new Map(rows.map((row) => [row.form_id, row.leads]));
}
