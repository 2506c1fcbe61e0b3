// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RetentionPreviewRow } from '../api/retention.ts';
import { RetentionOverview } from './retention-overview.tsx';

// The admins' view of the daily retention run against stand-ins for its two queries.

const state = vi.hoisted(() => ({
  preview: {} as object,
  lastRun: {} as object,
  retried: [] as string[],
}));

vi.mock('../api/retention.ts', async (importActual) => ({
  ...(await importActual<typeof import('../api/retention.ts')>()),
  useRetentionPreview: () => state.preview,
  useLastRetentionRun: () => state.lastRun,
}));

const loaded = (data: unknown) => ({ isPending: false, isError: false, data });
const failed = (name: string) => ({
  isPending: false,
  isError: true,
  refetch: () => state.retried.push(name),
});
const row = (kind: RetentionPreviewRow['kind'], items = 0, oldest: string | null = null) => ({
  kind,
  items,
  oldest,
});
const nothingDue = [
  row('leads'),
  row('answers'),
  row('customers'),
  row('consent_records'),
  row('files'),
  row('access_log'),
];

beforeEach(() => {
  state.retried = [];
  state.lastRun = loaded(null);
});
afterEach(cleanup);

describe('RetentionOverview', () => {
  it('lists what the next run removes, with the oldest date in Berlin', () => {
    state.preview = loaded([
      row('leads', 2, '2020-03-01T23:30:00Z'),
      row('answers', 6, '2020-03-01T23:30:00Z'),
      row('customers', 1, '2020-03-01T23:30:00Z'),
      row('consent_records', 0),
      row('files', 1234, '2026-10-01T10:00:00Z'),
      row('access_log', 0),
    ]);
    state.lastRun = loaded({
      started_at: '2026-11-25T02:30:00Z',
      finished_at: '2026-11-25T02:30:01Z',
      removed: { leads: 3, answers: 9, customers: 1, files: 0 },
    });
    render(<RetentionOverview />);
    const table = screen.getByRole('table', { name: 'Was der nächste Lauf löscht' });
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((tr) =>
        Array.from(tr.querySelectorAll('th, td'))
          .slice(0, 3)
          .map((cell) => cell.textContent),
      );
    // 23:30 UTC on 1 March is already 2 March in Berlin.
    expect(rows).toEqual([
      ['Kunden', '1', '02.03.2020'],
      ['Anfragen', '2', '02.03.2020'],
      ['Antworten', '6', '02.03.2020'],
      ['Einwilligungsnachweise', '0', '–'],
      ['Hochgeladene Dateien', '1.234', '01.10.2026'],
      ['Zugriffsprotokoll', '0', '–'],
    ]);
    expect(screen.getByText(/^Letzter Lauf:/).textContent).toBe(
      'Letzter Lauf: 25.11.2026, 03:30, 13 entfernt',
    );
  });

  it('says when nothing is due and when there was no run yet', () => {
    state.preview = loaded(nothingDue);
    render(<RetentionOverview />);
    expect(screen.getByRole('status').textContent).toBe(
      'Nichts fällig: Der nächste Lauf löscht nichts.',
    );
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByText('Letzter Lauf: noch keiner.')).toBeTruthy();
  });

  it('shows loading, and load errors with a retry each', async () => {
    state.preview = { isPending: true, isError: false };
    state.lastRun = { isPending: true, isError: false };
    render(<RetentionOverview />);
    expect(screen.getAllByRole('status').map((status) => status.textContent)).toEqual([
      'Vorschau wird geladen …',
      'Letzter Lauf wird geladen …',
    ]);
    cleanup();

    state.preview = failed('preview');
    state.lastRun = failed('lastRun');
    render(<RetentionOverview />);
    const alerts = screen.getAllByRole('alert');
    expect(alerts.map((alert) => alert.querySelector('p')?.textContent)).toEqual([
      'Die Vorschau der Löschung konnte nicht geladen werden.',
      'Der letzte Lauf konnte nicht geladen werden.',
    ]);
    const user = userEvent.setup();
    for (const alert of alerts) {
      await user.click(within(alert).getByRole('button', { name: 'Erneut versuchen' }));
    }
    expect(state.retried).toEqual(['preview', 'lastRun']);
  });
});
