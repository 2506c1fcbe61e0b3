import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import ws from 'ws';
import { questionKeys } from '../src/domain/questionnaire.ts';
import {
  deskCustomerAnswersPath,
  deskQuestionnairePath,
  documentObjectName,
  documentsBucket,
  publicObjectPath,
  questionnairePath,
  sitePaths,
} from '../src/domain/routes.ts';
import { uniqueEmail } from '../src/testing/lead-fixtures.ts';
import { responsesFor, serviceRoleHeaders } from './helpers/hub.ts';
import { answerTabaluga, fillContact } from './helpers/journeys.ts';
import { admin, openSignedIn } from './helpers/desk.ts';
import type { Database } from '../src/domain/database.types.ts';

// What visitors get after staff edit a questionnaire in Survey Desk, against the built server.
// The tests share one database with every other spec: each change is undone in `finally`
// through the gateway with the admin's session, whatever happened on the screen.
// The first of PKV's questions: id 4 in the seed, number 1 in the desk (numbered by place).
const pkvFirstQuestion = { id: 4, text: 'Wie sind Sie derzeit beschäftigt?' };

const unique = () => Math.random().toString(36).slice(2, 8);

/** The gateway as Survey Desk uses it, signed in as the admin: for setup and clean-up. */
async function adminClient(request: APIRequestContext): Promise<SupabaseClient<Database>> {
  const config = (await (await request.get('/app-config.json')).json()) as {
    supabaseUrl: string;
    supabaseAnonKey: string;
  };
  const supabase = createClient<Database>(config.supabaseUrl, config.supabaseAnonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    // Node 20 has no WebSocket of its own; nothing here subscribes.
    realtime: { transport: ws as never },
  });
  const { error } = await supabase.auth.signInWithPassword(admin);
  expect(error).toBeNull();
  return supabase;
}

/** The data of a gateway call that must succeed. */
async function must<T>(call: PromiseLike<{ data: T | null; error: unknown }>): Promise<T> {
  const { data, error } = await call;
  expect(error).toBeNull();
  expect(data).not.toBeNull();
  return data!;
}

/** Answers every PKV question, then the contact form; ends on the thank-you screen. */
async function finishPkv(page: Page, firstQuestion: string, email = uniqueEmail('pkv-dokument')) {
  await expect(page.getByRole('heading', { name: firstQuestion })).toBeVisible();
  await page.getByRole('button', { name: 'Selbstständig oder freiberuflich' }).click();
  await page.getByRole('button', { name: 'Gesetzlich freiwillig versichert' }).click();
  await page.getByLabel('Chefarztbehandlung').check();
  await page.getByRole('button', { name: 'Weiter' }).click();
  await page.getByRole('button', { name: 'Bis 1.000 €' }).click();
  await page.getByRole('textbox', { name: 'In welchem Jahr sind Sie geboren?' }).fill('1984');
  await page.getByRole('button', { name: 'Weiter' }).click();
  await page.getByRole('button', { name: 'So bald wie möglich' }).click();
  await page.getByRole('button', { name: 'Weiter' }).click();
  await fillContact(page, email);
  await page.getByRole('button', { name: 'Angebot anfordern' }).click();
  await expect(page.getByRole('heading', { name: 'Vielen Dank für Ihre Anfrage!' })).toBeVisible();
}

test('a question text edited in the desk is what the next visitor of /pkv reads, while earlier answers keep the text their visitor read', async ({
  page,
  context,
  request,
}) => {
  const supabase = await adminClient(request);
  const edited = `Wie sind Sie beruflich tätig (${unique()})?`;
  // A visitor saw the old text before: the device and the worker hold that copy.
  const visitor = await context.newPage();
  await visitor.goto(sitePaths.pkv);
  await expect(visitor.getByRole('heading', { name: pkvFirstQuestion.text })).toBeVisible();
  // An earlier visitor answered the old text.
  const earlier = uniqueEmail('pkv-alte-frage');
  await finishPkv(visitor, pkvFirstQuestion.text, earlier);
  await expect.poll(async () => (await responsesFor(request, earlier)).length).toBe(1);
  try {
    await openSignedIn(page, deskQuestionnairePath('PKV'));
    await page.getByRole('button', { name: `1. ${pkvFirstQuestion.text}` }).click();
    await page.getByRole('button', { name: 'Bearbeiten (Frage 1)' }).click();
    const sidebar = page.getByRole('dialog', { name: 'Frage bearbeiten' });
    await sidebar.getByLabel('Frage', { exact: true }).fill(edited);
    await sidebar.getByRole('button', { name: 'Speichern' }).click();
    await expect(sidebar.getByRole('status')).toHaveText('Daten wurden erfolgreich gespeichert!');

    await visitor.reload();
    await expect(visitor.getByRole('heading', { name: edited })).toBeVisible();

    // The earlier visitor's answers still say what they were asked, and that it changed since.
    const [customer] = await must(supabase.from('users').select('id').eq('email', earlier));
    await page.goto(deskCustomerAnswersPath(customer!.id));
    const term = page.getByRole('main').locator('dt', { hasText: pkvFirstQuestion.text });
    await expect(term).toHaveText(
      `${pkvFirstQuestion.text}Frage inzwischen geändert, heute: „${edited}“`,
    );
    await expect(term.locator('xpath=following-sibling::dd')).toHaveText(
      'Selbstständig oder freiberuflich',
    );
  } finally {
    await must(
      supabase
        .from('questions')
        .update({ question: pkvFirstQuestion.text })
        .eq('id', pkvFirstQuestion.id)
        .select('id'),
    );
  }
  await visitor.reload();
  await expect(visitor.getByRole('heading', { name: pkvFirstQuestion.text })).toBeVisible();
});

