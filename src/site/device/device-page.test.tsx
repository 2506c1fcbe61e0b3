import '../../testing/jsdom-beside-server.ts';
import 'fake-indexeddb/auto';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { hashPassword } from '../../../server/gateway/auth/passwords.ts';
import {
  createAccount,
  startGatewayServer,
  type GatewayServer,
} from '../../../tests/helpers/gateway-server.ts';
import { readDeviceSetting, writeDeviceSetting } from '../../offline/device-settings.ts';
import {
  countSealed,
  kioskSealer,
  lockKiosk,
  readKioskKeys,
  turnKioskOn,
  unlockKiosk,
} from '../../offline/kiosk-lock.ts';
import { forgetKioskSession, isKioskUnlocked } from '../../offline/kiosk-session.ts';
import { offlineDb } from '../../offline/offline-db.ts';
import { enqueue } from '../../offline/outbox.ts';
import { questionnaireLead } from '../../testing/lead-fixtures.ts';
import { DevicePage } from './device-page.tsx';
import { confirmStaff, loadGatewaySettings } from './staff-check.ts';

// The device page with the real lock (IndexedDB, WebCrypto, the throttle) and, for 'PIN vergessen',
// the real gateway: what a visitor at the fair tablet can and cannot do without the PIN, and that
// only a member of staff can discard the sealed leads. Sending is not this page's: syncNow is a
// stand-in.
vi.mock('../../offline/sync-scheduler.ts', () => ({ syncNow: vi.fn(async () => undefined) }));

const pin = '135790';
const fast = { iterations: 1_000 };
const password = 'Geraet-Test-Passwort-1';

let server: GatewayServer;
const accounts = { staff: 'team@example.de', pending: 'neu@example.de' };

beforeAll(async () => {
  // jsdom has <dialog> but not its modal methods.
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
  server = await startGatewayServer('pglite', undefined, { name: 'device-page', accounts: false });
  const hash = await hashPassword(password);
  for (const [role, email] of [
    ['staff', accounts.staff],
    ['pending', accounts.pending],
  ] as const) {
    const account = await createAccount(server.db, email, role);
    await server.db.query('update auth.users set encrypted_password = $2 where id = $1', [
      account.id,
      hash,
    ]);
  }
});
afterAll(() => server?.close());

beforeEach(() => {
  localStorage.clear();
});

afterEach(async () => {
  cleanup();
  forgetKioskSession();
  vi.unstubAllGlobals();
  await writeDeviceSetting('kiosk', false);
  await writeDeviceSetting('simulateOffline', false);
  const db = offlineDb();
  await db.outbox.clear();
  await db.settings.clear();
  localStorage.clear();
});

/** The staff check against the test server (the page would ask its own origin). */
const checkStaff = (credentials: { email: string; password: string }) =>
  confirmStaff(credentials, { settings: () => loadGatewaySettings(server.url) });

/** Kiosk mode on with the PIN, this page locked again, and `sealed` leads captured since. */
async function fairTablet(sealed = 0) {
  const db = offlineDb();
  await turnKioskOn(db, pin, fast);
  lockKiosk();
  for (let i = 0; i < sealed; i += 1) {
    await enqueue(db, questionnaireLead(), Date.now(), await kioskSealer(db));
  }
}

async function show() {
  const user = userEvent.setup();
  render(<DevicePage checkStaff={checkStaff} />);
  await screen.findByRole('heading', { level: 1, name: 'Dieses Gerät' });
  return user;
}

const fairSwitch = () => screen.getByRole('switch', { name: 'Messe-Modus' });
const simulationSwitch = () => screen.getByRole('switch', { name: 'Offline simulieren' });
const notice = () => screen.getByTestId('geraet-meldung');
const pinDialog = () => screen.getByRole('dialog', { name: 'PIN bestätigen' });

/** The field's error as assistive technology reads it with the field. */
function errorOf(field: HTMLElement) {
  const ids = field.getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids.map((id) => document.getElementById(id)?.textContent).join(' ');
}

async function enterPin(user: ReturnType<typeof userEvent.setup>, value: string) {
  const field = within(pinDialog()).getByLabelText(/^PIN/);
  await user.clear(field);
  await user.type(field, value);
  const submit = screen.getByRole('button', { name: 'Bestätigen' });
  await user.click(submit);
  // Answered: the dialog closed, or its button is free again.
  await waitFor(() =>
    expect(submit.isConnected && (submit as HTMLButtonElement).disabled).toBe(false),
  );
  return field;
}

