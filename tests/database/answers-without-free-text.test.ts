import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/database.ts';
import { migrate, readMigrations } from '../../server/db/migrate.ts';
import { migrationsDir } from '../../server/db/setup.ts';
import { startTestPostgres, type TestPostgres } from '../helpers/postgres.ts';

// The migration 20261128100000_answers_without_free_text.sql on a database whose counters hold
// answers' texts, free text about health included, and counts of leads that were deleted for data
// protection (their figures stay): afterwards no counter holds a typed text, and every count is
// what it was, by option, "other", "answered" and birth decade, the deleted leads' included.

const localSupabaseFiles = ['supabase-local.sql', 'supabase-local-storage.sql'].map((name) =>
  fileURLToPath(new URL(`../../server/db/${name}`, import.meta.url)),
);

const freeTexts = ['Dialyse seit 2022', 'Herzinfarkt 2019', 'Vielleicht später', 'Z-Tarif'];

describe.each(['pglite', 'postgres'] as const)('the migration on stored counters (%s)', (kind) => {
  let postgres: TestPostgres | undefined;
  let db: Database;

  beforeAll(async () => {
    if (kind === 'postgres') postgres = await startTestPostgres();
    db = await openDatabase(postgres ? { databaseUrl: postgres.url() } : {});
  }, 120_000);

  afterAll(async () => {
    await db?.close();
    postgres?.stop();
  });

  async function lead(formId: number, answers: Record<number, string>) {
    const { rows } = await db.query<{ id: number }>(
      `insert into public.responses (client_id, payload_hash, form_id, source, first_name,
         last_name, email, phone, terms_accepted, data_processing_consent, create_date,
         changed_date, captured_at, received_at)
       values (gen_random_uuid(), 'h', $1, 'questionnaire', 'A', 'Alt', 'alt@example.de', '030 1',
         true, true, now(), now(), '2026-11-20T09:00:00Z', '2026-11-20T09:00:00Z')
       returning id`,
      [formId],
    );
    for (const [question, answer] of Object.entries(answers)) {
      await db.query(
        'insert into public.answers (response_id, question_id, answer) values ($1, $2, $3)',
        [rows[0]!.id, Number(question), answer],
      );
    }
    return rows[0]!.id;
  }

  it('converts every counter row, the deleted leads’ counts included, and keeps no text', async () => {
    for (const file of localSupabaseFiles) await db.exec(await readFile(file, 'utf8'));
    const all = await readMigrations(migrationsDir);
    const mine = all.findIndex((m) => m.name === 'answers_without_free_text');
    expect(mine).toBeGreaterThan(0);
    await migrate(db, all.slice(0, mine));

    await db.exec(`
      insert into public.forms (id, title) values (1, 'Tabaluga'), (2, 'PKV');
      insert into public.questions (id, form_id, sequence, type, question, options, "multipleAnswers", key)
      values
        (11, 1, 1, 'input', 'Wann sind Ihre Kinder geboren?', '{}', false, 'tabaluga_child_dates'),
        (21, 2, 1, 'multiple-choice', 'Passt das?', '{"1": "Ja", "2": "Nein"}', false, null),
        (22, 2, 2, 'multiple-choice', 'Was ist wichtig?', '{"1": "A", "2": "B", "3": "C"}', true, null),
        (23, 2, 3, 'input', 'In welchem Jahr sind Sie geboren?', '{"1": "z. B. 1985"}', false, null),
        (24, 2, 4, 'input', 'Gibt es etwas, das wir für Ihr Angebot wissen sollten?', '{}', false, null);
    `);
    await lead(2, { 21: 'Ja', 22: 'A, C', 23: '1985', 24: 'Dialyse seit 2022' });
    await lead(2, { 21: 'Vielleicht später', 22: 'B', 23: ' 1991 ', 24: '' });
    const gone = await lead(2, { 21: 'Ja', 22: 'A, Z-Tarif', 23: '1987', 24: 'Herzinfarkt 2019' });
    await lead(1, { 11: '2019-05-01, 2021-07-15' });
    const goneChild = await lead(1, { 11: '24.12.2018' });
    // Deleted for data protection: the answers go, their counts stay.
    await db.query('select public.delete_leads_keeping_proof($1, now())', [[gone, goneChild]]);
    const before = await db.query<{ answer: string }>(
      'select answer from public.analysis_daily_answers',
    );
    expect(before.rows.map((row) => row.answer)).toEqual(
      expect.arrayContaining(['Dialyse seit 2022', 'Herzinfarkt 2019']),
    );

    await migrate(db, all.slice(0, mine + 1));

    const counters = await db.query('select * from public.analysis_daily_answers');
    const text = JSON.stringify(counters.rows);
    for (const typed of [...freeTexts, '1985', '1991', '2019-05-01', '24.12.2018']) {
      expect(text).not.toContain(typed);
    }
    const distribution = async (form: number) =>
      (
        await db.query<{ question_id: number; kind: string; value: string | null; n: number }>(
          `select question_id, kind, value, n::int
             from public.analysis_answer_distribution('2026-11-20', '2026-11-20', $1, null)`,
          [form],
        )
      ).rows.map((row) => [row.question_id, row.kind, row.value, row.n]);
    expect(await distribution(2)).toEqual([
      [21, 'option', 'Ja', 2],
      [21, 'option', 'Nein', 0],
      [21, 'other', null, 1],
      [22, 'option', 'A', 2],
      [22, 'option', 'B', 1],
      [22, 'option', 'C', 1],
      [23, 'answered', null, 3],
      [23, 'decade', '1980', 2],
      [23, 'decade', '1990', 1],
      [24, 'answered', null, 2],
      [24, 'empty', '', 1],
    ]);
    expect(await distribution(1)).toEqual([
      [11, 'answered', null, 2],
      [11, 'decade', '2010', 2],
      [11, 'decade', '2020', 1],
    ]);
    // The database refuses a typed text in a counter, whoever writes it.
    await expect(
      db.query(
        `insert into public.analysis_daily_answers (question_id, day, source, channel, kind, value, n)
         values (24, '2026-11-21', 'questionnaire', 'web', 'answered', 'Dialyse', 1)`,
      ),
    ).rejects.toThrow();
  });
});
