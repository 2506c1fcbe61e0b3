import { useState } from 'react';
import { Link } from 'react-router-dom';
import {
  useCompleteFollowUp,
  useFollowUpCounts,
  useReopenFollowUp,
  useWorkListPage,
  type ListedFollowUp,
} from '../api/follow-ups.ts';
import { berlinDateTime } from '../../domain/calendar.ts';
import { deskCustomerAnswersPath, deskPaths } from '../../domain/routes.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { LoadError } from '../../ui/load-error.tsx';
import { followUpListPath } from '../shared/follow-ups-view.ts';

// The dashboard's work list: one screen high however many follow-ups are open. The counts come
// first (each opens the follow-up list filtered by it), then a few of today's follow-ups and the
// oldest overdue ones, each list with "alle N anzeigen". Counted and cut in the database
// (follow_up_counts, follow_up_list); the bell shares these queries.

const numberFormat = new Intl.NumberFormat('de-DE');

function Skeleton() {
  return (
    <div className="space-y-2" aria-hidden="true">
      <div className="h-6 w-1/3 animate-pulse rounded bg-slate-200" />
      <div className="h-4 w-2/3 animate-pulse rounded bg-slate-200" />
    </div>
  );
}

function CountLink(props: {
  to: string;
  count: number | undefined;
  label: string;
  alert?: boolean;
}) {
  const alert = props.alert && (props.count ?? 0) > 0;
  return (
    <li>
      <Link
        to={props.to}
        className={`block h-full rounded-lg border px-3 py-2 hover:bg-slate-50 ${
          alert ? 'border-red-300 bg-red-50' : 'border-slate-200'
        }`}
      >
        <span className={`block text-3xl font-bold ${alert ? 'text-red-900' : 'text-slate-900'}`}>
          {props.count === undefined ? '–' : numberFormat.format(props.count)}
        </span>
        <span className="block text-sm text-slate-700">{props.label}</span>
      </Link>
    </li>
  );
}

/** One follow-up in two lines: customer and time, text and assignee; done with one click. */
function WorkListItem(props: { item: ListedFollowUp; busy: boolean; onDone: () => void }) {
  const { item } = props;
  const name = item.customer_name || 'Kunde ohne Namen';
  const body = item.body || 'Wiedervorlage';
  return (
    <li className="flex items-start justify-between gap-3 py-2">
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-baseline gap-x-3">
          <Link
            to={`${deskPaths.customers}?id=${item.customer_id}`}
            className="font-semibold text-brand-800 underline"
          >
            {name}
          </Link>
          <Link
            to={deskCustomerAnswersPath(item.customer_id)}
            className="text-sm text-brand-800 underline"
            aria-label={`Antworten von ${name}`}
          >
            Antworten
          </Link>
          <span className="text-sm text-slate-700">
            <time dateTime={item.due_at}>{berlinDateTime(item.due_at)} Uhr</time>
            {item.overdue ? (
              <span className="ml-2 rounded bg-red-100 px-1.5 py-0.5 text-xs font-semibold text-red-900">
                überfällig
              </span>
            ) : null}
          </span>
        </p>
        <p className="truncate text-sm text-slate-800" title={item.body || undefined}>
          {item.body ? <span className="text-slate-900">{item.body} · </span> : null}
          <span className="text-slate-700">
            Zuständig: {item.assignee_name ?? 'niemand (offen für alle)'}
          </span>
        </p>
      </div>
      <Button
        variant="secondary"
        className="min-h-9! px-3! py-1!"
        disabled={props.busy}
        onClick={props.onDone}
        aria-label={`Erledigt: ${body} (${name})`}
      >
        Erledigt
      </Button>
    </li>
  );
}

