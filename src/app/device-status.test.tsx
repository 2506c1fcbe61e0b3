// @vitest-environment jsdom
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useSyncExternalStore } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DeviceStatus as Status } from '../offline/use-device-status.ts';
import type { OutboxItem } from '../offline/offline-schema.ts';
import { DeviceStatus } from './device-status.tsx';
import { SimulationBannerSlot } from './simulation-banner.tsx';

// The device's state comes from a small store the test controls; the offline database is not
// involved.
const device = vi.hoisted(() => {
  const initial = {
    online: true,
    simulateOffline: false,
    kiosk: false,
    waiting: 0 as number | undefined,
    sealed: 0,
    kioskUnlocked: false,
    rejected: [] as OutboxItem[],
    hubUnreachable: false,
    lastDelivery: undefined as { sent: number; at: number } | undefined,
  };
  let status = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => status,
    set(patch: Partial<typeof initial>) {
      status = { ...status, ...patch };
      listeners.forEach((listener) => listener());
    },
    reset() {
      status = initial;
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
});

vi.mock('../offline/use-device-status.ts', () => ({
  useDeviceStatus: (): Status => useSyncExternalStore(device.subscribe, device.get),
}));
vi.mock('../offline/sync-scheduler.ts', () => ({ syncNow: vi.fn(async () => undefined) }));
vi.mock('../offline/outbox.ts', () => ({ removeRejected: vi.fn(), retryRejected: vi.fn() }));
vi.mock('../offline/offline-db.ts', () => ({ offlineDb: vi.fn() }));

const { syncNow } = await import('../offline/sync-scheduler.ts');
const { retryRejected } = await import('../offline/outbox.ts');

const connection = () => screen.getByTestId('verbindungsstatus');
const waitingCount = () => screen.getByTestId('wartende-anfragen');
const control = () => connection().closest('summary')!;
const panel = () => document.getElementById(control().getAttribute('aria-controls')!)!;
const sendNow = () => screen.queryByRole('button', { name: 'Jetzt senden' });
const lastDelivery = () => screen.queryByTestId('zuletzt-gesendet');
// A native <details>: the browser hides the panel while it is closed (jsdom keeps it queryable).
const panelOpen = () => control().closest('details')!.open;

/** The header's status in the public layout: the banner's slot lies outside the header. */
function renderInLayout() {
  return render(
    <>
      <header>
        <DeviceStatus />
      </header>
      <SimulationBannerSlot />
      <main>
        <h1>Seite</h1>
      </main>
    </>,
  );
}

const rejectedLead = {
  client_id: 'abgelehnt-1',
  source: 'contact',
  created_at: '2026-11-27T10:00:00.000Z',
  last_error: 'Die E-Mail-Adresse ist ungültig.',
} as unknown as OutboxItem;

/** 14:32 today, local time. */
function todayAt(hours: number, minutes: number) {
  const at = new Date();
  at.setHours(hours, minutes, 0, 0);
  return at.getTime();
}

beforeEach(() => device.reset());
afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

describe('the status control', () => {
  it('shows Online and that nothing waits', () => {
    render(<DeviceStatus />);
    expect(connection().textContent).toBe('Online');
    expect(waitingCount().textContent).toBe('· keine Anfragen warten');
  });

  it('shows Offline and counts the waiting leads in German', () => {
    device.set({ online: false, waiting: 1 });
    render(<DeviceStatus />);
    expect(connection().textContent).toBe('Offline');
    expect(waitingCount().textContent).toBe('· 1 Anfrage wartet');

    act(() => device.set({ waiting: 3 }));
    expect(waitingCount().textContent).toBe('· 3 Anfragen warten');
  });

  it('says the server is unreachable only while leads wait for it', () => {
    device.set({ hubUnreachable: true, waiting: 0 });
    render(<DeviceStatus />);
    expect(connection().textContent).toBe('Online');
    act(() => device.set({ waiting: 2 }));
    expect(connection().textContent).toBe('Server nicht erreichbar');
  });

  it('shows no count before the outbox was read', () => {
    device.set({ waiting: undefined });
    render(<DeviceStatus />);
    expect(screen.queryByTestId('wartende-anfragen')).toBeNull();
  });
});

describe('the device panel', () => {
  it('opens on a click and closes with Escape, focus back on the control', async () => {
    const user = userEvent.setup();
    render(<DeviceStatus />);
    expect(panelOpen()).toBe(false);

    await user.click(control());
    expect(panelOpen()).toBe(true);
    expect(panel().textContent).toContain('Dieses Gerät ist online.');

    await user.keyboard('{Escape}');
    expect(panelOpen()).toBe(false);
    expect(document.activeElement).toBe(control());
  });

  it('closes on a click elsewhere', async () => {
    const user = userEvent.setup();
    render(
      <>
        <h1>Seite</h1>
        <DeviceStatus />
      </>,
    );
    await user.click(control());
    expect(panelOpen()).toBe(true);

    await user.click(screen.getByRole('heading', { name: 'Seite' }));
    expect(panelOpen()).toBe(false);
  });
});

describe('what a visitor on an ordinary device sees', () => {
  it('has no switch, no PIN control and no tester or fair-mode setting', async () => {
    const user = userEvent.setup();
    device.set({ waiting: 2, rejected: [rejectedLead] });
    render(<DeviceStatus />);
    await user.click(control());
    expect(screen.queryAllByRole('switch')).toEqual([]);
    expect(screen.queryAllByRole('checkbox')).toEqual([]);
    expect(screen.queryAllByRole('textbox')).toEqual([]);
    expect(panel().textContent).not.toMatch(/Messe-Modus|Offline simulieren|PIN/);
    // The only controls: sending what waits, and the rejected lead's two actions.
    expect(
      within(panel())
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Jetzt senden', 'Erneut senden', 'Verwerfen']);
  });

  it('offers "Jetzt senden" only while leads wait here, and only online', async () => {
    const user = userEvent.setup();
    render(<DeviceStatus />);
    await user.click(control());
    expect(sendNow()).toBeNull();
    expect(panel().textContent).toContain('Auf diesem Gerät wartet keine Anfrage.');

    act(() => device.set({ waiting: 2 }));
    expect(panel().textContent).toContain(
      '2 Anfragen warten auf diesem Gerät und werden automatisch gesendet.',
    );
    await user.click(sendNow()!);
    expect(syncNow).toHaveBeenCalledWith(true);

    act(() => device.set({ online: false }));
    expect(sendNow()!.hasAttribute('disabled')).toBe(true);
    expect(panel().textContent).toContain(
      '2 Anfragen warten auf diesem Gerät und werden gesendet, sobald das Gerät wieder online ist.',
    );
  });

  it('lists the rejected leads with "Erneut senden"', async () => {
    const user = userEvent.setup();
    device.set({ rejected: [rejectedLead] });
    render(<DeviceStatus />);
    expect(control().textContent).toContain('· 1 abgelehnt');
    await user.click(control());
    const list = screen.getByRole('region', { name: 'Abgelehnte Anfragen' });
    expect(list.textContent).toContain('Die E-Mail-Adresse ist ungültig.');
    await user.click(within(list).getByRole('button', { name: 'Erneut senden' }));
    await vi.waitFor(() => expect(retryRejected).toHaveBeenCalledTimes(1));
  });

  it('says how many were delivered and when, once the queue ran empty', async () => {
    const user = userEvent.setup();
    device.set({ waiting: 1, lastDelivery: { sent: 13, at: todayAt(14, 31) } });
    render(<DeviceStatus />);
    await user.click(control());
    // While a lead still waits, the count of what waits is what matters.
    expect(lastDelivery()).toBeNull();

    act(() => device.set({ waiting: 0, lastDelivery: { sent: 14, at: todayAt(14, 32) } }));
    expect(lastDelivery()!.textContent).toBe('Alle 14 Anfragen gesendet, zuletzt 14:32.');

    act(() => device.set({ lastDelivery: { sent: 1, at: todayAt(9, 5) } }));
    expect(lastDelivery()!.textContent).toBe('1 Anfrage gesendet, 09:05.');
  });

  it('names the day of a delivery that was not today', async () => {
    const user = userEvent.setup();
    const at = new Date(2026, 10, 27, 14, 32).getTime();
    device.set({ lastDelivery: { sent: 3, at } });
    render(<DeviceStatus />);
    await user.click(control());
    expect(lastDelivery()!.textContent).toBe(
      'Alle 3 Anfragen gesendet, zuletzt am 27.11. um 14:32.',
    );
  });

  it('says nothing about deliveries before there was one', async () => {
    const user = userEvent.setup();
    render(<DeviceStatus />);
    await user.click(control());
    expect(lastDelivery()).toBeNull();
  });
});

describe('what a visitor at the fair tablet sees', () => {
  it('the connection and the number waiting, nothing to press, no rejected leads', async () => {
    const user = userEvent.setup();
    device.set({
      kiosk: true,
      waiting: 2,
      rejected: [rejectedLead],
      lastDelivery: { sent: 5, at: todayAt(14, 32) },
    });
    render(<DeviceStatus />);
    expect(connection().textContent).toBe('Online');
    expect(waitingCount().textContent).toBe('· 2 Anfragen warten');
    expect(control().textContent).not.toContain('abgelehnt');

    await user.click(control());
    expect(within(panel()).queryAllByRole('button')).toEqual([]);
    expect(screen.queryAllByRole('switch')).toEqual([]);
    expect(screen.queryByRole('region', { name: 'Abgelehnte Anfragen' })).toBeNull();
    expect(panel().textContent).not.toMatch(/Messe-Modus|Offline simulieren|abgelehnt/);

    act(() => device.set({ waiting: 0 }));
    expect(lastDelivery()).toBeNull();
    expect(panel().textContent).toContain('Auf diesem Gerät wartet keine Anfrage.');
  });

  it('while locked, says the leads wait for the PIN, never that they go by themselves', async () => {
    const user = userEvent.setup();
    device.set({ kiosk: true, waiting: 2, sealed: 2 });
    render(<DeviceStatus />);
    expect(control().textContent).toContain('· Gesperrt');
    await user.click(control());
    expect(panel().textContent).toContain(
      '2 Anfragen warten auf diesem Gerät, bis die PIN eingegeben ist.',
    );
    expect(panel().textContent).not.toContain('automatisch');

    act(() => device.set({ waiting: 3 }));
    expect(panel().textContent).toContain(
      '2 Anfragen warten auf diesem Gerät, bis die PIN eingegeben ist. Eine weitere wird automatisch gesendet.',
    );

    act(() => device.set({ waiting: 1, sealed: 1 }));
    expect(panel().textContent).toContain(
      '1 Anfrage wartet auf diesem Gerät, bis die PIN eingegeben ist.',
    );
    expect(panel().textContent).not.toContain('automatisch');
  });

  it('once the PIN was entered on this page, says they are sent', async () => {
    const user = userEvent.setup();
    device.set({ kiosk: true, waiting: 2, sealed: 2, kioskUnlocked: true });
    render(<DeviceStatus />);
    expect(control().textContent).not.toContain('Gesperrt');
    await user.click(control());
    expect(panel().textContent).toContain(
      '2 Anfragen warten auf diesem Gerät und werden automatisch gesendet.',
    );
  });
});

describe('the simulation banner', () => {
  it('shows outside the header while the simulation is on, with the way to the device page', () => {
    renderInLayout();
    expect(screen.queryByTestId('simulation-banner')).toBeNull();

    act(() => device.set({ simulateOffline: true }));
    const banner = screen.getByRole('status');
    expect(banner.dataset['testid']).toBe('simulation-banner');
    expect(banner.textContent).toContain('Es wird nichts gesendet');
    expect(banner.closest('header')).toBeNull();
    expect(within(banner).getByRole('link', { name: 'Geräteseite' }).getAttribute('href')).toBe(
      '/geraet',
    );
    expect(connection().textContent).toBe('Offline (simuliert)');
    // The layout makes room for it; nothing is padded by hand.
    expect(document.body.style.paddingBottom).toBe('');

    act(() => device.set({ simulateOffline: false }));
    expect(screen.queryByTestId('simulation-banner')).toBeNull();
    expect(connection().textContent).toBe('Online');
  });

  it('shows while the simulation holds waiting leads, which the panel says', async () => {
    const user = userEvent.setup();
    device.set({ simulateOffline: true, waiting: 1 });
    renderInLayout();
    expect(screen.getByTestId('simulation-banner')).toBeTruthy();
    await user.click(control());
    expect(panel().textContent).toContain(
      '1 Anfrage wartet auf diesem Gerät und wird gesendet, sobald die Offline-Simulation aus ist.',
    );
    expect(sendNow()!.hasAttribute('disabled')).toBe(true);
  });
});
