// Finding a form's fields in a DOM test as assistive technology (and Playwright) names them.
import { screen } from '@testing-library/react';
import { expect } from 'vitest';

/** A field by its accessible name; the name of a labelled required field leaves out the '*'. */
export const fieldNamed = (name: string | RegExp) =>
  screen.queryByRole<HTMLInputElement>('textbox', { name }) ??
  screen.queryByRole<HTMLInputElement>('combobox', { name }) ??
  screen.getByRole<HTMLInputElement>('checkbox', { name });

/** The problem a field shows and announces with it (aria-invalid, aria-describedby), if any. */
export function problemOf(name: string | RegExp): string | undefined {
  const field = fieldNamed(name);
  const describedBy = field.getAttribute('aria-describedby');
  const message = describedBy ? document.getElementById(describedBy)?.textContent : undefined;
  expect(field.getAttribute('aria-invalid')).toBe(message ? 'true' : null);
  return message ?? undefined;
}
