// The hub's base address for code that runs before the visitor interacts. src/config/env.ts
// reads the same value and validates it with zod; that check runs as soon as any screen that
// talks to the hub loads, so a bad value still stops the app with its German message. This
// reader stays free of zod, which a landing page does not otherwise need.

/** Base URL of the hub API, without a trailing slash; '' is the serving origin. */
export function hubBaseUrl(env: Record<string, unknown> = import.meta.env): string {
  const value = env.VITE_HUB_URL;
  return (typeof value === 'string' ? value : '').replace(/\/+$/, '');
}
