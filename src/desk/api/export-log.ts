import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import type { Tables } from '../../domain/database.types.ts';
import { leadStatuses } from '../../domain/lead-status.ts';
import { leadChannels, submissionSources } from '../../domain/submission.ts';
import { exportKeys } from './export-keys.ts';
import { useSupabase } from './supabase-context.ts';

// The export log the database writes for every export (begin_export, finish_export), as the
// admins read it.

// The column export_log types loosely (jsonb), checked where a row enters the desk.
const exportLogColumns = z.object({
  filter: z.looseObject({
    day_from: z.string().optional(),
    day_to: z.string().optional(),
    questionnaire_id: z.number().optional(),
    // Free text in the database: a channel the desk does not know is left out, not an error.
    lead_channel: z.enum(leadChannels).optional().catch(undefined),
    customer_search: z.string().optional(),
    // The customer list's filters (an unknown code is left out, as above).
    lead_status: z.enum(leadStatuses).optional().catch(undefined),
    lead_source: z.enum(submissionSources).optional().catch(undefined),
    received_from: z.string().optional(),
    received_to: z.string().optional(),
    open_follow_up: z.boolean().optional(),
  }),
});

/** An export as the log lists it (rows_sent is the database's own progress count). */
export type ExportLogEntry = Omit<
  Tables<'export_log'>,
  'rows_sent' | keyof typeof exportLogColumns.shape
> &
  z.infer<typeof exportLogColumns>;

function exportLogEntry(row: Tables<'export_log'>): ExportLogEntry {
  return { ...row, ...exportLogColumns.parse(row) };
}

/** The newest 50 exports: admins only (row-level security gives others none). */
export function useExportLog() {
  const supabase = useSupabase();
  return useQuery({
    queryKey: exportKeys.log(),
    queryFn: async () => {
      const { data, error } = await supabase
        .from('export_log')
        .select('*')
        .order('created_at', { ascending: false })
        .order('id', { ascending: false })
        .limit(50);
      if (error) throw error;
      return data.map(exportLogEntry);
    },
  });
}
