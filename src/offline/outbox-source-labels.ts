import type { SubmissionSource } from '../domain/submission.ts';

/**
 * What a waiting or refused lead is, as the visitor's side names it (the header's panel and the
 * device page): one wording for both.
 */
export const outboxSourceLabels: Record<SubmissionSource, string> = {
  questionnaire: 'Fragebogen',
  kfz: 'KFZ-Rückruf',
  contact: 'Kontakt',
};
