// @vitest-environment jsdom
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DeviceStatus } from '../offline/device-status-store.ts';
import type { OutboxItem } from '../offline/offline-schema.ts';
import { PrerenderedDeviceStatus, StatusSummary } from './device-status-markup.tsx';
import { prerenderedPanelId, prerenderedStatus } from './device-status-view.ts';

// The device's state comes from a listener the test calls; the offline database is not involved.
const device = vi.hoisted(() => ({
  listener: undefined as ((status: DeviceStatus) => void) | undefined,
}));
vi.mock('../offline/device-status-store.ts', () => ({
  watchDeviceStatus: (listener: (status: DeviceStatus) => void) => {
    device.listener = listener;
    return () => undefined;
  },
}));
// The panel's React part: what matters here is when it is asked for.
vi.mock('./device-status.tsx', () => ({ mountDeviceStatusPanel: vi.fn() }));

const { fillSummary, startDeviceStatus } = await import('./device-status-dom.ts');
const { mountDeviceStatusPanel } = vi.mocked(await import('./device-status.tsx'));

const rejectedLead = {
  client_id: 'a',
  source: 'kfz',
  created_at: '2026-11-28T10:00:00Z',
  last_error: 'Ungültig',
} as unknown as OutboxItem;

const statuses: Record<string, Partial<DeviceStatus>> = {
  'nothing read yet': {},
  'nothing waiting': { waiting: 0 },
  offline: { online: false, waiting: 0 },
  'offline simulated': { simulateOffline: true, waiting: 1 },
  'hub unreachable': { hubUnreachable: true, waiting: 3 },
  rejected: { waiting: 0, rejected: [rejectedLead] },
  'fair tablet locked': { kiosk: true, waiting: 2, sealed: 2, rejected: [rejectedLead] },
};

function summaryFromMarkup(markup: string): HTMLElement {
  const container = document.createElement('div');
  container.innerHTML = markup;
  return container.querySelector('summary')!;
}

const set = (patch: Partial<DeviceStatus>) => device.listener!({ ...prerenderedStatus, ...patch });
const text = (testId: string) =>
  document.querySelector(`[data-testid="${testId}"]`)?.textContent ?? null;

beforeEach(() => {
  // The header's island as the build writes it, and the banner's slot below the header.
  document.body.innerHTML =
    `<header><div data-island="device-status" class="contents">` +
    `${renderToStaticMarkup(<PrerenderedDeviceStatus />)}</div></header>` +
    `<div id="simulationshinweis"></div><main><a href="/">Start</a></main>`;
});

afterEach(() => {
  document.body.innerHTML = '';
  mountDeviceStatusPanel.mockClear();
});

describe('the header status in plain DOM', () => {
  it.each(Object.entries(statuses))(
    'writes the summary as the React status renders it: %s',
    (_, patch) => {
      const status = { ...prerenderedStatus, ...patch };
      const summary = summaryFromMarkup(renderToStaticMarkup(<PrerenderedDeviceStatus />));
      fillSummary(summary, status);
      const expected = summaryFromMarkup(
        renderToStaticMarkup(<StatusSummary status={status} panelId={prerenderedPanelId} />),
      );
      expect(summary.textContent).toBe(expected.textContent);
      expect(summary.isEqualNode(expected)).toBe(true);
    },
  );

  it('follows the device: connection, waiting count, the simulation banner with the device page', () => {
    // The build's connection element stays: the page keeps the HTML it got.
    const built = document.querySelector('[data-testid="verbindungsstatus"]');
    expect(built?.textContent).toBe('Online');
    startDeviceStatus(document.querySelector('[data-island="device-status"]')!);
    set({ waiting: 0 });
    expect(text('verbindungsstatus')).toBe('Online');
    expect(text('wartende-anfragen')).toBe('· keine Anfragen warten');

    set({ online: false, waiting: 2 });
    expect(text('verbindungsstatus')).toBe('Offline');
    expect(text('wartende-anfragen')).toBe('· 2 Anfragen warten');
    expect(document.querySelector('summary')!.dataset['detailed']).toBe('true');

    set({ simulateOffline: true, waiting: 0 });
    expect(text('verbindungsstatus')).toBe('Offline (simuliert)');
    const banner = document.querySelector('#simulationshinweis [data-testid="simulation-banner"]');
    expect(banner?.textContent).toBe(
      'Offline-Simulation aktiv: Es wird nichts gesendet, Fragebögen kommen nur vom Gerät. ' +
        'Ausschalten auf der Geräteseite.',
    );
    expect(banner?.querySelector('a')?.getAttribute('href')).toBe('/geraet');

    set({ waiting: 0 });
    expect(document.querySelector('[data-testid="simulation-banner"]')).toBeNull();
    expect(document.querySelector('[data-testid="verbindungsstatus"]')).toBe(built);
    expect(document.querySelector('summary')!.dataset['detailed']).toBeUndefined();
  });

  it('loads the panel only when it opens, says the connection at once, closes on Escape', async () => {
    startDeviceStatus(document.querySelector('[data-island="device-status"]')!);
    set({ online: false, waiting: 0 });
    expect(mountDeviceStatusPanel).not.toHaveBeenCalled();

    const details = document.querySelector('details')!;
    details.open = true;
    details.dispatchEvent(new Event('toggle'));
    const panel = document.getElementById(prerenderedPanelId)!;
    expect(panel.textContent).toBe('Dieses Gerät ist offline.');
    await vi.waitFor(() => expect(mountDeviceStatusPanel).toHaveBeenCalledWith(panel, details));

    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    expect(details.open).toBe(false);
    details.open = true;
    details.dispatchEvent(new Event('toggle'));
    await Promise.resolve();
    expect(mountDeviceStatusPanel).toHaveBeenCalledTimes(1);
  });

  it('writes its markup into a slot the build left empty', () => {
    const island = document.querySelector<HTMLElement>('[data-island="device-status"]')!;
    island.replaceChildren();
    startDeviceStatus(island);
    set({ waiting: 1 });
    expect(text('verbindungsstatus')).toBe('Online');
    expect(text('wartende-anfragen')).toBe('· 1 Anfrage wartet');
    expect(island.querySelector('summary')!.getAttribute('aria-controls')).toBe(prerenderedPanelId);
  });
});
