import { questionnaireLead } from '../../src/testing/lead-fixtures.ts';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import {
  countRows,
  createTestHub,
  hubService,
  testSecret,
  type TestHub,
} from '../../tests/helpers/hub.ts';
import type { Columns } from '../db/table-rows.ts';

describe('responses API', () => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await createTestHub();
  });
  afterAll(() => hub.close());

  const post = (payload: unknown) =>
    hub.app.inject({ method: 'POST', url: '/api/responses', payload: payload as object });

  /** Runs a request that must be refused and checks that it wrote nothing. */
  async function expectNothingWritten<R>(send: () => Promise<R>): Promise<R> {
    const before = await Promise.all([
      countRows(hub.db, 'responses'),
      countRows(hub.db, 'answers'),
      countRows(hub.db, 'users'),
    ]);
    const res = await send();
    const after = await Promise.all([
      countRows(hub.db, 'responses'),
      countRows(hub.db, 'answers'),
      countRows(hub.db, 'users'),
    ]);
    expect(after).toEqual(before);
    return res;
  }

  it('stores a submission with its answers and customer', async () => {
    const submission = questionnaireLead({ email: 'Mixed.Case@Example.DE' });
    const res = await post(submission);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ status: 'created', client_id: submission.client_id });
    const row = await hub.db.query<Record<string, unknown>>(
      'select r.*, u.email as customer_email from public.responses r join public.users u on u.id = r.user_id where r.id = $1',
      [res.json().id],
    );
    expect(row.rows[0]).toMatchObject({
      form_id: 1,
      source: 'questionnaire',
      email: 'mixed.case@example.de',
      customer_email: 'mixed.case@example.de',
      create_user: 'Jürgen Weiß',
      offer_info: true,
      consent_version: '2026-11-01',
    });
    const answers = await hub.db.query(
      'select question_id, answer from public.answers where response_id = $1 order by question_id',
      [res.json().id],
    );
    expect(answers.rows).toEqual([
      { question_id: 1, answer: 'Zwei' },
      { question_id: 2, answer: '2019-05-01, 2021-09-14' },
      { question_id: 3, answer: '50 €' },
    ]);
  });

  it('creates one response when the same submission is posted twice', async () => {
    const submission = questionnaireLead();
    const first = await post(submission);
    const reordered = Object.fromEntries(Object.entries(submission).reverse());
    const second = await expectNothingWritten(() => post(reordered));
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual({ ...first.json(), status: 'duplicate' });
  });

  it('refuses other content under a known client_id with 409', async () => {
    const submission = questionnaireLead();
    await post(submission);
    const res = await expectNothingWritten(() => post({ ...submission, first_name: 'Anders' }));
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('conflict');
  });

  it('creates exactly one response from 20 concurrent posts of one client_id', async () => {
    const submission = questionnaireLead();
    const results = await Promise.all(Array.from({ length: 20 }, () => post(submission)));
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(19);
    expect(new Set(results.map((r) => r.json().id)).size).toBe(1);
    const rows = await hub.db.query<{ n: number }>(
      'select count(*)::int as n from public.responses where client_id = $1',
      [submission.client_id],
    );
    expect(rows.rows[0]!.n).toBe(1);
  });

  it('keeps one customer per lower-cased e-mail; a later lead keeps its own phone', async () => {
    const email = `stamm.${randomUUID().slice(0, 8)}@example.de`;
    await post(questionnaireLead({ email }));
    await post(questionnaireLead({ email: email.toUpperCase(), phone: '0171 555555' }));
    const users = await hub.db.query('select phone from public.users where email = $1', [email]);
    expect(users.rows).toEqual([{ phone: '+49 30 123456' }]);
    const leads = await hub.db.query(
      'select phone from public.responses where email = $1 order by id',
      [email],
    );
    expect(leads.rows).toEqual([{ phone: '+49 30 123456' }, { phone: '0171 555555' }]);
  });

  it('refuses malformed JSON with 400 and writes nothing', async () => {
    const res = await expectNothingWritten(() =>
      hub.app.inject({
        method: 'POST',
        url: '/api/responses',
        headers: { 'content-type': 'application/json' },
        payload: '{"client_id": ',
      }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: { code: 'invalid_json', message: 'Der Inhalt ist kein gültiges JSON.' },
    });
  });

  it('refuses a body that is not JSON with 415', async () => {
    const res = await hub.app.inject({
      method: 'POST',
      url: '/api/responses',
      headers: { 'content-type': 'text/plain' },
      payload: 'hallo',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().error.code).toBe('unsupported_media_type');
  });

  it('refuses wrong types with 400, naming each field, and writes nothing', async () => {
    const res = await expectNothingWritten(() =>
      post(questionnaireLead({ form_id: 'eins', answers: [{ question_id: '1', answer: 2 }] })),
    );
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error.code).toBe('validation_failed');
    const paths = (body.error.details as { path: string }[]).map((d) => d.path);
    expect(paths).toEqual(
      expect.arrayContaining(['form_id', 'answers.0.question_id', 'answers.0.answer']),
    );
  });

  it('checks the contact fields with the rules of the form named by source', async () => {
    const res = await expectNothingWritten(() =>
      post(questionnaireLead({ first_name: '', email: 'kein-at-zeichen', terms_accepted: false })),
    );
    expect(res.statusCode).toBe(400);
    const details = res.json().error.details as { path: string; message: string }[];
    expect(details).toEqual(
      expect.arrayContaining([
        { path: 'first_name', message: 'Vorname ist erforderlich.' },
        { path: 'email', message: 'Bitte eine gültige E\u2011Mail-Adresse eingeben.' },
        { path: 'terms_accepted', message: 'Bitte akzeptieren.' },
      ]),
    );
  });

  it('refuses an unknown form with 422 and writes nothing', async () => {
    const res = await expectNothingWritten(() =>
      post(questionnaireLead({ form_id: 77, answers: [] })),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe('unknown_form');
  });

  it('refuses a question id of another form with 422 and writes nothing', async () => {
    const res = await expectNothingWritten(() =>
      post(
        questionnaireLead({
          answers: [
            { question_id: 1, answer: 'Eins' },
            { question_id: 4, answer: 'x' },
          ],
        }),
      ),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toMatchObject({
      code: 'unknown_question',
      details: { question_ids: [4] },
    });
  });

  it('refuses a body over 64 KB with 413 and writes nothing', async () => {
    const res = await expectNothingWritten(() =>
      post(questionnaireLead({ answers: [{ question_id: 1, answer: 'x'.repeat(70 * 1024) }] })),
    );
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('payload_too_large');
  });

  it('stores the cookie choice and the consent text versions with the lead', async () => {
    const res = await post(
      questionnaireLead({ cookie_consent: 'necessary,statistics', cookie_consent_version: 'v7' }),
    );
    const row = await hub.db.query(
      'select consent_version, cookie_consent, cookie_consent_version from public.responses where id = $1',
      [res.json().id],
    );
    expect(row.rows[0]).toEqual({
      consent_version: '2026-11-01',
      cookie_consent: 'necessary,statistics',
      cookie_consent_version: 'v7',
    });
  });

  it("records the channel: 'fair_tablet' from a kiosk tablet, 'web' when left out", async () => {
    const channelOf = async (id: number) =>
      (
        await hub.db.query<Columns<'responses', 'channel'>>(
          'select channel from public.responses where id = $1',
          [id],
        )
      ).rows[0]!.channel;
    const fair = questionnaireLead({ channel: 'fair_tablet' });
    const plain = questionnaireLead();
    const fairRes = await post(fair);
    const plainRes = await post(plain);
    expect(await channelOf(fairRes.json().id)).toBe('fair_tablet');
    expect(await channelOf(plainRes.json().id)).toBe('web');
    // Resends stay duplicates, with the channel and without one (leads queued before channels).
    expect((await expectNothingWritten(() => post(fair))).json().status).toBe('duplicate');
    expect((await expectNothingWritten(() => post(plain))).json().status).toBe('duplicate');
    const other = await expectNothingWritten(() => post({ ...plain, channel: 'fair_tablet' }));
    expect(other.statusCode).toBe(409);
    const bad = await expectNothingWritten(() =>
      post(questionnaireLead({ channel: 'messestand' })),
    );
    expect(bad.statusCode).toBe(400);
  });

  it('records whether the lead waited on the device; a resend with the flag set stays a duplicate', async () => {
    const waitedOf = async (id: number) =>
      (
        await hub.db.query<Columns<'responses', 'waited_offline'>>(
          'select waited_offline from public.responses where id = $1',
          [id],
        )
      ).rows[0]!.waited_offline;
    const ago = (seconds: number) => {
      const time = new Date(Date.now() - seconds * 1000).toISOString();
      return { captured_at: time, create_date: time, changed_date: time };
    };
    // The device's word decides, whatever the gap: a queued lead sent 10 s after capture waited,
    // one from a device whose clock runs 3 h behind did not.
    const queued = await post(questionnaireLead({ waited_offline: true, ...ago(10) }));
    const skewed = await post(questionnaireLead({ waited_offline: false, ...ago(3 * 3600) }));
    expect(await waitedOf(queued.json().id)).toBe(true);
    expect(await waitedOf(skewed.json().id)).toBe(false);

    // The first send reached the hub, its answer did not: the device sends it again, now saying
    // it waited. Still the same lead; the first arrival's record stands.
    const lost = questionnaireLead({ waited_offline: false, ...ago(1) });
    const first = await post(lost);
    const again = await expectNothingWritten(() => post({ ...lost, waited_offline: true }));
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ ...first.json(), status: 'duplicate' });
    expect(await waitedOf(first.json().id)).toBe(false);
    // Leads sent before the flag existed hash as they did: their resend is a duplicate too.
    const { waited_offline: _, ...older } = lost;
    expect((await expectNothingWritten(() => post(older))).json().status).toBe('duplicate');

    // A sender that does not say (an older app, an integration): the rule used before.
    const unsaidLate = await post(questionnaireLead(ago(2 * 3600)));
    const unsaidNow = await post(questionnaireLead(ago(1)));
    expect(await waitedOf(unsaidLate.json().id)).toBe(true);
    expect(await waitedOf(unsaidNow.json().id)).toBe(false);

    const bad = await expectNothingWritten(() => post(questionnaireLead({ waited_offline: 'ja' })));
    expect(bad.statusCode).toBe(400);
  });

  it('answers a filled honeypot as if stored, and stores nothing', async () => {
    const res = await expectNothingWritten(() =>
      post(questionnaireLead({ website: 'https://spam.example' })),
    );
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ status: 'created' });
  });

  describe('batch', () => {
    const batch = (submissions: unknown[]) =>
      hub.app.inject({ method: 'POST', url: '/api/responses/batch', payload: { submissions } });

    it('judges each item on its own: created, duplicate and rejected side by side', async () => {
      const known = questionnaireLead();
      await post(known);
      const fresh = questionnaireLead();
      const invalid = questionnaireLead({ email: '' });
      const res = await batch([fresh, known, invalid, fresh]);
      expect(res.statusCode).toBe(200);
      const results = res.json().results as { index: number; status: string; client_id: string }[];
      expect(results.map((r) => r.status)).toEqual([
        'created',
        'duplicate',
        'rejected',
        'duplicate',
      ]);
      expect(results[2]).toMatchObject({
        client_id: invalid.client_id,
        error: { code: 'validation_failed' },
      });
    });

    it('refuses more than 50 items with 400 and writes nothing', async () => {
      const items = Array.from({ length: 51 }, () => questionnaireLead());
      const res = await expectNothingWritten(() => batch(items));
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details[0].message).toBe('Höchstens 50 Einsendungen pro Anfrage.');
    });

    it('rejects an item over 64 KB without refusing the rest', async () => {
      const big = questionnaireLead({
        answers: [{ question_id: 1, answer: 'x'.repeat(66 * 1024) }],
      });
      const res = await batch([big, questionnaireLead()]);
      expect(res.json().results.map((r: { status: string }) => r.status)).toEqual([
        'rejected',
        'created',
      ]);
      expect(res.json().results[0].error.code).toBe('payload_too_large');
    });
  });

  describe('reading responses', () => {
    async function hubToken() {
      const res = await hub.app.inject({
        method: 'POST',
        url: '/api/hub/login',
        payload: hubService,
      });
      expect(res.statusCode).toBe(200);
      return res.json().token as string;
    }

    it('refuses a wrong service password', async () => {
      const res = await hub.app.inject({
        method: 'POST',
        url: '/api/hub/login',
        payload: { ...hubService, password: 'falsch-falsch-falsch' },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('invalid_credentials');
    });

    it('returns one response with its answers to a hub token, and nothing without one', async () => {
      const created = await post(questionnaireLead());
      const id = created.json().id as number;
      const anonymous = await hub.app.inject({ method: 'GET', url: `/api/responses/${id}` });
      expect(anonymous.statusCode).toBe(401);
      const res = await hub.app.inject({
        method: 'GET',
        url: `/api/responses/${id}`,
        headers: { authorization: `Bearer ${await hubToken()}` },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id, form_id: 1, first_name: 'Jürgen' });
      expect(res.json()).not.toHaveProperty('payload_hash');
      expect(res.json().answers.map((a: { answer: string }) => a.answer)).toEqual([
        'Zwei',
        '2019-05-01, 2021-09-14',
        '50 €',
      ]);
    });

    it('keeps an answer with the question text it was given under, after edit and delete', async () => {
      const added = await hub.db.query<Columns<'questions', 'id'>>(
        `insert into public.questions (form_id, sequence, type, question, options)
         values (1, 4, 'input', 'Noch etwas?', '{}') returning id`,
      );
      const questionId = added.rows[0]!.id;
      const lead = questionnaireLead();
      const created = await post({
        ...lead,
        answers: [...lead.answers, { question_id: questionId, answer: 'Ja' }],
      });
      expect(created.statusCode).toBe(201);
      await hub.db.query(`update public.questions set question = 'Geändert?' where id = $1`, [
        questionId,
      ]);
      await hub.db.query('delete from public.questions where id = $1', [questionId]);
      const res = await hub.app.inject({
        method: 'GET',
        url: `/api/responses/${created.json().id as number}`,
        headers: { authorization: `Bearer ${await hubToken()}` },
      });
      expect(res.json().answers).toEqual([
        { question_id: 1, question: 'Wie viele Kinder möchten Sie absichern?', answer: 'Zwei' },
        {
          question_id: 2,
          question: 'Wann sind Ihre Kinder geboren?',
          answer: '2019-05-01, 2021-09-14',
        },
        {
          question_id: 3,
          question: 'Welchen monatlichen Betrag möchten Sie pro Kind sparen?',
          answer: '50 €',
        },
        { question_id: null, question: 'Noch etwas?', answer: 'Ja' },
      ]);
    });

    it('lists responses newest first for integrations, filtered by form', async () => {
      const a = (await post(questionnaireLead())).json().id as number;
      const b = (await post(questionnaireLead())).json().id as number;
      const res = await hub.app.inject({
        method: 'GET',
        url: '/api/responses?form_id=1&limit=2',
        headers: { authorization: `Bearer ${await hubToken()}` },
      });
      expect(res.json().map((r: { id: number }) => r.id)).toEqual([b, a]);
      const none = await hub.app.inject({
        method: 'GET',
        url: '/api/responses?form_id=2',
        headers: { authorization: `Bearer ${await hubToken()}` },
      });
      expect(none.json()).toEqual([]);
    });

    it('lets enabled staff read, and refuses a pending account', async () => {
      const admin = await hub.db.query<Columns<'staff', 'user_id'>>(
        `select user_id from public.staff where role = 'admin'`,
      );
      const tokenFor = (sub: string) =>
        new SignJWT({ role: 'authenticated', aud: 'authenticated' })
          .setProtectedHeader({ alg: 'HS256' })
          .setSubject(sub)
          .setExpirationTime('5m')
          .sign(new TextEncoder().encode(testSecret));
      const ok = await hub.app.inject({
        method: 'GET',
        url: '/api/responses?limit=1',
        headers: { authorization: `Bearer ${await tokenFor(admin.rows[0]!.user_id)}` },
      });
      expect(ok.statusCode).toBe(200);
      const pending = await hub.app.inject({
        method: 'GET',
        url: '/api/responses?limit=1',
        headers: { authorization: `Bearer ${await tokenFor(randomUUID())}` },
      });
      expect(pending.statusCode).toBe(403);
    });
  });
});

