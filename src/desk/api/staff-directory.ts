import type { SupabaseClient } from '@supabase/supabase-js';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { staffRoles } from '../../domain/database-enums.ts';
import type { SameColumns } from './database-functions.ts';
import type { Database } from '../../domain/database.types.ts';
import { useSupabase } from './supabase-context.ts';

// The colleagues a screen may name or choose (staff and admins, never pending accounts), each
// with the name the desk shows: the display name, else the e-mail address. staff_directory()
// refuses callers without the role.

const directoryEntry = z.object({
  user_id: z.string(),
  name: z.string(),
  // A directory names enabled accounts only.
  role: z.enum(staffRoles).exclude(['pending']),
});
export type StaffDirectoryEntry = z.infer<typeof directoryEntry>;
true satisfies SameColumns<StaffDirectoryEntry, 'staff_directory'>;

export const staffDirectoryKeys = {
  all: ['staff-directory'] as const,
};

export async function readStaffDirectory(
  supabase: SupabaseClient<Database>,
): Promise<StaffDirectoryEntry[]> {
  const { data, error } = await supabase.rpc('staff_directory');
  if (error) throw error;
  return z.array(directoryEntry).parse(data ?? []);
}

export function useStaffDirectory() {
  const supabase = useSupabase();
  return useQuery({
    queryKey: staffDirectoryKeys.all,
    queryFn: () => readStaffDirectory(supabase),
  });
}