function ShortList(props: {
  id: string;
  title: string;
  due: 'overdue' | 'today';
  empty: string;
  total: number | undefined;
  onDone: (item: ListedFollowUp) => void;
  busyId: number | null;
}) {
  const page = useWorkListPage(props.due);
  const total = page.data?.total ?? props.total ?? 0;
  return (
    <section aria-labelledby={props.id} aria-busy={page.isPending} className="min-w-0">
      <h3 id={props.id} className="font-semibold text-slate-800">
        {props.title}
      </h3>
      {page.isPending ? (
        <Skeleton />
      ) : page.isError ? (
        <LoadError framed={false} onRetry={page.refetch}>
          Die Wiedervorlagen konnten nicht geladen werden.
        </LoadError>
      ) : page.data.rows.length === 0 ? (
        <p className="py-2 text-slate-700">{props.empty}</p>
      ) : (
        <>
          <ul className="divide-y divide-slate-200">
            {page.data.rows.map((item) => (
              <WorkListItem
                key={item.id}
                item={item}
                busy={props.busyId === item.id}
                onDone={() => props.onDone(item)}
              />
            ))}
          </ul>
          {total > page.data.rows.length ? (
            <Link
              to={followUpListPath({ due: props.due })}
              className="mt-1 inline-block font-semibold text-brand-800 underline"
            >
              alle {numberFormat.format(total)} anzeigen
            </Link>
          ) : null}
        </>
      )}
    </section>
  );
}

export function WorkList() {
  const counts = useFollowUpCounts();
  const complete = useCompleteFollowUp();
  const reopen = useReopenFollowUp();
  // The last one marked done, for 'Rückgängig' (a click on the wrong line).
  const [lastDone, setLastDone] = useState<ListedFollowUp | null>(null);
  const done = (item: ListedFollowUp) => {
    setLastDone(item);
    complete.mutate(item.id);
  };
  const busyId = complete.isPending ? (complete.variables ?? null) : null;
  return (
    <section aria-labelledby="karte-wiedervorlagen" className="rounded-lg bg-white p-5 shadow">
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-x-4">
        <h2 id="karte-wiedervorlagen" className="text-base font-semibold text-slate-700">
          Wiedervorlagen
          <span className="font-normal"> – deine und die ohne Zuständige/n</span>
        </h2>
        <Link to={deskPaths.followUps} className="text-sm font-semibold text-brand-800 underline">
          Zur Liste der Wiedervorlagen
        </Link>
      </div>
      {counts.isError ? (
        <LoadError framed={false} onRetry={counts.refetch}>
          Die Wiedervorlagen konnten nicht gezählt werden.
        </LoadError>
      ) : (
        <ul
          aria-label="Anzahl"
          aria-busy={counts.isPending}
          className="grid grid-cols-2 gap-3 sm:grid-cols-4"
        >
          <CountLink
            to={followUpListPath({ due: 'overdue' })}
            count={counts.data?.overdue}
            label="überfällig"
            alert
          />
          <CountLink
            to={followUpListPath({ due: 'today' })}
            count={counts.data?.today}
            label="heute fällig"
          />
          <CountLink
            to={followUpListPath({ due: 'week' })}
            count={counts.data?.thisWeek}
            label="diese Woche fällig"
          />
          <CountLink
            to={followUpListPath({ assigned: 'unassigned' })}
            count={counts.data?.unassigned}
            label="ohne Zuständige/n"
          />
        </ul>
      )}
      <div className="mt-4 grid gap-4 lg:grid-cols-2">
        <ShortList
          id="karte-heute-faellig"
          title="Heute fällig"
          due="today"
          empty="Heute ist nichts mehr fällig."
          total={counts.data?.today}
          onDone={done}
          busyId={busyId}
        />
        <ShortList
          id="karte-ueberfaellig"
          title="Überfällig – die ältesten zuerst"
          due="overdue"
          empty="Nichts überfällig."
          total={counts.data?.overdue}
          onDone={done}
          busyId={busyId}
        />
      </div>
      {lastDone && !complete.isError ? (
        <div role="status" className="mt-3 flex flex-wrap items-center gap-3 text-slate-800">
          <span>
            Erledigt: {lastDone.body || 'Wiedervorlage'} ({lastDone.customer_name})
          </span>
          <Button
            variant="secondary"
            disabled={reopen.isPending}
            onClick={() => {
              reopen.mutate(lastDone.id);
              setLastDone(null);
            }}
          >
            Rückgängig
          </Button>
        </div>
      ) : null}
      {complete.isError ? (
        <div className="mt-3">
          <Alert tone="error">
            Die Wiedervorlage konnte nicht erledigt werden. Bitte versuche es erneut.
          </Alert>
        </div>
      ) : null}
    </section>
  );
}
