import type { IslandDefinition } from './island-definition.ts';

// The islands of a prerendered public page (src/island-registry.ts): each `<Island>` element
// starts at once or at the visitor's first use. This module imports no React: a React island
// brings React with its own code (./mount-react.tsx), a DOM island takes over its HTML with a
// plain function, so a page whose islands are all plain DOM runs without React.

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** A form control's value as the visitor left it: text, or the checked state. */
interface TypedValue {
  key: string;
  value: string | boolean;
}

function controlsIn(element: HTMLElement): Control[] {
  return [...element.querySelectorAll<Control>('input, select, textarea')];
}

/** Name and position: the same control after hydration, even if React replaced the element. */
function controlKey(control: Control, index: number): string {
  return `${control.name || control.id}#${index}`;
}

function isToggle(control: Control): control is HTMLInputElement {
  return control instanceof HTMLInputElement && ['checkbox', 'radio'].includes(control.type);
}

/** What the visitor typed or ticked before the island ran: the controls that left the HTML's state. */
function typedValues(element: HTMLElement): TypedValue[] {
  return controlsIn(element).flatMap((control, index): TypedValue[] => {
    const key = controlKey(control, index);
    if (isToggle(control)) {
      return control.checked === control.defaultChecked ? [] : [{ key, value: control.checked }];
    }
    if (control instanceof HTMLSelectElement) {
      const changed = [...control.options].some(
        (option) => option.selected !== option.defaultSelected,
      );
      return changed ? [{ key, value: control.value }] : [];
    }
    return control.value === control.defaultValue ? [] : [{ key, value: control.value }];
  });
}

/**
 * Gives the typed values back to the now running form, as events the form's code hears (a form
 * library may reset a field to its default when it registers it).
 */
function restoreTypedValues(element: HTMLElement, typed: TypedValue[]) {
  if (typed.length === 0) return;
  const wanted = new Map(typed.map(({ key, value }) => [key, value]));
  controlsIn(element).forEach((control, index) => {
    const value = wanted.get(controlKey(control, index));
    if (value === undefined) return;
    if (isToggle(control)) {
      // A click toggles it and is what React's onChange listens to for checkboxes.
      if (control.checked !== value) control.click();
      return;
    }
    if (control.value === value) return;
    const prototype = Object.getPrototypeOf(control) as object;
    // The prototype's setter: React's own tracking of the value must see the change.
    Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(control, value);
    const type = control instanceof HTMLSelectElement ? 'change' : 'input';
    control.dispatchEvent(new Event(type, { bubbles: true }));
  });
}

/** A way to put an island's code on its element; `onCommit` runs once that is in the document. */
type Mount = (element: HTMLElement, onCommit: () => void) => void;

/** Loads an island's code; for a React island React's part too, in parallel. */
async function loadCode(island: IslandDefinition): Promise<Mount> {
  if (island.kind === 'dom') {
    const start = await island.code();
    return (element, onCommit) => {
      start(element);
      onCommit();
    };
  }
  const [Component, { mountReact }] = await Promise.all([
    island.code(),
    import('./mount-react.tsx'),
  ]);
  return (element, onCommit) => mountReact(element, Component, onCommit);
}

/**
 * The attributes src/islands/loader.ts marks a tap with that came before the island ran: the
 * same names there (the loader is a chunk of its own and imports nothing, so they are repeated).
 */
export const heldClickAttribute = 'data-held-click';
export const islandRunningAttribute = 'data-island-running';

/** A held tap: which button, by its position among the island's buttons and its text. */
interface HeldClick {
  index: number;
  text: string | null;
}

const tapTargets = (element: HTMLElement) => [
  ...element.querySelectorAll<HTMLButtonElement>('button[type="button"]'),
];

/** Takes the loader's mark off the button of a first tap, so the HTML is the build's again. */
function takeHeldClick(element: HTMLElement): HeldClick | undefined {
  const button = element.querySelector<HTMLButtonElement>(`[${heldClickAttribute}]`);
  if (!button) return undefined;
  button.removeAttribute(heldClickAttribute);
  return { index: tapTargets(element).indexOf(button), text: button.textContent };
}

/**
 * Repeats a held tap on the running island, when the button there is still the one tapped (the
 * island may render something else, a questionnaire a resumed draft's step).
 */
function replayClick(element: HTMLElement, held: HeldClick | undefined) {
  if (!held) return;
  const button = tapTargets(element)[held.index];
  if (button && !button.disabled && button.textContent === held.text) button.click();
}

const usedEvents = ['focusin', 'pointerdown', 'keydown', 'input', 'change'] as const;

/**
 * Starts one island, at once or at its first use; nothing the visitor did before is lost: what
 * they typed, a form they sent, the first button they tapped.
 */
function startIsland(element: HTMLElement, islands: Readonly<Record<string, IslandDefinition>>) {
  const name = element.dataset['island'] ?? '';
  const island = Object.hasOwn(islands, name) ? islands[name] : undefined;
  if (!island) return;
  const definition: IslandDefinition = island;

  // A form sent before its code runs must not be sent by the browser (a GET with the visitor's
  // data in the address): it is held and sent by the form's own code once that runs.
  let heldSubmit: HTMLFormElement | undefined;
  const holdSubmit = (event: SubmitEvent) => {
    event.preventDefault();
    heldSubmit = event.target as HTMLFormElement;
    run();
  };
  element.addEventListener('submit', holdSubmit, true);

  let started = false;
  function run() {
    if (started) return;
    started = true;
    for (const type of usedEvents) element.removeEventListener(type, run, true);
    loadCode(definition).then(
      (mount) => {
        const typed = typedValues(element);
        let click = takeHeldClick(element);
        // From here on the island's own code hears a tap (React replays one that comes while
        // it hydrates), so the loader no longer holds one.
        element.setAttribute(islandRunningAttribute, '');
        mount(element, () => {
          restoreTypedValues(element, typed);
          const held = click;
          click = undefined;
          replayClick(element, held);
          element.removeEventListener('submit', holdSubmit, true);
          const form = heldSubmit;
          heldSubmit = undefined;
          if (form?.isConnected) form.requestSubmit();
        });
      },
      () => {
        // Its code did not arrive (offline without the service worker): the HTML stays; the
        // next use tries again.
        started = false;
        listen();
      },
    );
  }
  function listen() {
    for (const type of usedEvents)
      element.addEventListener(type, run, { capture: true, passive: true });
  }

  if (definition.start === 'load') {
    run();
    return;
  }
  // The HTML disables a form's submit button, so that a page without its code never sends the
  // form by itself (a GET with the visitor's data in the address). From here on a submit is held
  // until the form runs, so the button may be used. React leaves the attribute as it finds it
  // while hydrating and owns it from then on. The form's code is fetched, not run, once the page
  // has loaded (the loader's prefetches, src/islands/loader.ts): on hand offline, no main-thread
  // work before the visitor uses the form.
  for (const button of element.querySelectorAll<HTMLButtonElement>('button[type="submit"]')) {
    button.disabled = false;
  }
  // A visitor already in one of its fields used it before this code arrived.
  if (element.contains(document.activeElement)) run();
  else listen();
}

/** Starts every island in `root` that `islands` knows; an unknown name stays static HTML. */
export function startIslands(
  islands: Readonly<Record<string, IslandDefinition>>,
  root: ParentNode = document,
): void {
  for (const element of root.querySelectorAll<HTMLElement>('[data-island]')) {
    startIsland(element, islands);
  }
}
