// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DeviceStatus } from '../../offline/use-device-status.ts';
import { DevicePage } from './device-page.tsx';

// The device page's PIN dialogs and texts. The lock's storage and crypto are tested in
// src/offline/kiosk-lock.test.ts, the page with the real lock in device-page.test.tsx; here they
// are stand-ins the test steers, and the rules and messages are the real ones.
vi.mock('../../offline/kiosk-lock.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../offline/kiosk-lock.ts')>();
  return {
    ...actual,
    readKioskKeys: vi.fn(),
    turnKioskOn: vi.fn(),
    leaveKioskMode: vi.fn(),
    unlockKiosk: vi.fn(),
    lockKiosk: vi.fn(),
    forgetPin: vi.fn(),
    countSealed: vi.fn(),
  };
});
vi.mock('../../offline/offline-db.ts', () => ({ offlineDb: vi.fn(() => 'db') }));
vi.mock('../../offline/sync-scheduler.ts', () => ({ syncNow: vi.fn(async () => undefined) }));
vi.mock('../../offline/use-device-status.ts', () => ({ useDeviceStatus: vi.fn() }));

const lock = vi.mocked(await import('../../offline/kiosk-lock.ts'));
const { syncNow } = await import('../../offline/sync-scheduler.ts');
const { useDeviceStatus } = vi.mocked(await import('../../offline/use-device-status.ts'));

beforeAll(() => {
  // jsdom has <dialog> but not its modal methods.
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
});

beforeEach(() => {
  lock.readKioskKeys.mockResolvedValue({
    v: 1,
    publicKey: 'p',
    wrappedPrivateKey: 'w',
    wrapIv: 'i',
    kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations: 600_000, salt: 's' },
  });
});

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
  localStorage.clear();
});

function show(props: { kiosk?: boolean; sealed?: number; unlocked?: boolean } = {}) {
  const status: DeviceStatus = {
    online: true,
    simulateOffline: false,
    kiosk: props.kiosk ?? true,
    waiting: props.sealed ?? 0,
    sealed: props.sealed ?? 0,
    kioskUnlocked: props.unlocked ?? false,
    rejected: [],
    lastDelivery: undefined,
    hubUnreachable: false,
  };
  useDeviceStatus.mockReturnValue(status);
  return render(<DevicePage checkStaff={async () => ({ ok: true })} />);
}

/** Turning 'Messe-Modus' on opens the PIN setup. */
async function requestSetup(user: ReturnType<typeof userEvent.setup>) {
  show({ kiosk: false });
  await user.click(screen.getByRole('switch', { name: 'Messe-Modus' }));
}

const dialog = (name: string) => screen.getByRole('dialog', { name });
const lastNotice = () => screen.getByTestId('geraet-meldung').textContent;

/** The field's error as assistive technology reads it with the field. */
function errorOf(field: HTMLElement) {
  const ids = field.getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids.map((id) => document.getElementById(id)?.textContent).join(' ');
}

describe('turning kiosk mode on', () => {
  it('warns that a forgotten PIN loses the queue before asking for the PIN', async () => {
    const user = userEvent.setup();
    lock.readKioskKeys.mockResolvedValue(undefined);
    await requestSetup(user);

    const warning = dialog('Messe-Modus einschalten');
    expect(warning.textContent).toContain(
      'Wird die PIN vergessen, kann niemand die wartenden Anfragen mehr lesen oder senden',
    );
    expect(within(warning).queryByLabelText(/Neue PIN/)).toBeNull();

    await user.click(within(warning).getByRole('button', { name: 'Verstanden, PIN festlegen' }));
    expect(within(dialog('Messe-Modus einschalten')).getByLabelText(/Neue PIN/)).toBeTruthy();
  });

  it('asks for at least 6 digits, twice, with the errors at their fields', async () => {
    const user = userEvent.setup();
    let finish: () => void = () => undefined;
    lock.turnKioskOn.mockReturnValue(new Promise<void>((resolve) => (finish = resolve)));
    await requestSetup(user);
    await user.click(screen.getByRole('button', { name: 'Verstanden, PIN festlegen' }));
    const pin = screen.getByLabelText(/Neue PIN/);
    const repeat = screen.getByLabelText(/PIN wiederholen/);
    const submit = screen.getByRole('button', { name: 'Messe-Modus einschalten' });

    await user.type(pin, '12345');
    await user.click(submit);
    expect(pin.getAttribute('aria-invalid')).toBe('true');
    expect(errorOf(pin)).toContain('Die PIN muss aus mindestens 6 Ziffern bestehen.');

    await user.type(pin, '6');
    await user.type(repeat, '123465');
    await user.click(submit);
    expect(pin.getAttribute('aria-invalid')).toBeNull();
    expect(errorOf(repeat)).toContain('Die beiden Eingaben stimmen nicht überein.');
    expect(lock.turnKioskOn).not.toHaveBeenCalled();

    await user.clear(repeat);
    await user.type(repeat, '123456');
    await user.click(submit);
    expect(lock.turnKioskOn).toHaveBeenCalledWith('db', '123456');
    expect(screen.getByText('Die PIN wird gesichert …')).toBeTruthy();
    expect(submit.hasAttribute('disabled')).toBe(true);

    finish();
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(lastNotice()).toBe('Der Messe-Modus ist an und mit der PIN geschützt.');
  });

  it('says so when the PIN could not be stored, keeping the dialog', async () => {
    const user = userEvent.setup();
    lock.turnKioskOn.mockRejectedValue(new Error('QuotaExceededError'));
    await requestSetup(user);
    await user.click(screen.getByRole('button', { name: 'Verstanden, PIN festlegen' }));
    await user.type(screen.getByLabelText(/Neue PIN/), '123456');
    await user.type(screen.getByLabelText(/PIN wiederholen/), '123456');
    await user.click(screen.getByRole('button', { name: 'Messe-Modus einschalten' }));

    expect((await screen.findByRole('alert')).textContent).toBe(
      'Die PIN konnte nicht gespeichert werden. Bitte versuchen Sie es erneut.',
    );
    expect(screen.getByRole('dialog')).toBeTruthy();
  });
});

