import { z } from 'zod';
import { isValidEmail, normalizeEmail } from './email.ts';
import { addYears, localDay, parseLocalDay, type CalendarDay } from './calendar.ts';
import { callTimes } from './call-times.ts';
import { messages } from './messages.ts';

export { callTimes, type CallTime } from './call-times.ts';

export const contactLimits = {
  nameMinLength: 2,
  nameMaxLength: 100,
  streetMinLength: 3,
  cityMinLength: 2,
  phoneMinLength: 6,
  postcodeLength: 5,
  titleMaxLength: 40,
  messageMaxLength: 5000,
  adultAge: 18,
  maxAge: 120,
} as const;

export const salutations = ['Herr', 'Frau', 'Divers'] as const;
export type Salutation = (typeof salutations)[number];

// Every check aborts the field on failure, so a field only ever shows its first problem
// (an empty e-mail is "required", never also "invalid").
const stop = (message: string) => ({ error: message, abort: true });

/** Counts what a person sees as characters, not UTF-16 code units. */
const characterCount = (value: string) => [...value].length;

/** A trimmed text whose type error (e.g. a missing field) reads as the field's own message. */
const text = (message: string) => z.string({ error: message }).trim();

const requiredText = (message: string) => text(message).min(1, stop(message));

/** A checkbox that must be ticked. */
const mustAccept = (message: string) =>
  z.boolean({ error: message }).refine((checked) => checked, stop(message));

