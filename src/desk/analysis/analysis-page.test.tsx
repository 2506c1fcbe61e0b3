// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AnalysisFilter, AnalysisOverview } from '../api/analysis.ts';
import { AnalysisPage } from './analysis-page.tsx';

// The screen's states with the data layer's hooks standing in for the database.
type Query = {
  data?: unknown;
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  refetch: () => void;
};

const state = vi.hoisted(() => ({
  overview: {} as Query,
  overTime: {} as Query,
  answers: {} as Query,
  questions: {} as Query,
  delay: {} as Query,
  conversion: {} as Query,
  filters: [] as AnalysisFilter[],
  exportFilter: null as unknown,
}));

vi.mock('../api/analysis.ts', () => ({
  useAnalysisOverview: (filter: AnalysisFilter) => {
    state.filters.push(filter);
    return state.overview;
  },
  useLeadsOverTime: () => state.overTime,
  useAnswerDistribution: () => state.answers,
  useAnalysisQuestions: () => state.questions,
  useOfflineDelay: () => state.delay,
  useConversion: () => state.conversion,
}));
vi.mock('../api/forms.ts', () => ({
  useFormList: () => ({ data: [{ id: 1, title: 'Tabaluga' }], isError: false }),
}));
vi.mock('../shared/export-menu.tsx', () => ({
  ExportMenu: (props: { filter: unknown }) => {
    state.exportFilter = props.filter;
    return <button type="button">Exportieren</button>;
  },
}));
vi.mock('./plot-chart.tsx', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  PlotChart: (props: { label: string }) => <div role="img" aria-label={props.label} />,
}));

const loaded = (data: unknown): Query => ({
  data,
  isPending: false,
  isError: false,
  isFetching: false,
  refetch: vi.fn(),
});

const overview = (changes: Partial<AnalysisOverview> = {}): AnalysisOverview => ({
  leads: 40,
  web_leads: 35,
  fair_tablet_leads: 5,
  questionnaire_leads: 40,
  kfz_leads: 0,
  contact_leads: 0,
  offer_requests: 10,
  offline_leads: 2,
  median_delay_seconds: 600,
  first_lead_at: '2026-11-01T08:00:00Z',
  last_lead_at: '2026-11-20T08:00:00Z',
  data_since: '2025-01-01T08:00:00Z',
  ...changes,
});

function renderPage(query = '') {
  render(
    <MemoryRouter initialEntries={[`/surveydesk/analyse${query}`]}>
      <AnalysisPage />
    </MemoryRouter>,
  );
}

beforeEach(() => {
  state.overview = loaded(overview());
  state.overTime = loaded([]);
  state.answers = loaded([]);
  state.questions = loaded([]);
  state.delay = loaded([{ lower_seconds: 300, upper_seconds: 1800, n: 2 }]);
  state.conversion = loaded([]);
  state.filters = [];
});
afterEach(cleanup);

