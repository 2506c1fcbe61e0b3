import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { apiKeys } from '../../server/gateway/gateway-jwt.ts';

export interface StoredResponse {
  id: number;
  client_id: string;
  form_id: number;
  source: string;
  email: string;
  first_name: string;
  last_name: string;
  offer_info: boolean;
  create_user: string;
  answers: { question_id: number; question: string; answer: string }[];
  [key: string]: unknown;
}

// One login per test worker: the hub allows only 10 logins a minute per address, and its
// tokens last an hour.
let token: Promise<string> | undefined;

async function hubToken(request: APIRequestContext): Promise<string> {
  token ??= (async () => {
    const login = await request.post('/api/hub/login', {
      data: { email: 'e2e-crm@example.de', password: 'e2e-Service-Passwort-1' },
    });
    expect(login.ok(), await login.text()).toBe(true);
    return ((await login.json()) as { token: string }).token;
  })();
  return token;
}

/** Reads stored leads back through the hub API, as the agent's CRM would. */
export async function storedResponses(request: APIRequestContext): Promise<StoredResponse[]> {
  const list = await request.get('/api/responses?limit=500', {
    headers: { authorization: `Bearer ${await hubToken(request)}` },
  });
  expect(list.ok()).toBe(true);
  return (await list.json()) as StoredResponse[];
}

/**
 * The headers of the service role (the server itself, past row-level security), keyed with the
 * secret e2e/serve.mjs's server generated: for fixtures and checks no API role may do, such as
 * removing a test's leads.
 */
export async function serviceRoleHeaders(): Promise<Record<string, string>> {
  const dataDirFile = path.resolve(`.tmp/e2e-data-dir-${process.env.E2E_PORT}`);
  const dataDir = (await readFile(dataDirFile, 'utf8')).trim();
  const secret = (await readFile(path.join(dataDir, 'jwt-secret'), 'utf8')).trim();
  const { serviceRoleKey } = await apiKeys(secret);
  return { apikey: serviceRoleKey, authorization: `Bearer ${serviceRoleKey}` };
}

export async function responsesFor(request: APIRequestContext, email: string) {
  return (await storedResponses(request)).filter((r) => r.email === email);
}

/** WCAG 2.1 A and AA checks of the page as it is now. */
export async function expectNoAxeViolations(page: Page) {
  // Colours are judged as they end up, not halfway through a fade-in.
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== 'running'),
  );
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(
    result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target).join(', ')})`),
  ).toEqual([]);
}
