import { useId } from 'react';
import { pageSizes, type PageSize } from './customers-view.ts';

const numberFormat = new Intl.NumberFormat('de-DE');

const pageButton =
  'inline-flex h-11 min-w-11 items-center justify-center rounded-lg border border-slate-300 bg-white px-2 text-slate-800 hover:bg-slate-100 disabled:cursor-not-allowed disabled:text-slate-400 disabled:hover:bg-white';

const currentButton =
  'inline-flex h-11 min-w-11 items-center justify-center rounded-lg border border-brand-700 bg-brand-700 px-2 font-semibold text-white';

/**
 * The numbered pages to offer: the first, the last, and the current one with two on each side;
 * null where pages are left out (shown as '…'). A gap of one page shows that page instead.
 */
export function pageNumbers(page: number, pageCount: number): (number | null)[] {
  const shown = new Set([1, pageCount]);
  for (let near = page - 2; near <= page + 2; near += 1) {
    if (near >= 1 && near <= pageCount) shown.add(near);
  }
  const sorted = [...shown].sort((a, b) => a - b);
  const numbers: (number | null)[] = [];
  sorted.forEach((number, index) => {
    const before = sorted[index - 1];
    if (before !== undefined && number - before === 2) numbers.push(before + 1);
    else if (before !== undefined && number - before > 2) numbers.push(null);
    numbers.push(number);
  });
  return numbers;
}

function Arrow({ path }: { path: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none">
      <path d={path} stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

export function CustomersPaginator(props: {
  page: number;
  pageCount: number;
  total: number;
  size: PageSize;
  onPage: (page: number) => void;
  onSize: (size: PageSize) => void;
}) {
  const sizeId = useId();
  const { page, pageCount } = props;
  const arrow = (label: string, target: number, path: string, enabled: boolean) => (
    <button
      key={label}
      type="button"
      className={pageButton}
      aria-label={label}
      disabled={!enabled}
      onClick={() => props.onPage(target)}
    >
      <Arrow path={path} />
    </button>
  );
  return (
    <nav
      aria-label="Seiten der Kundentabelle"
      className="mt-4 flex flex-wrap items-center justify-between gap-4 text-slate-800"
    >
      <div className="flex items-center gap-2">
        <label htmlFor={sizeId}>Einträge pro Seite</label>
        <select
          id={sizeId}
          value={props.size}
          onChange={(event) => props.onSize(Number(event.target.value) as PageSize)}
          className="min-h-11 rounded-lg border border-slate-400 bg-white px-3 py-2"
        >
          {pageSizes.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </div>
      <p aria-live="polite">
        Seite {numberFormat.format(page)} von {numberFormat.format(pageCount)} ·{' '}
        {numberFormat.format(props.total)} {props.total === 1 ? 'Kunde' : 'Kunden'}
      </p>
      <div className="flex flex-wrap items-center gap-1">
        {arrow('Erste Seite', 1, 'M17 18l-6-6 6-6M7 6v12', page > 1)}
        {arrow('Vorherige Seite', page - 1, 'M15 18l-6-6 6-6', page > 1)}
        <ul className="flex items-center gap-1" aria-label="Seitenzahlen">
          {pageNumbers(page, pageCount).map((number, index) =>
            number === null ? (
              <li key={`gap-${index}`} className="px-1 text-slate-600">
                …
              </li>
            ) : (
              <li key={number}>
                <button
                  type="button"
                  className={number === page ? currentButton : pageButton}
                  aria-label={`Seite ${numberFormat.format(number)}`}
                  aria-current={number === page ? 'page' : undefined}
                  onClick={() => props.onPage(number)}
                >
                  {numberFormat.format(number)}
                </button>
              </li>
            ),
          )}
        </ul>
        {arrow('Nächste Seite', page + 1, 'M9 6l6 6-6 6', page < pageCount)}
        {arrow('Letzte Seite', pageCount, 'M7 6l6 6-6 6M17 6v12', page < pageCount)}
      </div>
    </nav>
  );
}
