// @vitest-environment jsdom
import type { SupabaseClient } from '@supabase/supabase-js';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { Database } from '../../domain/database.types.ts';
import { SupabaseContext } from '../api/supabase-context.ts';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StaffAccount } from '../api/staff.ts';
import { RoleCell } from './role-cell.tsx';

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

const lastAdmin: StaffAccount = {
  user_id: 'a1',
  email: 'chefin@example.de',
  registered_at: '2026-11-01T09:00:00Z',
  confirmed_at: '2026-11-01T09:05:00Z',
  role: 'admin',
};

afterEach(cleanup);

describe('the role menu of an account', () => {
  it('puts the menu back on the real role when the last admin may not step down', async () => {
    const { rpc, wrapper } = stubSupabase();
    rpc.mockResolvedValue({
      data: null,
      error: { code: 'UL001', message: 'Der letzte Admin kann nicht entfernt werden.' },
    });
    const user = userEvent.setup();
    render(<RoleCell account={lastAdmin} />, { wrapper });
    const menu = screen.getByRole('combobox', { name: 'Rolle für chefin@example.de' });

    await user.selectOptions(menu, 'staff');
    expect(menu).toHaveProperty('value', 'staff');
    await user.click(screen.getByRole('button', { name: 'Rolle für chefin@example.de speichern' }));

    expect(rpc).toHaveBeenCalledWith('set_staff_role', { user_id: 'a1', role: 'staff' });
    const error = await screen.findByRole('alert');
    expect(error.textContent).toBe(
      'Der letzte Admin kann nicht entfernt oder herabgestuft werden. Ernenne zuerst ein weiteres Konto zum Admin.',
    );
    // The menu shows what the database holds, and the error stays tied to it.
    await waitFor(() => expect(menu).toHaveProperty('value', 'admin'));
    expect(menu.getAttribute('aria-describedby')).toBe(error.id);
  });

  it('keeps a saved change', async () => {
    const { rpc, wrapper } = stubSupabase();
    const user = userEvent.setup();
    render(<RoleCell account={{ ...lastAdmin, role: 'staff' }} />, { wrapper });
    const menu = screen.getByRole('combobox', { name: 'Rolle für chefin@example.de' });
    await user.selectOptions(menu, 'admin');
    await user.click(screen.getByRole('button', { name: 'Rolle für chefin@example.de speichern' }));
    await waitFor(() => expect(rpc).toHaveBeenCalledTimes(1));
    expect(menu).toHaveProperty('value', 'admin');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
