import built from '../../config/questionnaires-built.json';
import type { QuestionnaireDefinition } from '../../domain/questionnaire.ts';

// The public questionnaires as the build knows them (from supabase/seed.sql, see
// scripts/built-questionnaires.ts): the page's HTML carries the first question, and the island
// starts from the same definition, so hydrating matches. Not checked here: the file is generated
// with the page's own schema, and tests/assets/questionnaires-built.test.ts keeps it equal to it.
const forms = built.forms as Partial<Record<string, QuestionnaireDefinition>>;

/** The definition the build rendered for `formId`; undefined for a form it does not know. */
export function builtQuestionnaire(formId: number): QuestionnaireDefinition | undefined {
  return forms[String(formId)];
}
