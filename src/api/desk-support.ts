import { useMutation } from '@tanstack/react-query';
import { useSupabase } from './supabase-context.ts';

// The support form's messages. The spec only logs them; we keep them in support_messages so an
// admin can read them (README, deviations). Staff may insert, not read: nothing to invalidate.

export const supportKeys = {
  all: ['support-messages'] as const,
};

export interface SupportMessage {
  name: string;
  email: string;
  message: string;
}

export function useSendSupportMessage() {
  const supabase = useSupabase();
  return useMutation({
    mutationKey: supportKeys.all,
    mutationFn: async (message: SupportMessage) => {
      // No .select(): the sender may not read messages back, so ask for no representation.
      const { error } = await supabase.from('support_messages').insert(message);
      if (error) throw error;
    },
  });
}
