// A module of its own, without zod: the lead forms' shared parts (src/ui/lead-form-parts.tsx) list
// the call times, and a questionnaire's first question must not bring the contact schemas along.

/** When a visitor would like to be called back (the KFZ form's choice). */
export const callTimes = ['Morgens', 'Mittags', 'Nachmittags', 'Abends'] as const;
export type CallTime = (typeof callTimes)[number];
