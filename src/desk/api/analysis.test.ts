import type { SupabaseClient } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import {
  readAnswerDistribution,
  readLeadsOverTime,
  readOfflineDelay,
  readOverview,
  type AnalysisFilter,
} from './analysis.ts';

/** A stand-in for supabase-js's rpc that records each call and answers in turn. */
function fakeClient(answers: { data: unknown; error: unknown }[]) {
  const calls: [string, unknown][] = [];
  const client = {
    rpc: (name: string, args: unknown) => {
      calls.push([name, args]);
      return Promise.resolve(answers.shift());
    },
  };
  return { client: client as unknown as SupabaseClient, calls };
}

const filter: AnalysisFilter = {
  dayFrom: '2026-11-01',
  dayTo: '2026-11-30',
  questionnaireId: 1,
  channel: 'fair_tablet',
};
const args = {
  day_from: '2026-11-01',
  day_to: '2026-11-30',
  questionnaire_id: 1,
  lead_channel: 'fair_tablet',
};

describe('desk-analysis', () => {
  it('passes the filter as the functions’ named arguments and reads the one overview row', async () => {
    const row = {
      leads: 5,
      web_leads: 3,
      fair_tablet_leads: 2,
      questionnaire_leads: 4,
      kfz_leads: 1,
      contact_leads: 0,
      offer_requests: 2,
      offline_leads: 1,
      median_delay_seconds: 7230.5,
      first_lead_at: '2026-11-02T08:00:00+00:00',
      last_lead_at: '2026-11-20T08:00:00+00:00',
      data_since: '2026-01-01T08:00:00+00:00',
    };
    const { client, calls } = fakeClient([{ data: [row], error: null }]);
    await expect(readOverview(client, filter)).resolves.toEqual(row);
    expect(calls).toEqual([['analysis_overview', args]]);
  });

  it('sends every filter as null when it means everything', async () => {
    const { client, calls } = fakeClient([{ data: [], error: null }]);
    const everything = { ...filter, questionnaireId: null, channel: null };
    await expect(readOverview(client, everything)).resolves.toMatchObject({ leads: 0 });
    expect(calls[0]![1]).toEqual({ ...args, questionnaire_id: null, lead_channel: null });
  });

  it('asks for the bucket of the series and checks each row', async () => {
    const rows = [{ period_start: '2026-11-02', channel: 'web', source: 'kfz', leads: 3 }];
    const { client, calls } = fakeClient([{ data: rows, error: null }]);
    await expect(readLeadsOverTime(client, filter, 'week')).resolves.toEqual(rows);
    expect(calls).toEqual([['analysis_leads_over_time', { ...args, bucket: 'week' }]]);
  });

  it('refuses a reply of another shape instead of drawing it', async () => {
    const { client } = fakeClient([
      { data: [{ question_id: 1, kind: 'unknown', value: null, n: 1 }], error: null },
    ]);
    await expect(readAnswerDistribution(client, filter)).rejects.toThrow();
  });

  it('hands the database error on for the screen to word', async () => {
    const error = { code: '42501', message: 'permission denied' };
    const { client } = fakeClient([{ data: null, error }]);
    await expect(readOfflineDelay(client, filter)).rejects.toBe(error);
  });

  it('reads the histogram with its open last bucket', async () => {
    const rows = [
      { lower_seconds: 60, upper_seconds: 300, n: 0 },
      { lower_seconds: 259200, upper_seconds: null, n: 2 },
    ];
    const { client } = fakeClient([{ data: rows, error: null }]);
    await expect(readOfflineDelay(client, filter)).resolves.toEqual(rows);
  });
});
