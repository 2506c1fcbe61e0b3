import type { SupabaseClient } from '@supabase/supabase-js';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { QuestionType } from '../../domain/database-enums.ts';
import type { Database, Tables } from '../../domain/database.types.ts';
import { errorCode } from './staff.ts';
import { useSupabase } from './supabase-context.ts';

// A questionnaire's questions as the editor reads and writes them. The database keeps
// `(form_id, sequence)` gapless and unique with triggers, so the desk only writes a question's
// `sequence` and reads the list again; reordering runs in one transaction in `move_question`.

export type { QuestionType };

/** Options as the table stores them: an object keyed '1', '2', ... in the order staff set. */
export type OptionMap = Record<string, string>;

// The column the table types loosely (jsonb), checked where a row enters the desk.
const questionColumns = z.object({
  options: z.union([z.record(z.string(), z.string()), z.array(z.string()), z.null()]),
});

/**
 * A row of `questions` with its type and options checked. `key` is a role the Tabaluga flow
 * depends on ('tabaluga_child_dates', ...); such questions stay. `analysis_bucket` (how Analyse
 * groups an input question's answers) is set by migrations, not in the editor.
 */
export type QuestionRow = Omit<
  Tables<'questions'>,
  'created_at' | 'analysis_bucket' | keyof typeof questionColumns.shape
> &
  z.infer<typeof questionColumns>;

function questionRow(row: Tables<'questions'>): QuestionRow {
  return { ...row, ...questionColumns.parse(row) };
}

/** What the editor writes; `form_id` only when a question is added. */
export interface QuestionChange {
  question: string;
  type: QuestionType;
  options: OptionMap;
  multipleAnswers: boolean;
  sequence: number;
  /** Null when the question has no hint for visitors. */
  information: string | null;
  custome_description: string | null;
}

export const questionKeys = {
  all: ['questions'] as const,
  lists: () => [...questionKeys.all, 'list'] as const,
  list: (formId: number) => [...questionKeys.lists(), formId] as const,
};

/** The editor's option list as the table stores it: keyed from '1' in list order, blanks dropped. */
export function optionsToObject(options: readonly string[]): OptionMap {
  const kept = options.map((option) => option.trim()).filter((option) => option !== '');
  return Object.fromEntries(kept.map((option, index) => [String(index + 1), option]));
}

/** The stored options as a list in key order; older rows may hold an array, or nothing. */
export function optionsFromObject(options: QuestionRow['options'] | undefined): string[] {
  if (!options) return [];
  if (Array.isArray(options)) return [...options];
  return Object.entries(options)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([, value]) => value);
}

/** Spec 8, word for word. */
export const questionMessages = {
  saved: 'Daten wurden erfolgreich gespeichert!',
  saveFailed: 'Fehler beim Speichern der Daten!',
  addFailed: 'Fehler beim Hinzufügen der Frage!',
  unexpected: 'Unvorhergesehener Fehler!',
  deleteRefused:
    'Diese Frage steuert den Ablauf des Tabaluga-Fragebogens (Kinderanzahl, Geburtsdaten oder Sparbetrag) und kann nicht gelöscht werden.',
  deleteFailed: 'Die Frage konnte nicht gelöscht werden. Bitte versuche es erneut.',
  moveFailed: 'Die Frage konnte nicht verschoben werden. Bitte versuche es erneut.',
  loadFailed: 'Die Fragen konnten nicht geladen werden. Bitte versuche es erneut.',
} as const;

/** SQLSTATE of the trigger that keeps the questions the Tabaluga flow finds by key. */
export const keyedQuestionCode = 'UQ001';

export type QuestionAction = 'update' | 'add' | 'delete' | 'move';

/**
 * The German message for a failed call. The gateway's own texts are English and may name
 * tables, so only its code is read. A call the database answered has a code; one that never
 * got an answer (network, a thrown exception) has none and is the spec's unexpected error.
 */
export function questionFailureMessage(action: QuestionAction, error: unknown): string {
  const code = errorCode(error);
  if (action === 'delete' && code === keyedQuestionCode) return questionMessages.deleteRefused;
  if (!code) return questionMessages.unexpected;
  switch (action) {
    case 'update':
      return questionMessages.saveFailed;
    case 'add':
      return questionMessages.addFailed;
    case 'delete':
      return questionMessages.deleteFailed;
    case 'move':
      return questionMessages.moveFailed;
  }
}

async function readQuestions(
  supabase: SupabaseClient<Database>,
  formId: number,
): Promise<QuestionRow[]> {
  const { data, error } = await supabase
    .from('questions')
    .select('*')
    .eq('form_id', formId)
    .order('sequence');
  if (error) throw error;
  return data.map(questionRow);
}

/**
 * A form's questions in their order, one cache entry per form: the editor and Analyse read the
 * same entry, so an edit's refresh reaches both.
 */
export function formQuestionsQuery(supabase: SupabaseClient<Database>, formId: number) {
  return {
    queryKey: questionKeys.list(formId),
    queryFn: () => readQuestions(supabase, formId),
  };
}

export function useFormQuestions(formId: number) {
  const supabase = useSupabase();
  return useQuery(formQuestionsQuery(supabase, formId));
}

/** Another save moves other questions too (triggers shift them): the whole list is read again. */
export function useRefreshQuestions() {
  const queryClient = useQueryClient();
  return (formId: number) => queryClient.invalidateQueries({ queryKey: questionKeys.list(formId) });
}

export function useAddQuestion() {
  const supabase = useSupabase();
  const refresh = useRefreshQuestions();
  return useMutation({
    mutationFn: async (change: QuestionChange & { form_id: number }) => {
      const { data, error } = await supabase.from('questions').insert(change).select().single();
      if (error) throw error;
      return questionRow(data);
    },
    onSuccess: (row) => refresh(row.form_id),
  });
}

export function useUpdateQuestion() {
  const supabase = useSupabase();
  const refresh = useRefreshQuestions();
  return useMutation({
    mutationFn: async ({ id, change }: { id: number; change: QuestionChange }) => {
      const { data, error } = await supabase
        .from('questions')
        .update(change)
        .eq('id', id)
        .select()
        .single();
      if (error) throw error;
      return questionRow(data);
    },
    onSuccess: (row) => refresh(row.form_id),
  });
}

export function useDeleteQuestion() {
  const supabase = useSupabase();
  const refresh = useRefreshQuestions();
  return useMutation({
    mutationFn: async (question: Pick<QuestionRow, 'id' | 'form_id'>) => {
      const { error } = await supabase.from('questions').delete().eq('id', question.id);
      if (error) throw error;
    },
    onSettled: (_data, _error, question) => refresh(question.form_id),
  });
}

export function useMoveQuestion() {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ question, steps }: { question: QuestionRow; steps: number }) => {
      const { data, error } = await supabase.rpc('move_question', {
        question_id: question.id,
        steps,
      });
      if (error) throw error;
      return (data ?? []).map(questionRow);
    },
    // The rpc answers with the form's questions in their new order: shown at once, no second read.
    onSuccess: async (rows, { question }) => {
      const key = questionKeys.list(question.form_id);
      if (rows.length === 0) return queryClient.invalidateQueries({ queryKey: key });
      queryClient.setQueryData(
        key,
        [...rows].sort((a, b) => a.sequence - b.sequence),
      );
    },
    onError: (_error, { question }) =>
      queryClient.invalidateQueries({ queryKey: questionKeys.list(question.form_id) }),
  });
}
