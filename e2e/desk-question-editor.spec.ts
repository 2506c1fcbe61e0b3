import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  deskCustomerAnswersPath,
  deskPaths,
  deskQuestionnairePath,
  gatewayPrefixes,
} from '../src/domain/routes.ts';
import { uniqueEmail } from '../src/testing/lead-fixtures.ts';
import { expectNoAxeViolations } from './helpers/hub.ts';
import { expectQuestionnaireSent, fillContact } from './helpers/journeys.ts';
import { openSignedIn } from './helpers/desk.ts';

// The question editor against the built server: a questionnaire made in the desk, its questions
// added, edited, deleted and moved, then answered by a visitor in the new order at
// /fragebogen/{id}, and the answers read back in that customer's answers.

/** A gateway read with the signed-in admin's session, as supabase-js would send it. */
async function restRead<T>(page: Page, path: string): Promise<T> {
  return page.evaluate(
    async ({ path }) => {
      const config = (await (await fetch('/app-config.json')).json()) as {
        supabaseAnonKey: string;
      };
      const session = JSON.parse(localStorage.getItem('user') ?? '{}') as { access_token: string };
      const response = await fetch(path, {
        headers: {
          apikey: config.supabaseAnonKey,
          authorization: `Bearer ${session.access_token}`,
        },
      });
      if (!response.ok) throw new Error(`${response.status} ${path}`);
      return (await response.json()) as T;
    },
    { path },
  );
}

const suffix = () =>
  Math.random()
    .toString(36)
    .replace(/[^a-z]/g, '')
    .slice(0, 6);

function questionSidebar(page: Page, title: 'Frage hinzufügen' | 'Frage bearbeiten') {
  return page.getByRole('dialog', { name: title });
}

