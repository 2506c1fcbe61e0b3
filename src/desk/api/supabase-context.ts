import type { SupabaseClient } from '@supabase/supabase-js';
import { createContext, useContext } from 'react';
import type { Database } from '../../domain/database.types.ts';

/** Where the desk's Supabase project is and its public (anon) key, as loaded at start. */
export interface SupabaseSettings {
  url: string;
  anonKey: string;
}

/** Filled by the desk's providers (src/desk/layout/desk-providers.tsx) once the client is configured. */
export const SupabaseContext = createContext<SupabaseClient<Database> | null>(null);

/**
 * The settings the client was made with, beside it: a request supabase-js cannot send (an upload
 * with progress) needs the anon key, which the client keeps to itself.
 */
export const SupabaseSettingsContext = createContext<SupabaseSettings | null>(null);

export function useSupabase(): SupabaseClient<Database> {
  const client = useContext(SupabaseContext);
  if (!client) throw new Error('useSupabase außerhalb der Survey-Desk-Provider');
  return client;
}

export function useSupabaseSettings(): SupabaseSettings {
  const settings = useContext(SupabaseSettingsContext);
  if (!settings) throw new Error('useSupabaseSettings außerhalb der Survey-Desk-Provider');
  return settings;
}
