// @vitest-environment jsdom
import { act, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { IslandDefinition } from './island-definition.ts';
import * as loader from './loader.ts';
import { heldClickAttribute, islandRunningAttribute, startIslands } from './start-islands.ts';

// React's part, watched: a page whose islands are all plain DOM must not load it.
vi.mock('./mount-react.tsx', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./mount-react.tsx')>();
  return { mountReact: vi.fn(actual.mountReact) };
});
const { mountReact } = vi.mocked(await import('./mount-react.tsx'));

function Status() {
  return <p>läuft</p>;
}

function Form() {
  return (
    <form>
      <input name="vorname" defaultValue="" />
      <button type="submit">Absenden</button>
    </form>
  );
}

/** A questionnaire's step: a tap on an answer is all it takes. */
function Choice() {
  const [chosen, setChosen] = useState('');
  return (
    <div>
      <p>{chosen || 'Noch nichts'}</p>
      <button type="button" onClick={() => setChosen((before) => before || 'Eins')}>
        Eins
      </button>
      <button type="button" onClick={() => setChosen((before) => before || 'Zwei')}>
        Zwei
      </button>
    </div>
  );
}

/** A registry whose code the test counts. */
function registry() {
  const status = vi.fn(async () => Status);
  const form = vi.fn(async () => Form);
  const islands: Record<string, IslandDefinition> = {
    status: { start: 'load', code: status },
    form: { start: 'interaction', code: form },
  };
  return { islands, status, form };
}

afterEach(() => {
  document.body.innerHTML = '';
  mountReact.mockClear();
});

describe('the islands of a prerendered page', () => {
  it('starts a load island at once and a first-use island at its first use, each once', async () => {
    // The page as the build wrote it: the status slot empty, the form's HTML there.
    document.body.innerHTML =
      `
      <div data-island="status" class="contents"></div>
      <div data-island="form" class="contents"><form><input name="vorname" value="">` +
      `<button type="submit" disabled>Absenden</button></form></div>
      <div data-island="unbekannt" class="contents"><p>statisch</p></div>`;
    const { islands, status, form } = registry();
    await act(async () => startIslands(islands));

    expect(status).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(document.body.textContent).toContain('läuft'));
    // The form waits for the visitor; its button may be used meanwhile (a submit is held).
    expect(form).not.toHaveBeenCalled();
    expect(document.querySelector('button')!.disabled).toBe(false);

    const input = document.querySelector('input')!;
    await act(async () => {
      input.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
      input.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
    });
    expect(form).toHaveBeenCalledTimes(1);
    await waitFor(() =>
      expect(
        Object.keys(document.querySelector('[data-island="form"]')!).some((key) =>
          key.startsWith('__reactContainer$'),
        ),
      ).toBe(true),
    );
    await act(async () => {
      document
        .querySelector('input')!
        .dispatchEvent(new KeyboardEvent('keydown', { bubbles: true }));
    });
    expect(form).toHaveBeenCalledTimes(1);
    expect(status).toHaveBeenCalledTimes(1);
    // A name the registry does not know stays static HTML.
    expect(document.querySelector('[data-island="unbekannt"]')!.innerHTML).toBe('<p>statisch</p>');
  });

  it('keeps what the visitor typed before the form ran', async () => {
    document.body.innerHTML =
      '<div data-island="form" class="contents"><form><input name="vorname" value="">' +
      '<button type="submit" disabled>Absenden</button></form></div>';
    const { islands, form } = registry();
    await act(async () => startIslands(islands));
    const input = document.querySelector('input')!;
    input.value = 'Jürgen';
    await act(async () => {
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    expect(form).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(document.querySelector('input')!.value).toBe('Jürgen'));
  });

  it('tries again at the next use when the code did not arrive', async () => {
    document.body.innerHTML =
      '<div data-island="form" class="contents"><form><input name="vorname" value="">' +
      '<button type="submit" disabled>Absenden</button></form></div>';
    const { islands, form } = registry();
    form.mockRejectedValueOnce(new Error('offline'));
    await act(async () => startIslands(islands));
    const input = document.querySelector('input')!;
    await act(async () => {
      input.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    });
    expect(form).toHaveBeenCalledTimes(1);
    await act(async () => {
      input.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    });
    expect(form).toHaveBeenCalledTimes(2);
  });

  it('starts a DOM island on the HTML the build wrote, without React', async () => {
    document.body.innerHTML =
      '<div data-island="status" class="contents"><p>Online</p></div>' +
      '<div data-island="form" class="contents"><form><input name="vorname" value="">' +
      '<button type="submit" disabled>Absenden</button></form></div>';
    const start = vi.fn((element: HTMLElement) => {
      element.querySelector('p')!.textContent = 'Offline';
    });
    const { islands, form } = registry();
    islands['status'] = { start: 'load', kind: 'dom', code: async () => start };
    await act(async () => startIslands(islands));

    await vi.waitFor(() => expect(start).toHaveBeenCalledTimes(1));
    const status = document.querySelector<HTMLElement>('[data-island="status"]')!;
    expect(start).toHaveBeenCalledWith(status);
    expect(status.innerHTML).toBe('<p>Offline</p>');
    expect(Object.keys(status).some((key) => key.startsWith('__react'))).toBe(false);
    // React only with the first React island that starts: the form, at its first use.
    expect(mountReact).not.toHaveBeenCalled();
    await act(async () => {
      document.querySelector('input')!.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    });
    expect(form).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(mountReact).toHaveBeenCalledTimes(1));
  });

  it('repeats the first tap on a button that came before the island ran, once', async () => {
    // The loader listens from the HTML's parse on; the starter uses the same names.
    expect([loader.heldClickAttribute, loader.islandRunningAttribute]).toEqual([
      heldClickAttribute,
      islandRunningAttribute,
    ]);
    document.body.innerHTML =
      '<div data-island="choice" class="contents"><div><p>Noch nichts</p>' +
      '<button type="button">Eins</button><button type="button">Zwei</button></div></div>';
    loader.holdFirstClicks(document);
    const [one, two] = document.querySelectorAll('button');
    two!.click();
    one!.click();
    expect(two!.hasAttribute(heldClickAttribute)).toBe(true);
    expect(one!.hasAttribute(heldClickAttribute)).toBe(false);

    const choice = vi.fn(async () => Choice);
    await act(async () => startIslands({ choice: { start: 'load', code: choice } }));
    await waitFor(() => expect(document.querySelector('p')!.textContent).toBe('Zwei'));
    const island = document.querySelector('[data-island="choice"]')!;
    expect(island.hasAttribute(islandRunningAttribute)).toBe(true);
    expect(island.querySelector(`[${heldClickAttribute}]`)).toBeNull();

    // Running, the island hears its taps itself; the loader holds none.
    await act(async () => document.querySelectorAll('button')[0]!.click());
    expect(island.querySelector(`[${heldClickAttribute}]`)).toBeNull();
  });
});
