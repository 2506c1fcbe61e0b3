/** The two public questionnaires' forms, fixed since the hub was seeded. */
export const TABALUGA_FORM_ID = 1;
export const PKV_FORM_ID = 2;
