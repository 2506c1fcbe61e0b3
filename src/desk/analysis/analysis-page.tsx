import { useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  useAnalysisOverview,
  useAnalysisQuestions,
  useAnswerDistribution,
  useLeadsOverTime,
  useOfflineDelay,
  type AnalysisFilter,
  type AnalysisOverview,
} from '../api/analysis.ts';
import { useFormList } from '../api/forms.ts';
import { siteConfig } from '../../config/site.ts';
import { deskPaths } from '../../domain/routes.ts';
import { Alert } from '../../ui/alert.tsx';
import { DeskScreen } from '../shared/desk-screen.tsx';
import { ExportMenu } from '../shared/export-menu.tsx';
import { drawDelay, drawDistribution, drawSeries, type SeriesData } from './analysis-charts.ts';
import { berlinToday } from '../../domain/calendar.ts';
import {
  bucketFor,
  parseSelection,
  selectionParams,
  toFilter,
  type AnalysisSelection,
} from './analysis-filter.ts';
import { Conversion } from './analysis-conversion.tsx';
import { AnalysisFilters } from './analysis-filters.tsx';
import {
  anfragen,
  delayBars,
  delaySummary,
  distributions,
  distributionSummary,
  fillSeries,
  formatDay,
  formatDuration,
  formatNumber,
  formatShare,
  overviewSummary,
  periodLabel,
  seriesSummary,
  tooLittleData,
  type QuestionDistribution,
} from './analysis-data.ts';
import { AnalysisSection, DataTable, EmptyChart, Summary } from './analysis-section.tsx';
import { PlotChart } from './plot-chart.tsx';

function useSelection(today: string) {
  const [params, setParams] = useSearchParams();
  const selection = parseSelection(params, today);
  const change = (next: AnalysisSelection) => setParams(selectionParams(next));
  return [selection, change] as const;
}

function keyFigures(overview: AnalysisOverview): [string, string][] {
  return [
    ['Anfragen', formatNumber(overview.leads)],
    ['Über die Website', formatNumber(overview.web_leads)],
    ['Vom Messe-Tablet', formatNumber(overview.fair_tablet_leads)],
    [
      // The questionnaire's optional box; the KFZ and contact forms have none and are not counted.
      'Anteil mit Wunsch nach weiteren Angeboten (Fragebögen)',
      formatShare(overview.offer_requests, overview.questionnaire_leads),
    ],
    ['Offline gewartet', formatNumber(overview.offline_leads)],
    [
      'Median der Wartezeit',
      overview.median_delay_seconds === null ? '–' : formatDuration(overview.median_delay_seconds),
    ],
  ];
}

function KeyFigures({ filter }: { filter: AnalysisFilter }) {
  const overview = useAnalysisOverview(filter);
  return (
    <AnalysisSection title="Kennzahlen" queries={[overview]}>
      {() => {
        const data = overview.data!;
        const figures = keyFigures(data);
        return (
          <>
            <dl className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-6">
              {figures.map(([label, value]) => (
                <div key={label}>
                  <dt className="text-sm text-slate-700">{label}</dt>
                  <dd className="text-2xl font-bold text-slate-900">{value}</dd>
                </div>
              ))}
            </dl>
            <Summary>{overviewSummary(data)}</Summary>
            <DataTable
              caption="Kennzahlen der Auswahl"
              columns={['Kennzahl', 'Wert']}
              rows={[
                ...figures,
                ['Davon Fragebögen', formatNumber(data.questionnaire_leads)],
                ['Davon KFZ-Rückrufe', formatNumber(data.kfz_leads)],
                ['Davon Kontaktanfragen', formatNumber(data.contact_leads)],
                [
                  'Mit Wunsch nach weiteren Angeboten (Fragebögen)',
                  formatNumber(data.offer_requests),
                ],
              ]}
            />
          </>
        );
      }}
    </AnalysisSection>
  );
}

function TooLittleData({ filter, today }: { filter: AnalysisFilter; today: string }) {
  const overview = useAnalysisOverview(filter);
  if (!overview.data) return null;
  const { shortHistory, fewLeads } = tooLittleData(overview.data, today);
  if (!shortHistory && !fewLeads) return null;
  const since = overview.data.data_since;
  const support = siteConfig.externalLinks.support;
  return (
    <Alert tone="info">
      <p className="font-semibold">Noch wenige Daten</p>
      <p>
        Damit aussagekräftige Auswertungen möglich sind, werden Daten aus etwa 30 Tagen benötigt.
        {shortHistory && since
          ? ` Die erste Anfrage stammt vom ${formatDay(since.slice(0, 10))}.`
          : ''}
        {fewLeads
          ? ` Die Auswahl enthält ${anfragen(overview.data.leads)}; bei weniger als 30 Anfragen sind Anteile und Verläufe nur Anhaltspunkte.`
          : ''}
      </p>
      <p className="mt-2">
        Du brauchst schon früher eine Auswertung? Wende dich an den{' '}
        <a
          href={support.href}
          target="_blank"
          rel="noreferrer"
          className="font-semibold underline underline-offset-2"
        >
          Support
          <span className="sr-only"> (öffnet in einem neuen Fenster)</span>
        </a>
        .
      </p>
    </Alert>
  );
}

