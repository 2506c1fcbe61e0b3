import { z } from 'zod';

// The one place that reads import.meta.env, parsed once when the app starts: a bad value stops
// the app with a message naming the variable instead of surfacing later as a strange request.
// Every value is baked in at build time; unset or empty means the serving origin, which is what
// `npm start` gives: app, hub and gateway behind one port.

const httpUrl = z.url({ protocol: /^https?$/, error: 'muss eine http(s)-Adresse sein' });

const envSchema = z.object({
  /** The hub's origin (and base path): an absolute URL or a path on the serving origin. */
  VITE_HUB_URL: z
    .union([httpUrl, z.string().regex(/^\/[^/]/)], {
      error: 'muss eine http(s)-Adresse oder ein Pfad ab / sein',
    })
    .optional(),
  // Survey Desk talks to Supabase (hosted, or the local gateway when unset).
  VITE_SUPABASE_URL: httpUrl.optional(),
  VITE_SUPABASE_ANON_KEY: z.string().trim().min(1, 'darf nicht leer sein').optional(),
});

export interface AppConfig {
  /** Base URL of the hub API, without a trailing slash; '' is the serving origin. */
  hubUrl: string;
  supabase: { url: string | undefined; anonKey: string | undefined };
}

export function parseAppConfig(env: Record<string, unknown>): AppConfig {
  const parsed = envSchema.safeParse(withoutEmpty(env));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Ungültige Konfiguration der App:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    hubUrl: (e.VITE_HUB_URL ?? '').replace(/\/+$/, ''),
    supabase: { url: e.VITE_SUPABASE_URL, anonKey: e.VITE_SUPABASE_ANON_KEY },
  };
}

/** `VITE_X=` in an env file arrives as ''; that means "not set", as for the server. */
function withoutEmpty(env: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
}

export const appConfig: AppConfig = parseAppConfig(import.meta.env);
