import { useEffect, useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import {
  followUpAssignedFilters,
  followUpDueFilters,
  useAssignFollowUps,
  useCompleteFollowUps,
  useFollowUpPage,
  type FollowUpAssignedFilter,
  type FollowUpDueFilter,
  type ListedFollowUp,
} from '../api/follow-ups.ts';
import { useStaffDirectory } from '../api/staff-directory.ts';
import { berlinDateTime } from '../../domain/calendar.ts';
import { deskCustomerAnswersPath, deskPaths } from '../../domain/routes.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { LoadError } from '../../ui/load-error.tsx';
import { DeskScreen } from '../shared/desk-screen.tsx';
import {
  assignedLabels,
  dueLabels,
  followUpListQuery,
  followUpPageSize,
  readFollowUpListView,
  type FollowUpListView,
} from '../shared/follow-ups-view.ts';

// 'Wiedervorlagen': every follow-up by assignee and by when, by due time, a page at a time
// (the database pages and counts); several are marked done or given to a colleague at once.

const numberFormat = new Intl.NumberFormat('de-DE');

const followUpsText = (count: number) =>
  count === 1 ? '1 Wiedervorlage' : `${numberFormat.format(count)} Wiedervorlagen`;

/** Where a follow-up's lead is read: the customer's answers, at the lead when it has one. */
export function followUpLeadPath(item: Pick<ListedFollowUp, 'customer_id' | 'response_id'>) {
  const path = deskCustomerAnswersPath(item.customer_id);
  return item.response_id === null ? path : `${path}#anfrage-${item.response_id}`;
}

const selectClass = 'min-h-11 rounded-lg border border-slate-400 bg-white px-3 py-2 text-slate-900';

function Filters(props: { view: FollowUpListView; onChange: (view: FollowUpListView) => void }) {
  const assignedId = useId();
  const dueId = useId();
  const { view } = props;
  return (
    <form
      role="search"
      aria-label="Wiedervorlagen filtern"
      className="mb-4 flex flex-wrap items-end gap-4"
      onSubmit={(event) => event.preventDefault()}
    >
      <div>
        <label htmlFor={assignedId} className="mb-1 block font-medium text-slate-800">
          Zuständig
        </label>
        <select
          id={assignedId}
          className={selectClass}
          value={view.assigned}
          onChange={(event) =>
            props.onChange({
              ...view,
              assigned: event.target.value as FollowUpAssignedFilter,
              page: 1,
            })
          }
        >
          {followUpAssignedFilters.map((filter) => (
            <option key={filter} value={filter}>
              {assignedLabels[filter]}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={dueId} className="mb-1 block font-medium text-slate-800">
          Fällig
        </label>
        <select
          id={dueId}
          className={selectClass}
          value={view.due}
          onChange={(event) =>
            props.onChange({ ...view, due: event.target.value as FollowUpDueFilter, page: 1 })
          }
        >
          {followUpDueFilters.map((filter) => (
            <option key={filter} value={filter}>
              {dueLabels[filter]}
            </option>
          ))}
        </select>
      </div>
    </form>
  );
}

/** 'Erledigt' and 'Zuweisen' for the rows ticked on this page. */
function BulkActions(props: { selected: number[]; onDone: (message: string) => void }) {
  const assigneeId = useId();
  const directory = useStaffDirectory();
  const complete = useCompleteFollowUps();
  const assign = useAssignFollowUps();
  // '' is nobody (open for all); the select starts on nobody chosen yet.
  const [assignee, setAssignee] = useState<string | null>(null);
  const [assigneeError, setAssigneeError] = useState<string | null>(null);
  const count = props.selected.length;
  const busy = complete.isPending || assign.isPending;
  const nameOf = (userId: string) =>
    directory.data?.find((entry) => entry.user_id === userId)?.name ?? userId;

  return (
    <div
      role="group"
      aria-label="Ausgewählte Wiedervorlagen"
      className="mb-4 flex flex-wrap items-end gap-4 rounded-lg bg-white p-4 shadow"
    >
      <p className="min-h-11 py-2 font-medium text-slate-800" aria-live="polite">
        {count === 0 ? 'Keine ausgewählt' : `${numberFormat.format(count)} ausgewählt`}
      </p>
      <Button
        disabled={count === 0 || busy}
        onClick={() =>
          complete.mutate(props.selected, {
            onSuccess: (done) =>
              props.onDone(
                done === 1 ? '1 Wiedervorlage erledigt.' : `${followUpsText(done)} erledigt.`,
              ),
          })
        }
      >
        Erledigt
      </Button>
      <div>
        <label htmlFor={assigneeId} className="mb-1 block font-medium text-slate-800">
          Zuweisen an
        </label>
        <select
          id={assigneeId}
          className={selectClass}
          value={assignee ?? 'wählen'}
          aria-invalid={assigneeError ? true : undefined}
          aria-describedby={assigneeError ? `${assigneeId}-fehler` : undefined}
          onChange={(event) => {
            setAssignee(event.target.value);
            setAssigneeError(null);
          }}
        >
          <option value="wählen" disabled>
            Bitte wählen
          </option>
          <option value="">Niemand (offen für alle)</option>
          {directory.data?.map((entry) => (
            <option key={entry.user_id} value={entry.user_id}>
              {entry.name}
            </option>
          ))}
        </select>
        {assigneeError ? (
          <p id={`${assigneeId}-fehler`} className="mt-1 text-sm text-red-800">
            {assigneeError}
          </p>
        ) : null}
      </div>
      <Button
        variant="secondary"
        disabled={count === 0 || busy}
        onClick={() => {
          if (assignee === null) {
            setAssigneeError('Bitte wähle, wem die Wiedervorlagen zugewiesen werden.');
            return;
          }
          const to = assignee === '' ? null : assignee;
          assign.mutate(
            { ids: props.selected, assignee: to },
            {
              onSuccess: (changed) =>
                props.onDone(
                  to === null
                    ? `${followUpsText(changed)} ohne Zuständige/n.`
                    : `${followUpsText(changed)} an ${nameOf(to)} zugewiesen.`,
                ),
            },
          );
        }}
      >
        Zuweisen
      </Button>
      {complete.isError ? (
        <Alert tone="error">
          Die Wiedervorlagen konnten nicht erledigt werden. Bitte versuche es erneut.
        </Alert>
      ) : null}
      {assign.isError ? (
        <Alert tone="error">
          Die Wiedervorlagen konnten nicht zugewiesen werden. Bitte versuche es erneut.
        </Alert>
      ) : null}
    </div>
  );
}

function DueCell({ item }: { item: ListedFollowUp }) {
  return (
    <>
      <time dateTime={item.due_at}>{berlinDateTime(item.due_at)} Uhr</time>
      {item.overdue ? (
        <span className="ml-2 rounded bg-red-100 px-1.5 py-0.5 text-xs font-semibold text-red-900">
          überfällig
        </span>
      ) : null}
    </>
  );
}

function FollowUpTable(props: {
  rows: ListedFollowUp[];
  done: boolean;
  selected: Set<number>;
  onSelect: (ids: number[], selected: boolean) => void;
  busy: boolean;
}) {
  const { rows, selected } = props;
  const allSelected = rows.length > 0 && rows.every((row) => selected.has(row.id));
  const cell = 'px-3 py-2 align-top';
  return (
    <div className="overflow-x-auto rounded-lg bg-white shadow">
      <table className="w-full text-left text-sm" aria-busy={props.busy}>
        <caption className="sr-only">Wiedervorlagen</caption>
        <thead className="bg-slate-50 text-slate-700">
          <tr>
            {props.done ? null : (
              <th scope="col" className={cell}>
                <input
                  type="checkbox"
                  className="h-5 w-5"
                  aria-label="Alle auf dieser Seite auswählen"
                  checked={allSelected}
                  onChange={(event) =>
                    props.onSelect(
                      rows.map((row) => row.id),
                      event.target.checked,
                    )
                  }
                />
              </th>
            )}
            <th scope="col" className={cell}>
              Fällig
            </th>
            <th scope="col" className={cell}>
              Kunde
            </th>
            <th scope="col" className={cell}>
              Wiedervorlage
            </th>
            <th scope="col" className={cell}>
              Zuständig
            </th>
            {props.done ? (
              <th scope="col" className={cell}>
                Erledigt
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {rows.map((item) => {
            const name = item.customer_name || 'Kunde ohne Namen';
            return (
              <tr key={item.id}>
                {props.done ? null : (
                  <td className={cell}>
                    <input
                      type="checkbox"
                      className="h-5 w-5"
                      aria-label={`Auswählen: ${item.body || 'Wiedervorlage'} (${name})`}
                      checked={selected.has(item.id)}
                      onChange={(event) => props.onSelect([item.id], event.target.checked)}
                    />
                  </td>
                )}
                <td className={`${cell} whitespace-nowrap`}>
                  <DueCell item={item} />
                </td>
                <td className={cell}>
                  <Link
                    to={followUpLeadPath(item)}
                    className="font-semibold text-brand-800 underline"
                  >
                    {name}
                  </Link>
                </td>
                <td className={`${cell} break-words`}>{item.body || '–'}</td>
                <td className={cell}>{item.assignee_name ?? 'niemand (offen für alle)'}</td>
                {props.done ? (
                  <td className={cell}>
                    {item.done_at ? (
                      <time dateTime={item.done_at}>{berlinDateTime(item.done_at)} Uhr</time>
                    ) : null}
                    {item.done_by_name ? ` von ${item.done_by_name}` : null}
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function Paginator(props: {
  page: number;
  pageCount: number;
  total: number;
  onPage: (page: number) => void;
}) {
  const { page, pageCount } = props;
  return (
    <nav
      aria-label="Seiten der Wiedervorlagen"
      className="mt-4 flex flex-wrap items-center justify-between gap-4 text-slate-800"
    >
      <p>
        Seite {numberFormat.format(page)} von {numberFormat.format(pageCount)} ·{' '}
        {followUpsText(props.total)}
      </p>
      <div className="flex gap-2">
        <Button variant="secondary" disabled={page <= 1} onClick={() => props.onPage(page - 1)}>
          Vorherige Seite
        </Button>
        <Button
          variant="secondary"
          disabled={page >= pageCount}
          onClick={() => props.onPage(page + 1)}
        >
          Nächste Seite
        </Button>
      </div>
    </nav>
  );
}

export function FollowUpsPage() {
  const [params, setParams] = useSearchParams();
  const view = readFollowUpListView(params);
  const list = useFollowUpPage({
    assigned: view.assigned,
    due: view.due,
    page: view.page,
    size: followUpPageSize,
  });
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [message, setMessage] = useState<string | null>(null);
  const total = list.data?.total ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / followUpPageSize));
  const done = view.due === 'done';

  const show = (next: FollowUpListView) => {
    setSelected(new Set());
    setMessage(null);
    setParams(followUpListQuery(next));
  };

  // A page past the end (its last rows were done, or an old link): the last page there is.
  const pastEnd = list.isSuccess && !list.isPlaceholderData && view.page > pageCount;
  useEffect(() => {
    if (pastEnd) setParams(followUpListQuery({ ...view, page: pageCount }), { replace: true });
  });

  return (
    <DeskScreen
      heading="Wiedervorlagen"
      meta={{
        title: 'Wiedervorlagen – Survey Desk',
        description:
          'Alle Wiedervorlagen der Agentur nach Fälligkeit: überfällige, heutige und erledigte filtern, mehrere auf einmal erledigen oder zuweisen.',
        path: deskPaths.followUps,
      }}
    >
      <Filters view={view} onChange={show} />
      {done ? null : (
        <BulkActions
          selected={[...selected]}
          onDone={(text) => {
            setSelected(new Set());
            setMessage(text);
          }}
        />
      )}
      {message ? (
        <div className="mb-4">
          <Alert tone="info">{message}</Alert>
        </div>
      ) : null}
      <section aria-label="Liste" aria-busy={list.isPending}>
        {list.isPending ? (
          <div className="space-y-2 rounded-lg bg-white p-5 shadow" aria-hidden="true">
            <div className="h-6 w-1/3 animate-pulse rounded bg-slate-200" />
            <div className="h-4 w-2/3 animate-pulse rounded bg-slate-200" />
            <div className="h-4 w-1/2 animate-pulse rounded bg-slate-200" />
          </div>
        ) : list.isError ? (
          <LoadError onRetry={list.refetch}>
            Die Wiedervorlagen konnten nicht geladen werden.
          </LoadError>
        ) : list.data.rows.length === 0 ? (
          <p className="rounded-lg bg-white p-5 text-slate-700 shadow">
            Keine Wiedervorlagen für diese Auswahl.
          </p>
        ) : (
          <>
            <FollowUpTable
              rows={list.data.rows}
              done={done}
              selected={selected}
              busy={list.isPlaceholderData}
              onSelect={(ids, on) =>
                setSelected((before) => {
                  const next = new Set(before);
                  for (const id of ids) {
                    if (on) next.add(id);
                    else next.delete(id);
                  }
                  return next;
                })
              }
            />
            <Paginator
              page={view.page}
              pageCount={pageCount}
              total={total}
              onPage={(page) => show({ ...view, page })}
            />
          </>
        )}
      </section>
    </DeskScreen>
  );
}