describe('rate limits', () => {
  it('answers 429 in German past the per-address limit', async () => {
    const hub = await createTestHub({
      rateLimit: { submissionsPerMinute: 3, batchesPerMinute: 3 },
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await hub.app.inject({
          method: 'POST',
          url: '/api/responses',
          payload: questionnaireLead(),
        });
        statuses.push(res.statusCode);
        if (res.statusCode === 429) {
          expect(res.json().error).toMatchObject({ code: 'rate_limited' });
        }
      }
      expect(statuses).toEqual([201, 201, 201, 429]);
    } finally {
      await hub.close();
    }
    // A fresh PGlite hub with its migrations: seconds alone, far more on a loaded machine.
  }, 60_000);

  // 500 leads through PGlite: seconds alone, far more on a loaded two-core machine.
  it('lets a tablet sync 500 queued leads from one address with the default limits', async () => {
    const hub = await createTestHub({
      rateLimit: { submissionsPerMinute: 300, batchesPerMinute: 60 },
    });
    try {
      let created = 0;
      for (let i = 0; i < 10; i++) {
        const submissions = Array.from({ length: 50 }, () => questionnaireLead());
        const res = await hub.app.inject({
          method: 'POST',
          url: '/api/responses/batch',
          payload: { submissions },
        });
        expect(res.statusCode).toBe(200);
        created += (res.json().results as { status: string }[]).filter(
          (r) => r.status === 'created',
        ).length;
      }
      expect(created).toBe(500);
    } finally {
      await hub.close();
    }
  }, 90_000);
});