function Legend({ showWeb, showTablet }: { showWeb: boolean; showTablet: boolean }) {
  return (
    <ul className="flex flex-wrap gap-6 text-sm text-slate-800">
      {showWeb ? (
        <li className="flex items-center gap-2">
          <svg width="36" height="12" aria-hidden="true">
            <line x1="0" y1="6" x2="36" y2="6" stroke="#1d4ed8" strokeWidth="2.5" />
            <circle cx="18" cy="6" r="4" fill="#1d4ed8" />
          </svg>
          Website (durchgezogen, Kreise)
        </li>
      ) : null}
      {showTablet ? (
        <li className="flex items-center gap-2">
          <svg width="36" height="12" aria-hidden="true">
            <line
              x1="0"
              y1="6"
              x2="36"
              y2="6"
              stroke="#b45309"
              strokeWidth="2.5"
              strokeDasharray="7 4"
            />
            <rect x="14" y="2" width="8" height="8" fill="#b45309" />
          </svg>
          Messe-Tablet (gestrichelt, Quadrate)
        </li>
      ) : null}
    </ul>
  );
}

function LeadsOverTime({ filter }: { filter: AnalysisFilter }) {
  const bucket = bucketFor(filter);
  const rows = useLeadsOverTime(filter, bucket);
  const series = useMemo<SeriesData | null>(
    () =>
      rows.data
        ? {
            points: fillSeries(rows.data, filter.dayFrom, filter.dayTo, bucket),
            bucket,
            showWeb: filter.channel !== 'fair_tablet',
            showTablet: filter.channel !== 'web',
          }
        : null,
    [rows.data, filter.dayFrom, filter.dayTo, filter.channel, bucket],
  );
  const title =
    bucket === 'day' ? 'Anfragen im Zeitverlauf (pro Tag)' : 'Anfragen im Zeitverlauf (pro Woche)';
  return (
    <AnalysisSection title={title} queries={[rows]}>
      {() => {
        if (!series) return null;
        const summary = seriesSummary(series.points, bucket);
        const empty = series.points.every((point) => point.total === 0);
        return (
          <>
            <Summary>{summary}</Summary>
            {empty ? (
              <EmptyChart />
            ) : (
              <>
                <PlotChart label={`${title}: ${summary}`} data={series} draw={drawSeries} />
                <Legend showWeb={series.showWeb} showTablet={series.showTablet} />
              </>
            )}
            <DataTable
              caption={title}
              columns={[bucket === 'day' ? 'Tag' : 'Woche', 'Website', 'Messe-Tablet', 'Gesamt']}
              rows={series.points.map((point) => [
                periodLabel(point.period, bucket),
                formatNumber(point.web),
                formatNumber(point.fairTablet),
                formatNumber(point.total),
              ])}
            />
          </>
        );
      }}
    </AnalysisSection>
  );
}

function QuestionChart({ distribution }: { distribution: QuestionDistribution }) {
  const { question, rows, unit } = distribution;
  const summary = distributionSummary(distribution);
  const answered = rows.some((row) => row.n > 0);
  return (
    <section className="space-y-3 border-t border-slate-200 pt-4" aria-label={question.question}>
      <h3 className="font-semibold text-slate-900">{question.question}</h3>
      <Summary>{summary}</Summary>
      {answered ? (
        <PlotChart label={`${question.question}: ${summary}`} data={rows} draw={drawDistribution} />
      ) : (
        <p className="text-slate-700">Keine Antworten im gewählten Zeitraum.</p>
      )}
      <DataTable
        caption={`Antworten: ${question.question}`}
        columns={
          // The children's table mixes counts of children (decades) and of leads (answered,
          // empty); each row's share is of its own kind.
          unit === 'Kinder'
            ? ['Antwort', 'Anzahl', 'Anteil']
            : ['Antwort', unit, 'Anteil der Anfragen']
        }
        rows={rows.map((row) => [row.label, formatNumber(row.n), row.share])}
      />
    </section>
  );
}

