import { describe, expect, it } from 'vitest';
import { returnPath, signinSchema } from './signin-form.ts';

describe('where the sign-in leads', () => {
  it('back to the desk screen the user wanted, with its query', () => {
    expect(returnPath('/surveydesk/customer?seite=2')).toBe('/surveydesk/customer?seite=2');
  });

  it('to the dashboard without a wish, or with one outside the desk', () => {
    for (const wanted of [
      null,
      undefined,
      '',
      'https://example.com/surveydesk/x',
      '//example.com/surveydesk/x',
      '/universa',
      '/surveydesk',
      '/surveydesk/signin?weiter=%2Fsurveydesk%2Fsettings',
    ]) {
      expect(returnPath(wanted), String(wanted)).toBe('/surveydesk/dashboard');
    }
  });
});

describe('the sign-in form', () => {
  it('needs both fields, with German messages', () => {
    const result = signinSchema.safeParse({ email: '  ', password: '' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      'Bitte gib deine E-Mail-Adresse ein.',
      'Bitte gib dein Passwort ein.',
    ]);
  });
});
