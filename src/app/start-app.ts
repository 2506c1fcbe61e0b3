import { startDevice } from '../offline/start-device.ts';

/**
 * What a visitor's device starts once the public site runs: the outbox's sender, the
 * questionnaires kept on the device, and the questionnaire screens' code, so that a tap on a
 * questionnaire works after the connection drops (the service worker's precache makes the same
 * true across reloads). Imported lazily after the first paint: it brings the offline database
 * code. Safe to call again.
 */
export function startApp(): void {
  startDevice();
  void import('../site/questionnaire/tabaluga-page.tsx').catch(() => undefined);
  void import('../site/questionnaire/pkv-page.tsx').catch(() => undefined);
}
