// 'PIN vergessen' on the device page needs a Survey Desk staff member: their e-mail and password
// are checked once against the gateway (GoTrue's password grant, then PostgREST's
// `rpc/is_staff` with that session), and the session is ended at once. Plain fetch: public code
// never loads the desk's supabase-js client (eslint refuses imports of src/desk here).

import { appConfig } from '../../config/env.ts';
import { appConfigPath, gatewayPrefixes } from '../../domain/routes.ts';

/** Where the gateway is and its public (anon) key, as Survey Desk finds them. */
export interface GatewaySettings {
  url: string;
  anonKey: string;
}

export type StaffCheck =
  | { ok: true }
  | {
      ok: false;
      reason:
        'offline' | 'credentials' | 'unconfirmed' | 'not-staff' | 'rate-limited' | 'unreachable';
    };

/** German text for every refusal, for the form's message. */
export const staffCheckMessages: Record<Exclude<StaffCheck, { ok: true }>['reason'], string> = {
  offline:
    'Dieses Gerät ist offline. Die Anmeldung von Survey Desk braucht eine Verbindung zum Server; ' +
    'versuchen Sie es erneut, sobald das Gerät online ist.',
  credentials: 'E-Mail-Adresse oder Passwort sind nicht richtig.',
  unconfirmed: 'Dieses Konto ist noch nicht bestätigt.',
  'not-staff':
    'Dieses Konto gehört nicht zum Team von Survey Desk: Nur Mitarbeiterinnen und Mitarbeiter ' +
    'dürfen die PIN zurücksetzen.',
  'rate-limited': 'Zu viele Anmeldeversuche. Bitte warten Sie einen Moment.',
  unreachable: 'Der Server ist nicht erreichbar. Bitte versuchen Sie es später erneut.',
};

const settingsShape = (value: unknown): value is { supabaseUrl: string; supabaseAnonKey: string } =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Record<string, unknown>).supabaseUrl === 'string' &&
  typeof (value as Record<string, unknown>).supabaseAnonKey === 'string';

/**
 * The build-time values when both are set, else the server's run-time answer (the anon key
 * derives from a secret that does not exist when the app is built), as Survey Desk reads them.
 */
export async function loadGatewaySettings(
  origin: string = window.location.origin,
  fetcher: typeof fetch = fetch,
): Promise<GatewaySettings> {
  const { url, anonKey } = appConfig.supabase;
  if (url && anonKey) return { url: url.replace(/\/+$/, ''), anonKey };
  const response = await fetcher(new URL(appConfigPath, origin), {
    headers: { accept: 'application/json' },
    cache: 'no-store',
  });
  if (!response.ok) throw new Error(`${appConfigPath} antwortete mit ${response.status}`);
  const config: unknown = await response.json();
  if (!settingsShape(config)) throw new Error(`${appConfigPath} ohne Gateway-Angaben`);
  return {
    url: new URL(config.supabaseUrl, origin).href.replace(/\/+$/, ''),
    anonKey: config.supabaseAnonKey,
  };
}

/** The browser knows it has no network (a real outage, devtools, Playwright's setOffline). */
function browserOffline(): boolean {
  return globalThis.navigator?.onLine === false;
}

function refusal(status: number, code: unknown): StaffCheck {
  if (status === 429) return { ok: false, reason: 'rate-limited' };
  if (status >= 500) return { ok: false, reason: 'unreachable' };
  if (code === 'email_not_confirmed') return { ok: false, reason: 'unconfirmed' };
  return { ok: false, reason: 'credentials' };
}

/**
 * Whether `email` and `password` belong to a member of Survey Desk's staff (role staff or admin;
 * a pending sign-up is not). The session the check opens is ended before this returns, and its
 * tokens are kept nowhere.
 */
export async function confirmStaff(
  credentials: { email: string; password: string },
  options: { settings?: () => Promise<GatewaySettings>; fetch?: typeof fetch } = {},
): Promise<StaffCheck> {
  if (browserOffline()) return { ok: false, reason: 'offline' };
  const fetcher = options.fetch ?? fetch;
  try {
    const { url, anonKey } = await (options.settings ?? (() => loadGatewaySettings()))();
    const signIn = await fetcher(`${url}${gatewayPrefixes.auth}/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ email: credentials.email, password: credentials.password }),
      cache: 'no-store',
    });
    const session: unknown = await signIn.json().catch(() => undefined);
    const fields = (typeof session === 'object' && session !== null ? session : {}) as Record<
      string,
      unknown
    >;
    if (!signIn.ok) return refusal(signIn.status, fields.error_code ?? fields.code);
    const token = fields.access_token;
    if (typeof token !== 'string') return { ok: false, reason: 'unreachable' };
    const auth = { apikey: anonKey, authorization: `Bearer ${token}` };
    try {
      const answer = await fetcher(`${url}${gatewayPrefixes.rest}/rpc/is_staff`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json', accept: 'application/json' },
        body: '{}',
        cache: 'no-store',
      });
      if (!answer.ok) return { ok: false, reason: 'unreachable' };
      return (await answer.json()) === true ? { ok: true } : { ok: false, reason: 'not-staff' };
    } finally {
      // Only this session ends (scope local): the staff member stays signed in elsewhere.
      await fetcher(`${url}${gatewayPrefixes.auth}/logout?scope=local`, {
        method: 'POST',
        headers: auth,
        cache: 'no-store',
      }).catch(() => undefined);
    }
  } catch {
    return {
      ok: false,
      reason: browserOffline() ? 'offline' : 'unreachable',
    };
  }
}
