import type { Queryable } from '../db/database.ts';
import type { Columns, ReadAsDate } from '../db/table-rows.ts';

export type FormRow = ReadAsDate<
  Columns<'forms', 'id' | 'title' | 'description' | 'document' | 'image' | 'created_at'>,
  'created_at'
>;

/**
 * `key` is a stable role a flow relies on ('tabaluga_child_dates' ...), null for most questions;
 * `analysis_bucket` 'birth_decade' tells the page to ask for a year of birth (a number keypad).
 */
export type QuestionRow = Columns<
  'questions',
  | 'id'
  | 'form_id'
  | 'sequence'
  | 'type'
  | 'question'
  | 'options'
  | 'multipleAnswers'
  | 'required'
  | 'information'
  | 'custome_description'
  | 'key'
  | 'analysis_bucket'
>;

const questionColumns = `id, form_id, sequence, type, question, options, "multipleAnswers",
  required, information, custome_description, key, analysis_bucket`;

export async function listForms(db: Queryable): Promise<FormRow[]> {
  const result = await db.query<FormRow>(
    'select id, title, description, document, image, created_at from public.forms order by id',
  );
  return result.rows;
}

export async function findForm(db: Queryable, id: number): Promise<FormRow | undefined> {
  const result = await db.query<FormRow>(
    'select id, title, description, document, image, created_at from public.forms where id = $1',
    [id],
  );
  return result.rows[0];
}

/** Questions in the order the visitor answers them: by sequence, ties by id. */
export async function listQuestions(db: Queryable, formIds: number[]): Promise<QuestionRow[]> {
  const result = await db.query<QuestionRow>(
    `select ${questionColumns} from public.questions
     where form_id = any($1::int[]) order by form_id, sequence, id`,
    [formIds],
  );
  return result.rows;
}

export type FormsRepository = ReturnType<typeof createFormsRepository>;

export function createFormsRepository(db: Queryable) {
  return {
    list: () => listForms(db),
    find: (id: number) => findForm(db, id),
    questions: (formIds: number[]) => listQuestions(db, formIds),
  };
}
