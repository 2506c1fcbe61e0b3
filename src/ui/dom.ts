/** Attributes of an element made by `h`: `className`, `data-*`, `aria-*` and the like; false omits. */
type Attributes = Record<string, string | boolean | undefined>;

/**
 * A DOM element with its attributes and children, for the plain DOM islands (they run before
 * React and must not bring it). The text goes in as text, never as HTML.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name === 'className' ? 'class' : name, value === true ? '' : value);
  }
  element.append(...children);
  return element;
}
