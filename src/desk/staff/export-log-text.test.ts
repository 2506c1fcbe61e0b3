import { describe, expect, it } from 'vitest';
import { describeExport, exportRows, exportStatus } from './export-log-text.ts';

const titles = (id: number) => ({ 2: 'PKV' })[id];

describe('export log in words', () => {
  it('names scope, period, form, source and search', () => {
    expect(
      describeExport(
        {
          scope: 'analysis',
          filter: {
            day_from: '2026-11-01',
            day_to: '2026-11-23',
            questionnaire_id: 2,
            lead_channel: 'fair_tablet',
          },
        },
        titles,
      ),
    ).toBe('Analyse · 01.11.2026 bis 23.11.2026 · Fragebogen: PKV · Quelle: Messe-Tablet');
    expect(
      describeExport({ scope: 'customers', filter: { customer_search: 'meier' } }, titles),
    ).toBe('Kunden · gesamter Zeitraum · alle Anfragen · Suche „meier“');
    expect(
      describeExport(
        { scope: 'analysis', filter: { day_from: '2026-11-01', questionnaire_id: 9 } },
        titles,
      ),
    ).toBe('Analyse · ab 01.11.2026 · Fragebogen: Nr. 9');
    expect(describeExport({ scope: 'analysis', filter: { day_to: '2026-11-01' } }, titles)).toBe(
      'Analyse · bis 01.11.2026 · alle Anfragen',
    );
  });

  it('names the customer list’s filters', () => {
    expect(
      describeExport(
        {
          scope: 'customers',
          filter: {
            received_from: '2026-11-01',
            questionnaire_id: 2,
            lead_status: 'new',
            lead_source: 'kfz',
            open_follow_up: true,
            customer_search: 'meier',
          },
        },
        titles,
      ),
    ).toBe(
      'Kunden · Eingang ab 01.11.2026 · Fragebogen: PKV · Quelle: KFZ-Rückruf · Status: Neu · offene Wiedervorlage · Suche „meier“',
    );
  });

  it('says how an export ended and how many rows it wrote', () => {
    expect(exportStatus({ finished_at: '2026-11-23T10:00:00Z', cancelled: false })).toBe(
      'abgeschlossen',
    );
    expect(exportStatus({ finished_at: '2026-11-23T10:00:00Z', cancelled: true })).toBe(
      'abgebrochen',
    );
    expect(exportStatus({ finished_at: null, cancelled: false })).toBe('nicht beendet');
    expect(exportRows({ row_count: 30, rows_written: 30, cancelled: false })).toBe('30');
    expect(exportRows({ row_count: 30, rows_written: 10, cancelled: true })).toBe('10 von 30');
    expect(exportRows({ row_count: 30, rows_written: null, cancelled: false })).toBe('30');
  });
});
