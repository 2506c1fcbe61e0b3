// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { act } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Question, QuestionnaireDefinition } from '../../domain/questionnaire.ts';
import { fetchDefinition, keepDefinition } from '../../offline/definitions-warmup.ts';
import { saveDraft } from '../../offline/questionnaire-draft.ts';
import { builtQuestionnaire } from './built-questionnaires.ts';
import { QuestionnaireFlow } from './questionnaire-flow.tsx';

// Issue 37: a questionnaire page paints its first question from the HTML the build writes, the
// island hydrates it, and the live definition (hub, service worker, device copy) takes over
// only when it differs. Neither the live definition's code nor the contact step's runs before.

const seen = vi.hoisted(() => ({ contactStep: false, definitions: false }));
const loadQuestionnaire = vi.hoisted(() =>
  vi.fn<(formId: number, signal?: AbortSignal) => Promise<unknown>>(),
);
vi.mock('./contact-step.tsx', async (importOriginal) => {
  seen.contactStep = true;
  return importOriginal();
});
// The full reading (zod, Dexie): its device fallback is what the tests control.
vi.mock('../../offline/definitions.ts', async (importOriginal) => {
  seen.definitions = true;
  return {
    ...(await importOriginal<typeof import('../../offline/definitions.ts')>()),
    loadQuestionnaire,
  };
});
// The contact step's fetch when the page is idle waits until a test lets it run; everything
// else the page does when idle runs at once.
const idle = vi.hoisted(() => ({ preloads: [] as (() => void)[] }));
vi.mock('../../offline/when-idle.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../offline/when-idle.ts')>();
  return {
    whenIdle: (task: () => void, timeoutMs?: number) => {
      if (task.name !== 'preloadContactStep') return real.whenIdle(task, timeoutMs);
      idle.preloads.push(task);
      return () => {
        idle.preloads = idle.preloads.filter((held) => held !== task);
      };
    },
  };
});
// The hub's reply as the light reading gets it; none (offline) unless a test gives one.
vi.mock('../../offline/definitions-warmup.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../offline/definitions-warmup.ts')>()),
  fetchDefinition: vi.fn(() => Promise.resolve(undefined)),
  keepDefinition: vi.fn(() => Promise.resolve()),
}));

const pkv = builtQuestionnaire(2)!;
const [first, second] = pkv.questions as [Question, Question, ...Question[]];

/** The live definition's answer, given when the test says so. */
function liveAnswer() {
  let settle!: { resolve: (d: QuestionnaireDefinition) => void; reject: (e: Error) => void };
  const promise = new Promise<QuestionnaireDefinition>((resolve, reject) => {
    settle = { resolve, reject };
  });
  vi.mocked(loadQuestionnaire).mockReturnValue(promise);
  return settle;
}

/** The hub's reply for a definition, options keyed '1', '2', ... as the database keeps them. */
const hubReply = (definition: QuestionnaireDefinition) => ({
  form_id: 2,
  questions: definition.questions.map((q) => ({
    ...q,
    options: Object.fromEntries(q.options.map((option, i) => [String(i + 1), option])),
  })),
  document_url: definition.documentUrl,
  fetched_at: Date.now(),
});

const withQuestion = (index: number, changes: Partial<Question>): QuestionnaireDefinition => ({
  ...pkv,
  questions: pkv.questions.map((q, i) => (i === index ? { ...q, ...changes } : q)),
});

// hydrateRoot is called directly here (Testing Library renders with createRoot only).
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | undefined;
let errors: unknown[];

/** The page as the build writes it, then its island hydrated, as src/islands.tsx does. */
async function loadPage() {
  const container = document.createElement('div');
  container.innerHTML = renderToString(<QuestionnaireFlow formId={2} built={pkv} />);
  document.body.append(container);
  await act(async () => {
    root = hydrateRoot(container, <QuestionnaireFlow formId={2} built={pkv} />, {
      onRecoverableError: (error) => errors.push(error),
    });
  });
  return container;
}

const option = (name: string) => screen.getByRole('button', { name });
/** A step's heading; an optional question's ends with '(optional)'. */
const heading = (text: string) =>
  screen.findByRole('heading', { name: (name) => name.startsWith(text) });

beforeEach(() => {
  errors = [];
  seen.contactStep = false;
  idle.preloads = [];
  vi.mocked(fetchDefinition).mockResolvedValue(undefined);
});

afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
  localStorage.clear();
  vi.mocked(loadQuestionnaire).mockReset();
});

