import type { LeadSource } from '../../domain/database-enums.ts';

/**
 * Where a lead came from, as the desk names it where no questionnaire title does: a KFZ or
 * contact lead is stored under form 1 but answered no questionnaire.
 */
export const leadSourceLabels: Record<LeadSource, string> = {
  questionnaire: 'Fragebogen',
  kfz: 'KFZ-Rückruf',
  contact: 'Kontaktformular',
};
