import { useState } from 'react';
import { useMyRole, useStaffAccounts, type StaffAccount } from '../api/staff.ts';
import { berlinDateTime } from '../../domain/calendar.ts';
import { deskPaths } from '../../domain/routes.ts';
import { AdminTableHead } from '../../ui/admin-table-head.tsx';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { PageLoading } from '../../ui/page-loading.tsx';
import { AccessLogList } from '../shared/access-log-list.tsx';
import { DeskScreen } from '../shared/desk-screen.tsx';
import { ExportLogTable, ExportRightSetting } from './export-settings.tsx';
import { LeadMailSettingsForm } from './lead-mail-settings.tsx';
import { PendingAccounts } from './pending-accounts.tsx';
import { RetentionHolds } from './retention-holds.tsx';
import { RetentionOverview } from './retention-overview.tsx';
import { RoleCell } from './role-cell.tsx';

const shownDate = (value: string | null) => (value ? berlinDateTime(value) : 'Nein');

function AccountsTable(props: {
  shownLog: StaffAccount | null;
  onShowLog: (account: StaffAccount | null) => void;
}) {
  const { data, isPending, isError } = useStaffAccounts();
  if (isPending) return <PageLoading />;
  if (isError) {
    return (
      <Alert tone="error">Die Konten konnten nicht geladen werden. Bitte lade die Seite neu.</Alert>
    );
  }
  return (
    <>
      <PendingAccounts accounts={data} />
      <section aria-labelledby="konten" className="space-y-3">
        <h2 id="konten" className="text-xl font-semibold text-slate-900">
          Alle Konten
        </h2>
        <div className="overflow-x-auto rounded-lg bg-white shadow">
          <table className="min-w-full text-left text-sm">
            <AdminTableHead
              caption="Mitarbeiterkonten und ihre Rollen"
              columns={['E-Mail', 'Registriert', 'Bestätigt', 'Rolle', 'Zugriffsprotokoll']}
            />
            <tbody className="divide-y divide-slate-200">
              {data.map((account) => (
                <tr key={account.user_id}>
                  <th scope="row" className="px-4 py-3 font-medium text-slate-900">
                    {account.email}
                  </th>
                  <td className="px-4 py-3">{shownDate(account.registered_at)}</td>
                  <td className="px-4 py-3">{shownDate(account.confirmed_at)}</td>
                  <td className="px-4 py-3">
                    {/* Keyed by the saved role: a reload shows what the database holds. */}
                    <RoleCell key={account.role} account={account} />
                  </td>
                  <td className="px-4 py-3">
                    <Button
                      variant="secondary"
                      aria-label={`Zugriffsprotokoll von ${account.email}`}
                      aria-expanded={props.shownLog?.user_id === account.user_id}
                      onClick={() =>
                        props.onShowLog(
                          props.shownLog?.user_id === account.user_id ? null : account,
                        )
                      }
                    >
                      Anzeigen
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}

/** Admins enable new accounts here, give or take the admin role and decide who may export. */
export function StaffPage() {
  const { data: role, isPending } = useMyRole();
  const [shownLog, setShownLog] = useState<StaffAccount | null>(null);
  return (
    <DeskScreen
      heading="Mitarbeiter"
      meta={{
        title: 'Mitarbeiter – Survey Desk',
        description:
          'Mitarbeiterkonten in Survey Desk verwalten: neue Registrierungen freischalten und Rollen für Mitarbeiter und Admins vergeben.',
        path: deskPaths.staff,
      }}
    >
      {isPending ? (
        <PageLoading />
      ) : role === 'admin' ? (
        <div className="space-y-8">
          <AccountsTable shownLog={shownLog} onShowLog={setShownLog} />
          {shownLog ? (
            <section
              id="konto-protokoll"
              aria-labelledby="konto-protokoll-titel"
              className="space-y-3"
            >
              <h2 id="konto-protokoll-titel" className="text-xl font-semibold text-slate-900">
                Zugriffsprotokoll von {shownLog.email}
              </h2>
              <p className="text-sm text-slate-700">
                Was dieses Konto geöffnet, gesucht, geändert, exportiert oder gelöscht hat (die
                neuesten Einträge zuerst, Zeiten in Berliner Zeit).
              </p>
              <div className="rounded-lg bg-white p-4 shadow">
                <AccessLogList
                  key={shownLog.user_id}
                  subject={{ userId: shownLog.user_id }}
                  caption={`Zugriffe durch ${shownLog.email}`}
                />
              </div>
            </section>
          ) : null}
          <section aria-labelledby="benachrichtigung" className="space-y-3">
            <h2 id="benachrichtigung" className="text-xl font-semibold text-slate-900">
              Benachrichtigung bei neuen Anfragen
            </h2>
            <LeadMailSettingsForm />
          </section>
          <section aria-labelledby="export-recht" className="space-y-3">
            <h2 id="export-recht" className="text-xl font-semibold text-slate-900">
              Export
            </h2>
            <ExportRightSetting />
          </section>
          <section aria-labelledby="export-protokoll" className="space-y-3">
            <h2 id="export-protokoll" className="text-xl font-semibold text-slate-900">
              Exporte
            </h2>
            <ExportLogTable />
          </section>
          <section aria-labelledby="aufbewahrung" className="space-y-3">
            <h2 id="aufbewahrung" className="text-xl font-semibold text-slate-900">
              Aufbewahrung und Löschung
            </h2>
            <RetentionOverview />
            <RetentionHolds />
          </section>
        </div>
      ) : (
        <Alert tone="info">
          Diese Seite ist nur für Admins. Bitte wende dich an einen Admin, wenn du Konten
          freischalten möchtest.
        </Alert>
      )}
    </DeskScreen>
  );
}
