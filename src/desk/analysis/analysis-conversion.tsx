import { useConversion, type AnalysisFilter, type ConversionRow } from '../api/analysis.ts';
import { formatNumber, formatShare } from './analysis-data.ts';
import { AnalysisSection, EmptyChart, Summary } from './analysis-section.tsx';

// Where the leads of the filter ended: the share that stands at 'Abgeschlossen' today, per
// questionnaire (KFZ callbacks and contact requests belong to none and have rows of their own)
// and per channel.

const channelLabels = { web: 'Website', fair_tablet: 'Messe-Tablet' } as const;

/** A row's first cell: the questionnaire's title, or what kind of lead it counts. */
export function conversionLabel(row: ConversionRow): string {
  if (row.dimension === 'channel') return row.channel ? channelLabels[row.channel] : '–';
  if (row.source === 'kfz') return 'KFZ-Rückrufe';
  if (row.source === 'contact') return 'Kontaktanfragen';
  return row.form_title ?? `Fragebogen Nr. ${row.form_id} (gelöscht)`;
}

function ConversionTable(props: { caption: string; heading: string; rows: ConversionRow[] }) {
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full border-collapse text-left text-sm">
        <caption className="mb-2 text-left font-medium text-slate-800">{props.caption}</caption>
        <thead>
          <tr className="border-b border-slate-300">
            <th scope="col" className="px-3 py-2 font-semibold">
              {props.heading}
            </th>
            <th scope="col" className="px-3 py-2 text-right font-semibold">
              Anfragen
            </th>
            <th scope="col" className="px-3 py-2 text-right font-semibold">
              Abgeschlossen
            </th>
            <th scope="col" className="px-3 py-2 text-right font-semibold">
              Abschlussquote
            </th>
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr key={conversionLabel(row)} className="border-b border-slate-200">
              <th scope="row" className="px-3 py-2 font-normal">
                {conversionLabel(row)}
              </th>
              <td className="px-3 py-2 text-right tabular-nums">{formatNumber(row.leads)}</td>
              <td className="px-3 py-2 text-right tabular-nums">{formatNumber(row.closed)}</td>
              <td className="px-3 py-2 text-right tabular-nums">
                {formatShare(row.closed, row.leads)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function Conversion({ filter }: { filter: AnalysisFilter }) {
  const conversion = useConversion(filter);
  return (
    <AnalysisSection title="Abschlussquote" queries={[conversion]}>
      {() => {
        const rows = conversion.data ?? [];
        const byForm = rows.filter((row) => row.dimension === 'form');
        const byChannel = rows.filter((row) => row.dimension === 'channel');
        if (byChannel.length === 0) return <EmptyChart />;
        const leads = byChannel.reduce((sum, row) => sum + row.leads, 0);
        const closed = byChannel.reduce((sum, row) => sum + row.closed, 0);
        return (
          <>
            <Summary>
              Von {formatNumber(leads)} {leads === 1 ? 'Anfrage' : 'Anfragen'} im gewählten Zeitraum{' '}
              {closed === 1 ? 'ist' : 'sind'} {formatNumber(closed)} heute „Abgeschlossen“ (
              {formatShare(closed, leads)}).
            </Summary>
            <div className="grid gap-6 lg:grid-cols-2">
              <ConversionTable
                caption="Abschlussquote nach Fragebogen"
                heading="Fragebogen"
                rows={byForm}
              />
              <ConversionTable
                caption="Abschlussquote nach Quelle"
                heading="Quelle"
                rows={byChannel}
              />
            </div>
          </>
        );
      }}
    </AnalysisSection>
  );
}
