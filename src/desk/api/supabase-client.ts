import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { z } from 'zod';
import { appConfig } from '../../config/env.ts';
import { appConfigPath } from '../../domain/routes.ts';
import type { Database } from '../../domain/database.types.ts';
import type { SupabaseSettings } from './supabase-context.ts';

// Survey Desk's one Supabase client. Only desk code imports this module (lazily, behind the
// desk layout), so supabase-js never reaches a visitor of the public pages.

/** The spec keeps the signed-in session in localStorage under `user` (spec 3). */
export const sessionStorageKey = 'user';

const browserConfigSchema = z.object({
  supabaseUrl: z.string().min(1),
  supabaseAnonKey: z.string().min(1),
});

/**
 * The build-time values win when both are set (a static host without our server); otherwise the
 * server answers at run time, because the anon key derives from a secret that does not exist yet
 * when the app is built.
 */
async function loadSettings(): Promise<SupabaseSettings> {
  const { url, anonKey } = appConfig.supabase;
  if (url && anonKey) return { url, anonKey };
  const response = await fetch(appConfigPath, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`${appConfigPath} antwortete mit ${response.status}`);
  const config = browserConfigSchema.parse(await response.json());
  // The gateway's URL may be a path on this origin; supabase-js needs an absolute one.
  return {
    url: new URL(config.supabaseUrl, window.location.origin).href.replace(/\/+$/, ''),
    anonKey: config.supabaseAnonKey,
  };
}

let storedSessionRefused = false;

/**
 * Whether the session stored by an earlier visit ended when this page started, because the
 * server refused to refresh it. Read once: the sign-in then says the session expired.
 */
export function takeStoredSessionRefused(): boolean {
  const refused = storedSessionRefused;
  storedSessionRefused = false;
  return refused;
}

function createDeskClient({ url, anonKey }: SupabaseSettings): SupabaseClient<Database> {
  const client = createClient<Database>(url, anonKey, {
    auth: {
      storageKey: sessionStorageKey,
      persistSession: true,
      autoRefreshToken: true,
      // Confirmation links land on the sign-in screen with a notice, never with tokens in the URL.
      detectSessionInUrl: false,
    },
  });
  // supabase-js restores (and if need be refreshes) the stored session before any screen
  // subscribes; only a listener added right here hears it end.
  const { data } = client.auth.onAuthStateChange((event) => {
    if (event === 'SIGNED_OUT') storedSessionRefused = true;
    if (event === 'INITIAL_SESSION') queueMicrotask(() => data.subscription.unsubscribe());
  });
  return client;
}

/** The desk's client and the settings it was made with. */
export interface DeskSupabase {
  client: SupabaseClient<Database>;
  settings: SupabaseSettings;
}

let client: Promise<DeskSupabase> | undefined;

/** The client, made once per page; a failed configuration fetch is tried again next time. */
export function loadSupabase(): Promise<DeskSupabase> {
  client ??= loadSettings()
    .then((settings) => ({ client: createDeskClient(settings), settings }))
    .catch((error: unknown) => {
      client = undefined;
      throw error;
    });
  return client;
}
