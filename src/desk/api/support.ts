import type { SupabaseClient } from '@supabase/supabase-js';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSupabase } from './supabase-context.ts';
import type { Database, Tables } from '../../domain/database.types.ts';

// The support form's messages and the admins' inbox. The spec only logs them; we keep them in
// support_messages (docs/spec-deviations.md). Staff and admins send; only admins read them and
// mark them read or done (row-level security and column grants: supabase/migrations/…_support_inbox.sql).

export type SupportFilter = 'offen' | 'erledigt';

export const supportFilters: readonly SupportFilter[] = ['offen', 'erledigt'];

export const supportKeys = {
  all: ['support-messages'] as const,
  lists: () => [...supportKeys.all, 'list'] as const,
  list: (filter: SupportFilter) => [...supportKeys.lists(), filter] as const,
  unread: () => [...supportKeys.all, 'unread'] as const,
};

export type SupportMessage = Pick<Tables<'support_messages'>, 'name' | 'email' | 'message'>;

export type InboxMessage = Pick<
  Tables<'support_messages'>,
  'id' | 'name' | 'email' | 'message' | 'created_at' | 'read_at' | 'done_at'
>;

export interface SupportInbox {
  messages: InboxMessage[];
  /** How many messages the filter matches; more than `messages.length` when the list is cut. */
  total: number;
}

/** The inbox shows at most this many messages per filter, the newest. */
export const inboxLimit = 200;

const inboxColumns = 'id, name, email, message, created_at, read_at, done_at';

/**
 * Open messages newest first with the unread ones on top; settled ones by when they were settled.
 * The unread are moved up here rather than by the database: PostgREST orders by columns only.
 */
export async function readSupportInbox(
  supabase: SupabaseClient<Database>,
  filter: SupportFilter,
): Promise<SupportInbox> {
  const query = supabase.from('support_messages').select(inboxColumns, { count: 'exact' });
  const ordered =
    filter === 'offen'
      ? query.is('done_at', null).order('created_at', { ascending: false })
      : query.not('done_at', 'is', null).order('done_at', { ascending: false });
  const { data, count, error } = await ordered.order('id', { ascending: false }).limit(inboxLimit);
  if (error) throw error;
  const messages =
    filter === 'offen'
      ? [...data.filter((m) => m.read_at === null), ...data.filter((m) => m.read_at !== null)]
      : data;
  return { messages, total: count ?? data.length };
}

/** The admins' inbox; `enabled` false for anyone else (the database would show them nothing). */
export function useSupportInbox(filter: SupportFilter, enabled = true) {
  const supabase = useSupabase();
  return useQuery({
    queryKey: supportKeys.list(filter),
    queryFn: () => readSupportInbox(supabase, filter),
    enabled,
  });
}

export async function countUnreadSupportMessages(
  supabase: SupabaseClient<Database>,
): Promise<number> {
  const { count, error } = await supabase
    .from('support_messages')
    .select('id', { count: 'exact', head: true })
    .is('read_at', null);
  if (error) throw error;
  return count ?? 0;
}

/** The bell's number for admins; asked again every minute, so a new message shows up. */
export function useUnreadSupportCount(enabled: boolean) {
  const supabase = useSupabase();
  return useQuery({
    queryKey: supportKeys.unread(),
    queryFn: () => countUnreadSupportMessages(supabase),
    enabled,
    refetchInterval: 60_000,
  });
}

export function useSendSupportMessage() {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: supportKeys.all,
    mutationFn: async (message: SupportMessage) => {
      // No .select(): a staff sender may not read messages back, so ask for no representation.
      const { error } = await supabase.from('support_messages').insert(message);
      if (error) throw error;
    },
    // An admin who writes to support sees the message in the own inbox and bell. Not awaited:
    // the sender is told 'gesendet' once it is stored, not once the inbox is read again.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: supportKeys.all });
    },
  });
}

/** What an admin sets: read or unread, done or open again (either or both). */
export interface SupportStateChange {
  id: number;
  read?: boolean;
  done?: boolean;
}

/** Raised when the update reached no message: deleted meanwhile, or not an admin any more. */
export class SupportMessageUnchangedError extends Error {
  constructor() {
    super('Support-Nachricht nicht geändert');
    this.name = 'SupportMessageUnchangedError';
  }
}

export async function setSupportMessageState(
  supabase: SupabaseClient<Database>,
  change: SupportStateChange,
): Promise<void> {
  // The database stamps its own time and the caller (trigger stamp_support_message_state); the
  // browser only says "now" or "no longer".
  const now = new Date().toISOString();
  const values: { read_at?: string | null; done_at?: string | null } = {};
  if (change.read !== undefined) values.read_at = change.read ? now : null;
  if (change.done !== undefined) values.done_at = change.done ? now : null;
  const { data, error } = await supabase
    .from('support_messages')
    .update(values)
    .eq('id', change.id)
    .select('id');
  if (error) throw error;
  // Row-level security hides a refused update instead of failing it.
  if (data.length === 0) throw new SupportMessageUnchangedError();
}

export function useSetSupportMessageState() {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: SupportStateChange) => setSupportMessageState(supabase, change),
    // The lists and the bell's count alike.
    onSettled: () => queryClient.invalidateQueries({ queryKey: supportKeys.all }),
  });
}