test('form 1 with a question added first and one moved keeps the child dates and offer', async ({
  page,
  request,
}) => {
  const supabase = await adminClient(request);
  const added = `Wie haben Sie von uns erfahren (${unique()})?`;
  const email = uniqueEmail('tabaluga-edit');
  const { id: addedId } = await must(
    supabase
      .from('questions')
      .insert({
        form_id: 1,
        sequence: 1,
        type: 'multiple-choice',
        question: added,
        options: { '1': 'Messe', '2': 'Empfehlung' },
        multipleAnswers: false,
        required: true,
        information: '',
      })
      .select('id')
      .single<{ id: number }>(),
  );
  const keyed = async () =>
    must(
      supabase
        .from('questions')
        .select('id, key, sequence')
        .eq('form_id', 1)
        .not('key', 'is', null)
        .returns<{ id: number; key: string; sequence: number }[]>(),
    );
  const offer = (await keyed()).find((q) => q.key === questionKeys.offerAmount)!;
  try {
    // The amount moves before the child dates: position 3 is no longer the amount's.
    await must(supabase.rpc('move_question', { question_id: offer.id, steps: -1 }));

    await page.goto(sitePaths.tabaluga);
    const progress = page.getByRole('progressbar', { name: 'Fortschritt im Fragebogen' });
    await expect(progress).toHaveAttribute('aria-valuemax', '4');
    await page.getByRole('button', { name: 'Messe' }).click();
    await page.getByRole('button', { name: 'Zwei' }).click();
    await page.getByRole('button', { name: '50 €', exact: true }).click();
    await expect(
      page.getByRole('heading', { name: 'Wann sind Ihre Kinder geboren?' }),
    ).toBeVisible();
    await expect(page.getByLabel(/^Kind \d$/)).toHaveCount(2);
    await page.getByLabel('Kind 1').fill('2019-05-01');
    await page.getByLabel('Kind 2').fill('2021-09-14');
    await page.getByRole('button', { name: 'Weiter' }).click();
    await fillContact(page, email);
    await page.getByRole('button', { name: 'Angebot anfordern' }).click();

    await expect(
      page.getByRole('heading', { name: 'Vielen Dank für Ihre Anfrage!' }),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: /Musterangebot/ })).toHaveAttribute(
      'href',
      '/universa/tabaluga/angebot-50.pdf',
    );
    const [stored] = await responsesFor(request, email);
    expect(stored).toMatchObject({ form_id: 1, channel: 'web' });
    expect(stored!.answers.map((a) => [a.question, a.answer])).toEqual([
      [added, 'Messe'],
      ['Wie viele Kinder möchten Sie absichern?', 'Zwei'],
      ['Welchen monatlichen Betrag möchten Sie pro Kind sparen?', '50 €'],
      ['Wann sind Ihre Kinder geboren?', '2019-05-01, 2021-09-14'],
    ]);
  } finally {
    const now = await keyed();
    const dates = now.find((q) => q.key === questionKeys.childDates)!;
    const amount = now.find((q) => q.key === questionKeys.offerAmount)!;
    if (amount.sequence < dates.sequence) {
      await must(supabase.rpc('move_question', { question_id: amount.id, steps: 1 }));
    }
    await must(supabase.from('questions').delete().eq('id', addedId).select('id'));
  }
  const order = await must(
    supabase
      .from('questions')
      .select('id')
      .eq('form_id', 1)
      .order('sequence')
      .returns<{ id: number }[]>(),
  );
  expect(order.map((q) => q.id)).toEqual([1, 2, 3]);
});

