// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useSyncExternalStore } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DeviceStatus as Status } from '../offline/use-device-status.ts';
import { DeviceStatus } from './device-status.tsx';

// The device's state comes from a small store the test controls; the offline database is not
// involved. Writing a setting changes the store, as the real settings do through localStorage.
const device = vi.hoisted(() => {
  const initial = {
    online: true,
    simulateOffline: false,
    kiosk: false,
    waiting: 0 as number | undefined,
    sealed: 0,
    kioskUnlocked: false,
    rejected: [],
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
vi.mock('../offline/device-settings.ts', () => ({
  writeDeviceSetting: vi.fn(async (setting: 'kiosk' | 'simulateOffline', on: boolean) =>
    device.set({ [setting]: on }),
  ),
}));
vi.mock('../offline/sync-scheduler.ts', () => ({ syncNow: vi.fn(async () => undefined) }));
vi.mock('../offline/outbox.ts', () => ({ removeRejected: vi.fn(), retryRejected: vi.fn() }));
vi.mock('../offline/offline-db.ts', () => ({ offlineDb: vi.fn() }));
// The kiosk lock's own behaviour is tested in kiosk-lock-ui.test.tsx; this stand-in shows what
// the panel hands it.
vi.mock('./kiosk-lock-ui.tsx', () => ({
  KioskLockUi: (props: { setupRequested: boolean; sealed: number }) => (
    <>
      <p data-testid="kiosk-ui">
        {`PIN-Dialog: ${props.setupRequested ? 'offen' : 'zu'}, verschlüsselt: ${props.sealed}`}
      </p>
      {props.setupRequested ? <dialog open aria-label="PIN festlegen" /> : null}
    </>
  ),
  switchKioskOff: vi.fn(async () => 'Der Messe-Modus bleibt an: 2 Anfragen warten noch.'),
}));

const { syncNow } = await import('../offline/sync-scheduler.ts');

const connection = () => screen.getByTestId('verbindungsstatus');
const waitingCount = () => screen.getByTestId('wartende-anfragen');
const control = () => connection().closest('summary')!;
const sendNow = () => screen.queryByRole('button', { name: 'Jetzt senden' });
// A native <details>: the browser hides the panel while it is closed (jsdom keeps it queryable).
const panelOpen = () => control().closest('details')!.open;

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
    expect(control().getAttribute('aria-controls')).toBe(sendNow()!.parentElement!.id);

    await user.keyboard('{Escape}');
    expect(panelOpen()).toBe(false);
    expect(document.activeElement).toBe(control());
  });

  it('closes with Escape when focus is inside it', async () => {
    const user = userEvent.setup();
    render(<DeviceStatus />);
    await user.click(control());
    await user.click(screen.getByText('Alle Anfragen dieses Geräts sind gesendet.'));

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

  it('sends now only when something waits and the device is online', async () => {
    const user = userEvent.setup();
    render(<DeviceStatus />);
    await user.click(control());
    expect(sendNow()!.hasAttribute('disabled')).toBe(true);

    act(() => device.set({ waiting: 2 }));
    screen.getByText('2 Anfragen warten auf diesem Gerät und werden automatisch gesendet.');
    await user.click(sendNow()!);
    expect(syncNow).toHaveBeenCalledWith(true);

    act(() => device.set({ online: false }));
    expect(sendNow()!.hasAttribute('disabled')).toBe(true);
  });

  it('"Offline simulieren" shows the simulation banner and the simulated state', async () => {
    const user = userEvent.setup();
    render(<DeviceStatus />);
    expect(screen.queryByRole('status')).toBeNull();

    await user.click(control());
    await user.click(screen.getByRole('switch', { name: 'Offline simulieren' }));
    expect(screen.getByRole('status').textContent).toContain('Offline-Simulation aktiv');
    expect(connection().textContent).toBe('Offline (simuliert)');
    expect(document.body.style.paddingBottom).toBe('4rem');

    await user.click(screen.getByRole('switch', { name: 'Offline simulieren' }));
    expect(screen.queryByRole('status')).toBeNull();
    expect(connection().textContent).toBe('Online');
    expect(document.body.style.paddingBottom).toBe('');
  });
});

describe('kiosk mode in the panel', () => {
  it('loads the PIN part only on a kiosk device or when the agent switches kiosk mode on', async () => {
    const user = userEvent.setup();
    render(<DeviceStatus />);
    await user.click(control());
    expect(screen.queryByTestId('kiosk-ui')).toBeNull();

    await user.click(screen.getByRole('switch', { name: 'Messe-Modus' }));
    expect((await screen.findByTestId('kiosk-ui')).textContent).toBe(
      'PIN-Dialog: offen, verschlüsselt: 0',
    );
    // Turning it on is the PIN dialog's work, not a plain setting.
    expect(screen.getByRole('switch', { name: 'Messe-Modus' })).toHaveProperty('checked', false);
  });

  it('leaves Escape and clicks to a dialog opened from the panel', async () => {
    const user = userEvent.setup();
    render(<DeviceStatus />);
    await user.click(control());
    await user.click(screen.getByRole('switch', { name: 'Messe-Modus' }));
    expect(await screen.findByRole('dialog', { name: 'PIN festlegen' })).toBeTruthy();

    await user.keyboard('{Escape}');
    expect(panelOpen()).toBe(true);
    await user.click(document.body);
    expect(panelOpen()).toBe(true);
  });

  it('says the tablet is locked while sealed leads wait for the PIN', async () => {
    device.set({ kiosk: true, waiting: 2, sealed: 2 });
    render(<DeviceStatus />);
    expect(control().textContent).toContain('· Gesperrt');
    expect((await screen.findByTestId('kiosk-ui')).textContent).toBe(
      'PIN-Dialog: zu, verschlüsselt: 2',
    );

    act(() => device.set({ kioskUnlocked: true }));
    expect(control().textContent).not.toContain('Gesperrt');
  });

  it('switching kiosk mode off says why it stays on', async () => {
    const user = userEvent.setup();
    device.set({ kiosk: true, waiting: 2, sealed: 2 });
    render(<DeviceStatus />);
    await user.click(control());
    await user.click(screen.getByRole('switch', { name: 'Messe-Modus' }));
    await vi.waitFor(() =>
      expect(screen.getByTestId('kiosk-meldung').textContent).toBe(
        'Der Messe-Modus bleibt an: 2 Anfragen warten noch.',
      ),
    );
    expect(screen.getByRole('switch', { name: 'Messe-Modus' })).toHaveProperty('checked', true);
  });
});