function AnswerDistributions({ filter }: { filter: AnalysisFilter }) {
  const overview = useAnalysisOverview(filter);
  const questions = useAnalysisQuestions(filter.questionnaireId);
  const answers = useAnswerDistribution(filter);
  const title = 'Antworten je Frage';
  if (filter.questionnaireId === null) {
    return (
      <section aria-labelledby="antworten-hinweis" className="rounded-lg bg-white p-5 shadow">
        <h2 id="antworten-hinweis" className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        <p className="mt-2 text-slate-800">
          Wähle oben einen Fragebogen, um die Verteilung der Antworten je Frage zu sehen.
        </p>
      </section>
    );
  }
  return (
    <AnalysisSection title={title} queries={[overview, questions, answers]}>
      {() => {
        const leads = overview.data?.questionnaire_leads ?? 0;
        if (leads === 0) return <EmptyChart />;
        const list = distributions(answers.data ?? [], questions.data ?? [], leads);
        if (list.length === 0) return <p>Dieser Fragebogen hat keine Fragen.</p>;
        return (
          <div className="space-y-6">
            <Summary>
              Grundlage: {anfragen(leads)} mit diesem Fragebogen. Anteile beziehen sich auf diese
              Anfragen; bei Mehrfachauswahl kann die Summe über 100 % liegen.
            </Summary>
            {list.map((distribution) => (
              <QuestionChart key={distribution.question.id} distribution={distribution} />
            ))}
          </div>
        );
      }}
    </AnalysisSection>
  );
}

function OfflineDelay({ filter }: { filter: AnalysisFilter }) {
  const overview = useAnalysisOverview(filter);
  const delay = useOfflineDelay(filter);
  const bars = useMemo(() => delayBars(delay.data ?? []), [delay.data]);
  const title = 'Wartezeit bis zur Übertragung';
  return (
    <AnalysisSection title={title} queries={[overview, delay]}>
      {() => {
        const data = overview.data!;
        const summary = delaySummary(data, bars);
        return (
          <>
            <p className="text-sm text-slate-700">
              Anfragen, die das Gerät nicht sofort senden konnte und gespeichert hat, bis die
              Verbindung wieder da war (offline, „Offline simulieren“ oder Server nicht erreichbar),
              meist vom Messe-Tablet. Die Wartezeit reicht vom Erfassen bis zum Eintreffen.
            </p>
            <Summary>{summary}</Summary>
            {data.offline_leads === 0 ? (
              <p className="rounded border border-dashed border-slate-300 p-6 text-center text-slate-700">
                Keine offline gewarteten Anfragen im gewählten Zeitraum.
              </p>
            ) : (
              <PlotChart label={`${title}: ${summary}`} data={bars} draw={drawDelay} />
            )}
            <DataTable
              caption={`${title} (Median: ${
                data.median_delay_seconds === null ? '–' : formatDuration(data.median_delay_seconds)
              })`}
              columns={['Wartezeit', 'Anfragen']}
              rows={bars.map((bar) => [bar.label, formatNumber(bar.n)])}
            />
          </>
        );
      }}
    </AnalysisSection>
  );
}

/** Analyse: what the leads of a period, questionnaire and source say (spec 2, DESIGN 7). */
export function AnalysisPage() {
  const today = berlinToday();
  const [chosen, change] = useSelection(today);
  const forms = useFormList();
  const formChoices = useMemo(
    () => (forms.data ?? []).map((form) => ({ id: form.id, title: form.title })),
    [forms.data],
  );
  // A questionnaire that is not (or no longer) there means every lead, as a bad address does.
  const unknownForm =
    forms.data !== undefined &&
    chosen.questionnaireId !== null &&
    !formChoices.some((form) => form.id === chosen.questionnaireId);
  const selection = unknownForm ? { ...chosen, questionnaireId: null } : chosen;
  const filter = toFilter(selection);

  return (
    <DeskScreen
      heading="Analyse"
      meta={{
        title: 'Analyse – Survey Desk',
        description:
          'Auswertungen der Anfragen in Survey Desk: Verlauf nach Quelle, Antworten je Frage, Angebotswünsche und Wartezeiten des Messe-Tablets.',
        path: deskPaths.analysis,
      }}
    >
      <div className="space-y-6">
        <AnalysisFilters
          selection={selection}
          forms={formChoices}
          today={today}
          onChange={change}
        />
        {forms.isError ? (
          <Alert tone="error">
            Die Fragebögen konnten nicht geladen werden; die Auswahl eines Fragebogens ist daher
            nicht möglich.
          </Alert>
        ) : null}
        <div className="flex flex-wrap items-center justify-between gap-4">
          <p className="text-slate-800">
            Auswahl: {formatDay(filter.dayFrom)} bis {formatDay(filter.dayTo)}
          </p>
          <ExportMenu scope="analysis" filter={filter} />
        </div>
        <TooLittleData filter={filter} today={today} />
        <KeyFigures filter={filter} />
        <Conversion filter={filter} />
        <LeadsOverTime filter={filter} />
        <AnswerDistributions filter={filter} />
        <OfflineDelay filter={filter} />
      </div>
    </DeskScreen>
  );
}
