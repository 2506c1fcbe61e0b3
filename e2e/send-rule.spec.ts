// 'Offline simulieren' holds every way a lead can leave the device (issue 34, item 1): the page,
// a new document after a navigation or reload, another tab and the service worker's Background
// Sync. For each path the hub receives nothing while the simulation is on, by any request the
// browser context sees (pages and the worker) and by the hub's own record; once it is off,
// each lead arrives exactly once.
import { expect, test, type Page } from '@playwright/test';
import { uniqueEmail } from '../src/testing/lead-fixtures.ts';
import {
  backgroundSync,
  connectionStatus,
  expectEachSentOnce,
  expectNothingSent,
  openDevicePage,
  quietPeriodMs,
  recordLeadPosts,
  setSimulation,
  simulationSwitch,
  waitForServiceWorkerControl,
  waitForStoredQuestionnaires,
} from './helpers/device.ts';
import { responsesFor } from './helpers/hub.ts';
import {
  answerKfz,
  answerTabaluga,
  expectNothingWaiting,
  savedOnDevice,
  waitingCount,
} from './helpers/journeys.ts';

const firstQuestion = 'Wie viele Kinder möchten Sie absichern?';
const sentOnline = /^Erfolgreich gesendet/;

/** Where a lead is captured, and how. */
const captures = {
  kfz: {
    path: '/universa/kfz',
    ready: (page: Page) => expect(page.getByLabel('Vorname')).toBeVisible(),
    answer: answerKfz,
  },
  questionnaire: {
    path: '/tiptoptabaluga',
    ready: (page: Page) => expect(page.getByRole('heading', { name: firstQuestion })).toBeVisible(),
    answer: answerTabaluga,
  },
};

/** A lead captured on this page while nothing may be sent: it waits on the device. */
async function captureHeld(page: Page, kind: keyof typeof captures, email: string) {
  const capture = captures[kind];
  await capture.ready(page);
  await expect(connectionStatus(page)).toHaveText('Offline (simuliert)');
  await capture.answer(page, email);
  await expect(page.getByText(savedOnDevice)).toBeVisible();
}

function waitingText(count: number) {
  return count === 1 ? '· 1 Anfrage wartet' : `· ${count} Anfragen warten`;
}

test.beforeEach(async ({ page }) => {
  // The worker installed and in control, so Background Sync can fire at any moment.
  await page.goto('/universa');
  await waitForServiceWorkerControl(page);
  await expect(waitingCount(page)).toBeAttached();
  await waitForStoredQuestionnaires(page);
});

