// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NameForm } from './name-form.tsx';

// The display name in Einstellungen against stand-ins for its query and set_display_name.

const state = vi.hoisted(() => ({
  name: {} as { data?: string | null; isPending: boolean; isError: boolean; refetch: () => void },
  saved: [] as string[],
  saveFails: false as false | true | { code: string },
}));

vi.mock('../api/account.ts', () => ({
  useOwnDisplayName: () => state.name,
  useSetDisplayName: () => ({
    mutateAsync: async (name: string) => {
      state.saved.push(name);
      if (state.saveFails === true) throw new Error('offline');
      if (state.saveFails) throw Object.assign(new Error('refused'), state.saveFails);
      return name;
    },
  }),
}));

/** The text of what a field's aria-describedby points at (its hint and error). */
function description(element: HTMLElement): string {
  const ids = element.getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
}

beforeEach(() => {
  state.name = { data: 'Erika Muster', isPending: false, isError: false, refetch: vi.fn() };
  state.saved = [];
  state.saveFails = false;
});
afterEach(cleanup);

describe('NameForm', () => {
  it('shows the current name and saves a new one, trimmed', async () => {
    const user = userEvent.setup();
    render(<NameForm />);
    const input = screen.getByLabelText('Anzeigename');
    expect((input as HTMLInputElement).value).toBe('Erika Muster');
    await user.clear(input);
    await user.type(input, '  Erika Beispiel ');
    await user.click(screen.getByRole('button', { name: 'Name speichern' }));
    expect(state.saved).toEqual(['Erika Beispiel']);
    expect((await screen.findByRole('status')).textContent).toContain('Name gespeichert.');
  });

  it('refuses more than 80 characters at the field, and a failed save too', async () => {
    const user = userEvent.setup();
    render(<NameForm />);
    const input = screen.getByLabelText('Anzeigename');
    await user.clear(input);
    await user.type(input, 'x'.repeat(81));
    await user.click(screen.getByRole('button', { name: 'Name speichern' }));
    expect(description(input)).toContain('Der Name darf höchstens 80 Zeichen lang sein.');
    expect(state.saved).toEqual([]);

    state.saveFails = true;
    await user.clear(input);
    await user.type(input, 'Erika');
    await user.click(screen.getByRole('button', { name: 'Name speichern' }));
    expect(description(input)).toContain('Der Name konnte nicht gespeichert werden.');
  });

  it('refuses an address or a line break at the field, and says why the database refused', async () => {
    const user = userEvent.setup();
    render(<NameForm />);
    const input = screen.getByLabelText('Anzeigename');
    await user.clear(input);
    await user.type(input, 'chef@example.de');
    await user.click(screen.getByRole('button', { name: 'Name speichern' }));
    expect(description(input)).toContain(
      'Ein Anzeigename ist keine E-Mail-Adresse. Bitte gib einen Namen ein.',
    );
    expect(state.saved).toEqual([]);

    state.saveFails = { code: '23505' };
    await user.clear(input);
    await user.type(input, 'Anna Admin');
    await user.click(screen.getByRole('button', { name: 'Name speichern' }));
    expect(description(input)).toContain(
      'Diesen Namen zeigt schon ein anderes Konto. Bitte wähle einen anderen.',
    );
  });

  it('offers to load again when the name could not be read', async () => {
    state.name = { isPending: false, isError: true, refetch: vi.fn() };
    render(<NameForm />);
    expect(screen.getByRole('alert').textContent).toContain(
      'Dein Name konnte nicht geladen werden.',
    );
    await userEvent.setup().click(screen.getByRole('button', { name: /erneut/i }));
    expect(state.name.refetch).toHaveBeenCalled();
  });
});
