// Every German text a visitor or staff member can see from a validation rule. The spec's strings
// are copied verbatim, including the non-breaking hyphen (U+2011) in two of the e-mail messages.
export const messages = {
  // Questionnaire contact form
  firstNameRequired: 'Vorname ist erforderlich.',
  lastNameRequired: 'Nachname ist erforderlich.',
  adressRequired: 'Straße und Hausnummer ist erforderlich.',
  postcodeRequired: 'PLZ ist erforderlich.',
  cityRequired: 'Stadt ist erforderlich.',
  phoneRequired: 'Telefonnummer ist erforderlich.',
  acceptRequired: 'Bitte akzeptieren.',

  // Shared e-mail check
  emailRequired: 'E‑Mail ist erforderlich.',
  emailInvalid: 'Bitte eine gültige E‑Mail-Adresse eingeben.',

  // KFZ form and contact page
  firstNameInvalid: 'Bitte einen gültigen Vornamen eingeben.',
  lastNameInvalid: 'Bitte einen gültigen Nachnamen eingeben.',
  phoneInvalid: 'Bitte eine gültige Telefonnummer eingeben.',
  privacyConsentRequired: 'Bitte Datenschutzhinweise bestätigen.',
  termsRequired: 'Bitte AGB akzeptieren.',

  // Contact page birthdate
  birthdateRequired: 'Geburtsdatum ist erforderlich.',
  birthdateInvalid: 'Bitte ein gültiges Geburtsdatum angeben.',
  birthdateInFuture: 'Geburtsdatum darf nicht in der Zukunft liegen.',
  birthdateImplausible: 'Bitte ein plausibles Datum angeben.',
  birthdateUnderage: 'Sie müssen mindestens 18 Jahre alt sein.',

  // Questionnaire birth year (not in the spec)
  birthYearRequired: 'Bitte geben Sie Ihr Geburtsjahr an.',
  birthYearInvalid: 'Bitte das Geburtsjahr mit vier Ziffern angeben, zum Beispiel 1985.',
  birthYearImplausible: 'Bitte ein plausibles Geburtsjahr angeben.',

  // Staff registration
  passwordsDoNotMatch: 'Die Passwörter stimmen nicht überein.',

  // The spec blocks these values without naming a message; a visitor must always see why.
  postcodeInvalid: 'Bitte eine gültige PLZ mit 5 Ziffern eingeben.',
  adressInvalid: 'Bitte eine gültige Straße und Hausnummer eingeben.',
  cityInvalid: 'Bitte einen gültigen Ort eingeben.',
  salutationInvalid: 'Bitte eine gültige Anrede auswählen.',
  callTimeInvalid: 'Bitte eine gültige Rückrufzeit auswählen.',
  // Names on every form: what is no name (line breaks, digits, addresses, links) and the length.
  firstNameNotAName:
    'Der Vorname darf nur Buchstaben, Leerzeichen, Bindestriche, Apostrophe und Abkürzungspunkte enthalten.',
  lastNameNotAName:
    'Der Nachname darf nur Buchstaben, Leerzeichen, Bindestriche, Apostrophe und Abkürzungspunkte enthalten.',
  firstNameTooLong: 'Der Vorname darf höchstens 100 Zeichen lang sein.',
  lastNameTooLong: 'Der Nachname darf höchstens 100 Zeichen lang sein.',
  titleTooLong: 'Der Titel darf höchstens 40 Zeichen lang sein.',
  messageTooLong: 'Die Nachricht darf höchstens 5000 Zeichen lang sein.',
  invalidValue: 'Bitte eine gültige Eingabe machen.',
} as const;

export type MessageKey = keyof typeof messages;