test("a PDF uploaded as form 2's document is what /pkv's finish offers, also offline", async ({
  page,
  context,
  request,
}) => {
  const supabase = await adminClient(request);
  const fileName = `Angebot-e2e-${unique()}.pdf`;
  // A small, unique PDF: the bytes must come back exactly.
  const pdf = Buffer.from(
    `%PDF-1.4\n%${fileName}\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n` +
      '2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  );
  try {
    await openSignedIn(page, deskQuestionnairePath('PKV'));
    await page.getByLabel('Angebot (PDF)').setInputFiles({
      name: fileName,
      mimeType: 'application/pdf',
      buffer: pdf,
    });
    await expect(page.getByText(`Dokument: ${fileName}`)).toBeVisible();
    await page.getByRole('button', { name: 'Speichern', exact: true }).click();
    await expect(page.getByText('Daten wurden erfolgreich gespeichert!')).toBeVisible();

    const visitor = await context.newPage();
    await visitor.goto(sitePaths.pkv);
    await finishPkv(visitor, pkvFirstQuestion.text);
    const offer = visitor.getByRole('link', { name: /Angebot herunterladen/ });
    const href = await offer.getAttribute('href');
    expect(href).toMatch(
      new RegExp(`^/storage/v1/object/public/documents/forms/2/[0-9a-f-]{36}-${fileName}$`),
    );
    const download = await request.get(href!);
    expect(download.status()).toBe(200);
    expect(Buffer.from(await download.body()).equals(pdf)).toBe(true);

    // Never clicked, yet kept for the fair: the page put it into the worker's document cache.
    await expect
      .poll(() => visitor.evaluate(async (url) => Boolean(await caches.match(url)), href!))
      .toBe(true);
    await context.setOffline(true);
    await visitor.goto(sitePaths.pkv);
    const offline = await visitor.evaluate(async (url) => {
      const res = await fetch(url);
      return { status: res.status, bytes: Array.from(new Uint8Array(await res.arrayBuffer())) };
    }, href!);
    expect(offline.status).toBe(200);
    expect(Buffer.from(offline.bytes).equals(pdf)).toBe(true);
  } finally {
    await context.setOffline(false);
    await must(supabase.from('forms').update({ document: null }).eq('id', 2).select('id'));
  }
});

test('a questionnaire made in the desk offers its document at the end of /fragebogen/{id}', async ({
  page,
  request,
}) => {
  const supabase = await adminClient(request);
  const pdf = Buffer.from(`%PDF-1.4\n%Fragebogen-${unique()}\n%%EOF\n`);
  const form = await must(
    supabase
      .from('forms')
      .insert({
        title: `E2E Dokument ${unique()}`,
        description: 'Ein Fragebogen aus dem e2e-Test.',
      })
      .select('id')
      .single<{ id: number }>(),
  );
  const name = documentObjectName(form.id, 'Angebot Fragebogen.pdf', crypto.randomUUID());
  try {
    await must(
      supabase.storage.from(documentsBucket).upload(name, pdf, { contentType: 'application/pdf' }),
    );
    await must(supabase.from('forms').update({ document: name }).eq('id', form.id).select('id'));
    await must(
      supabase
        .from('questions')
        .insert({
          form_id: form.id,
          sequence: 1,
          type: 'input',
          question: 'Was ist Ihnen bei einer Versicherung wichtig?',
          options: { '1': 'z. B. ein guter Preis' },
          multipleAnswers: false,
          required: false,
          information: '',
        })
        .select('id'),
    );

    await page.goto(questionnairePath(form.id));
    await page
      .getByRole('textbox', { name: 'Was ist Ihnen bei einer Versicherung wichtig?' })
      .fill('Guter Service');
    await page.getByRole('button', { name: 'Weiter' }).click();
    await fillContact(page, uniqueEmail('fragebogen-dokument'));
    await page.getByRole('button', { name: 'Angebot anfordern' }).click();
    await expect(
      page.getByRole('heading', { name: 'Vielen Dank für Ihre Anfrage!' }),
    ).toBeVisible();
    const offer = page.getByRole('link', { name: /Angebot herunterladen/ });
    await expect(offer).toHaveAttribute('href', publicObjectPath(documentsBucket, name));
    const download = await request.get(publicObjectPath(documentsBucket, name));
    expect(Buffer.from(await download.body()).equals(pdf)).toBe(true);
  } finally {
    // The test's lead goes with its form: a form with responses cannot be deleted. No API role
    // deletes leads (only the server and data-protection functions do): the service role does.
    const removed = await request.delete(`/rest/v1/responses?form_id=eq.${form.id}`, {
      headers: await serviceRoleHeaders(),
    });
    expect(removed.ok(), await removed.text()).toBe(true);
    await must(supabase.from('forms').delete().eq('id', form.id).select('id'));
    await supabase.storage.from(documentsBucket).remove([name]);
  }
});

test("a lead from a tablet in kiosk mode is stored as the fair tablet's", async ({
  page,
  request,
}) => {
  await page.addInitScript(() => localStorage.setItem('geraet:kiosk-modus', 'an'));
  const email = uniqueEmail('messe');
  await page.goto(sitePaths.tabaluga);
  await answerTabaluga(page, email);
  await expect(page.getByRole('heading', { name: 'Vielen Dank für Ihre Anfrage!' })).toBeVisible();
  await expect
    .poll(async () => (await responsesFor(request, email))[0]?.channel)
    .toBe('fair_tablet');
});
