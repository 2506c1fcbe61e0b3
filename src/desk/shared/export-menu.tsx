import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { exportKeys } from '../api/export-keys.ts';
import type { ExportFilter, ExportFormat, ExportScope } from '../api/export-options.ts';
import { runExport, type ExportProgress } from '../api/export-run.ts';
import { useCanExport } from '../api/export-settings.ts';
import { XlsxWorkerDiedError } from '../api/export-worker-host.ts';
import { saveBlob } from '../api/uploads.ts';
import { errorCode } from '../api/staff.ts';
import { useSupabase, useSupabaseSettings } from '../api/supabase-context.ts';
import { Button } from '../../ui/button.tsx';

type ExportState =
  | { phase: 'idle' }
  | { phase: 'running'; progress: ExportProgress | null }
  | { phase: 'done'; rows: number; fileName: string }
  | { phase: 'cancelled' }
  /** `offerCsv`: the XLSX could not be written (the worker died); a CSV needs far less memory. */
  | { phase: 'failed'; message: string; offerCsv: boolean };

const formats: { format: ExportFormat; label: string }[] = [
  { format: 'csv', label: 'CSV (Excel, Semikolon)' },
  { format: 'xlsx', label: 'Excel-Datei (XLSX)' },
];

const anfragen = (count: number) => (count === 1 ? '1 Anfrage' : `${count} Anfragen`);

function failureMessage(error: unknown): string {
  if (error instanceof XlsxWorkerDiedError) return error.message;
  return errorCode(error) === '42501'
    ? 'Keine Berechtigung für den Export.'
    : 'Der Export ist fehlgeschlagen. Bitte versuche es erneut.';
}

function statusText(state: ExportState): string {
  if (state.phase === 'done') {
    return state.rows === 0
      ? `Export fertig: keine Anfragen für diese Auswahl (${state.fileName} enthält nur die Spaltenköpfe).`
      : `Export fertig: ${anfragen(state.rows)} in ${state.fileName}.`;
  }
  if (state.phase === 'cancelled') return 'Export abgebrochen.';
  return '';
}

/**
 * Exports the leads of the screen's current filter. Shown only to accounts with the export
 * right; the database checks that right again for every page. `fileStem` starts the file's name
 * with what was filtered ('kunden_status-neu'); without it the file is 'anfragen-<day>'.
 */
export function ExportMenu({
  scope,
  filter,
  fileStem,
}: {
  scope: ExportScope;
  filter: ExportFilter;
  fileStem?: string;
}) {
  const supabase = useSupabase();
  const settings = useSupabaseSettings();
  const queryClient = useQueryClient();
  const canExport = useCanExport();
  const [state, setState] = useState<ExportState>({ phase: 'idle' });
  const running = useRef<AbortController | null>(null);
  const progressId = useId();

  // Leaving the screen stops an export that is still paging.
  useEffect(() => () => running.current?.abort(), []);

  if (canExport.data !== true) return null;

  const start = async (format: ExportFormat) => {
    const controller = new AbortController();
    running.current = controller;
    setState({ phase: 'running', progress: null });
    try {
      const result = await runExport({
        supabase,
        settings,
        scope,
        format,
        filter,
        ...(fileStem && { fileStem }),
        signal: controller.signal,
        onProgress: (progress) => setState({ phase: 'running', progress }),
      });
      saveBlob(result.blob, result.fileName);
      setState({ phase: 'done', rows: result.rows, fileName: result.fileName });
    } catch (error) {
      if (controller.signal.aborted) setState({ phase: 'cancelled' });
      else {
        setState({
          phase: 'failed',
          message: failureMessage(error),
          offerCsv: error instanceof XlsxWorkerDiedError,
        });
      }
    } finally {
      running.current = null;
      void queryClient.invalidateQueries({ queryKey: exportKeys.log() });
    }
  };

  const progress = state.phase === 'running' ? state.progress : null;

  return (
    <div className="flex flex-wrap items-center gap-3">
      <Menu as="div" className="relative">
        <MenuButton
          disabled={state.phase === 'running'}
          className="inline-flex min-h-11 items-center justify-center gap-2 rounded-lg border border-brand-700 bg-white px-5 py-2.5 font-semibold text-brand-800 hover:bg-brand-50 disabled:cursor-not-allowed disabled:border-slate-300 disabled:text-slate-400"
        >
          Exportieren
          <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
            <path d="M5.5 7.5 10 12l4.5-4.5" stroke="currentColor" strokeWidth="1.5" fill="none" />
          </svg>
        </MenuButton>
        <MenuItems
          anchor="bottom start"
          className="z-50 mt-1 w-64 rounded-md border border-slate-200 bg-white py-2 text-slate-800 shadow-lg focus:outline-none"
        >
          {formats.map(({ format, label }) => (
            <MenuItem key={format}>
              <button
                type="button"
                onClick={() => void start(format)}
                className="block w-full px-4 py-2 text-left text-sm data-focus:bg-slate-100"
              >
                {label}
              </button>
            </MenuItem>
          ))}
        </MenuItems>
      </Menu>

      {state.phase === 'running' ? (
        <div className="flex flex-wrap items-center gap-3">
          <label htmlFor={progressId} className="text-sm font-medium text-slate-800">
            Export läuft
          </label>
          <progress
            id={progressId}
            className="h-2 w-40"
            max={progress?.total || undefined}
            value={progress && progress.total > 0 ? progress.done : undefined}
          />
          <span className="text-sm text-slate-700">
            {progress
              ? `${progress.done} von ${progress.total} Anfragen${progress.writing ? ' gelesen, Datei wird erstellt …' : ''}`
              : 'Export wird gestartet …'}
          </span>
          <Button variant="secondary" onClick={() => running.current?.abort()}>
            Abbrechen
          </Button>
        </div>
      ) : null}

      <p role="status" className="text-sm text-slate-700 empty:hidden">
        {statusText(state)}
      </p>
      {state.phase === 'failed' ? (
        <p role="alert" className="text-sm font-medium text-red-800">
          {state.message}
        </p>
      ) : null}
      {state.phase === 'failed' && state.offerCsv ? (
        <Button variant="secondary" onClick={() => void start('csv')}>
          Als CSV exportieren
        </Button>
      ) : null}
    </div>
  );
}
