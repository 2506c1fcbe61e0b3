import type { Queryable } from '../db/database.ts';

export interface FormRow {
  id: number;
  title: string;
  description: string;
  document: string | null;
  image: string | null;
  created_at: Date;
}

export interface QuestionRow {
  id: number;
  form_id: number;
  sequence: number;
  type: 'multiple-choice' | 'input';
  question: string;
  options: Record<string, string>;
  multipleAnswers: boolean;
  required: boolean;
  information: string | null;
  custome_description: string | null;
  /** A stable role a flow relies on ('tabaluga_child_dates' ...), null for most questions. */
  key: string | null;
}

const questionColumns = `id, form_id, sequence, type, question, options, "multipleAnswers",
  required, information, custome_description, key`;

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
