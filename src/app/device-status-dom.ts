import { devicePagePath } from '../domain/routes.ts';
import { h } from '../ui/dom.ts';
import { watchDeviceStatus, type DeviceStatus } from '../offline/device-status-store.ts';
import {
  connectionText,
  detailsClassName,
  dotClassName,
  lockedClassName,
  panelClassName,
  prerenderedPanelId,
  rejectedClassName,
  statusFacts,
  summaryClassName,
  summaryExtras,
} from './device-status-view.ts';

// The header's status on a prerendered page, in plain DOM: it is on every page and runs before
// any interaction, where React's runtime would be most of the page's code. It takes over the
// markup the build wrote (device-status-markup.tsx) and keeps it current; React and the panel's
// code (device-status.tsx) load when the visitor first opens the panel.

/**
 * Writes the summary's parts as StatusSummary (device-status-markup.tsx) renders them. The dot and
 * the connection stay the elements the build wrote (only their class and text change): the page
 * keeps the HTML it got; the parts after them come and go.
 */
export function fillSummary(summary: HTMLElement, status: DeviceStatus): void {
  const { offline, label, detailed } = statusFacts(status);
  const extras = summaryExtras(status);
  const [dot, connection] = [0, 1].map((index) => {
    const element = summary.children[index];
    if (element) return element;
    return summary.appendChild(h('span'));
  }) as [Element, Element];
  dot.setAttribute('aria-hidden', 'true');
  dot.setAttribute('class', dotClassName(offline));
  connection.setAttribute('data-testid', 'verbindungsstatus');
  if (connection.textContent !== label) connection.textContent = label;

  const parts: HTMLElement[] = [];
  if (extras.waiting) {
    const { text, className } = extras.waiting;
    parts.push(h('span', { 'data-testid': 'wartende-anfragen', className }, text));
  }
  if (extras.rejected) parts.push(h('span', { className: rejectedClassName }, extras.rejected));
  if (extras.locked) parts.push(h('span', { className: lockedClassName }, extras.locked));
  while (summary.children.length > 2) summary.lastElementChild!.remove();
  summary.append(...parts);
  if (detailed) summary.dataset['detailed'] = 'true';
  else delete summary.dataset['detailed'];
}

const bannerSlotId = 'simulationshinweis';

/** The simulation banner (simulation-banner.tsx) in the layout's slot, while the simulation is on. */
function showSimulationBanner(active: boolean): void {
  const slot = document.getElementById(bannerSlotId);
  if (!slot) return;
  const shown = slot.querySelector('[data-testid="simulation-banner"]');
  if (!active) {
    if (shown) slot.replaceChildren();
    return;
  }
  if (shown) return;
  const link = h(
    'a',
    { href: devicePagePath, className: 'underline underline-offset-2 hover:text-amber-800' },
    'Geräteseite',
  );
  const banner = h(
    'div',
    {
      role: 'status',
      'data-testid': 'simulation-banner',
      className:
        'rounded-lg border-2 border-amber-600 bg-amber-100 px-4 py-3 font-semibold text-amber-950',
    },
    'Offline-Simulation aktiv: Es wird nichts gesendet, Fragebögen kommen nur vom Gerät. ' +
      'Ausschalten auf der ',
    link,
    '.',
  );
  const outer = h('div', { className: 'mx-auto w-full max-w-5xl px-4 pb-4' }, banner);
  slot.replaceChildren(outer);
}

/** The status's markup, for a slot the build left empty (a page rendered before this version). */
function createDetails(element: HTMLElement): HTMLDetailsElement {
  const details = h(
    'details',
    { className: detailsClassName },
    h('summary', { className: summaryClassName, 'aria-controls': prerenderedPanelId }),
    h('div', { id: prerenderedPanelId, className: panelClassName }),
  );
  element.replaceChildren(details);
  return details;
}

/**
 * Closes the panel as a dropdown closes: on Escape (focus back on the summary) and on a press
 * outside (the same as src/ui/use-dismiss.ts does for React).
 */
function closeOnDismiss(details: HTMLDetailsElement): void {
  document.addEventListener('keydown', (event) => {
    if (!details.open || event.key !== 'Escape') return;
    details.open = false;
    details.querySelector('summary')?.focus();
  });
  document.addEventListener('pointerdown', (event) => {
    if (details.open && !details.contains(event.target as Node)) details.open = false;
  });
}

/**
 * Starts the header's status in `element` (the `device-status` island): the summary follows the
 * device live; the panel says the connection at once and gets its full React content at its
 * first opening.
 */
export function startDeviceStatus(element: HTMLElement): void {
  const details = element.querySelector('details') ?? createDetails(element);
  const summary = details.querySelector('summary')!;
  const panel = details.querySelector<HTMLElement>(`#${prerenderedPanelId}`)!;
  let current: DeviceStatus | undefined;
  watchDeviceStatus((status) => {
    current = status;
    fillSummary(summary, status);
    showSimulationBanner(status.simulateOffline);
  });
  closeOnDismiss(details);

  let panelCode: Promise<void> | undefined;
  const loadPanel = () => {
    panelCode ??= import('./device-status.tsx').then(
      ({ mountDeviceStatusPanel }) => mountDeviceStatusPanel(panel, details),
      () => {
        // Offline before the service worker held the code: the text stays, the next opening
        // tries again.
        panelCode = undefined;
      },
    );
  };
  // A press on the summary fetches the panel's code while the browser opens it.
  summary.addEventListener('pointerdown', loadPanel, { passive: true });
  details.addEventListener('toggle', () => {
    if (!details.open) return;
    if (panel.childElementCount === 0 && current) {
      panel.append(h('p', {}, connectionText(current, current.waiting ?? 0)));
    }
    loadPanel();
  });
}
