import { useId, type ReactNode } from 'react';
import { LoadError } from '../../ui/load-error.tsx';

interface QueryView {
  isPending: boolean;
  isError: boolean;
  isFetching?: boolean;
  refetch: () => unknown;
}

/** A titled part of the screen with its loading skeleton and a German error with retry. */
export function AnalysisSection(props: {
  title: string;
  queries: readonly QueryView[];
  children: () => ReactNode;
  level?: 2 | 3;
}) {
  const headingId = useId();
  const pending = props.queries.some((query) => query.isPending);
  const failed = props.queries.filter((query) => query.isError);
  const busy = pending || props.queries.some((query) => query.isFetching);
  const Heading = props.level === 3 ? 'h3' : 'h2';
  return (
    <section
      aria-labelledby={headingId}
      aria-busy={busy}
      className="space-y-3 rounded-lg bg-white p-5 shadow"
    >
      <Heading id={headingId} className="text-lg font-semibold text-slate-900">
        {props.title}
      </Heading>
      {failed.length > 0 ? (
        <LoadError framed={false} onRetry={() => failed.forEach((query) => void query.refetch())}>
          Die Daten konnten nicht geladen werden.
        </LoadError>
      ) : pending ? (
        <div className="space-y-2" role="status">
          <span className="sr-only">Wird geladen …</span>
          <div className="h-6 w-1/3 animate-pulse rounded bg-slate-200" aria-hidden="true" />
          <div className="h-32 animate-pulse rounded bg-slate-200" aria-hidden="true" />
        </div>
      ) : (
        props.children()
      )}
    </section>
  );
}

/** The numbers behind a chart, one keyboard step away (a native disclosure). */
export function DataTable(props: {
  caption: string;
  columns: readonly string[];
  rows: readonly (readonly (string | number)[])[];
}) {
  return (
    <details className="group">
      <summary className="inline-flex min-h-11 cursor-pointer items-center font-semibold text-brand-800 underline-offset-4 hover:underline">
        <span className="group-open:hidden">Tabelle anzeigen</span>
        <span className="hidden group-open:inline">Tabelle ausblenden</span>
      </summary>
      <div className="mt-2 overflow-x-auto">
        <table className="min-w-full border-collapse text-left text-sm">
          <caption className="mb-2 text-left font-medium text-slate-800">{props.caption}</caption>
          <thead>
            <tr className="border-b border-slate-300">
              {props.columns.map((column, index) => (
                <th
                  key={column}
                  scope="col"
                  className={`px-3 py-2 font-semibold ${index > 0 ? 'text-right' : ''}`}
                >
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {props.rows.map((row, rowIndex) => (
              <tr key={rowIndex} className="border-b border-slate-200">
                {row.map((cell, index) =>
                  index === 0 ? (
                    <th key={index} scope="row" className="px-3 py-2 font-normal">
                      {cell}
                    </th>
                  ) : (
                    <td key={index} className="px-3 py-2 text-right tabular-nums">
                      {cell}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

export function Summary({ children }: { children: ReactNode }) {
  return <p className="text-slate-800">{children}</p>;
}

export function EmptyChart() {
  return (
    <p className="rounded border border-dashed border-slate-300 p-6 text-center text-slate-700">
      Keine Anfragen im gewählten Zeitraum.
    </p>
  );
}
