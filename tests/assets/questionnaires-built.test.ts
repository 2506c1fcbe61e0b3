import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  builtQuestionnairesFile,
  builtQuestionnairesText,
  type BuiltQuestionnaires,
} from '../../scripts/built-questionnaires.ts';
import { sameQuestionnaire } from '../../src/domain/questionnaire.ts';
import { questionnaireDefinitionSchema } from '../../src/domain/questionnaire-schema.ts';
import { builtQuestionnaire } from '../../src/site/questionnaire/built-questionnaires.ts';
import { createTestHub, type TestHub } from '../helpers/hub.ts';

// The public questionnaire pages paint their first question from src/config/questionnaires-built.json.
// A seed changed without regenerating the file would paint questions a fresh hub does not have
// (and every visitor's device would swap them at once): it fails here.
const stale =
  'src/config/questionnaires-built.json ist veraltet: bitte `npx tsx scripts/built-questionnaires.ts` ausführen und die Datei committen.';

describe('the questionnaires the build knows', () => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await createTestHub();
  });
  afterAll(() => hub.close());

  it('src/config/questionnaires-built.json is what supabase/seed.sql creates', async () => {
    const committed = await readFile(builtQuestionnairesFile, 'utf8');
    expect(committed, stale).toBe(await builtQuestionnairesText());
  }, 120_000);

  it.each([1, 2])(
    'form %i as the page has it is what a freshly seeded hub serves it',
    async (formId) => {
      const reply = await hub.app.inject({ method: 'GET', url: `/api/forms/${formId}/questions` });
      const live = questionnaireDefinitionSchema.parse(reply.json());
      const built = builtQuestionnaire(formId);
      expect(built, stale).toEqual(live);
      expect(sameQuestionnaire(built!, live)).toBe(true);
    },
  );

  it('has the Tabaluga questions the flow finds by key, and nothing per installation', async () => {
    const file = JSON.parse(await readFile(builtQuestionnairesFile, 'utf8')) as BuiltQuestionnaires;
    expect(Object.keys(file.forms)).toEqual(['1', '2']);
    expect(file.forms['1']!.questions.map((q) => q.key)).toEqual([
      'tabaluga_child_count',
      'tabaluga_child_dates',
      'tabaluga_offer_amount',
    ]);
    expect(Object.values(file.forms).map((form) => form.documentUrl)).toEqual([null, null]);
  });
});
