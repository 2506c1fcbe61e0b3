import type { SupabaseClient } from '@supabase/supabase-js';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { SameColumns } from './database-functions.ts';
import type { Database } from '../../domain/database.types.ts';
import { useSupabase } from './supabase-context.ts';

// Notes per customer. The author is the caller and may change or delete a note for 15 minutes
// after writing it; the database enforces both (row level security on customer_notes).

/** How long a note stays editable by its author. */
export const noteEditMinutes = 15;

export const noteFixedMessage = 'Notizen sind nach 15 Minuten fest.';

export const noteKeys = {
  all: ['customer-notes'] as const,
  list: (customerId: number) => [...noteKeys.all, customerId] as const,
};

const note = z.object({
  id: z.number(),
  body: z.string(),
  author: z.string().nullable(),
  author_name: z.string().nullable(),
  mine: z.boolean(),
  created_at: z.string(),
  updated_at: z.string().nullable(),
});
export type CustomerNote = z.infer<typeof note>;
true satisfies SameColumns<
  CustomerNote,
  'customer_note_list',
  'author' | 'author_name' | 'updated_at'
>;

/** Whether the author may still change the note at `now` (the database decides in the end). */
export function noteEditable(item: CustomerNote, now: number = Date.now()): boolean {
  return item.mine && now < new Date(item.created_at).getTime() + noteEditMinutes * 60_000;
}

/** A customer's notes, newest first, with the author's name. */
export async function readCustomerNotes(
  supabase: SupabaseClient<Database>,
  customerId: number,
): Promise<CustomerNote[]> {
  const { data, error } = await supabase.rpc('customer_note_list', { customer_id: customerId });
  if (error) throw error;
  return z.array(note).parse(data);
}

export function useCustomerNotes(customerId: number) {
  const supabase = useSupabase();
  return useQuery({
    queryKey: noteKeys.list(customerId),
    queryFn: () => readCustomerNotes(supabase, customerId),
  });
}

export async function addCustomerNote(
  supabase: SupabaseClient<Database>,
  customerId: number,
  body: string,
): Promise<void> {
  const { error } = await supabase
    .from('customer_notes')
    .insert({ customer_id: customerId, body: body.trim() });
  if (error) throw error;
}

/** The error of a save that came too late: the database matched no row it may change. */
export class NoteFixedError extends Error {
  constructor() {
    super(noteFixedMessage);
    this.name = 'NoteFixedError';
  }
}

export async function editCustomerNote(
  supabase: SupabaseClient<Database>,
  id: number,
  body: string,
): Promise<void> {
  const { data, error } = await supabase
    .from('customer_notes')
    .update({ body: body.trim() })
    .eq('id', id)
    .select('id');
  if (error) throw error;
  if (data.length === 0) throw new NoteFixedError();
}

/** Deletes the caller's own note within its 15 minutes; later (or another's) it stays. */
export async function deleteCustomerNote(
  supabase: SupabaseClient<Database>,
  id: number,
): Promise<void> {
  const { data, error } = await supabase.from('customer_notes').delete().eq('id', id).select('id');
  if (error) throw error;
  if (data.length === 0) throw new NoteFixedError();
}

export function useAddCustomerNote(customerId: number) {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: string) => addCustomerNote(supabase, customerId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: noteKeys.list(customerId) }),
  });
}

export function useEditCustomerNote(customerId: number) {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: string }) =>
      editCustomerNote(supabase, id, body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: noteKeys.list(customerId) }),
  });
}

export function useDeleteCustomerNote(customerId: number) {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deleteCustomerNote(supabase, id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: noteKeys.list(customerId) }),
  });
}