describe('AnalysisPage', () => {
  it('reads the filter from the address and hands it to the data and the export', () => {
    renderPage('?zeitraum=eigener&von=2026-11-01&bis=2026-11-10&fragebogen=1&quelle=messe');
    const expected = {
      dayFrom: '2026-11-01',
      dayTo: '2026-11-10',
      questionnaireId: 1,
      channel: 'fair_tablet',
    };
    expect(state.filters.at(-1)).toEqual(expected);
    expect(state.exportFilter).toEqual(expected);
  });

  it('asks to choose a questionnaire before showing answers', () => {
    renderPage();
    expect(screen.getByText(/Wähle oben einen Fragebogen/)).toBeTruthy();
  });

  it('shows the too-little-data note beside the figures, not instead of them', () => {
    state.overview = loaded(overview({ leads: 4, web_leads: 4, fair_tablet_leads: 0 }));
    renderPage();
    expect(screen.getByRole('status').textContent).toMatch(/Daten aus etwa 30 Tagen/);
    // As the spec's note: support makes an earlier evaluation.
    expect(
      within(screen.getByRole('status'))
        .getByRole('link', { name: /^Support/ })
        .getAttribute('href'),
    ).toBe('https://support.agentur-mustermann.example');
    const figures = screen.getByRole('region', { name: 'Kennzahlen' });
    expect(
      within(figures).getByText(/^4 Anfragen, davon 4 über die Website und 0 vom Messe-Tablet; 25/),
    ).toBeTruthy();
  });

  it('names the questionnaire’s box for further offers and shares it among questionnaire leads only', () => {
    // 40 leads, 20 of them questionnaires, 5 ticked the box: 25 %, not 12.5 %.
    state.overview = loaded(
      overview({
        leads: 40,
        questionnaire_leads: 20,
        kfz_leads: 15,
        contact_leads: 5,
        offer_requests: 5,
      }),
    );
    renderPage();
    const figures = screen.getByRole('region', { name: 'Kennzahlen' });
    const share = within(figures).getByText(
      'Anteil mit Wunsch nach weiteren Angeboten (Fragebögen)',
      {
        selector: 'dt',
      },
    );
    expect(share.nextElementSibling?.textContent).toMatch(/^25(,0)?\u00a0%$/);
    expect(within(figures).queryByText(/Angebotswunsch/)).toBeNull();
  });

  it('has no note with a long history and enough leads', () => {
    renderPage();
    expect(screen.queryByText(/Daten aus etwa 30 Tagen/)).toBeNull();
  });

  it('shows an empty state instead of empty axes', () => {
    state.overview = loaded(
      overview({ leads: 0, web_leads: 0, fair_tablet_leads: 0, offline_leads: 0 }),
    );
    renderPage('?zeitraum=7');
    const series = screen.getByRole('region', { name: 'Anfragen im Zeitverlauf (pro Tag)' });
    expect(within(series).getAllByText('Keine Anfragen im gewählten Zeitraum.')).toHaveLength(2);
    expect(within(series).queryByRole('img')).toBeNull();
  });

  it('names each chart with its title and summary, the numbers in a table', async () => {
    renderPage();
    const chart = screen.getByRole('img', { name: /^Wartezeit bis zur Übertragung: / });
    expect(chart.getAttribute('aria-label')).toBe(
      'Wartezeit bis zur Übertragung: 2 Anfragen haben offline gewartet; Median 10 Min.; am häufigsten 5–30 Min. (2).',
    );
    const region = screen.getByRole('region', { name: 'Wartezeit bis zur Übertragung' });
    await userEvent.click(within(region).getByText('Tabelle anzeigen'));
    const table = within(region).getByRole('table', {
      name: 'Wartezeit bis zur Übertragung (Median: 10 Min.)',
    });
    expect(within(table).getByRole('row', { name: '5–30 Min. 2' })).toBeTruthy();
  });

  it('explains a failed load and retries', async () => {
    state.delay = { ...loaded(undefined), isError: true };
    renderPage();
    const region = screen.getByRole('region', { name: 'Wartezeit bis zur Übertragung' });
    expect(within(region).getByRole('alert').textContent).toMatch(/konnten nicht geladen werden/);
    await userEvent.click(within(region).getByRole('button', { name: 'Erneut versuchen' }));
    expect(state.delay.refetch).toHaveBeenCalled();
  });

  it('shows the closed share per questionnaire and per source with German headings', () => {
    const row = { source: null, form_id: null, form_title: null, channel: null };
    state.conversion = loaded([
      {
        ...row,
        dimension: 'form',
        source: 'questionnaire',
        form_id: 1,
        form_title: 'Tabaluga',
        leads: 30,
        closed: 3,
        rate: 0.1,
      },
      {
        ...row,
        dimension: 'form',
        source: 'questionnaire',
        form_id: 9,
        leads: 2,
        closed: 0,
        rate: 0,
      },
      { ...row, dimension: 'form', source: 'kfz', leads: 8, closed: 2, rate: 0.25 },
      { ...row, dimension: 'channel', channel: 'fair_tablet', leads: 5, closed: 1, rate: 0.2 },
      { ...row, dimension: 'channel', channel: 'web', leads: 35, closed: 4, rate: 4 / 35 },
    ]);
    renderPage();
    const region = screen.getByRole('region', { name: 'Abschlussquote' });
    // German percentages keep a no-break space before the sign.
    const text = (node: Node) => node.textContent?.replace(/\u00a0/g, ' ');
    expect(text(region)).toContain(
      'Von 40 Anfragen im gewählten Zeitraum sind 5 heute „Abgeschlossen“ (12,5 %).',
    );
    const rowsOf = (name: string) =>
      within(within(region).getByRole('table', { name })).getAllByRole('row').map(text);
    expect(rowsOf('Abschlussquote nach Fragebogen')).toEqual([
      'FragebogenAnfragenAbgeschlossenAbschlussquote',
      'Tabaluga30310 %',
      'Fragebogen Nr. 9 (gelöscht)200 %',
      'KFZ-Rückrufe8225 %',
    ]);
    expect(rowsOf('Abschlussquote nach Quelle')).toEqual([
      'QuelleAnfragenAbgeschlossenAbschlussquote',
      'Messe-Tablet5120 %',
      'Website35411,4 %',
    ]);
  });

  it('says when the period has no leads to judge the closed share by', () => {
    renderPage();
    const region = screen.getByRole('region', { name: 'Abschlussquote' });
    expect(within(region).getByText('Keine Anfragen im gewählten Zeitraum.')).toBeTruthy();
    expect(within(region).queryByRole('table')).toBeNull();
  });
});