// Combining marks are allowed next to letters for scripts that need them; NFC first so that a
// decomposed "ü" (as some keyboards and pasted text produce) counts as one letter.
const namePattern = /^[\p{L}\p{M}' ’-]+$/u;

function isPlausibleName(name: string): boolean {
  if (!namePattern.test(name) || characterCount(name) < contactLimits.nameMinLength) return false;
  // Separators are ignored so that 'a a' or 'A-a' count as one repeated letter; this also
  // covers the spec's "only x characters and spaces" ('xx', 'X x').
  const letters = name.toLowerCase().replace(/[^\p{L}\p{M}]/gu, '');
  return new Set(letters).size > 1;
}

/** The two name fields and their messages beyond the spec's. */
type NameField = 'first_name' | 'last_name';

const nameMessages = {
  first_name: { notAName: messages.firstNameNotAName, tooLong: messages.firstNameTooLong },
  last_name: { notAName: messages.lastNameNotAName, tooLong: messages.lastNameTooLong },
} as const;

// What every form takes as a name (the questionnaire's whole rule, the floor below the KFZ and
// contact rules): letters of any script with their combining marks, the space, hyphen and
// apostrophe, and a period that ends an abbreviation ("Dr. Anna", "J. R.", "Dr.-Ing."): after a
// letter and not directly before one, so that "evil.example" or "www.x.de" is no name. At least
// one letter, at most nameMaxLength characters. No digits, no control characters or line breaks
// (a trim leaves none at the ends, the pattern none inside), no ':', '/', '@' or other symbols.
// The database holds a looser form of the same rule (migration 20261128120000_names_and_labels).
const nameCharacters = /^[\p{L}\p{M}' ’.-]+$/u;
const misplacedPeriod = /(?<![\p{L}\p{M}])\.|\.(?=[\p{L}\p{M}])/u;

export function isName(name: string): boolean {
  return nameCharacters.test(name) && !misplacedPeriod.test(name) && /\p{L}/u.test(name);
}

/**
 * The questionnaire's name rule: required (the spec's message), then a name (see isName) of at
 * most nameMaxLength characters, each refusal with its own German message under the field.
 */
export function nameSchema(field: NameField, requiredMessage: string) {
  const { notAName, tooLong } = nameMessages[field];
  return requiredText(requiredMessage)
    .normalize('NFC')
    .refine((name) => characterCount(name) <= contactLimits.nameMaxLength, stop(tooLong))
    .refine(isName, stop(notAName));
}

/**
 * The KFZ and contact page rule for first and last names: the spec's (with its message), and at
 * most nameMaxLength characters.
 */
export function personNameSchema(field: NameField, message: string) {
  return text(message)
    .normalize('NFC')
    .refine(isPlausibleName, stop(message))
    .refine(
      (name) => characterCount(name) <= contactLimits.nameMaxLength,
      stop(nameMessages[field].tooLong),
    );
}

export const emailSchema = z
  .string({ error: messages.emailRequired })
  .overwrite(normalizeEmail)
  .min(1, stop(messages.emailRequired))
  .refine(isValidEmail, stop(messages.emailInvalid));

// Separators only between digits, so that '------' or '+ / -' cannot pass the length rule.
const phonePattern = /^\+?[0-9](?:[0-9 /-]*[0-9])?$/;

export function isValidPhone(phone: string): boolean {
  return phonePattern.test(phone) && phone.length >= contactLimits.phoneMinLength;
}

/** The KFZ and contact page phone rule; the spec gives one message for empty and malformed. */
export const phoneSchema = text(messages.phoneInvalid).refine(
  isValidPhone,
  stop(messages.phoneInvalid),
);

export const callTimeSchema = z
  .enum(['', ...callTimes], { error: messages.callTimeInvalid })
  .default('');

const postcodePattern = /^[0-9]{5}$/;

/** A form before anything is typed: the given texts empty, both consents unticked. */
function blankForm<Text extends string>(texts: readonly Text[]) {
  return {
    ...(Object.fromEntries(texts.map((field) => [field, ''])) as Record<Text, ''>),
    terms_accepted: false,
    data_processing_consent: false,
  };
}

export const questionnaireContactSchema = z.object({
  first_name: nameSchema('first_name', messages.firstNameRequired),
  last_name: nameSchema('last_name', messages.lastNameRequired),
  adress: requiredText(messages.adressRequired),
  postcode: requiredText(messages.postcodeRequired).regex(
    postcodePattern,
    stop(messages.postcodeInvalid),
  ),
  city: requiredText(messages.cityRequired),
  phone: requiredText(messages.phoneRequired).regex(/^\+?[0-9 ]+$/, stop(messages.phoneInvalid)),
  email: emailSchema,
  offer_info: z.boolean({ error: messages.invalidValue }).default(false),
  terms_accepted: mustAccept(messages.acceptRequired),
  data_processing_consent: mustAccept(messages.acceptRequired),
});

export type QuestionnaireContactInput = z.input<typeof questionnaireContactSchema>;
export type QuestionnaireContact = z.output<typeof questionnaireContactSchema>;

/** The contact step before anything is typed. */
export const emptyQuestionnaireContact: QuestionnaireContactInput = {
  ...blankForm(['first_name', 'last_name', 'adress', 'postcode', 'city', 'phone', 'email']),
  offer_info: false,
};

export const kfzRequestSchema = z.object({
  first_name: personNameSchema('first_name', messages.firstNameInvalid),
  last_name: personNameSchema('last_name', messages.lastNameInvalid),
  email: emailSchema,
  phone: phoneSchema,
  call_time: callTimeSchema,
  data_processing_consent: mustAccept(messages.privacyConsentRequired),
  terms_accepted: mustAccept(messages.termsRequired),
  // The spec's KFZ form always sends true; the default keeps that when the field is absent.
  offer_info: z.boolean({ error: messages.invalidValue }).default(true),
});

export type KfzRequestInput = z.input<typeof kfzRequestSchema>;
export type KfzRequest = z.output<typeof kfzRequestSchema>;

/** The KFZ form before anything is typed. */
export const emptyKfzRequest: KfzRequestInput = blankForm([
  'first_name',
  'last_name',
  'email',
  'phone',
  'call_time',
]);

/** Limits for the birthdate input: `max` is the youngest adult, `min` the oldest plausible. */
export function birthdateBounds(today: Date): { min: CalendarDay; max: CalendarDay } {
  const day = localDay(today);
  return {
    min: addYears(day, -contactLimits.maxAge),
    max: addYears(day, -contactLimits.adultAge),
  };
}

/** The one message for a birthdate (ISO 'YYYY-MM-DD'), or undefined when it is acceptable. */
export function birthdateProblem(value: string, today: Date): string | undefined {
  if (value === '') return messages.birthdateRequired;
  if (!parseLocalDay(value)) return messages.birthdateInvalid;
  const { min, max } = birthdateBounds(today);
  if (value > localDay(today)) return messages.birthdateInFuture;
  if (value < min) return messages.birthdateImplausible;
  if (value > max) return messages.birthdateUnderage;
  return undefined;
}

const optionalText = (pattern: RegExp, minLength: number, message: string) =>
  text(message)
    .normalize('NFC')
    .refine(
      (value) => value === '' || (pattern.test(value) && characterCount(value) >= minLength),
      stop(message),
    )
    .default('');

/**
 * The contact page. Takes the clock as a function so that one long-lived schema judges ages
 * against the day of each parse, and tests can fix the day.
 */
export function createContactRequestSchema(today: () => Date) {
  return z.object({
    salutation: z.enum(['', ...salutations], { error: messages.salutationInvalid }).default(''),
    title: text(messages.invalidValue)
      .max(contactLimits.titleMaxLength, stop(messages.titleTooLong))
      .default(''),
    birthdate: text(messages.birthdateRequired).superRefine((value, ctx) => {
      const problem = birthdateProblem(value, today());
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
    first_name: personNameSchema('first_name', messages.firstNameInvalid),
    last_name: personNameSchema('last_name', messages.lastNameInvalid),
    adress: optionalText(
      /^[\p{L}\p{M}0-9 .-]+$/u,
      contactLimits.streetMinLength,
      messages.adressInvalid,
    ),
    postcode: text(messages.postcodeInvalid)
      .refine(
        (value) => value === '' || postcodePattern.test(value),
        stop(messages.postcodeInvalid),
      )
      .default(''),
    city: optionalText(/^[\p{L}\p{M} -]+$/u, contactLimits.cityMinLength, messages.cityInvalid),
    email: emailSchema,
    phone: phoneSchema,
    call_time: callTimeSchema,
    existing_customer: z.boolean({ error: messages.invalidValue }).optional(),
    message: text(messages.invalidValue)
      .max(contactLimits.messageMaxLength, stop(messages.messageTooLong))
      .default(''),
    data_processing_consent: mustAccept(messages.privacyConsentRequired),
    terms_accepted: mustAccept(messages.termsRequired),
    // The spec's contact page always sends true; the default keeps that when the field is absent.
    offer_info: z.boolean({ error: messages.invalidValue }).default(true),
  });
}

export type ContactRequestSchema = ReturnType<typeof createContactRequestSchema>;
export type ContactRequestInput = z.input<ContactRequestSchema>;
export type ContactRequest = z.output<ContactRequestSchema>;

/** The contact page's form before anything is typed. */
export const emptyContactRequest: ContactRequestInput = {
  ...blankForm([
    'salutation',
    'title',
    'birthdate',
    'first_name',
    'last_name',
    'adress',
    'postcode',
    'city',
    'email',
    'phone',
    'call_time',
    'message',
  ]),
  existing_customer: false,
};