describe('a locked tablet', () => {
  it('shows how many leads wait for the PIN and sends them once it is entered', async () => {
    const user = userEvent.setup();
    lock.unlockKiosk
      .mockResolvedValueOnce({ ok: false, reason: 'wrong-pin', failures: 1, waitUntil: 0 })
      .mockResolvedValueOnce({ ok: true });
    show({ sealed: 2 });

    expect((await screen.findByTestId('kiosk-gesperrt')).textContent).toBe(
      'Gesperrt: 2 Anfragen warten, bis die PIN eingegeben ist.',
    );
    await user.click(screen.getByRole('button', { name: 'PIN eingeben' }));
    const pin = within(dialog('Gerät entsperren')).getByLabelText(/^PIN/);

    await user.click(screen.getByRole('button', { name: 'Entsperren' }));
    expect(errorOf(pin)).toContain('Bitte geben Sie die PIN ein.');
    expect(lock.unlockKiosk).not.toHaveBeenCalled();

    await user.type(pin, '999999');
    await user.click(screen.getByRole('button', { name: 'Entsperren' }));
    await vi.waitFor(() =>
      expect(errorOf(pin)).toContain('Die PIN ist nicht richtig. Noch 4 Versuche ohne Wartezeit.'),
    );
    expect((pin as HTMLInputElement).value).toBe('');
    expect(syncNow).not.toHaveBeenCalled();

    await user.type(pin, '123456');
    await user.click(screen.getByRole('button', { name: 'Entsperren' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(lock.unlockKiosk).toHaveBeenLastCalledWith('db', '123456');
    expect(syncNow).toHaveBeenCalledWith(true);
    expect(lastNotice()).toBe('Entsperrt. 2 Anfragen werden gesendet.');
  });

  it('says plainly when the PIN found the keys swapped, keeps the dialog until read, and sends the rest (issue 32, item 9)', async () => {
    const user = userEvent.setup();
    lock.unlockKiosk.mockResolvedValue({
      ok: true,
      tampered: { key: true, counter: false, unreadable: 2 },
    });
    show({ sealed: 5 });
    await user.click(await screen.findByRole('button', { name: 'PIN eingeben' }));
    await user.type(within(dialog('Gerät entsperren')).getByLabelText(/^PIN/), '123456');
    await user.click(screen.getByRole('button', { name: 'Entsperren' }));

    const alert = await within(dialog('Gerät entsperren')).findByRole('alert');
    expect(alert.textContent).toMatch(/^Die Schlüssel dieses Tablets wurden verändert/);
    expect(alert.textContent).toContain(
      '2 Anfragen sind mit dem fremden Schlüssel verschlüsselt: Weder Sie noch wir können sie lesen oder senden.',
    );
    expect(alert.textContent).toContain('alle übrigen Anfragen werden gesendet');
    expect(syncNow).toHaveBeenCalledWith(true);
    expect(lastNotice()).toBe(alert.textContent);

    await user.click(screen.getByRole('button', { name: 'Verstanden' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('tells when the next attempt is possible after too many wrong PINs', async () => {
    const user = userEvent.setup();
    const waitUntil = new Date(2026, 10, 25, 14, 30, 15).getTime();
    lock.unlockKiosk.mockResolvedValue({ ok: false, reason: 'wait', waitUntil });
    show({ sealed: 1 });
    await user.click(await screen.findByRole('button', { name: 'PIN eingeben' }));
    const pin = within(dialog('Gerät entsperren')).getByLabelText(/^PIN/);
    await user.type(pin, '123456');
    await user.click(screen.getByRole('button', { name: 'Entsperren' }));

    await vi.waitFor(() =>
      expect(errorOf(pin)).toContain(
        'Zu viele falsche Eingaben. Der nächste Versuch ist ab 14:30:15 Uhr möglich.',
      ),
    );
  });

  it("'PIN vergessen' deletes the sealed leads only after a staff sign-in and a clear confirmation", async () => {
    const user = userEvent.setup();
    lock.forgetPin.mockResolvedValue(3);
    lock.countSealed.mockResolvedValue(3);
    show({ sealed: 3 });
    const signIn = async () => {
      await user.type(screen.getByLabelText(/^E-Mail/), 'team@example.de');
      await user.type(screen.getByLabelText(/^Passwort/), 'geheim-123');
      await user.click(screen.getByRole('button', { name: 'Anmelden und prüfen' }));
    };
    await user.click(await screen.findByRole('button', { name: 'PIN vergessen' }));
    expect(screen.queryByRole('button', { name: 'Anfragen löschen' })).toBeNull();
    await signIn();
    const confirm = dialog('PIN vergessen?');
    await within(confirm).findByText(/3 Anfragen werden endgültig gelöscht\./);
    // The harmless choice has the focus.
    expect(document.activeElement).toBe(within(confirm).getByRole('button', { name: 'Abbrechen' }));

    await user.click(within(confirm).getByRole('button', { name: 'Abbrechen' }));
    expect(lock.forgetPin).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'PIN vergessen' }));

    await user.click(screen.getByRole('button', { name: 'PIN vergessen' }));
    await signIn();
    await user.click(await screen.findByRole('button', { name: 'Anfragen löschen' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(lock.forgetPin).toHaveBeenCalledTimes(1);
    expect(lastNotice()).toContain('3 Anfragen wurden gelöscht.');
  });

  it('refuses to switch kiosk mode off while sealed leads wait, and says why, without asking the PIN', async () => {
    const user = userEvent.setup();
    show({ sealed: 2 });
    await user.click(screen.getByRole('switch', { name: 'Messe-Modus' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(lastNotice()).toContain(
      'Der Messe-Modus bleibt an: 2 Anfragen warten noch verschlüsselt.',
    );
    expect(lock.leaveKioskMode).not.toHaveBeenCalled();
  });

  it('switches kiosk mode off after the PIN when nothing waits', async () => {
    const user = userEvent.setup();
    lock.leaveKioskMode.mockResolvedValueOnce({ ok: true });
    show();
    await user.click(screen.getByRole('switch', { name: 'Messe-Modus' }));
    await user.type(within(dialog('PIN bestätigen')).getByLabelText(/^PIN/), '123456');
    await user.click(screen.getByRole('button', { name: 'Bestätigen' }));
    await vi.waitFor(() => expect(lastNotice()).toBe('Der Messe-Modus ist aus.'));
    expect(lock.leaveKioskMode).toHaveBeenCalledWith('db', '123456');
  });

  it('an unlocked tablet can be locked again', async () => {
    const user = userEvent.setup();
    show({ unlocked: true });
    await user.click(await screen.findByRole('button', { name: 'Sperren' }));
    expect(lock.lockKiosk).toHaveBeenCalled();
    expect(lastNotice()).toBe('Das Gerät ist gesperrt.');
  });

  it('offers a PIN on a kiosk device that has none yet', async () => {
    lock.readKioskKeys.mockResolvedValue(undefined);
    show();
    expect(
      await screen.findByText(
        'Ohne PIN werden Anfragen auf diesem Gerät unverschlüsselt gespeichert.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'PIN festlegen' })).toBeTruthy();
  });

  it('warns when the keys were deleted without the PIN (issue 32, item 9)', async () => {
    lock.readKioskKeys.mockResolvedValue(undefined);
    localStorage.setItem(lock.throttleCopyKey, '{"attempts":3,"failures":0,"blockedUntil":0}');
    show();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/^Die Schlüssel dieses Tablets fehlen: Sie wurden gelöscht/);
    expect(screen.getByRole('button', { name: 'PIN festlegen' })).toBeTruthy();
  });

  it('offers a retry when the lock could not be read', async () => {
    const user = userEvent.setup();
    lock.readKioskKeys.mockRejectedValueOnce(new Error('closed'));
    show({ sealed: 1 });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Der PIN-Schutz konnte nicht gelesen werden.');
    await user.click(within(alert).getByRole('button', { name: 'Erneut versuchen' }));
    expect(await screen.findByTestId('kiosk-gesperrt')).toBeTruthy();
  });
});
