import type { SupabaseClient } from '@supabase/supabase-js';
import { useQuery } from '@tanstack/react-query';
import { newestLead, type LeadContact } from '../../domain/lead-contact.ts';
import type { Database, Tables } from '../../domain/database.types.ts';
import { customerKeys } from './customers.ts';
import { useSupabase } from './supabase-context.ts';

/** A lead's contact details as typed, with when it was typed and received. */
export type LeadContactRecord = Pick<Tables<'responses'>, 'id' | 'captured_at' | 'received_at'> &
  LeadContact;

// A customer sends a handful of leads; the newest by typing time is picked here because a
// tablet's lead may arrive after a newer one. customer_lead_contacts returns the 100 received
// last (more than any customer has sent) and logs the look as part of opening the details.

export async function readNewestLead(
  supabase: SupabaseClient<Database>,
  customerId: number,
): Promise<LeadContactRecord | null> {
  const { data, error } = await supabase.rpc('customer_lead_contacts', { customer_id: customerId });
  if (error) throw error;
  // The columns are the lead's, nullable as in `responses`.
  const leads: LeadContactRecord[] = data;
  return newestLead(leads) ?? null;
}

/** The customer's newest lead with the contact details its sender typed; null without leads. */
export function useCustomerNewestLead(customerId: number) {
  const supabase = useSupabase();
  return useQuery({
    queryKey: customerKeys.newestLead(customerId),
    queryFn: () => readNewestLead(supabase, customerId),
  });
}
