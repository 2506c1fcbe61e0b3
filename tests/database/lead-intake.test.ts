import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { questionnaireLead } from '../../src/testing/lead-fixtures.ts';
import { startGatewayServer, type GatewayServer } from '../helpers/gateway-server.ts';

// One lead is one call of the database's intake_lead (supabase/schemas/40_leads.sql, issue 37):
// the duplicate check, the form and question check and the insert in one statement. On
// PostgreSQL concurrent posts of one client_id really run side by side: all but one find the
// client_id taken only at the insert, and their customer merge must be undone.

describe.each(['pglite', 'postgres'] as const)('one lead in one call on %s', (kind) => {
  let server: GatewayServer;
  let db: Database;

  beforeAll(async () => {
    server = await startGatewayServer(kind);
    db = server.db;
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  async function post(lead: object) {
    const res = await fetch(`${server.url}/api/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(lead),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  it('stores one of many concurrent posts of a client_id, and only its customer', async () => {
    const clientId = crypto.randomUUID();
    const captured = { captured_at: '2026-04-01T10:00:00.000Z' };
    // Two contents under one client_id, each with its own new address.
    const first = questionnaireLead({ client_id: clientId, ...captured });
    const second = questionnaireLead({ client_id: clientId, ...captured, last_name: 'Zwei' });
    const leads = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? first : second));
    const answers = await Promise.all(leads.map(post));

    const created = answers.flatMap((answer, i) => (answer.status === 201 ? [leads[i]!] : []));
    expect(created).toHaveLength(1);
    const winner = created[0]!;
    answers.forEach((answer, i) => {
      if (answer.status === 201) return;
      expect(answer.status).toBe(leads[i] === winner ? 200 : 409);
    });
    const stored = await db.query<{ email: string }>(
      'select email from public.responses where client_id = $1',
      [clientId],
    );
    expect(stored.rows).toEqual([{ email: winner.email }]);
    const customers = await db.query<{ email: string }>(
      'select email from public.users where email = any ($1::text[]) order by email',
      [[first.email, second.email]],
    );
    expect(customers.rows).toEqual([{ email: winner.email }]);
    const counted = await db.query<{ leads: number }>(
      `select coalesce(sum(leads), 0)::int as leads
         from public.analysis_daily_leads where day = '2026-04-01'`,
    );
    expect(counted.rows).toEqual([{ leads: 1 }]);
  });

  it('names the unknown questions in the order sent, and writes nothing', async () => {
    const lead = questionnaireLead({
      answers: [
        { question_id: 999, answer: 'x' },
        { question_id: 1, answer: 'Zwei' },
        { question_id: 4, answer: 'y' },
      ],
    });
    const refused = await post(lead);
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({
      code: 'unknown_question',
      details: { question_ids: [999, 4] },
    });
    const customers = await db.query('select 1 from public.users where email = $1', [lead.email]);
    expect(customers.rows).toEqual([]);
  });
});
