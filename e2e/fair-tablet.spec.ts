// The fair tablet in the field (issue 34): fair mode is set up and left by the agent only, with
// the PIN; a visitor's phone shows nothing but the connection and its own waiting leads; the
// simulation banner covers nothing; the agent sees what was delivered. Screenshots of each state
// go into the test's artefacts.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { uniqueEmail } from '../src/testing/lead-fixtures.ts';
import {
  backgroundSync,
  confirmPin,
  connectionStatus,
  devicePagePath,
  expectEachSentOnce,
  expectNothingSent,
  fairModeSwitch,
  openDevicePage,
  pinDialog,
  recordLeadPosts,
  setSimulation,
  simulationSwitch,
  turnFairModeOn,
  waitForServiceWorker,
  waitForServiceWorkerControl,
} from './helpers/device.ts';
import { expectNoAxeViolations, responsesFor } from './helpers/hub.ts';
import {
  answerKfz,
  answerTabaluga,
  expectNothingWaiting,
  openDevicePanel,
  savedOnDevice,
  waitingCount,
} from './helpers/journeys.ts';

const pin = '204863';
const wrongPin = '999999';
const staff = { email: 'admin@example.de', password: 'e2e-Admin-Passwort-1' };
const firstQuestion = 'Wie viele Kinder möchten Sie absichern?';

/** The site's header (the landmark; a page's own <header> inside main is none). */
function header(page: Page) {
  return page.getByRole('banner');
}

/** The status panel of the header, opened. */
async function openPanel(page: Page) {
  await openDevicePanel(page);
  const panel = header(page).locator('details[open] > div');
  await expect(panel).toBeVisible();
  return panel;
}

/** The PIN field of the open 'PIN bestätigen' dialog. */
function pinField(page: Page) {
  return pinDialog(page).getByRole('textbox', { name: 'PIN' });
}

async function enterWrongPin(page: Page) {
  await pinField(page).fill(wrongPin);
  await pinDialog(page).getByRole('button', { name: 'Bestätigen' }).click();
}

/** Nothing in the header lets anyone change a device setting. */
async function expectNoDeviceControls(scope: Locator) {
  await expect(scope.getByRole('switch')).toHaveCount(0);
  await expect(scope.getByRole('checkbox')).toHaveCount(0);
  await expect(
    scope.getByText(/Messe-Modus|Offline simulieren|PIN (eingeben|ändern|vergessen|festlegen)/),
  ).toHaveCount(0);
  await expect(scope.getByRole('button', { name: /PIN|Sperren|Messe|simul/ })).toHaveCount(0);
  await expect(scope.locator(`a[href="${devicePagePath}"]`)).toHaveCount(0);
}

async function shoot(page: Page, name: string, target?: Locator) {
  const path = test.info().outputPath(`${name}.png`);
  if (target) await target.screenshot({ path });
  else await page.screenshot({ path, fullPage: true });
  await test.info().attach(name, { path, contentType: 'image/png' });
}