describe('the device page on an ordinary device', () => {
  it('has its sections, and switches the simulation without a PIN, shown on once it is stored', async () => {
    const user = await show();
    for (const name of ['Messe-Modus', 'Anfragen auf diesem Gerät', 'Testwerkzeug']) {
      expect(screen.getByRole('heading', { level: 2, name })).toBeTruthy();
    }
    expect(document.head.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe(
      'noindex',
    );
    expect(document.title).toMatch(/^Dieses Gerät \| /);
    await user.click(simulationSwitch());
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect((simulationSwitch() as HTMLInputElement).checked).toBe(true));
    expect(readDeviceSetting('simulateOffline')).toBe(true);
    await waitFor(() => expect(notice().textContent).toContain('Die Offline-Simulation ist an'));
  });
});

describe('the device page in fair mode (issue 34: only with the PIN)', () => {
  it('leaves fair mode only after the right PIN', async () => {
    await fairTablet();
    const user = await show();
    await waitFor(() => expect((fairSwitch() as HTMLInputElement).checked).toBe(true));
    await user.click(fairSwitch());
    expect(pinDialog()).toBeTruthy();
    const field = await enterPin(user, '000000');
    await waitFor(() =>
      expect(errorOf(field)).toContain(
        'Die PIN ist nicht richtig. Noch 4 Versuche ohne Wartezeit.',
      ),
    );
    expect(readDeviceSetting('kiosk')).toBe(true);
    expect(await readKioskKeys(offlineDb())).toBeDefined();

    await enterPin(user, pin);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(notice().textContent).toBe('Der Messe-Modus ist aus.');
    expect((fairSwitch() as HTMLInputElement).checked).toBe(false);
    expect(await readKioskKeys(offlineDb())).toBeUndefined();
  });

  it("switches 'Offline simulieren' either way only with the PIN; Abbrechen changes nothing", async () => {
    await fairTablet();
    const user = await show();
    await user.click(simulationSwitch());
    await user.click(screen.getByRole('button', { name: 'Abbrechen' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(readDeviceSetting('simulateOffline')).toBe(false);
    expect((simulationSwitch() as HTMLInputElement).checked).toBe(false);

    await user.click(simulationSwitch());
    await enterPin(user, pin);
    await waitFor(() => expect((simulationSwitch() as HTMLInputElement).checked).toBe(true));
    expect(readDeviceSetting('simulateOffline')).toBe(true);

    await user.click(simulationSwitch());
    const field = await enterPin(user, '111111');
    await waitFor(() => expect(errorOf(field)).toContain('Die PIN ist nicht richtig.'));
    expect(readDeviceSetting('simulateOffline')).toBe(true);
    await enterPin(user, pin);
    await waitFor(() => expect((simulationSwitch() as HTMLInputElement).checked).toBe(false));
    expect(readDeviceSetting('simulateOffline')).toBe(false);
    // Confirming is not unlocking: the sealed leads still wait for 'PIN eingeben'.
    expect(isKioskUnlocked()).toBe(false);
  });

  it('keeps the throttle: after five wrong PINs even the right one waits', async () => {
    await fairTablet();
    const user = await show();
    await user.click(simulationSwitch());
    let field!: HTMLElement;
    for (let i = 0; i < 5; i += 1) field = await enterPin(user, '000000');
    await waitFor(() =>
      expect(errorOf(field)).toMatch(/Der nächste Versuch ist ab .* Uhr möglich/),
    );
    await enterPin(user, pin);
    await waitFor(() => expect(errorOf(field)).toMatch(/^Zu viele falsche Eingaben/));
    expect(readDeviceSetting('simulateOffline')).toBe(false);
    // The wait holds in every PIN dialog of the device, unlocking included.
    expect(await unlockKiosk(offlineDb(), pin)).toMatchObject({ ok: false, reason: 'wait' });
  });

  it("'PIN ändern' keeps the sealed leads readable with the new PIN only", async () => {
    await fairTablet(2);
    const user = await show();
    await user.click(await screen.findByRole('button', { name: 'PIN ändern' }));
    await enterPin(user, pin);
    const dialog = await screen.findByRole('dialog', { name: 'Neue PIN festlegen' });
    await user.type(within(dialog).getByLabelText(/^Neue PIN/, { selector: 'input' }), '86420975');
    await user.type(within(dialog).getByLabelText(/^PIN wiederholen/), '86420975');
    await user.click(within(dialog).getByRole('button', { name: 'PIN ändern' }));
    await waitFor(() => expect(notice().textContent).toContain('Die PIN ist geändert.'));
    expect(await unlockKiosk(offlineDb(), pin)).toMatchObject({ reason: 'wrong-pin' });
    expect(await unlockKiosk(offlineDb(), '86420975')).toEqual({ ok: true });
    expect(await countSealed(offlineDb())).toBe(2);
  });

  it('says that locked leads wait until the PIN is entered, never that they are sent by themselves', async () => {
    await fairTablet(2);
    await show();
    const locked = await screen.findByTestId('kiosk-gesperrt');
    expect(locked.textContent).toBe('Gesperrt: 2 Anfragen warten, bis die PIN eingegeben ist.');
    await waitFor(() =>
      expect(document.body.textContent).toContain('Verschlüsselte Anfragen warten, bis die PIN'),
    );
    expect(document.body.textContent).not.toContain('automatisch gesendet');
    expect(screen.getByRole('button', { name: 'PIN eingeben' })).toBeTruthy();
  });
});

describe("'PIN vergessen' needs a member of staff (issue 34)", () => {
  async function openForget() {
    await fairTablet(1);
    const user = await show();
    await user.click(await screen.findByRole('button', { name: 'PIN vergessen' }));
    expect(screen.getByRole('dialog', { name: 'PIN vergessen?' })).toBeTruthy();
    return user;
  }

  async function signIn(user: ReturnType<typeof userEvent.setup>, email: string, secret: string) {
    await user.clear(screen.getByLabelText(/^E-Mail/));
    await user.type(screen.getByLabelText(/^E-Mail/), email);
    await user.type(screen.getByLabelText(/^Passwort/), secret);
    await user.click(screen.getByRole('button', { name: 'Anmelden und prüfen' }));
  }

  it('refuses a wrong password and an account that is not staff; the leads and fair mode stay', async () => {
    const user = await openForget();
    await signIn(user, accounts.staff, 'falsches-Passwort-1');
    await waitFor(() =>
      expect(errorOf(screen.getByLabelText(/^E-Mail/))).toContain(
        'E-Mail-Adresse oder Passwort sind nicht richtig.',
      ),
    );
    await signIn(user, accounts.pending, password);
    await waitFor(() =>
      expect(errorOf(screen.getByLabelText(/^E-Mail/))).toContain(
        'Dieses Konto gehört nicht zum Team von Survey Desk',
      ),
    );
    expect(screen.queryByRole('button', { name: 'Anfragen löschen' })).toBeNull();
    expect(await countSealed(offlineDb())).toBe(1);
    expect(readDeviceSetting('kiosk')).toBe(true);
  });

  it('says so when the device is offline, without trying', async () => {
    const user = await openForget();
    vi.stubGlobal('navigator', { ...navigator, onLine: false });
    await signIn(user, accounts.staff, password);
    expect((await screen.findByRole('alert')).textContent).toContain('Dieses Gerät ist offline.');
    expect(await countSealed(offlineDb())).toBe(1);
  });

  it('lets staff delete the sealed leads after a confirmation naming their number, and ends fair mode', async () => {
    const user = await openForget();
    await signIn(user, accounts.staff, password);
    await screen.findByText(/1 Anfrage wird endgültig gelöscht\./);
    // The check's session is ended at once: the gateway keeps none for this account.
    const sessions = await server.db.query(
      'select 1 from auth.sessions s join auth.users u on u.id = s.user_id where u.email = $1',
      [accounts.staff],
    );
    expect(sessions.rows).toEqual([]);
    await act(async () => {
      await user.click(screen.getByRole('button', { name: 'Anfragen löschen' }));
    });
    await waitFor(() =>
      expect(notice().textContent).toContain('1 Anfrage wurde gelöscht. Der Messe-Modus ist aus'),
    );
    expect(await countSealed(offlineDb())).toBe(0);
    expect(readDeviceSetting('kiosk')).toBe(false);
    expect(await readKioskKeys(offlineDb())).toBeUndefined();
  });
});
