// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExportProgress, runExport } from '../api/export-run.ts';
import { XlsxWorkerDiedError } from '../api/export-worker-host.ts';
import { ExportMenu } from './export-menu.tsx';

// The menu against stand-ins for the export right and the export run: what it shows while it
// runs, after it, when cancelled and when the database refuses.

// jsdom has no ResizeObserver; Headless UI's menu watches its button with one.
vi.stubGlobal(
  'ResizeObserver',
  class {
    observe() {}
    unobserve() {}
    disconnect() {}
  },
);

type RunOptions = Parameters<typeof runExport>[0];

const state = vi.hoisted(() => ({
  canExport: true as boolean | undefined,
  run: null as null | ((options: RunOptions) => Promise<unknown>),
  calls: [] as RunOptions[],
}));

vi.mock('../api/supabase-context.ts', () => ({
  useSupabase: () => ({}),
  useSupabaseSettings: () => ({ url: 'http://127.0.0.1:9', anonKey: 'anon' }),
}));
vi.mock('../api/export-settings.ts', () => ({
  useCanExport: () => ({ data: state.canExport }),
}));
vi.mock('../api/export-run.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../api/export-run.ts')>()),
  runExport: (options: RunOptions) => {
    state.calls.push(options);
    return state.run!(options);
  },
}));

function renderMenu() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ExportMenu scope="customers" filter={{ customerSearch: 'meier' }} />
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

async function choose(user: ReturnType<typeof userEvent.setup>, label: string) {
  await user.click(screen.getByRole('button', { name: 'Exportieren' }));
  await user.click(screen.getByRole('menuitem', { name: label }));
}

const clicked: string[] = [];

beforeEach(() => {
  state.canExport = true;
  state.calls = [];
  clicked.length = 0;
  URL.createObjectURL = vi.fn(() => 'blob:export');
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    clicked.push(`${this.download} ${this.href}`);
  });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('ExportMenu', () => {
  it('renders nothing without the export right', () => {
    for (const right of [false, undefined]) {
      state.canExport = right;
      const { container } = render(
        <QueryClientProvider client={new QueryClient()}>
          <ExportMenu scope="analysis" filter={{}} />
        </QueryClientProvider>,
      );
      expect(container.innerHTML).toBe('');
      cleanup();
    }
  });

  it('shows progress, then downloads the file and says how many leads it holds', async () => {
    let finish: (value: unknown) => void = () => undefined;
    let report: RunOptions['onProgress'];
    state.run = (options) => {
      report = options.onProgress;
      options.onProgress?.({ done: 1000, total: 2500 } satisfies ExportProgress);
      return new Promise((resolve) => (finish = resolve));
    };
    const user = renderMenu();
    await choose(user, 'Excel-Datei (XLSX)');

    // The project's address and anon key go along: the export's worker reads the pages itself.
    expect(state.calls[0]).toMatchObject({
      settings: { url: 'http://127.0.0.1:9', anonKey: 'anon' },
      scope: 'customers',
      format: 'xlsx',
      filter: { customerSearch: 'meier' },
    });
    const progress = screen.getByLabelText('Export läuft');
    expect(progress.getAttribute('value')).toBe('1000');
    expect(progress.getAttribute('max')).toBe('2500');
    expect(screen.getByText('1000 von 2500 Anfragen')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Exportieren' })).toHaveProperty('disabled', true);
    act(() => report?.({ done: 2500, total: 2500, writing: true }));
    expect(screen.getByText('2500 von 2500 Anfragen gelesen, Datei wird erstellt …')).toBeTruthy();

    finish({ blob: new Blob(['x']), fileName: 'anfragen-2026-11-23.xlsx', rows: 2500 });
    expect(await screen.findByText(/Export fertig/)).toHaveProperty(
      'textContent',
      'Export fertig: 2500 Anfragen in anfragen-2026-11-23.xlsx.',
    );
    expect(clicked).toEqual(['anfragen-2026-11-23.xlsx blob:export']);
    expect(screen.queryByLabelText('Export läuft')).toBeNull();
  });

  it('cancels a running export', async () => {
    state.run = (options) =>
      new Promise((_, reject) =>
        options.signal?.addEventListener('abort', () =>
          reject(new DOMException('abgebrochen', 'AbortError')),
        ),
      );
    const user = renderMenu();
    await choose(user, 'CSV (Excel, Semikolon)');
    expect(screen.getByText('Export wird gestartet …')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Abbrechen' }));
    expect(await screen.findByText('Export abgebrochen.')).toBeTruthy();
    expect(state.calls[0]?.signal?.aborted).toBe(true);
    expect(clicked).toEqual([]);
  });

  it("names the database's refusal in German and other failures without their text", async () => {
    state.run = () => Promise.reject(Object.assign(new Error('denied'), { code: '42501' }));
    const user = renderMenu();
    await choose(user, 'CSV (Excel, Semikolon)');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Keine Berechtigung für den Export.',
    );

    state.run = () => Promise.reject(Object.assign(new Error('relation xyz'), { code: '42P01' }));
    await choose(user, 'CSV (Excel, Semikolon)');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Der Export ist fehlgeschlagen. Bitte versuche es erneut.',
    );
  });

  it('offers the CSV when the XLSX writer died, and exports it on request', async () => {
    state.run = (options) =>
      options.format === 'xlsx'
        ? Promise.reject(new XlsxWorkerDiedError())
        : Promise.resolve({ blob: new Blob(['x']), fileName: 'anfragen-2026-11-23.csv', rows: 3 });
    const user = renderMenu();
    await choose(user, 'Excel-Datei (XLSX)');
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /^Die Excel-Datei konnte nicht erstellt werden.*stattdessen als CSV exportieren\.$/,
    );
    await user.click(screen.getByRole('button', { name: 'Als CSV exportieren' }));
    expect(await screen.findByText(/Export fertig/)).toHaveProperty(
      'textContent',
      'Export fertig: 3 Anfragen in anfragen-2026-11-23.csv.',
    );
    expect(state.calls.map((call) => [call.format, call.filter])).toEqual([
      ['xlsx', { customerSearch: 'meier' }],
      ['csv', { customerSearch: 'meier' }],
    ]);
    expect(clicked).toEqual(['anfragen-2026-11-23.csv blob:export']);
    expect(screen.queryByRole('button', { name: 'Als CSV exportieren' })).toBeNull();
  });

  it('offers no CSV for failures a CSV would share', async () => {
    state.run = () => Promise.reject(Object.assign(new Error('denied'), { code: '42501' }));
    const user = renderMenu();
    await choose(user, 'Excel-Datei (XLSX)');
    await screen.findByRole('alert');
    expect(screen.queryByRole('button', { name: 'Als CSV exportieren' })).toBeNull();
  });
});
