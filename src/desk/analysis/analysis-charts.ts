import type { TimeBucket } from '../api/analysis.ts';
import type { DelayBar, DistributionRow, SeriesPoint } from './analysis-data.ts';
import { formatNumber } from './analysis-data.ts';
import { chartColors, type PlotModule } from './plot-chart.tsx';

// The drawings. Each series differs by more than colour: Website is a solid line with circles,
// Messe-Tablet a dashed line with squares; bars carry their count as a direct label.

const font = { fontSize: '13px', fontFamily: 'inherit' } as const;

const shortDay = (date: Date) =>
  `${String(date.getUTCDate()).padStart(2, '0')}.${String(date.getUTCMonth() + 1).padStart(2, '0')}.`;

const integerTicks = (value: number) => (Number.isInteger(value) ? formatNumber(value) : '');

export interface SeriesData {
  points: SeriesPoint[];
  bucket: TimeBucket;
  showWeb: boolean;
  showTablet: boolean;
}

export function drawSeries(plot: PlotModule, data: SeriesData, width: number): Element {
  const rows = data.points.map((point) => ({
    ...point,
    date: new Date(`${point.period}T00:00:00Z`),
  }));
  const marks = [plot.ruleY([0], { stroke: '#64748b' })];
  if (data.showWeb) {
    marks.push(
      plot.lineY(rows, { x: 'date', y: 'web', stroke: chartColors.web, strokeWidth: 2.5 }),
      plot.dot(rows, { x: 'date', y: 'web', fill: chartColors.web, symbol: 'circle', r: 4 }),
    );
  }
  if (data.showTablet) {
    marks.push(
      plot.lineY(rows, {
        x: 'date',
        y: 'fairTablet',
        stroke: chartColors.fairTablet,
        strokeWidth: 2.5,
        strokeDasharray: '7 4',
      }),
      plot.dot(rows, {
        x: 'date',
        y: 'fairTablet',
        fill: chartColors.fairTablet,
        symbol: 'square',
        r: 4,
      }),
    );
  }
  return plot.plot({
    width,
    height: 260,
    style: font,
    marginLeft: 48,
    x: {
      type: 'utc',
      label: null,
      tickFormat: shortDay,
      ticks: Math.min(rows.length, Math.floor(width / 80)),
    },
    y: { label: 'Anfragen', grid: true, zero: true, tickFormat: integerTicks },
    marks,
  });
}

export function drawDistribution(
  plot: PlotModule,
  rows: DistributionRow[],
  width: number,
): Element {
  const max = Math.max(1, ...rows.map((row) => row.n));
  return plot.plot({
    width,
    height: 36 + rows.length * 34,
    style: font,
    marginLeft: Math.min(260, Math.max(90, width * 0.35)),
    marginRight: 110,
    x: { label: null, axis: null, domain: [0, max] },
    y: { label: null, domain: rows.map((row) => row.label) },
    marks: [
      plot.axisY({ textOverflow: 'ellipsis', lineWidth: 18, tickSize: 0 }),
      plot.barX(rows, { x: 'n', y: 'label', fill: chartColors.bar }),
      plot.text(rows, {
        x: 'n',
        y: 'label',
        text: (row: DistributionRow) => `${formatNumber(row.n)} (${row.share})`,
        textAnchor: 'start',
        dx: 6,
        fill: chartColors.text,
      }),
      plot.ruleX([0], { stroke: '#64748b' }),
    ],
  });
}

export function drawDelay(plot: PlotModule, bars: DelayBar[], width: number): Element {
  return plot.plot({
    width,
    height: 260,
    style: font,
    marginLeft: 48,
    x: { label: null, domain: bars.map((bar) => bar.label), padding: 0.2 },
    y: { label: 'Anfragen', grid: true, zero: true, tickFormat: integerTicks },
    marks: [
      plot.barY(bars, { x: 'label', y: 'n', fill: chartColors.bar }),
      plot.text(bars, {
        x: 'label',
        y: 'n',
        text: (bar: DelayBar) => formatNumber(bar.n),
        dy: -8,
        fill: chartColors.text,
      }),
      plot.ruleY([0], { stroke: '#64748b' }),
    ],
  });
}
