import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useDashboardCounts, useLeadsPerForm, useNewestLeads } from '../api/dashboard.ts';
import { useLeadStatusCounts } from '../api/lead-status.ts';
import { useMyRole, useStaffAccounts } from '../api/staff.ts';
import { leadStatuses, leadStatusLabels } from '../../domain/lead-status.ts';
import { deskPaths } from '../../domain/routes.ts';
import { addDays, berlinDateTime, berlinToday } from '../../domain/calendar.ts';
import { LoadError } from '../../ui/load-error.tsx';
import { DeskScreen } from '../shared/desk-screen.tsx';
import { leadSourceLabels } from '../shared/lead-source-labels.ts';
import { WorkList } from './work-list.tsx';

const numberFormat = new Intl.NumberFormat('de-DE');

interface QueryView {
  isPending: boolean;
  isError: boolean;
  refetch: () => unknown;
}

/** A card that shows a skeleton while loading and a German error with a retry. */
function Card(props: { title: string; query: QueryView; children: () => ReactNode }) {
  const { query } = props;
  const headingId = `karte-${props.title.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <section
      aria-labelledby={headingId}
      aria-busy={query.isPending}
      className="rounded-lg bg-white p-4 shadow"
    >
      <h2 id={headingId} className="mb-2 text-base font-semibold text-slate-700">
        {props.title}
      </h2>
      {query.isPending ? (
        <div className="space-y-2" aria-hidden="true">
          <div className="h-6 w-1/3 animate-pulse rounded bg-slate-200" />
          <div className="h-4 w-2/3 animate-pulse rounded bg-slate-200" />
        </div>
      ) : query.isError ? (
        <LoadError framed={false} onRetry={query.refetch}>
          Die Daten konnten nicht geladen werden.
        </LoadError>
      ) : (
        props.children()
      )}
    </section>
  );
}

function Figure(props: { label: string; value: number }) {
  return (
    <div>
      <dt className="text-sm text-slate-600">{props.label}</dt>
      <dd className="text-2xl font-bold text-slate-900">{numberFormat.format(props.value)}</dd>
    </div>
  );
}

function LeadCounts() {
  // The agent's day in Germany, as Analyse has it, not the browser's.
  const today = berlinToday();
  const counts = useDashboardCounts({ today, weekStart: addDays(today, -6) });
  return (
    <>
      <Card title="Neue Leads" query={counts}>
        {() => (
          <dl className="flex gap-8">
            <Figure label="Heute" value={counts.data?.leadsToday ?? 0} />
            <Figure label="Letzte 7 Tage" value={counts.data?.leadsLastWeek ?? 0} />
          </dl>
        )}
      </Card>
      <Card title="Kunden" query={counts}>
        {() => (
          <dl>
            <Figure label="Kunden insgesamt" value={counts.data?.customers ?? 0} />
          </dl>
        )}
      </Card>
      <Card title="Rückrufwünsche" query={counts}>
        {() => (
          <dl>
            <Figure
              label="Offen, bis ihre Wiedervorlage erledigt ist"
              value={counts.data?.callbacksWaiting ?? 0}
            />
          </dl>
        )}
      </Card>
    </>
  );
}

/** Every lead by where the office stands with it; each number opens the list filtered by it. */
function LeadsPerStatus() {
  const counts = useLeadStatusCounts();
  return (
    <Card title="Leads nach Status" query={counts}>
      {() => (
        <dl className="space-y-1">
          {leadStatuses.map((status) => (
            <div key={status} className="flex justify-between gap-4">
              <dt>
                <Link
                  to={`${deskPaths.customers}?status=${status}`}
                  className="text-brand-800 underline"
                >
                  {leadStatusLabels[status]}
                </Link>
              </dt>
              <dd className="font-semibold">{numberFormat.format(counts.data?.[status] ?? 0)}</dd>
            </div>
          ))}
        </dl>
      )}
    </Card>
  );
}

function LeadsPerForm() {
  const perForm = useLeadsPerForm();
  return (
    <Card title="Leads je Fragebogen (30 Tage)" query={perForm}>
      {() =>
        perForm.data?.length ? (
          <dl className="space-y-1">
            {perForm.data.map((form) => (
              <div key={form.formId} className="flex justify-between gap-4">
                <dt>{form.title}</dt>
                <dd className="font-semibold">{numberFormat.format(form.leads)}</dd>
              </div>
            ))}
          </dl>
        ) : (
          <p className="text-slate-600">Noch keine Fragebögen angelegt.</p>
        )
      }
    </Card>
  );
}

function NewestLeads() {
  const newest = useNewestLeads();
  return (
    <Card title="Neueste Leads" query={newest}>
      {() =>
        newest.data?.length ? (
          <ul className="divide-y divide-slate-200">
            {newest.data.map((lead) => (
              <li key={lead.id} className="flex flex-wrap justify-between gap-x-4 py-2">
                <span>
                  {lead.userId === null ? (
                    <span className="font-semibold">{lead.name}</span>
                  ) : (
                    <Link
                      to={`${deskPaths.customers}?id=${lead.userId}`}
                      className="font-semibold text-brand-800 underline"
                    >
                      {lead.name}
                    </Link>
                  )}{' '}
                  <span className="text-slate-700">
                    – {lead.formTitle ?? leadSourceLabels[lead.source]}
                  </span>
                </span>
                <time dateTime={lead.receivedAt} className="text-slate-700">
                  {berlinDateTime(lead.receivedAt)}
                </time>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-slate-700">
            Noch keine Leads eingegangen. Sobald Besucher einen Fragebogen oder das Kontaktformular
            absenden, erscheinen sie hier.
          </p>
        )
      }
    </Card>
  );
}

/** The accounts named on the dashboard; more are a link to 'Mitarbeiter'. */
const pendingShown = 5;

/**
 * Shares its query with 'Mitarbeiter' and the notifications, so a role set there updates this
 * card too. The accounts are few: filtering them here costs nothing.
 */
function PendingAccounts() {
  const accounts = useStaffAccounts();
  const pending = accounts.data?.filter((account) => account.role === 'pending') ?? [];
  return (
    <Card title="Konten warten auf Freigabe" query={accounts}>
      {() =>
        pending.length ? (
          <>
            <ul className="space-y-1">
              {pending.slice(0, pendingShown).map((account) => (
                <li key={account.user_id} className="truncate">
                  {account.email}
                </li>
              ))}
            </ul>
            <Link
              to={deskPaths.staff}
              className="mt-2 inline-block font-semibold text-brand-800 underline"
            >
              {pending.length > pendingShown
                ? `alle ${numberFormat.format(pending.length)} anzeigen`
                : 'Zu den Mitarbeitern'}
            </Link>
          </>
        ) : (
          <p className="text-slate-700">Keine Konten warten auf Freigabe.</p>
        )
      }
    </Card>
  );
}

export function DashboardPage() {
  const role = useMyRole();
  return (
    <DeskScreen
      heading="Willkommen"
      meta={{
        title: 'Dashboard – Survey Desk',
        description:
          'Startseite von Survey Desk: Überblick über Kunden, Fragebögen, Analysen und Support im internen Arbeitsbereich der Versicherungsagentur.',
        path: deskPaths.dashboard,
      }}
    >
      {/* The work list and, beside it, the key figures and the approvals: above the fold at
          1366x900 however many follow-ups are open; what needs no action today below. */}
      <div className="grid gap-4 lg:grid-cols-3">
        <div className="lg:col-span-2">
          <WorkList />
        </div>
        <div className="grid content-start gap-4 sm:grid-cols-2 lg:grid-cols-1">
          <LeadCounts />
          {role.data === 'admin' ? <PendingAccounts /> : null}
        </div>
        <LeadsPerStatus />
        <LeadsPerForm />
        <NewestLeads />
      </div>
    </DeskScreen>
  );
}
