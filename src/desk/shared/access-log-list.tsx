import {
  accessLogLimit,
  useAccessLog,
  type AccessLogEntry,
  type AccessLogSubject,
} from '../api/person-rights.ts';
import { accessActionLabels } from '../../domain/access-log.ts';
import { berlinDateTime } from '../../domain/calendar.ts';
import { leadStatusLabels } from '../../domain/lead-status.ts';
import { AdminTableHead } from '../../ui/admin-table-head.tsx';
import { LoadError } from '../../ui/load-error.tsx';

/** What an entry concerns besides its action: the search term or the changed fields. */
function entryDetail(entry: AccessLogEntry): string {
  if (entry.detail.term) return `Suchbegriff „${entry.detail.term}“`;
  if (entry.detail.term_redacted) return 'Suchbegriff entfernt (Person gelöscht)';
  if (entry.detail.columns?.length) return `Felder: ${entry.detail.columns.join(', ')}`;
  if (entry.detail.deleted) return 'Datensatz gelöscht';
  if (entry.detail.created) return 'Datensatz angelegt';
  // Customers with one address once it was normalised (trimmed, lower-case) became one.
  if (entry.detail.merged_into !== undefined) {
    return `Gleiche E-Mail-Adresse: zusammengeführt in Nr. ${entry.detail.merged_into}`;
  }
  if (entry.detail.merged_from !== undefined) {
    return `Gleiche E-Mail-Adresse: Nr. ${entry.detail.merged_from} übernommen`;
  }
  if (entry.detail.status) {
    return `Lead Nr. ${entry.detail.response_id}: ${leadStatusLabels[entry.detail.status]}`;
  }
  return '';
}

/**
 * The access log's newest entries about one customer or by one staff account (admins only; the
 * database shows nobody else a row). `caption` names the table for screen readers.
 */
export function AccessLogList(props: { subject: AccessLogSubject; caption: string }) {
  const log = useAccessLog(props.subject);
  const byCustomer = 'customerId' in props.subject;
  if (log.isPending) {
    return (
      <p role="status" className="text-slate-700">
        Zugriffsprotokoll wird geladen …
      </p>
    );
  }
  if (log.isError) {
    return (
      <LoadError framed={false} onRetry={log.refetch}>
        Das Zugriffsprotokoll konnte nicht geladen werden.
      </LoadError>
    );
  }
  if (log.data.length === 0) {
    return <p className="text-slate-700">Keine Einträge im Zugriffsprotokoll.</p>;
  }
  return (
    // Wider than the sidebar with long addresses: scrollable, so reachable by keyboard too.
    <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={props.caption}>
      <table className="min-w-full text-left text-sm">
        <AdminTableHead
          caption={props.caption}
          columns={['Zeitpunkt', byCustomer ? 'Konto' : 'Kunde', 'Vorgang']}
          compact
        />
        <tbody className="divide-y divide-slate-200">
          {log.data.map((entry) => (
            <tr key={entry.id}>
              <td className="px-2 py-2 whitespace-nowrap">{berlinDateTime(entry.at)}</td>
              <td className="px-2 py-2">
                {byCustomer
                  ? (entry.staff_email ?? 'System')
                  : entry.customer_id === null
                    ? '–'
                    : `Nr. ${entry.customer_id}`}
              </td>
              <td className="px-2 py-2">
                {accessActionLabels[entry.action]}
                {entryDetail(entry) ? (
                  <span className="block text-slate-700">{entryDetail(entry)}</span>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {log.data.length === accessLogLimit ? (
        <p className="mt-2 text-sm text-slate-700">
          Die neuesten {accessLogLimit} Einträge; ältere bleiben bis zu einem Jahr gespeichert.
        </p>
      ) : null}
    </div>
  );
}
