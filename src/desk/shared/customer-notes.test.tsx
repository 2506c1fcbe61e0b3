// @vitest-environment jsdom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CustomerNote } from '../api/customer-notes.ts';
import { CustomerNotes } from './customer-notes.tsx';

// The notes against stand-ins for the reads and writes; the 15 minutes are the database's rule,
// the list only follows them (tests/database/follow-ups-notes.test.ts holds the rule itself).
const state = vi.hoisted(() => ({
  notes: [] as CustomerNote[],
  add: vi.fn(),
  edit: vi.fn(),
  remove: vi.fn(),
  removeError: null as Error | null,
}));

vi.mock('../api/customer-notes.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../api/customer-notes.ts')>()),
  useCustomerNotes: () => ({
    data: state.notes,
    isPending: false,
    isError: false,
    refetch: vi.fn(),
  }),
  useAddCustomerNote: () => ({ mutateAsync: state.add }),
  useEditCustomerNote: () => ({ mutateAsync: state.edit }),
  // As React Query's mutation: mutate with callbacks, its error kept until reset.
  useDeleteCustomerNote: () => ({
    mutate: (id: number, options: { onSuccess?: () => void }) => {
      state.remove(id);
      if (state.removeError) return;
      options.onSuccess?.();
    },
    reset: vi.fn(),
    isPending: false,
    error: state.removeError,
  }),
}));

const now = new Date('2026-11-25T10:00:00Z');
const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();

const note = (overrides: Partial<CustomerNote>): CustomerNote => ({
  id: 1,
  body: 'Ruft zurück',
  author: 'me',
  author_name: 'Mia Mitarbeiterin',
  mine: true,
  created_at: minutesAgo(5),
  updated_at: null,
  ...overrides,
});

beforeEach(() => {
  vi.useFakeTimers({ now, toFake: ['Date'] });
  state.add.mockReset();
  state.edit.mockReset();
  state.remove.mockReset();
  state.removeError = null;
});
afterEach(() => {
  vi.useRealTimers();
  cleanup();
});

describe('CustomerNotes', () => {
  it('lists newest first with author, Berlin time and the edited mark', () => {
    state.notes = [
      note({ id: 2, body: 'Neu', created_at: minutesAgo(1), updated_at: minutesAgo(0) }),
      note({
        id: 1,
        body: 'Alt',
        author_name: 'Anna Admin',
        mine: false,
        created_at: minutesAgo(60),
      }),
    ];
    render(<CustomerNotes customerId={7} />);
    const items = screen.getAllByRole('listitem');
    expect(items[0]!.textContent).toContain(
      'Mia Mitarbeiterin · 25.11.2026, 10:59 Uhr · bearbeitet',
    );
    expect(items[1]!.textContent).toContain('Anna Admin · 25.11.2026, 10:00 Uhr');
    expect(items[1]!.textContent).not.toContain('bearbeitet');
  });

  it('offers editing only for the own note within 15 minutes', () => {
    state.notes = [
      note({ id: 3, body: 'Frisch', created_at: minutesAgo(14) }),
      note({ id: 2, body: 'Fest', created_at: minutesAgo(16) }),
      note({ id: 1, body: 'Fremd', mine: false, created_at: minutesAgo(1) }),
    ];
    render(<CustomerNotes customerId={7} />);
    const [fresh, fixed, foreign] = screen.getAllByRole('listitem');
    expect(within(fresh!).getByRole('button', { name: 'Bearbeiten' })).toBeTruthy();
    expect(within(fixed!).queryByRole('button', { name: 'Bearbeiten' })).toBeNull();
    expect(within(foreign!).queryByRole('button', { name: 'Bearbeiten' })).toBeNull();
    // Deleting follows the same 15 minutes of the own note.
    expect(within(fresh!).getByRole('button', { name: 'Notiz löschen: Frisch' })).toBeTruthy();
    expect(within(fixed!).queryByRole('button', { name: /^Notiz löschen/ })).toBeNull();
    expect(within(foreign!).queryByRole('button', { name: /^Notiz löschen/ })).toBeNull();
  });

  it('deletes the own fresh note only after asking, the harmless choice first', async () => {
    state.notes = [note({ id: 3, body: 'Versehentlich notiert', created_at: minutesAgo(2) })];
    render(<CustomerNotes customerId={7} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Notiz löschen: Versehentlich notiert' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Notiz löschen?' });
    expect(dialog.textContent).toContain('„Versehentlich notiert“ wird gelöscht.');
    expect(document.activeElement?.textContent).toBe('Abbrechen');
    await user.click(within(dialog).getByRole('button', { name: 'Abbrechen' }));
    expect(state.remove).not.toHaveBeenCalled();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());

    await user.click(screen.getByRole('button', { name: 'Notiz löschen: Versehentlich notiert' }));
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Löschen' }),
    );
    expect(state.remove).toHaveBeenCalledWith(3);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });

  it('says in the dialog when the 15 minutes ran out before the delete', async () => {
    const { NoteFixedError } = await import('../api/customer-notes.ts');
    state.removeError = new NoteFixedError();
    state.notes = [note({ id: 3, body: 'Knapp', created_at: minutesAgo(14) })];
    render(<CustomerNotes customerId={7} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Notiz löschen: Knapp' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Notiz löschen?' });
    expect(within(dialog).getByRole('alert').textContent).toBe(
      'Notizen sind nach 15 Minuten fest.',
    );
  });

  it('adds a note and refuses an empty one at the field', async () => {
    state.notes = [];
    state.add.mockResolvedValue(undefined);
    render(<CustomerNotes customerId={7} />);
    const user = userEvent.setup();
    const field = screen.getByLabelText('Neue Notiz');
    await user.click(screen.getByRole('button', { name: 'Notiz hinzufügen' }));
    // The form validates asynchronously: wait for the message, then check the field.
    expect(await screen.findByText('Bitte eine Notiz eingeben.')).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    await user.type(field, 'Termin am Freitag');
    await user.click(screen.getByRole('button', { name: 'Notiz hinzufügen' }));
    await waitFor(() => expect(state.add).toHaveBeenCalledWith('Termin am Freitag'));
  });

  it('says a late save is too late, in German at the field', async () => {
    state.notes = [note({ id: 3, body: 'Frisch', created_at: minutesAgo(14) })];
    const { NoteFixedError } = await import('../api/customer-notes.ts');
    state.edit.mockRejectedValue(new NoteFixedError());
    render(<CustomerNotes customerId={7} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Bearbeiten' }));
    const field = screen.getByLabelText('Notiz bearbeiten');
    await user.type(field, ' ergänzt');
    await user.click(screen.getByRole('button', { name: 'Speichern' }));
    expect(state.edit).toHaveBeenCalledWith({ id: 3, body: 'Frisch ergänzt' });
    expect(await screen.findByText('Notizen sind nach 15 Minuten fest.')).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
  });
});