function overlaps(
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

test.describe('fair mode on the tablet', () => {
  test.beforeEach(async ({ page }) => {
    await page.goto('/universa');
    await expect(waitingCount(page)).toBeAttached();
    await openDevicePage(page);
    await turnFairModeOn(page, pin);
  });

  test('leaving fair mode, changing the PIN and the simulation each need the PIN', async ({
    page,
  }) => {
    // Leaving: a wrong PIN is refused at its field, and fair mode stays on.
    await fairModeSwitch(page).click();
    await expect(pinDialog(page)).toBeVisible();
    await expectNoAxeViolations(page);
    await enterWrongPin(page);
    await expect(pinField(page)).toHaveAccessibleDescription(/Die PIN ist nicht richtig/);
    await expect(pinField(page)).toHaveAttribute('aria-invalid', 'true');
    await expectNoAxeViolations(page);
    await page.keyboard.press('Escape');
    await expect(pinDialog(page)).toBeHidden();
    await expect(fairModeSwitch(page)).toBeChecked();

    // 'PIN ändern' asks for the PIN in use first.
    await page.getByRole('button', { name: 'PIN ändern' }).click();
    await expect(pinDialog(page)).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(pinDialog(page)).toBeHidden();

    // The simulation, on or off: the PIN too.
    await simulationSwitch(page).click();
    await expect(pinDialog(page)).toBeVisible();
    await enterWrongPin(page);
    await expect(pinField(page)).toHaveAccessibleDescription(/Die PIN ist nicht richtig/);
    await page.keyboard.press('Escape');
    await expect(simulationSwitch(page)).not.toBeChecked();
    await expect(connectionStatus(page)).toHaveText('Online');

    // Nothing changed behind the screen: a new document sees the same.
    await page.reload();
    await expect(fairModeSwitch(page)).toBeChecked();
    await expect(simulationSwitch(page)).not.toBeChecked();

    // The right PIN does each.
    await setSimulation(page, true, { pin });
    await expect(connectionStatus(page)).toHaveText('Offline (simuliert)');
    await setSimulation(page, false, { pin });
    await expect(connectionStatus(page)).toHaveText('Online');
    await fairModeSwitch(page).click();
    await confirmPin(page, pin);
    await expect(fairModeSwitch(page)).not.toBeChecked();
    await page.reload();
    await expect(fairModeSwitch(page)).not.toBeChecked();
    // Without fair mode the simulation is free again.
    await setSimulation(page, true);
    await setSimulation(page, false);
  });

  test('wrong PINs are throttled: after five even the right one waits', async ({ page }) => {
    await fairModeSwitch(page).click();
    for (const left of [4, 3, 2, 1]) {
      await enterWrongPin(page);
      await expect(pinField(page)).toHaveAccessibleDescription(
        `Die PIN ist nicht richtig. Noch ${left} ${left === 1 ? 'Versuch' : 'Versuche'} ohne Wartezeit.`,
      );
    }
    await enterWrongPin(page);
    await expect(pinField(page)).toHaveAccessibleDescription(
      /^Die PIN ist nicht richtig\. Der nächste Versuch ist ab \d{1,2}:\d{2}(:\d{2})? Uhr möglich\.$/,
    );
    await pinField(page).fill(pin);
    await pinDialog(page).getByRole('button', { name: 'Bestätigen' }).click();
    await expect(pinField(page)).toHaveAccessibleDescription(
      /^Zu viele falsche Eingaben\. Der nächste Versuch ist ab \d{1,2}:\d{2}(:\d{2})? Uhr möglich\.$/,
    );
    await page.keyboard.press('Escape');
    await page.reload();
    await expect(fairModeSwitch(page)).toBeChecked();
    // The simulation shares the count.
    await simulationSwitch(page).click();
    await pinField(page).fill(pin);
    await pinDialog(page).getByRole('button', { name: 'Bestätigen' }).click();
    await expect(pinField(page)).toHaveAccessibleDescription(/^Zu viele falsche Eingaben/);
    await page.keyboard.press('Escape');
    await expect(simulationSwitch(page)).not.toBeChecked();
  });

  test("'PIN vergessen' leaves fair mode only after a Survey Desk staff sign-in", async ({
    context,
    page,
    request,
  }) => {
    const email = uniqueEmail('messe-vergessen');
    const posts = recordLeadPosts(context);
    // A visitor's lead, sealed and waiting: captured offline, then the page is gone (locked).
    await page.goto('/tiptoptabaluga');
    // The reload below happens offline: the worker must control the page to answer it.
    await waitForServiceWorkerControl(page);
    await expect(page.getByRole('heading', { name: firstQuestion })).toBeVisible();
    await context.setOffline(true);
    await answerTabaluga(page, email);
    await expect(page.getByText(savedOnDevice)).toBeVisible();
    await page.reload();
    await context.setOffline(false);
    await openDevicePage(page);
    await expect(waitingCount(page)).toHaveText('· 1 Anfrage wartet');

    await page.getByRole('button', { name: 'PIN vergessen' }).click();
    const forget = page.getByRole('dialog', { name: /PIN vergessen/ });
    await expect(forget).toBeVisible();
    await expectNoAxeViolations(page);
    const submit = forget.getByRole('button', { name: 'Anmelden und prüfen' });
    // A wrong password: refused at its field, nothing deleted, fair mode stays.
    await forget.getByLabel('E-Mail').fill(staff.email);
    await forget.getByLabel('Passwort').fill('falsch-geraten-1');
    await submit.click();
    await expect(forget.getByLabel('E-Mail')).toHaveAccessibleDescription(
      'E-Mail-Adresse oder Passwort sind nicht richtig.',
    );
    await expect(forget.getByRole('button', { name: 'Anfragen löschen' })).toHaveCount(0);
    await expectNoAxeViolations(page);
    // Offline the hub cannot confirm anyone: said in German, nothing deleted.
    await context.setOffline(true);
    await forget.getByLabel('Passwort').fill(staff.password);
    await submit.click();
    await expect(forget.getByRole('alert')).toContainText('Dieses Gerät ist offline.');
    await expect(forget.getByRole('button', { name: 'Anfragen löschen' })).toHaveCount(0);
    await context.setOffline(false);
    await page.keyboard.press('Escape');
    await expect(forget).toBeHidden();
    await page.reload();
    await expect(fairModeSwitch(page)).toBeChecked();
    await expect(waitingCount(page)).toHaveText('· 1 Anfrage wartet');

    // A staff member signs in: the sealed lead is deleted and fair mode is off.
    await page.getByRole('button', { name: 'PIN vergessen' }).click();
    await forget.getByLabel('E-Mail').fill(staff.email);
    await forget.getByLabel('Passwort').fill(staff.password);
    await submit.click();
    await expect(forget).toContainText('1 Anfrage wird endgültig gelöscht.');
    await forget.getByRole('button', { name: 'Anfragen löschen' }).click();
    await expect(forget).toBeHidden();
    await expect(fairModeSwitch(page)).not.toBeChecked();
    await expectNothingWaiting(page);
    expect(posts).toEqual([]);
    expect(await responsesFor(request, email)).toEqual([]);
  });

  test('locked: the header says leads wait for the PIN; the device page sends them after it, once', async ({
    context,
    page,
    request,
  }) => {
    const emails = [uniqueEmail('messe-gesperrt-a'), uniqueEmail('messe-gesperrt-b')];
    const posts = recordLeadPosts(context);
    await page.goto('/universa/kfz');
    await waitForServiceWorker(page);
    await context.setOffline(true);
    await answerKfz(page, emails[0]!);
    await expect(page.getByText(savedOnDevice)).toBeVisible();
    await page.getByRole('button', { name: 'Weitere Anfrage stellen' }).click();
    await answerKfz(page, emails[1]!);
    await expect(page.getByText(savedOnDevice)).toBeVisible();
    // A new document holds no key: the tablet is locked. The connection is back.
    await page.reload();
    await context.setOffline(false);
    await expect(waitingCount(page)).toHaveText('· 2 Anfragen warten');
    await expect(connectionStatus(page)).toHaveText('Online');

    // The header: the connection and the count only, and no promise to send while locked.
    const panel = await openPanel(page);
    await expect(panel).toContainText(/bis die PIN eingegeben ist/);
    await expect(header(page)).not.toContainText('automatisch gesendet');
    await expectNoDeviceControls(header(page));
    await expect(panel.getByRole('button')).toHaveCount(0);
    // Neither the page nor the worker sends without the PIN.
    const { sync } = await backgroundSync(context, page);
    await sync();
    await expectNothingSent(page, posts, request, emails);

    await openDevicePage(page);
    await expect(page.getByRole('main')).toContainText(/bis die PIN eingegeben ist/);
    await page.getByRole('button', { name: 'PIN eingeben' }).click();
    const unlock = page
      .getByRole('dialog')
      .filter({ has: page.getByRole('textbox', { name: 'PIN' }) });
    await unlock.getByRole('textbox', { name: 'PIN' }).fill(pin);
    await unlock.getByRole('button', { name: /Entsperren|Bestätigen/ }).click();
    await expect(unlock).toBeHidden();
    await expect(page.getByRole('button', { name: 'Sperren' })).toBeVisible();
    await expectEachSentOnce(request, emails);
    await expectNothingWaiting(page);
    await expect(page.getByTestId('geraet-zuletzt-gesendet')).toHaveText(
      /^Alle 2 Anfragen gesendet, zuletzt \d{2}:\d{2}\.$/,
    );
  });
});

test.describe('a visitor on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('sees no tester or fair-mode control in the header or its panel, waiting or not', async ({
    context,
    page,
  }) => {
    await page.goto('/universa');
    await expect(waitingCount(page)).toBeAttached();
    let panel = await openPanel(page);
    await expectNoDeviceControls(header(page));
    // The device page is opened on purpose, never reached from a public page.
    await expect(page.locator(`a[href="${devicePagePath}"]`)).toHaveCount(0);
    // Nothing waits here: nothing to send either.
    await expect(panel.getByRole('button', { name: 'Jetzt senden' })).toHaveCount(0);
    await expectNoAxeViolations(page);

    // A lead of this phone waits: its number and 'Jetzt senden', still no device setting.
    await page.goto('/universa/kfz');
    await context.setOffline(true);
    await answerKfz(page, uniqueEmail('handy'));
    await expect(page.getByText(savedOnDevice)).toBeVisible();
    await expect(waitingCount(page)).toHaveText('· 1 Anfrage wartet');
    panel = await openPanel(page);
    await expect(panel.getByRole('button', { name: 'Jetzt senden' })).toBeVisible();
    await expectNoDeviceControls(header(page));
    await context.setOffline(false);
    await expectNothingWaiting(page);
  });
});

