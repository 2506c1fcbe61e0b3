// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AccessLogList } from './access-log-list.tsx';

// The access log as the staff page shows one account's entries, against a stand-in for the
// table read; the schema, labels and times are the real ones.

const fake = vi.hoisted(() => ({
  answer: { data: [] as unknown, error: null as unknown },
  filters: [] as unknown[][],
}));

vi.mock('../api/supabase-context.ts', () => {
  const chain = () => {
    const builder = {
      select: () => builder,
      eq: (...args: unknown[]) => {
        fake.filters.push(args);
        return builder;
      },
      order: () => builder,
      limit: () => Promise.resolve(fake.answer),
    };
    return builder;
  };
  const client = { from: chain };
  return { useSupabase: () => client };
});

function setup() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <AccessLogList subject={{ userId: 'u-1' }} caption="Zugriffe durch team@example.de" />
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

beforeEach(() => {
  fake.answer = { data: [], error: null };
  fake.filters = [];
});
afterEach(cleanup);

describe('AccessLogList', () => {
  it('lists one account’s entries with customer, Berlin time and the action in German', async () => {
    fake.answer = {
      data: [
        {
          id: 4,
          at: '2026-11-25T12:01:00Z',
          staff_email: 'team@example.de',
          action: 'lead_status_changed',
          customer_id: 7,
          detail: { response_id: 12, status: 'contacted' },
        },
        {
          id: 3,
          at: '2026-11-25T12:00:00Z',
          staff_email: 'team@example.de',
          action: 'customer_erased',
          customer_id: 7,
          detail: { leads: 2 },
        },
        {
          id: 2,
          at: '2026-11-25T11:59:00Z',
          staff_email: 'team@example.de',
          action: 'customer_searched',
          customer_id: null,
          detail: { term_redacted: true },
        },
        {
          id: 1,
          at: '2026-11-25T11:58:00Z',
          staff_email: 'team@example.de',
          action: 'customer_searched',
          customer_id: null,
          detail: { term: 'köln' },
        },
      ],
      error: null,
    };
    setup();
    const table = await screen.findByRole('table', { name: 'Zugriffe durch team@example.de' });
    const rows = table.querySelectorAll('tbody tr');
    expect([...rows].map((row) => row.textContent)).toEqual([
      '25.11.2026, 13:01Nr. 7Lead-Status geändertLead Nr. 12: Kontaktiert',
      '25.11.2026, 13:00Nr. 7Kunde gelöscht',
      '25.11.2026, 12:59–Kunden gesuchtSuchbegriff entfernt (Person gelöscht)',
      '25.11.2026, 12:58–Kunden gesuchtSuchbegriff „köln“',
    ]);
    expect(fake.filters).toEqual([['user_id', 'u-1']]);
  });

  it('names a customer an account created and the merges of one address', async () => {
    fake.answer = {
      data: [
        {
          id: 7,
          at: '2026-11-28T10:02:00Z',
          staff_email: null,
          action: 'customer_changed',
          customer_id: 101,
          detail: { merged_into: 100, reason: 'email_normalized' },
        },
        {
          id: 6,
          at: '2026-11-28T10:01:00Z',
          staff_email: null,
          action: 'customer_changed',
          customer_id: 100,
          detail: { merged_from: 101, leads: 1, reason: 'email_normalized' },
        },
        {
          id: 5,
          at: '2026-11-28T10:00:00Z',
          staff_email: 'team@example.de',
          action: 'customer_changed',
          customer_id: 102,
          detail: { created: true },
        },
      ],
      error: null,
    };
    setup();
    const table = await screen.findByRole('table', { name: 'Zugriffe durch team@example.de' });
    const rows = table.querySelectorAll('tbody tr');
    expect([...rows].map((row) => row.textContent)).toEqual([
      '28.11.2026, 11:02Nr. 101Kundendaten geändertGleiche E-Mail-Adresse: zusammengeführt in Nr. 100',
      '28.11.2026, 11:01Nr. 100Kundendaten geändertGleiche E-Mail-Adresse: Nr. 101 übernommen',
      '28.11.2026, 11:00Nr. 102Kundendaten geändertDatensatz angelegt',
    ]);
  });

  it('says when there is nothing to show', async () => {
    setup();
    expect(await screen.findByText('Keine Einträge im Zugriffsprotokoll.')).toBeTruthy();
  });

  it('offers to try again when the log could not be read', async () => {
    fake.answer = { data: null, error: { code: '57014', message: 'timeout' } };
    const user = setup();
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /Zugriffsprotokoll konnte nicht geladen werden/,
    );
    fake.answer = { data: [], error: null };
    await user.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(await screen.findByText('Keine Einträge im Zugriffsprotokoll.')).toBeTruthy();
  });
});
