import {
  removedTotal,
  useLastRetentionRun,
  useRetentionPreview,
  type RetentionKind,
} from '../api/retention.ts';
import { berlinDateTime, berlinMinute } from '../../domain/calendar.ts';
import { AdminTableHead } from '../../ui/admin-table-head.tsx';
import { LoadError } from '../../ui/load-error.tsx';

const kinds: Record<RetentionKind, { label: string; rule: string }> = {
  customers: {
    label: 'Kunden',
    rule: '5 Jahre nach der letzten Anfrage oder Anlage, außer bei Aufbewahrungssperre',
  },
  leads: { label: 'Anfragen', rule: 'mit ihrem Kunden; ohne Kunden 5 Jahre nach Eingang' },
  answers: { label: 'Antworten', rule: 'mit ihrer Anfrage' },
  consent_records: {
    label: 'Einwilligungsnachweise',
    rule: '5 Jahre nach dem Löschen ihrer Anfrage (§ 7a UWG)',
  },
  files: {
    label: 'Hochgeladene Dateien',
    rule: 'von keinem Fragebogen mehr genutzt, 30 Tage nach dem Hochladen',
  },
  access_log: { label: 'Zugriffsprotokoll', rule: 'Einträge nach 1 Jahr' },
};
const order: RetentionKind[] = [
  'customers',
  'leads',
  'answers',
  'consent_records',
  'files',
  'access_log',
];

const berlinDay = (instant: string) => berlinMinute(instant).slice(0, 10);

function LastRun() {
  const run = useLastRetentionRun();
  if (run.isPending) {
    return (
      <p role="status" className="text-sm text-slate-600">
        Letzter Lauf wird geladen …
      </p>
    );
  }
  if (run.isError) {
    return (
      <LoadError onRetry={() => run.refetch()}>
        Der letzte Lauf konnte nicht geladen werden.
      </LoadError>
    );
  }
  if (!run.data) return <p className="text-slate-700">Letzter Lauf: noch keiner.</p>;
  return (
    <p className="text-slate-700">
      Letzter Lauf: {berlinDateTime(run.data.started_at)},{' '}
      {removedTotal(run.data).toLocaleString('de-DE')} entfernt
      {run.data.finished_at ? '' : ' (nicht abgeschlossen)'}
    </p>
  );
}

/**
 * What the daily retention run removes next (its dry run) and what the last run removed: admins
 * see the rules at work before anything goes.
 */
export function RetentionOverview() {
  const preview = useRetentionPreview();

  let list;
  if (preview.isPending) {
    list = (
      <p role="status" className="text-slate-600">
        Vorschau wird geladen …
      </p>
    );
  } else if (preview.isError) {
    list = (
      <LoadError onRetry={() => preview.refetch()}>
        Die Vorschau der Löschung konnte nicht geladen werden.
      </LoadError>
    );
  } else if (preview.data.every((row) => row.items === 0)) {
    list = (
      <p role="status" className="text-slate-700">
        Nichts fällig: Der nächste Lauf löscht nichts.
      </p>
    );
  } else {
    const byKind = new Map(preview.data.map((row) => [row.kind, row]));
    list = (
      <div className="overflow-x-auto">
        <table className="min-w-full text-left text-sm">
          <AdminTableHead
            caption="Was der nächste Lauf löscht"
            columns={['Art', 'Anzahl', 'ältestes Datum', 'Regel']}
          />
          <tbody className="divide-y divide-slate-200">
            {order.map((kind) => {
              const row = byKind.get(kind);
              return (
                <tr key={kind}>
                  <th scope="row" className="px-4 py-3 font-medium text-slate-900">
                    {kinds[kind].label}
                  </th>
                  <td className="px-4 py-3 tabular-nums">
                    {(row?.items ?? 0).toLocaleString('de-DE')}
                  </td>
                  <td className="px-4 py-3 whitespace-nowrap">
                    {row?.oldest ? berlinDay(row.oldest) : '–'}
                  </td>
                  <td className="px-4 py-3 text-slate-700">{kinds[kind].rule}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    );
  }

  return (
    <div className="space-y-3 rounded-lg bg-white p-4 shadow">
      <p className="text-slate-700">
        Jeden Tag löscht der Server, was nicht mehr aufbewahrt werden darf. Der nächste Lauf
        entfernt:
      </p>
      {list}
      <LastRun />
    </div>
  );
}