async function addQuestion(
  page: Page,
  question: { text: string; type: 'multiple-choice' | 'input'; options: string[]; info: string },
) {
  await page.getByRole('button', { name: 'Frage hinzufügen' }).click();
  const sidebar = questionSidebar(page, 'Frage hinzufügen');
  await sidebar.getByLabel('Frage', { exact: true }).fill(question.text);
  await sidebar.getByLabel('Typ').selectOption(question.type);
  for (const [index, option] of question.options.entries()) {
    const field = sidebar.getByLabel(`Antwort ${index + 1}`, { exact: true });
    if ((await field.count()) === 0) {
      await sidebar.getByRole('button', { name: 'Antwort hinzufügen' }).click();
    }
    await field.fill(option);
  }
  await sidebar.getByLabel('Information').fill(question.info);
  await sidebar.getByRole('button', { name: 'Hinzufügen', exact: true }).click();
  const edited = questionSidebar(page, 'Frage bearbeiten');
  await expect(edited.getByRole('status')).toHaveText('Daten wurden erfolgreich gespeichert!');
  return edited;
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The accordion of a question by its text; its button reads 'id. question'. */
function accordion(page: Page, text: string): Locator {
  return page
    .getByRole('region', { name: 'Fragen' })
    .getByRole('button', { name: new RegExp(`^\\d+\\. ${escaped(text)}$`) });
}

async function questionNumber(page: Page, text: string): Promise<number> {
  const name = (await accordion(page, text).innerText()).trim();
  return Number(/^(\d+)\./.exec(name)![1]);
}

async function accordionTitles(page: Page) {
  const titles = await page
    .getByRole('region', { name: 'Fragen' })
    .getByRole('listitem')
    .getByRole('heading', { level: 3 })
    .allInnerTexts();
  return titles.map((title) => title.replace(/^\d+\.\s*/, '').replace(/\s*▾$/, ''));
}

test('questions added, edited, deleted and moved in the desk are what a visitor answers', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  await openSignedIn(page, deskPaths.questionnaires);

  // A new questionnaire through the list's sidebar.
  const title = `E2E Fragen ${suffix()}`;
  await page.getByRole('button', { name: 'Hinzufügen', exact: true }).click();
  const addForm = page.getByRole('dialog', { name: 'Fragebogen hinzufügen' });
  await addForm.getByLabel('Titel').fill(title);
  await addForm.getByLabel('Beschreibung').fill('Ein Fragebogen aus dem Test des Frageneditors.');
  await addForm.getByRole('button', { name: 'Speichern', exact: true }).click();
  // Closed only once saved: while the save is under way the input still counts as unsaved and
  // closing asks before discarding it (a slow machine would get that question).
  await expect(addForm.getByRole('status')).toContainText(`„${title}“ wurde angelegt`);
  await addForm.getByRole('button', { name: 'Schließen' }).click();
  await expect(page.getByRole('heading', { name: title })).toBeVisible();

  await page.goto(deskQuestionnairePath(title));
  const panel = page.getByRole('region', { name: 'Fragen' });
  await expect(panel.getByText('Dieser Fragebogen hat noch keine Fragen.')).toBeVisible();

  // A field left empty is told in German and nothing is saved.
  await page.getByRole('button', { name: 'Frage hinzufügen' }).click();
  const blank = questionSidebar(page, 'Frage hinzufügen');
  await expect(blank.getByLabel('Position')).toHaveValue('1');
  // Focus moves into the sidebar, and back to the button that opened it on closing.
  await expect(blank.getByLabel('Position')).toBeFocused();
  await blank.getByRole('button', { name: 'Hinzufügen', exact: true }).click();
  await expect(blank.getByLabel('Frage', { exact: true })).toHaveAccessibleDescription(
    'Bitte gib die Frage ein.',
  );
  await blank.getByRole('button', { name: 'Schließen' }).click();
  await expect(page.getByRole('button', { name: 'Frage hinzufügen' })).toBeFocused();

  const colour = await addQuestion(page, {
    text: 'Welche Farbe mögen Sie?',
    type: 'multiple-choice',
    options: ['Rot', 'Blau', 'Grün'],
    info: 'Bitte wählen Sie eine Farbe.',
  });
  await expectNoAxeViolations(page);
  await colour.getByRole('button', { name: 'Schließen' }).click();

  const pet = await addQuestion(page, {
    text: 'Wie heißt Ihr Haustier?',
    type: 'input',
    options: ['z. B. Bello'],
    info: 'Ein Name genügt.',
  });
  await expect(pet.getByRole('button', { name: /^Entfernen/ })).toHaveCount(0);
  await pet.getByRole('button', { name: 'Schließen' }).click();

  const doomed = await addQuestion(page, {
    text: 'Wird diese Frage gelöscht?',
    type: 'multiple-choice',
    options: ['Ja', 'Nein'],
    info: 'Nur für den Test.',
  });
  await doomed.getByRole('button', { name: 'Schließen' }).click();
  expect(await accordionTitles(page)).toEqual([
    'Welche Farbe mögen Sie?',
    'Wie heißt Ihr Haustier?',
    'Wird diese Frage gelöscht?',
  ]);

  // Edit an option: 'Blau' becomes 'Dunkelblau'.
  const colourNumber = await questionNumber(page, 'Welche Farbe mögen Sie?');
  await accordion(page, 'Welche Farbe mögen Sie?').click();
  await expect(panel.getByRole('radio', { name: 'Blau' })).toBeDisabled();
  await panel.getByRole('button', { name: `Bearbeiten (Frage ${colourNumber})` }).click();
  const editing = questionSidebar(page, 'Frage bearbeiten');
  await expect(editing.getByLabel('Antwort 2', { exact: true })).toHaveValue('Blau');
  await editing.getByLabel('Antwort 2', { exact: true }).fill('Dunkelblau');
  await editing.getByRole('button', { name: 'Speichern', exact: true }).click();
  await expect(editing.getByRole('status')).toHaveText('Daten wurden erfolgreich gespeichert!');
  await expect(editing.getByRole('status')).toHaveText('', { timeout: 5_000 });
  await editing.getByRole('button', { name: 'Schließen' }).click();
  await expect(panel.getByRole('radio', { name: 'Dunkelblau' })).toBeVisible();

  // Delete one, after the confirmation.
  const doomedNumber = await questionNumber(page, 'Wird diese Frage gelöscht?');
  await accordion(page, 'Wird diese Frage gelöscht?').click();
  await panel.getByRole('button', { name: `Löschen (Frage ${doomedNumber})` }).click();
  const confirm = page.getByRole('dialog', { name: 'Frage löschen?' });
  await expect(confirm).toContainText('bleiben mit dem Fragetext lesbar');
  await expect(confirm.getByRole('button', { name: 'Abbrechen' })).toBeFocused();
  await expectNoAxeViolations(page);
  await confirm.getByRole('button', { name: 'Löschen', exact: true }).click();
  await expect(confirm).toBeHidden();
  await expect(panel.getByRole('heading', { name: 'Fragen' })).toBeFocused();
  await expect(accordion(page, 'Wird diese Frage gelöscht?')).toHaveCount(0);

  // Move the pet question up: it becomes the first.
  expect(await questionNumber(page, 'Wie heißt Ihr Haustier?')).toBe(2);
  await accordion(page, 'Wie heißt Ihr Haustier?').click();
  await panel.getByRole('button', { name: 'Nach oben (Frage 2)' }).click();
  await expect
    .poll(() => accordionTitles(page))
    .toEqual(['Wie heißt Ihr Haustier?', 'Welche Farbe mögen Sie?']);
  // Numbered by place, so the numbers follow the new order.
  expect(await questionNumber(page, 'Wie heißt Ihr Haustier?')).toBe(1);
  expect(await questionNumber(page, 'Welche Farbe mögen Sie?')).toBe(2);
  await expect(panel.getByRole('button', { name: 'Nach oben (Frage 1)' })).toBeDisabled();
  await expect(panel.getByRole('button', { name: 'Nach unten (Frage 1)' })).toBeFocused();

  // The order survives a reload: it is the database's.
  await page.reload();
  await expect
    .poll(() => accordionTitles(page))
    .toEqual(['Wie heißt Ihr Haustier?', 'Welche Farbe mögen Sie?']);
  const [form] = await restRead<{ id: number }[]>(
    page,
    `${gatewayPrefixes.rest}/forms?select=id&title=eq.${encodeURIComponent(title)}`,
  );

  // A visitor answers the edited questions in their new order.
  const email = uniqueEmail('frageneditor');
  const visitor = await context.newPage();
  await visitor.goto(`/fragebogen/${form!.id}`);
  await expect(visitor.getByRole('heading', { name: 'Wie heißt Ihr Haustier?' })).toBeVisible();
  const petAnswer = visitor.getByRole('textbox', { name: 'Wie heißt Ihr Haustier?' });
  await expect(petAnswer).toHaveAttribute('placeholder', 'z. B. Bello');
  await petAnswer.fill('Minka');
  await visitor.getByRole('button', { name: 'Weiter' }).click();
  await expect(visitor.getByRole('heading', { name: 'Welche Farbe mögen Sie?' })).toBeVisible();
  await expect(visitor.getByRole('button', { name: 'Blau', exact: true })).toHaveCount(0);
  await visitor.getByRole('button', { name: 'Dunkelblau' }).click();
  await fillContact(visitor, email);
  await visitor.getByRole('button', { name: 'Angebot anfordern' }).click();
  await expectQuestionnaireSent(visitor);
  await visitor.close();

  // The admin finds the customer and reads the answers.
  const [customer] = await restRead<{ id: number }[]>(
    page,
    `${gatewayPrefixes.rest}/users?select=id&email=eq.${encodeURIComponent(email)}`,
  );
  await page.goto(deskCustomerAnswersPath(customer!.id));
  const response = page.getByRole('main');
  await expect(response.getByText(title)).toBeVisible();
  await expect(response.getByText('Wie heißt Ihr Haustier?')).toBeVisible();
  await expect(response.getByText('Minka')).toBeVisible();
  await expect(response.getByText('Welche Farbe mögen Sie?')).toBeVisible();
  await expect(response.getByText('Dunkelblau')).toBeVisible();
});

test('the Tabaluga questions the flow depends on offer no delete, and say why', async ({
  page,
}) => {
  await openSignedIn(page, deskQuestionnairePath('Tabaluga'));
  const panel = page.getByRole('region', { name: 'Fragen' });
  const childDates = accordion(page, 'Wann sind Ihre Kinder geboren?');
  const number = await questionNumber(page, 'Wann sind Ihre Kinder geboren?');
  await childDates.click();
  await expect(panel.getByRole('button', { name: `Bearbeiten (Frage ${number})` })).toBeVisible();
  await expect(panel.getByRole('button', { name: `Löschen (Frage ${number})` })).toHaveCount(0);
  await expect(panel.getByText(/steuert den Ablauf des Tabaluga-Fragebogens/)).toBeVisible();
  await expect(panel.getByRole('textbox', { name: 'Antwortfeld (Vorschau)' })).toBeDisabled();
  await expectNoAxeViolations(page);
});
