// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExportLogEntry } from '../api/export-log.ts';
import { ExportLogTable, ExportRightSetting } from './export-settings.tsx';

// The admins' export setting and log against stand-ins for their queries.

const state = vi.hoisted(() => ({
  settings: { isPending: false, isError: false, data: { staff_can_export: false } } as object,
  saved: [] as boolean[],
  saveFails: false,
  log: { isPending: false, isError: false, data: [] as unknown[] } as object,
}));

vi.mock('../api/export-log.ts', () => ({ useExportLog: () => state.log }));
vi.mock('../api/export-settings.ts', async () => {
  const { useState } = await import('react');
  return {
    useDeskSettings: () => state.settings,
    useSetStaffCanExport: () => {
      const [isError, setError] = useState(false);
      return {
        isPending: false,
        isError,
        mutate: (value: boolean, options?: { onSuccess?: () => void }) => {
          state.saved.push(value);
          if (state.saveFails) setError(true);
          else options?.onSuccess?.();
        },
      };
    },
  };
});
vi.mock('../api/forms.ts', () => ({
  useFormList: () => ({ data: [{ id: 2, title: 'PKV' }] }),
}));

const entry = (overrides: Partial<ExportLogEntry>): ExportLogEntry => ({
  id: 1,
  user_id: 'u1',
  email: 'chefin@example.de',
  created_at: '2026-11-23T09:05:00Z',
  scope: 'analysis',
  format: 'xlsx',
  filter: { questionnaire_id: 2 },
  row_count: 40,
  rows_written: 40,
  finished_at: '2026-11-23T09:05:03Z',
  cancelled: false,
  ...overrides,
});

beforeEach(() => {
  state.settings = { isPending: false, isError: false, data: { staff_can_export: false } };
  state.saved = [];
  state.saveFails = false;
});
afterEach(cleanup);

describe('ExportRightSetting', () => {
  it('saves the choice and confirms it in German', async () => {
    render(<ExportRightSetting />);
    const user = userEvent.setup();
    const box = screen.getByLabelText('Mitarbeitende dürfen exportieren');
    expect(box).toHaveProperty('checked', false);
    await user.click(box);
    expect(state.saved).toEqual([true]);
    expect(screen.getByRole('status').textContent).toBe(
      'Gespeichert: Mitarbeitende dürfen jetzt exportieren.',
    );
  });

  it('says when saving failed and when the setting cannot be read', async () => {
    state.saveFails = true;
    render(<ExportRightSetting />);
    await userEvent.setup().click(screen.getByLabelText('Mitarbeitende dürfen exportieren'));
    expect(screen.getByRole('alert').textContent).toBe(
      'Die Einstellung konnte nicht gespeichert werden. Bitte versuche es erneut.',
    );
    cleanup();
    state.settings = { isPending: false, isError: true };
    render(<ExportRightSetting />);
    expect(screen.getByRole('alert').textContent).toMatch(/konnte nicht geladen werden/);
  });
});

describe('ExportLogTable', () => {
  it('lists who exported what, in words', () => {
    state.log = {
      isPending: false,
      isError: false,
      data: [
        entry({}),
        entry({
          id: 2,
          email: null,
          scope: 'customers',
          format: 'csv',
          filter: { customer_search: 'meier' },
          rows_written: 12,
          cancelled: true,
        }),
      ],
    };
    render(<ExportLogTable />);
    const table = screen.getByRole('table', { name: 'Die letzten Exporte' });
    const [, first, second] = within(table).getAllByRole('row');
    expect(
      within(first!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([
      '23.11.2026, 10:05',
      'chefin@example.de',
      'Excel (XLSX)',
      'Analyse · gesamter Zeitraum · Fragebogen: PKV',
      '40',
      'abgeschlossen',
    ]);
    expect(
      within(second!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([
      '23.11.2026, 10:05',
      'Gelöschtes Konto',
      'CSV',
      'Kunden · gesamter Zeitraum · alle Anfragen · Suche „meier“',
      '12 von 40',
      'abgebrochen',
    ]);
  });

  it('says when there are no exports yet', () => {
    state.log = { isPending: false, isError: false, data: [] };
    render(<ExportLogTable />);
    expect(screen.getByRole('status').textContent).toBe('Noch keine Exporte.');
  });
});
