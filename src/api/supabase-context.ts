import type { SupabaseClient } from '@supabase/supabase-js';
import { createContext, useContext } from 'react';
import type { Database } from './database.types.ts';

/** Filled by the desk's providers (src/app/desk-providers.tsx) once the client is configured. */
export const SupabaseContext = createContext<SupabaseClient<Database> | null>(null);

export function useSupabase(): SupabaseClient<Database> {
  const client = useContext(SupabaseContext);
  if (!client) throw new Error('useSupabase außerhalb der Survey-Desk-Provider');
  return client;
}
