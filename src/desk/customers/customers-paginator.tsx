import { useId } from 'react';
import { pageSizes, type PageSize } from './customers-view.ts';

const numberFormat = new Intl.NumberFormat('de-DE');

const pageButton =
  'inline-flex h-11 w-11 items-center justify-center rounded-lg border border-slate-300 bg-white text-slate-800 hover:bg-slate-100 disabled:cursor-not-allowed disabled:text-slate-400 disabled:hover:bg-white';

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
  const buttons = [
    { label: 'Erste Seite', target: 1, path: 'M17 18l-6-6 6-6M7 6v12', enabled: page > 1 },
    { label: 'Vorherige Seite', target: page - 1, path: 'M15 18l-6-6 6-6', enabled: page > 1 },
    {
      label: 'Nächste Seite',
      target: page + 1,
      path: 'M9 6l6 6-6 6',
      enabled: page < pageCount,
    },
    {
      label: 'Letzte Seite',
      target: pageCount,
      path: 'M7 6l6 6-6 6M17 6v12',
      enabled: page < pageCount,
    },
  ];
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
      <div className="flex gap-2">
        {buttons.map((button) => (
          <button
            key={button.label}
            type="button"
            className={pageButton}
            aria-label={button.label}
            disabled={!button.enabled}
            onClick={() => props.onPage(button.target)}
          >
            <Arrow path={button.path} />
          </button>
        ))}
      </div>
    </nav>
  );
}