test('switched on and left at once, to a form and back, several times: nothing until off, then each lead once', async ({
  context,
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const posts = recordLeadPosts(context);
  const { sync } = await backgroundSync(context, page);
  const rounds: { kind: keyof typeof captures; back: string }[] = [
    { kind: 'kfz', back: '/universa' },
    { kind: 'questionnaire', back: '/universa/kfz' },
    { kind: 'kfz', back: '/tiptoptabaluga' },
  ];
  for (const [round, { kind, back }] of rounds.entries()) {
    const email = uniqueEmail(`sim-weg-${round}`);
    await openDevicePage(page);
    await setSimulation(page, true);
    // Straight on to another document: nothing in flight may be lost on the way.
    await page.goto(captures[kind].path);
    await captureHeld(page, kind, email);
    // The other way: the next document finds a lead waiting and starts its sender at once.
    await page.goto(back);
    await expect(connectionStatus(page)).toHaveText('Offline (simuliert)');
    await expect(waitingCount(page)).toHaveText(waitingText(1));
    // Chromium wakes the worker for the sync the capture registered; here on demand too.
    await sync();
    await expectNothingSent(page, posts, request, [email]);

    await openDevicePage(page);
    await setSimulation(page, false);
    // Off, and straight on again: the lead leaves once, from whichever sender gets it.
    await page.goto(back);
    await expectEachSentOnce(request, [email]);
    // Settled: a reply cut off by the navigation may bring a second request for the same lead
    // (the hub keeps one), and it comes before the outbox is empty.
    await expectNothingWaiting(page);
    posts.length = 0;
  }
});

test('a switch clicked and left before it shows: "Offline (simuliert)" holds exactly where it is shown', async ({
  context,
  page,
  request,
}) => {
  // A tester ticks the switch and clicks away at once. The setting either lands for every
  // sender or for none; the header on the next page must tell the truth either way.
  test.setTimeout(120_000);
  const posts = recordLeadPosts(context);
  const { sync } = await backgroundSync(context, page);
  for (const round of [0, 1, 2]) {
    const email = uniqueEmail(`sim-sofort-${round}`);
    await openDevicePage(page);
    await expect(simulationSwitch(page)).not.toBeChecked();
    // The tick and the navigation in one go, as fast as a hand can't: whatever the click
    // started is cut off by the next document.
    await simulationSwitch(page).evaluate((toggle, path) => {
      (toggle as HTMLInputElement).click();
      location.assign(path);
    }, captures.kfz.path);
    await page.waitForURL(`**${captures.kfz.path}`);
    await captures.kfz.ready(page);
    await expect(waitingCount(page)).toBeAttached();
    await answerKfz(page, email);
    await expect(page.getByText(savedOnDevice).or(page.getByText(sentOnline))).toBeVisible();
    await sync();
    await page.waitForTimeout(quietPeriodMs);
    const shown = await connectionStatus(page).textContent();
    if (shown === 'Offline (simuliert)') {
      await expectNothingSent(page, posts, request, [email]);
      await openDevicePage(page);
      await setSimulation(page, false);
    } else {
      expect(shown).toBe('Online');
      await openDevicePage(page);
      await expect(simulationSwitch(page)).not.toBeChecked();
    }
    await expectEachSentOnce(request, [email]);
    // Settled: a reply cut off by the navigation may bring a second request for the same lead
    // (the hub keeps one), and it comes before the outbox is empty.
    await expectNothingWaiting(page);
    posts.length = 0;
  }
});

test('switched on, a lead queued, the tab closed: Background Sync sends nothing until off, then once', async ({
  context,
  page,
  request,
}) => {
  const posts = recordLeadPosts(context);
  const email = uniqueEmail('sim-tab-zu');
  await openDevicePage(page);
  await setSimulation(page, true);
  await page.goto(captures.questionnaire.path);
  await captureHeld(page, 'questionnaire', email);

  // The tab goes; only the worker is left (its CDP session lives on a blank tab).
  const blank = await context.newPage();
  const { sync } = await backgroundSync(context, blank);
  await page.close();
  await sync();
  await expectNothingSent(blank, posts, request, [email]);

  const next = await context.newPage();
  await openDevicePage(next);
  await expect(waitingCount(next)).toHaveText(waitingText(1));
  await setSimulation(next, false);
  await expectEachSentOnce(request, [email]);
});

test('Background Sync while simulated: a worker woken alone, and again and again, sends nothing', async ({
  context,
  page,
  request,
}) => {
  const posts = recordLeadPosts(context);
  const emails = [uniqueEmail('sim-sync-a'), uniqueEmail('sim-sync-b')];
  await openDevicePage(page);
  await setSimulation(page, true);
  await page.goto(captures.kfz.path);
  await captureHeld(page, 'kfz', emails[0]!);
  await page.goto(captures.questionnaire.path);
  await captureHeld(page, 'questionnaire', emails[1]!);

  const { sync, stopWorker } = await backgroundSync(context, page);
  // With the page open, and from a worker stopped before: it knows only what is stored.
  await sync();
  await stopWorker();
  await sync();
  await page.goto('about:blank');
  await stopWorker();
  await sync();
  await sync();
  await expectNothingSent(page, posts, request, emails);

  await openDevicePage(page);
  await expect(waitingCount(page)).toHaveText(waitingText(2));
  await setSimulation(page, false);
  await expectEachSentOnce(request, emails);
  // A later sync finds nothing left.
  await sync();
  await page.waitForTimeout(500);
  for (const email of emails) expect(await responsesFor(request, email)).toHaveLength(1);
});

test('two tabs: switched on in one, the other holds too; its lead goes once after off', async ({
  context,
  page,
  request,
}) => {
  const posts = recordLeadPosts(context);
  const email = uniqueEmail('sim-zwei-tabs');
  const other = await context.newPage();
  await other.goto(captures.questionnaire.path);
  await captures.questionnaire.ready(other);
  await expect(connectionStatus(other)).toHaveText('Online');

  await openDevicePage(page);
  await setSimulation(page, true);
  // The other tab learns it without a reload, and holds its lead.
  await captureHeld(other, 'questionnaire', email);
  await expect(waitingCount(page)).toHaveText(waitingText(1));
  const { sync } = await backgroundSync(context, page);
  await sync();
  await expectNothingSent(page, posts, request, [email]);

  await setSimulation(page, false);
  await expectEachSentOnce(request, [email]);
  await expect(waitingCount(other)).toHaveText('· keine Anfragen warten');
});

test('reloads while simulated: every new document holds, then the lead goes once', async ({
  context,
  page,
  request,
}) => {
  const posts = recordLeadPosts(context);
  const email = uniqueEmail('sim-neu-laden');
  await openDevicePage(page);
  await setSimulation(page, true);
  await page.reload();
  await expect(connectionStatus(page)).toHaveText('Offline (simuliert)');
  await page.goto(captures.questionnaire.path);
  await page.reload();
  await captureHeld(page, 'questionnaire', email);
  await page.reload();
  await expect(connectionStatus(page)).toHaveText('Offline (simuliert)');
  await expect(waitingCount(page)).toHaveText(waitingText(1));
  const { sync } = await backgroundSync(context, page);
  await sync();
  await expectNothingSent(page, posts, request, [email]);

  await openDevicePage(page);
  await setSimulation(page, false);
  await page.reload();
  await expectEachSentOnce(request, [email]);
});
