import { warmDefinitions } from './definitions.ts';
import { startSyncScheduler } from './sync-scheduler.ts';

let started = false;

/**
 * The device's background work, started once by the app: the outbox's send triggers, and the
 * public questionnaires kept on the device so they open offline after any online visit. Safe to
 * call again (a second call does nothing) and outside a browser (prerendering, tests).
 */
export function startDevice(): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  startSyncScheduler();
  // A failed warm-up only means the questionnaires load when they are opened.
  void warmDefinitions().catch(() => undefined);
}
