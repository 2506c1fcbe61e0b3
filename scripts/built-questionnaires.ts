// `npx tsx scripts/built-questionnaires.ts`: writes src/config/questionnaires-built.json, the public
// questionnaires (Tabaluga, PKV) as supabase/seed.sql creates them. The build renders their first
// question into the pages' HTML from this file (src/site/questionnaire/built-questionnaires.ts);
// the live definition takes over on the device when staff have edited it since. Read from a
// throwaway in-memory database migrated and seeded as a fresh hub is, through the query the hub's
// `GET /api/forms/:id/questions` uses, and checked with the page's own schema.
// tests/assets/questionnaires-built.test.ts fails when the committed file and the seed disagree.
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { openDatabase } from '../server/db/database.ts';
import { setupDatabase } from '../server/db/setup.ts';
import { findForm, listQuestions } from '../server/hub/forms-repository.ts';
import { PKV_FORM_ID, TABALUGA_FORM_ID } from '../src/domain/form-ids.ts';
import type { QuestionnaireDefinition } from '../src/domain/questionnaire.ts';
import { questionnaireDefinitionSchema } from '../src/domain/questionnaire-schema.ts';

export const builtQuestionnairesFile = fileURLToPath(
  new URL('../src/config/questionnaires-built.json', import.meta.url),
);

/** The public questionnaires the build knows, by form id. */
export interface BuiltQuestionnaires {
  $comment: string;
  forms: Record<string, QuestionnaireDefinition>;
}

const comment =
  'Die öffentlichen Fragebögen, wie supabase/seed.sql sie anlegt: daraus malt der Build die erste ' +
  'Frage ins HTML. Erzeugt mit `npx tsx scripts/built-questionnaires.ts`; ' +
  'tests/assets/questionnaires-built.test.ts prüft, dass sie dem Seed gleicht.';

/** The public questionnaires as a freshly seeded database holds them. */
export async function seededQuestionnaires(): Promise<BuiltQuestionnaires> {
  const db = await openDatabase({});
  try {
    await setupDatabase(db, { gateway: true });
    const forms: Record<string, QuestionnaireDefinition> = {};
    for (const formId of [TABALUGA_FORM_ID, PKV_FORM_ID]) {
      const form = await findForm(db, formId);
      if (!form) throw new Error(`supabase/seed.sql legt Fragebogen ${formId} nicht an.`);
      // An uploaded document is per installation; the seed has none, the live definition brings it.
      if (form.document) throw new Error(`Fragebogen ${formId}: der Seed hat kein Dokument.`);
      forms[String(formId)] = questionnaireDefinitionSchema.parse({
        data: await listQuestions(db, [formId]),
        form: { document_url: null },
      });
    }
    return { $comment: comment, forms };
  } finally {
    await db.close();
  }
}

/** The text of src/config/questionnaires-built.json, formatted as Prettier keeps it. */
export async function builtQuestionnairesText(): Promise<string> {
  const options = await resolveConfig(builtQuestionnairesFile);
  // Indented, so that every object stays one key per line, as Prettier keeps an object it finds so.
  return format(JSON.stringify(await seededQuestionnaires(), null, 2), {
    ...options,
    parser: 'json',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await writeFile(builtQuestionnairesFile, await builtQuestionnairesText());
  console.log(`Geschrieben: ${builtQuestionnairesFile}`);
}
