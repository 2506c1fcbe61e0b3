// @vitest-environment jsdom
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { customerKeys, type CustomerResponse } from '../api/customers.ts';
import type { LeadStatus } from '../../domain/lead-status.ts';
import { LeadStatusControl } from './lead-status-panel.tsx';

// The status control with the real mutation (React Query, optimistic update, invalidation)
// against a stand-in for the database call: what it sends, what it shows while saving, after
// saving and when the database refuses.

// jsdom has no ResizeObserver; Headless UI's menu watches its button with one.
vi.stubGlobal(
  'ResizeObserver',
  class {
    observe() {}
    unobserve() {}
    disconnect() {}
  },
);

type RpcAnswer = { data: unknown; error: { code: string; message: string } | null };

const fake = vi.hoisted(() => ({
  calls: [] as { name: string; args: unknown }[],
  answer: null as null | Promise<RpcAnswer>,
  stored: 'new' as string,
}));

vi.mock('../api/supabase-context.ts', () => {
  const client = {
    rpc: (name: string, args: unknown) => {
      fake.calls.push({ name, args });
      return fake.answer ?? Promise.resolve({ data: [], error: null });
    },
  };
  return { useSupabase: () => client };
});

const lead = (status: LeadStatus) =>
  ({ id: 31, status, received_at: '2026-11-20T15:30:00Z' }) as CustomerResponse;

/** The answers' cache entry as the page reads it; its refetch answers the stored status. */
function Harness() {
  const leads = useQuery({
    queryKey: customerKeys.responses(7),
    queryFn: () => Promise.resolve([lead(fake.stored as LeadStatus)]),
  });
  if (!leads.data) return null;
  return <LeadStatusControl customerId={7} response={leads.data[0]!} />;
}

function setup() {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  client.setQueryData(customerKeys.responses(7), [lead('new')]);
  render(
    <QueryClientProvider client={client}>
      <Harness />
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

const statusLine = () => screen.getByText(/^Status:/).textContent;

beforeEach(() => {
  fake.calls = [];
  fake.answer = null;
  fake.stored = 'new';
});
afterEach(cleanup);

describe('LeadStatusControl', () => {
  it('saves the chosen status with the note in one choice and shows it at once', async () => {
    let answer!: (value: RpcAnswer) => void;
    fake.answer = new Promise((resolve) => (answer = resolve));
    const user = setup();
    expect(statusLine()).toBe('Status: Neu');
    await user.type(
      screen.getByLabelText('Notiz zur Statusänderung (optional)'),
      'Termin am Freitag, 10 Uhr',
    );
    await user.click(screen.getByRole('button', { name: 'Status ändern' }));
    await user.click(screen.getByRole('menuitem', { name: 'Termin vereinbart' }));
    expect(fake.calls).toEqual([
      {
        name: 'set_lead_status',
        args: { response_id: 31, status: 'appointment', note: 'Termin am Freitag, 10 Uhr' },
      },
    ]);
    // Shown before the database answers; the button says it is saving meanwhile.
    expect(statusLine()).toBe('Status: Termin vereinbart');
    const saving = screen.getByRole('button', { name: 'Status wird gespeichert …' });
    expect((saving as HTMLButtonElement).disabled).toBe(true);
    fake.stored = 'appointment';
    answer({ data: [], error: null });
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe(
        'Status auf „Termin vereinbart“ gesetzt.',
      ),
    );
    expect(
      (screen.getByLabelText('Notiz zur Statusänderung (optional)') as HTMLTextAreaElement).value,
    ).toBe('');
    expect(statusLine()).toBe('Status: Termin vereinbart');
  });

  it('offers the current status only with a note, which it then keeps on the lead', async () => {
    const user = setup();
    await user.click(screen.getByRole('button', { name: 'Status ändern' }));
    const current = screen.getByRole('menuitem', { name: 'Neu (aktuell)' });
    expect(current.getAttribute('aria-disabled')).toBe('true');
    await user.click(current);
    expect(fake.calls).toEqual([]);
    await user.keyboard('{Escape}');
    await user.type(screen.getByLabelText('Notiz zur Statusänderung (optional)'), 'Mailbox');
    await user.click(screen.getByRole('button', { name: 'Status ändern' }));
    await user.click(screen.getByRole('menuitem', { name: 'Neu (aktuell) – nur Notiz speichern' }));
    expect(fake.calls).toEqual([
      { name: 'set_lead_status', args: { response_id: 31, status: 'new', note: 'Mailbox' } },
    ]);
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Notiz gespeichert.'));
  });

  it('is worked by keyboard alone', async () => {
    const user = setup();
    screen.getByRole('button', { name: 'Status ändern' }).focus();
    await user.keyboard('{Enter}');
    // Opened, the first status that can be chosen is active (the current one, disabled without
    // a note, is skipped); the arrow moves on to the next.
    expect(screen.getByRole('menuitem', { name: 'Kontaktiert' }).hasAttribute('data-focus')).toBe(
      true,
    );
    await user.keyboard('{ArrowDown}{Enter}');
    await waitFor(() => expect(fake.calls).toHaveLength(1));
    expect(fake.calls[0]!.args).toMatchObject({ status: 'appointment' });
  });

  it('puts the status back and names the problem when saving fails', async () => {
    fake.answer = Promise.resolve({ data: null, error: { code: '08006', message: 'offline' } });
    const user = setup();
    await user.click(screen.getByRole('button', { name: 'Status ändern' }));
    await user.click(screen.getByRole('menuitem', { name: 'Abgeschlossen' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Der Status konnte nicht gespeichert werden. Bitte versuche es erneut.',
    );
    await waitFor(() => expect(statusLine()).toBe('Status: Neu'));
    const button = screen.getByRole('button', { name: 'Status ändern' });
    expect(button.getAttribute('aria-describedby')).toContain(
      screen.getByRole('alert').getAttribute('id'),
    );
  });

  it('ties a refused note to the note field', async () => {
    const user = setup();
    const field = screen.getByLabelText('Notiz zur Statusänderung (optional)');
    await user.click(field);
    await user.paste('x'.repeat(1001));
    await user.click(screen.getByRole('button', { name: 'Status ändern' }));
    await user.click(screen.getByRole('menuitem', { name: 'Kontaktiert' }));
    expect(fake.calls).toEqual([]);
    expect(field.getAttribute('aria-invalid')).toBe('true');
    const message = document.getElementById(field.getAttribute('aria-describedby')!);
    expect(message?.textContent).toBe('Die Notiz darf höchstens 1000 Zeichen lang sein.');

    // The database's own refusal lands at the same place.
    await user.clear(field);
    await user.type(field, 'kurz');
    fake.answer = Promise.resolve({ data: null, error: { code: '22023', message: 'zu lang' } });
    await user.click(screen.getByRole('button', { name: 'Status ändern' }));
    await user.click(screen.getByRole('menuitem', { name: 'Kontaktiert' }));
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(field.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Die Notiz darf höchstens 1000 Zeichen lang sein.',
    );
  });
});
