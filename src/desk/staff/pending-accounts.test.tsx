// @vitest-environment jsdom
import type { SupabaseClient } from '@supabase/supabase-js';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { Database } from '../../domain/database.types.ts';
import { SupabaseContext } from '../api/supabase-context.ts';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StaffAccount } from '../api/staff.ts';
import { PendingAccounts } from './pending-accounts.tsx';

/**
 * The staff screen's hooks as they are, over a stand-in client whose `rpc` answers what the test
 * says (`{ error: null }` unless told otherwise) and records each call.
 */
function stubSupabase() {
  const rpc = vi.fn(
    async (_name: string, _args: object): Promise<{ data: null; error: object | null }> => ({
      data: null,
      error: null,
    }),
  );
  const client = { rpc } as unknown as SupabaseClient<Database>;
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <SupabaseContext.Provider value={client}>{children}</SupabaseContext.Provider>
    </QueryClientProvider>
  );
  return { rpc, wrapper };
}

// jsdom has no ResizeObserver; Headless UI's dialog watches its panel with one.
vi.stubGlobal(
  'ResizeObserver',
  class {
    observe() {}
    unobserve() {}
    disconnect() {}
  },
);

const account = (email: string, role: StaffAccount['role'], id: string): StaffAccount => ({
  user_id: id,
  email,
  registered_at: '2026-11-27T08:30:00Z',
  confirmed_at: role === 'pending' && id === 'p2' ? null : '2026-11-27T08:35:00Z',
  role,
});

const accounts = [
  account('neu@example.de', 'pending', 'p1'),
  account('unbestaetigt@example.de', 'pending', 'p2'),
  account('kollege@example.de', 'staff', 's1'),
];

afterEach(cleanup);

describe('registrations waiting for approval', () => {
  it('lists only the waiting ones, with date and whether the address is confirmed', () => {
    const { wrapper } = stubSupabase();
    render(<PendingAccounts accounts={accounts} />, { wrapper });
    const items = screen.getAllByRole('listitem');
    expect(items.map((item) => item.querySelector('p')?.textContent)).toEqual([
      'neu@example.de',
      'unbestaetigt@example.de',
    ]);
    expect(items[0]!.textContent).toContain('Registriert am 27.11.2026, 09:30');
    expect(items[0]!.textContent).toContain('E-Mail-Adresse bestätigt');
    expect(items[1]!.textContent).toContain('E-Mail-Adresse noch nicht bestätigt');
  });

  it('says when nobody waits', () => {
    const { wrapper } = stubSupabase();
    render(<PendingAccounts accounts={[accounts[2]!]} />, { wrapper });
    expect(screen.getByText('Keine Registrierung wartet auf Freigabe.')).toBeTruthy();
  });

  it('enables an account only after the confirmation, which names the mail', async () => {
    const { rpc, wrapper } = stubSupabase();
    const user = userEvent.setup();
    render(<PendingAccounts accounts={accounts} />, { wrapper });

    await user.click(screen.getByRole('button', { name: 'neu@example.de freigeben' }));
    let dialog = screen.getByRole('alertdialog', { name: 'Konto freigeben?' });
    expect(dialog.textContent).toContain('neu@example.de wird Mitarbeiter');
    expect(dialog.textContent).toContain('bekommt eine E-Mail');
    // The harmless choice has the focus; cancelling calls nothing.
    expect(document.activeElement?.textContent).toBe('Abbrechen');
    await user.click(within(dialog).getByRole('button', { name: 'Abbrechen' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(rpc).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'neu@example.de freigeben' }));
    dialog = screen.getByRole('alertdialog', { name: 'Konto freigeben?' });
    await user.click(within(dialog).getByRole('button', { name: 'Freigeben' }));
    expect(rpc).toHaveBeenCalledWith('set_staff_role', { user_id: 'p1', role: 'staff' });
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.getByRole('status').textContent).toBe(
      'neu@example.de ist freigeschaltet. Eine E-Mail mit dem Link zur Anmeldung ist unterwegs.',
    );
  });

  it('refuses a registration after a confirmation that says it is deleted', async () => {
    const { rpc, wrapper } = stubSupabase();
    const user = userEvent.setup();
    render(<PendingAccounts accounts={accounts} />, { wrapper });

    await user.click(
      screen.getByRole('button', { name: 'Registrierung von unbestaetigt@example.de ablehnen' }),
    );
    const dialog = screen.getByRole('alertdialog', { name: 'Registrierung ablehnen?' });
    expect(dialog.textContent).toContain(
      'Die Registrierung von unbestaetigt@example.de wird gelöscht',
    );
    expect(dialog.textContent).toContain('bekommt keine Nachricht');
    await user.click(within(dialog).getByRole('button', { name: 'Ablehnen' }));
    expect(rpc).toHaveBeenCalledWith('refuse_staff_account', { user_id: 'p2' });
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe(
        'Die Registrierung von unbestaetigt@example.de ist abgelehnt und gelöscht.',
      ),
    );
  });

  it('explains in the dialog when the account was enabled meanwhile', async () => {
    const { rpc, wrapper } = stubSupabase();
    rpc.mockResolvedValue({ data: null, error: { code: 'UL002', message: 'not pending' } });
    const user = userEvent.setup();
    render(<PendingAccounts accounts={accounts} />, { wrapper });
    await user.click(
      screen.getByRole('button', { name: 'Registrierung von neu@example.de ablehnen' }),
    );
    const dialog = screen.getByRole('alertdialog', { name: 'Registrierung ablehnen?' });
    await user.click(within(dialog).getByRole('button', { name: 'Ablehnen' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Dieses Konto ist inzwischen freigeschaltet und kann nicht mehr abgelehnt werden. Die Liste wurde neu geladen.',
    );
    expect(dialog.textContent).not.toContain('not pending');
  });
});