test('after a drain the panel says how many were sent and when', async ({ context, page }) => {
  await page.goto('/universa/kfz');
  await expect(waitingCount(page)).toBeAttached();
  await context.setOffline(true);
  await answerKfz(page, uniqueEmail('zuletzt-a'));
  await expect(page.getByText(savedOnDevice)).toBeVisible();
  await page.getByRole('button', { name: 'Weitere Anfrage stellen' }).click();
  await answerKfz(page, uniqueEmail('zuletzt-b'));
  await expect(waitingCount(page)).toHaveText('· 2 Anfragen warten');
  await context.setOffline(false);
  await expectNothingWaiting(page);
  const panel = await openPanel(page);
  await expect(panel.getByTestId('zuletzt-gesendet')).toHaveText(
    /^Alle 2 Anfragen gesendet, zuletzt \d{2}:\d{2}\.?$/,
  );
  // Another page, another document: the record is the device's, not the page's.
  await page.goto('/universa');
  await expect(waitingCount(page)).toBeAttached();
  await expect((await openPanel(page)).getByTestId('zuletzt-gesendet')).toHaveText(
    /^Alle 2 Anfragen gesendet, zuletzt \d{2}:\d{2}\.?$/,
  );
});

test('the simulation banner overlaps neither header nor content, on every screen', async ({
  page,
}) => {
  await openDevicePage(page);
  await setSimulation(page, true);
  const viewports = [
    { width: 320, height: 568 },
    { width: 390, height: 844 },
    { width: 768, height: 1024 },
    { width: 1024, height: 768 },
    { width: 1280, height: 720 },
  ];
  for (const viewport of viewports) {
    await page.setViewportSize(viewport);
    for (const path of ['/universa', '/tiptoptabaluga', devicePagePath]) {
      await page.goto(path);
      const where = `${path} bei ${viewport.width}×${viewport.height}`;
      const banner = page.getByTestId('simulation-banner');
      await expect(banner, where).toBeVisible();
      await expect(banner.getByRole('link', { name: 'Geräteseite' })).toHaveAttribute(
        'href',
        devicePagePath,
      );
      await expect(connectionStatus(page)).toHaveText('Offline (simuliert)');
      const boxes = {
        header: await header(page).boundingBox(),
        banner: await banner.boundingBox(),
        main: await page.locator('main').boundingBox(),
        heading: await page.locator('main h1').first().boundingBox(),
        status: await connectionStatus(page).boundingBox(),
      };
      for (const [name, box] of Object.entries(boxes))
        expect(box, `${name}: ${where}`).not.toBeNull();
      const {
        header: top,
        banner: bar,
        main,
        heading,
        status,
      } = boxes as Record<keyof typeof boxes, NonNullable<(typeof boxes)['header']>>;
      expect(overlaps(bar, top), `Banner über dem Kopf: ${where}`).toBe(false);
      expect(overlaps(bar, main), `Banner über dem Inhalt: ${where}`).toBe(false);
      expect(overlaps(bar, heading), `Banner über der Überschrift: ${where}`).toBe(false);
      // Whole on the screen: no line cut at an edge.
      expect(bar.x, where).toBeGreaterThanOrEqual(0);
      expect(bar.x + bar.width, where).toBeLessThanOrEqual(viewport.width);
      expect(bar.y, where).toBeGreaterThanOrEqual(top.y + top.height);
      // The chip is seen, not hidden under anything.
      const chipOnTop = await page.evaluate(
        ({ x, y }) => {
          const hit = document.elementFromPoint(x, y);
          return (
            hit !== null &&
            hit.closest('summary [data-testid="verbindungsstatus"], summary') !== null
          );
        },
        { x: status.x + status.width / 2, y: status.y + status.height / 2 },
      );
      expect(chipOnTop, `Status verdeckt: ${where}`).toBe(true);
    }
  }
  await openDevicePage(page);
  await setSimulation(page, false);
  await expect(page.getByTestId('simulation-banner')).toHaveCount(0);
});

