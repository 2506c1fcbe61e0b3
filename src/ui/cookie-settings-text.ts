// What the cookie settings button says when the consent tool did not load, in both its versions
// (cookie-settings-button.tsx, cookie-settings-dom.ts). A module of its own: the plain DOM
// version stays a chunk that only its island's import() loads.

export const cookieSettingsFailedText =
  'Die Einstellungen konnten nicht geladen werden. Bitte prüfen Sie Ihre Verbindung und ' +
  'versuchen Sie es erneut.';
