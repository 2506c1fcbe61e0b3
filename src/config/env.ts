// The one place that reads import.meta.env. Every value defaults to the serving origin, which
// is what `npm start` gives: app, hub and gateway behind one port.
export const appConfig = {
  /** Base URL of the hub API, without a trailing slash; '' is the serving origin. */
  hubUrl: (import.meta.env.VITE_HUB_URL ?? '').replace(/\/$/, ''),
} as const;