for (const viewport of [
  { name: 'handy-390', width: 390, height: 844 },
  { name: 'tablet-1024', width: 1024, height: 768 },
]) {
  test.describe(`screenshots ${viewport.name}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('header, open panel and device page in each state, each axe-clean', async ({ page }) => {
      test.setTimeout(120_000);
      const states: [string, (page: Page) => Promise<void>][] = [
        ['gewoehnlich', async () => undefined],
        ['simuliert', (p) => setSimulation(p, true)],
        [
          'messe-modus',
          async (p) => {
            await setSimulation(p, false);
            await turnFairModeOn(p, pin);
          },
        ],
      ];
      for (const [state, enter] of states) {
        await openDevicePage(page);
        await enter(page);
        await page.goto('/universa');
        await expect(waitingCount(page)).toBeAttached();
        await shoot(page, `${viewport.name}-${state}-kopf`, header(page));
        // Axe with the panel open covers the header too.
        await openPanel(page);
        const path = test.info().outputPath(`${viewport.name}-${state}-panel.png`);
        await page.screenshot({ path });
        await test.info().attach(`${viewport.name}-${state}-panel`, {
          path,
          contentType: 'image/png',
        });
        await expectNoAxeViolations(page);
        await openDevicePage(page);
        await shoot(page, `${viewport.name}-${state}-geraeteseite`);
        await expectNoAxeViolations(page);
      }
    });
  });
}
