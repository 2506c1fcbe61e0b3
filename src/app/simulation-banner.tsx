import { useSyncExternalStore } from 'react';
import { createPortal } from 'react-dom';
import { devicePagePath } from '../domain/routes.ts';

const slotId = 'simulationshinweis';

const findSlot = () => document.getElementById(slotId);
const noChanges = () => () => undefined;

/**
 * Where the simulation banner goes: in the page's flow between the header and the main area, so
 * that the banner pushes the content down instead of covering it. It cannot live in the header:
 * the header's `backdrop-blur` makes it the containing block of every `position: fixed`
 * descendant, and its height is fixed. Empty, the slot takes no room; on a prerendered page it is
 * static HTML that the status island fills.
 */
export function SimulationBannerSlot() {
  return <div id={slotId} />;
}

/**
 * Tells everyone at the device that the offline simulation holds all sending, and where a tester
 * switches it off. Rendered by the header's status (which knows the setting) into the layout's
 * slot; without a slot (a page without the public layout) nothing shows.
 */
export function SimulationBanner({ active }: { active: boolean }) {
  // React reads the slot again once its commit is done: rendered in the same commit as the slot
  // (the app shell's layout), the banner still finds it.
  const slot = useSyncExternalStore(noChanges, findSlot, () => null);
  if (!active || !slot) return null;
  return createPortal(
    <div className="mx-auto w-full max-w-5xl px-4 pb-4">
      <div
        role="status"
        data-testid="simulation-banner"
        className="rounded-lg border-2 border-amber-600 bg-amber-100 px-4 py-3 font-semibold text-amber-950"
      >
        Offline-Simulation aktiv: Es wird nichts gesendet, Fragebögen kommen nur vom Gerät.
        Ausschalten auf der{' '}
        <a href={devicePagePath} className="underline underline-offset-2 hover:text-amber-800">
          Geräteseite
        </a>
        .
      </div>
    </div>,
    slot,
  );
}
