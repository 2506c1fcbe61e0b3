import type { SupabaseClient } from '@supabase/supabase-js';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { readQuestionnaireLeadCounts } from './questionnaire-leads.ts';
import { errorCode } from './staff.ts';
import { useSupabase } from './supabase-context.ts';
import type { Database, Tables } from '../../domain/database.types.ts';

// The questionnaires ('forms') as Survey Desk lists, creates and edits them. The database keeps
// titles unique (the editor's address is the title), so a taken title comes back as 23505.

/**
 * A questionnaire as the desk reads it: `document` is an object name in the `documents` bucket
 * (null without an offer PDF), `image` an absolute http(s) URL or null.
 */
export type DeskForm = Tables<'forms'>;

export interface ListedForm extends DeskForm {
  /** How many questionnaire leads it brought in (KFZ and contact leads are no one's). */
  responseCount: number;
}

export interface NewForm {
  title: string;
  description: string;
}

export type FormChanges = Pick<DeskForm, 'id' | 'title' | 'description' | 'image' | 'document'>;

export const formKeys = {
  all: ['forms'] as const,
  list: () => [...formKeys.all, 'list'] as const,
  byTitle: (title: string) => [...formKeys.all, 'by-title', title] as const,
  titles: () => [...formKeys.all, 'titles'] as const,
};

/** SQLSTATE unique_violation: the title is taken. */
export const titleTakenCode = '23505';
export const titleTakenMessage = 'Diesen Titel gibt es schon. Bitte wähle einen anderen.';
export const formSaveFailedMessage =
  'Die Daten konnten nicht gespeichert werden. Bitte prüfe deine Internetverbindung und versuche es erneut.';

export const formNotAllowedMessage =
  'Der Fragebogen konnte nicht gespeichert werden: dein Konto darf Fragebögen nicht ändern, oder der Fragebogen wurde inzwischen gelöscht. Bitte lade die Seite neu.';

/**
 * Row-level security refuses an insert with 42501; an update it hides answers no row, which
 * `.single()` reports as PGRST116 (as does a form deleted meanwhile).
 */
const notAllowedCodes = new Set(['42501', 'PGRST116']);

/** Which field a failed save belongs to, and its German message. */
export function formSaveFailure(error: unknown): { field: 'title' | null; message: string } {
  const code = errorCode(error);
  if (code === titleTakenCode) return { field: 'title', message: titleTakenMessage };
  if (code && notAllowedCodes.has(code)) return { field: null, message: formNotAllowedMessage };
  return { field: null, message: formSaveFailedMessage };
}

const formColumns = 'id, title, description, document, image, created_at';

/** Every questionnaire, oldest first, with the number of its questionnaire leads. */
export async function readForms(supabase: SupabaseClient<Database>): Promise<ListedForm[]> {
  const [forms, counts] = await Promise.all([
    supabase.from('forms').select(formColumns).order('created_at').order('id'),
    readQuestionnaireLeadCounts(supabase),
  ]);
  if (forms.error) throw forms.error;
  return forms.data.map((form) => ({ ...form, responseCount: counts.get(form.id) ?? 0 }));
}

export function useFormList() {
  const supabase = useSupabase();
  return useQuery({ queryKey: formKeys.list(), queryFn: () => readForms(supabase) });
}

/**
 * Every questionnaire's id and title, oldest first: the customers list's filter choice. Without
 * the lead counts of useFormList, which count every lead and on PGlite (one connection) held
 * back the customers table behind them (bench:desk, 100,000 customers: ~400 ms).
 */
export function useFormTitles() {
  const supabase = useSupabase();
  return useQuery({
    queryKey: formKeys.titles(),
    queryFn: async () => {
      const { data, error } = await supabase
        .from('forms')
        .select('id, title')
        .order('created_at')
        .order('id');
      if (error) throw error;
      return data;
    },
  });
}

/** The form with this title, or null when there is none. */
export function useFormByTitle(title: string) {
  const supabase = useSupabase();
  return useQuery({
    queryKey: formKeys.byTitle(title),
    queryFn: async () => {
      const { data, error } = await supabase
        .from('forms')
        .select(formColumns)
        .eq('title', title)
        .maybeSingle();
      if (error) throw error;
      return data;
    },
  });
}

export function useCreateForm() {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (form: NewForm) => {
      const { data, error } = await supabase
        .from('forms')
        .insert({ title: form.title, description: form.description })
        .select(formColumns)
        .single();
      if (error) throw error;
      return data;
    },
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: formKeys.list() }),
        queryClient.invalidateQueries({ queryKey: formKeys.titles() }),
      ]),
  });
}

export function useUpdateForm() {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, ...changes }: FormChanges) => {
      const { data, error } = await supabase
        .from('forms')
        .update(changes)
        .eq('id', id)
        .select(formColumns)
        .single();
      if (error) throw error;
      return data;
    },
    onSuccess: async (saved) => {
      // Stale, not refetched now: the open editor still reads the old title until it has moved
      // to the new address, and a refetch there would flash the not-found state.
      await queryClient.invalidateQueries({
        queryKey: [...formKeys.all, 'by-title'],
        refetchType: 'none',
      });
      queryClient.setQueryData(formKeys.byTitle(saved.title), saved);
      await queryClient.invalidateQueries({ queryKey: formKeys.titles() });
      return queryClient.invalidateQueries({ queryKey: formKeys.list() });
    },
  });
}
