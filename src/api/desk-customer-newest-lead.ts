import type { SupabaseClient } from '@supabase/supabase-js';
import { useQuery } from '@tanstack/react-query';
import { newestLead, type LeadContact } from '../domain/lead-contact.ts';
import type { Database, Tables } from './database.types.ts';
import { customerKeys } from './desk-customers.ts';
import { useSupabase } from './supabase-context.ts';

/** A lead's contact details as typed, with when it was typed and received. */
export type LeadContactRecord = Pick<Tables<'responses'>, 'id' | 'captured_at' | 'received_at'> &
  LeadContact;

// A customer sends a handful of leads; the newest by typing time is picked here because a
// tablet's lead may arrive after a newer one (PostgREST orders by columns, not by coalesce).
// The 100 received last are more than any customer has sent and bound the read.
const scanned = 100;

export async function readNewestLead(
  supabase: SupabaseClient<Database>,
  customerId: number,
): Promise<LeadContactRecord | null> {
  const { data, error } = await supabase
    .from('responses')
    .select(
      'id, captured_at, received_at, first_name, last_name, email, phone, adress, postcode, city',
    )
    .eq('user_id', customerId)
    .order('received_at', { ascending: false })
    .order('id', { ascending: false })
    .limit(scanned);
  if (error) throw error;
  return newestLead(data) ?? null;
}

/** The customer's newest lead with the contact details its sender typed; null without leads. */
export function useCustomerNewestLead(customerId: number) {
  const supabase = useSupabase();
  return useQuery({
    queryKey: customerKeys.newestLead(customerId),
    queryFn: () => readNewestLead(supabase, customerId),
  });
}
