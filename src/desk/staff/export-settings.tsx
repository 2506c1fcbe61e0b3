import { useId, useState } from 'react';
import { useExportLog } from '../api/export-log.ts';
import { useDeskSettings, useSetStaffCanExport } from '../api/export-settings.ts';
import { useFormList } from '../api/forms.ts';
import { berlinDateTime } from '../../domain/calendar.ts';
import { AdminTableHead } from '../../ui/admin-table-head.tsx';
import { Alert } from '../../ui/alert.tsx';
import { PageLoading } from '../../ui/page-loading.tsx';
import { describeExport, exportRows, exportStatus } from './export-log-text.ts';

const formatNames = { csv: 'CSV', xlsx: 'Excel (XLSX)' } as const;

/** Export is the admins' by default; this lets staff export too (the database reads it). */
export function ExportRightSetting() {
  const id = useId();
  const settings = useDeskSettings();
  const save = useSetStaffCanExport();
  const [saved, setSaved] = useState<boolean | null>(null);

  if (settings.isPending) return <PageLoading />;
  if (settings.isError) {
    return (
      <Alert tone="error">
        Die Export-Einstellung konnte nicht geladen werden. Bitte lade die Seite neu.
      </Alert>
    );
  }
  const checked = save.isPending
    ? (save.variables ?? settings.data.staff_can_export)
    : settings.data.staff_can_export;

  return (
    <div className="rounded-lg bg-white p-4 shadow">
      <div className="flex items-start gap-3">
        <input
          id={id}
          type="checkbox"
          checked={checked}
          disabled={save.isPending}
          aria-describedby={`${id}-hinweis`}
          onChange={(event) => {
            const next = event.target.checked;
            setSaved(null);
            save.mutate(next, { onSuccess: () => setSaved(next) });
          }}
          className="mt-1 h-5 w-5 accent-brand-700"
        />
        <div>
          <label htmlFor={id} className="font-medium text-slate-900">
            Mitarbeitende dürfen exportieren
          </label>
          <p id={`${id}-hinweis`} className="text-sm text-slate-600">
            Admins dürfen immer exportieren. Jeder Export wird unten protokolliert.
          </p>
        </div>
      </div>
      <p role="status" className="mt-2 text-sm text-slate-700 empty:hidden">
        {saved === null
          ? ''
          : saved
            ? 'Gespeichert: Mitarbeitende dürfen jetzt exportieren.'
            : 'Gespeichert: Nur Admins dürfen exportieren.'}
      </p>
      {save.isError ? (
        <p role="alert" className="mt-2 text-sm font-medium text-red-800">
          Die Einstellung konnte nicht gespeichert werden. Bitte versuche es erneut.
        </p>
      ) : null}
    </div>
  );
}

/** Who exported what and when: the newest 50 exports. */
export function ExportLogTable() {
  const log = useExportLog();
  const forms = useFormList();
  const formTitle = (formId: number) => forms.data?.find((form) => form.id === formId)?.title;

  if (log.isPending) return <PageLoading />;
  if (log.isError) {
    return (
      <Alert tone="error">
        Die Exporte konnten nicht geladen werden. Bitte lade die Seite neu.
      </Alert>
    );
  }
  if (log.data.length === 0) {
    return (
      <p role="status" className="rounded-lg bg-white p-4 text-slate-700 shadow">
        Noch keine Exporte.
      </p>
    );
  }
  return (
    <div className="overflow-x-auto rounded-lg bg-white shadow">
      <table className="min-w-full text-left text-sm">
        <AdminTableHead
          caption="Die letzten Exporte"
          columns={['Wann', 'Wer', 'Format', 'Umfang', 'Zeilen', 'Status']}
        />
        <tbody className="divide-y divide-slate-200">
          {log.data.map((entry) => (
            <tr key={entry.id}>
              <td className="px-4 py-3 whitespace-nowrap">{berlinDateTime(entry.created_at)}</td>
              <td className="px-4 py-3">{entry.email ?? 'Gelöschtes Konto'}</td>
              <td className="px-4 py-3">{formatNames[entry.format] ?? entry.format}</td>
              <td className="px-4 py-3">{describeExport(entry, formTitle)}</td>
              <td className="px-4 py-3 tabular-nums">{exportRows(entry)}</td>
              <td className="px-4 py-3">{exportStatus(entry)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