describe('the first question from the HTML', () => {
  it('is in the HTML the build writes, its choices ready for a tap the loader keeps', () => {
    const html = renderToString(<QuestionnaireFlow formId={2} built={pkv} />);
    document.body.innerHTML = html;
    expect(screen.getByRole('heading', { name: first.question })).toBeTruthy();
    expect(screen.getByRole('progressbar').getAttribute('aria-valuemax')).toBe('7');
    // A disabled button would hear no tap at all (src/islands/loader.ts keeps one on a button).
    for (const text of first.options) {
      expect(option(text)).toHaveProperty('disabled', false);
      expect(option(text).getAttribute('type')).toBe('button');
    }
    expect(html).not.toContain('Fragebogen wird geladen');
  });

  // First of the hydrating tests: the module, once imported, stays for the others.
  it('loads no schema and no device database while the hub sends what the page was built with', async () => {
    vi.mocked(fetchDefinition).mockResolvedValue(hubReply(pkv));
    await loadPage();
    await waitFor(() => expect(keepDefinition).toHaveBeenCalled());
    await act(() => Promise.resolve());
    expect(seen.definitions).toBe(false);
    expect(screen.getByRole('heading', { name: first.question })).toBeTruthy();
  });

  it('hydrates without a mismatch, takes taps, and fetches the contact step only when idle', async () => {
    liveAnswer().resolve(pkv);
    const container = await loadPage();
    const button = option(first.options[1]!);
    expect(button).toHaveProperty('disabled', false);
    expect(errors).toEqual([]);
    // The live definition is read when the page is idle; the same one changes nothing.
    await waitFor(() => expect(loadQuestionnaire).toHaveBeenCalledWith(2, expect.anything()));
    await act(() => Promise.resolve());
    expect(container.contains(button)).toBe(true);
    // The contact step's code waits for the idle page (so that a connection lost after the
    // first paint does not lose it), and not for an answer.
    expect(seen.contactStep).toBe(false);
    expect(idle.preloads).toHaveLength(1);
    act(() => idle.preloads.forEach((preload) => preload()));
    await waitFor(() => expect(seen.contactStep).toBe(true));

    fireEvent.click(button);
    expect(await heading(second.question)).toBeTruthy();
  });

  it("takes the hub's changed questionnaire from its reply", async () => {
    vi.mocked(fetchDefinition).mockResolvedValue(
      hubReply(withQuestion(0, { question: 'Was machen Sie beruflich?' })),
    );
    await loadPage();
    expect(await heading('Was machen Sie beruflich?')).toBeTruthy();
    expect(loadQuestionnaire).not.toHaveBeenCalled();
  });

  it('gives way to a live definition that differs, before the visitor answered', async () => {
    const live = liveAnswer();
    await loadPage();
    await waitFor(() => expect(loadQuestionnaire).toHaveBeenCalled());
    await act(async () => live.resolve(withQuestion(0, { question: 'Was machen Sie beruflich?' })));
    expect(await heading('Was machen Sie beruflich?')).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
    expect(errors).toEqual([]);
  });

  it('keeps an answer whose question did not change, and goes on where the visitor was', async () => {
    const live = liveAnswer();
    await loadPage();
    fireEvent.click(option(first.options[3]!));
    expect(await heading(second.question)).toBeTruthy();
    await act(async () => live.resolve(withQuestion(1, { question: 'Wie sind Sie versichert?' })));
    expect(await heading('Wie sind Sie versichert?')).toBeTruthy();
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('2');
    fireEvent.click(screen.getByRole('button', { name: 'Zurück' }));
    expect(option(first.options[3]!).getAttribute('aria-pressed')).toBe('true');
  });

  it('asks again, with a notice, when the answered question changed meanwhile', async () => {
    const live = liveAnswer();
    await loadPage();
    fireEvent.click(option(first.options[3]!));
    expect(await heading(second.question)).toBeTruthy();
    const changed = withQuestion(0, { options: ['Angestellt', 'Selbstständig', 'Sonstiges'] });
    await act(async () => live.resolve(changed));
    expect(await heading(first.question)).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('wurde gerade geändert');
    expect(option('Selbstständig').getAttribute('aria-pressed')).toBe('false');
  });

  it('stays with the built questions when the live definition does not arrive (offline)', async () => {
    const live = liveAnswer();
    await loadPage();
    await waitFor(() => expect(loadQuestionnaire).toHaveBeenCalled());
    await act(async () => live.reject(new Error('offline')));
    expect(screen.getByRole('heading', { name: first.question })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('resumes a draft once hydrated, without a mismatch', async () => {
    liveAnswer().resolve(pkv);
    saveDraft(2, { step: 2, answers: { 4: first.options[1]!, 5: second.options[0]! } }, Date.now());
    await loadPage();
    expect(await heading(pkv.questions[2]!.question)).toBeTruthy();
    expect(errors).toEqual([]);
  });

  it('keeps the hydrated question on a tablet in kiosk mode (a tap kept before stays)', async () => {
    liveAnswer().resolve(pkv);
    localStorage.setItem('geraet:kiosk-modus', 'an');
    const container = document.createElement('div');
    container.innerHTML = renderToString(<QuestionnaireFlow formId={2} built={pkv} />);
    document.body.append(container);
    const fromHtml = option(first.options[1]!);
    await act(async () => {
      root = hydrateRoot(container, <QuestionnaireFlow formId={2} built={pkv} />, {
        onRecoverableError: (error) => errors.push(error),
      });
    });
    // The HTML's button is the one the island runs: a new run for the device's kiosk setting
    // would have replaced it, and with it an answer repeated from a tap before the code ran.
    expect(container.contains(fromHtml)).toBe(true);
    fireEvent.click(fromHtml);
    expect(await heading(second.question)).toBeTruthy();
    expect(errors).toEqual([]);
  });
});
