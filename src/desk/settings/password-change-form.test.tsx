// @vitest-environment jsdom
import {
  AuthApiError,
  AuthRetryableFetchError,
  AuthWeakPasswordError,
} from '@supabase/supabase-js';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PasswordChangeForm } from './password-change-form.tsx';

// The password change in Einstellungen against a stand-in for GoTrue's answer: each refusal
// ends up at the field it is about, in German.

const state = vi.hoisted(() => ({
  sent: [] as unknown[],
  answer: null as Error | null,
}));

vi.mock('../api/account.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../api/account.ts')>()),
  useChangePassword: () => ({
    mutateAsync: async (change: unknown) => {
      state.sent.push(change);
      if (state.answer) throw state.answer;
    },
  }),
}));

/** The text of what a field's aria-describedby points at (its hint and error). */
function description(element: HTMLElement): string {
  const ids = element.getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
}

beforeEach(() => {
  state.sent = [];
  state.answer = null;
});
afterEach(cleanup);

async function fillIn(current: string, password: string, confirmation = password) {
  const user = userEvent.setup();
  render(<PasswordChangeForm />);
  if (current) await user.type(screen.getByLabelText('Aktuelles Passwort'), current);
  if (password) await user.type(screen.getByLabelText('Neues Passwort'), password);
  if (confirmation) {
    await user.type(screen.getByLabelText('Neues Passwort wiederholen'), confirmation);
  }
  await user.click(screen.getByRole('button', { name: 'Passwort ändern' }));
}

const field = (label: string) => screen.getByLabelText(label);

describe('PasswordChangeForm', () => {
  it('asks for every field and the same new password twice before sending anything', async () => {
    await fillIn('', 'neues-passwort-1', 'anderes-passwort-1');
    expect(description(field('Aktuelles Passwort'))).toBe('Bitte gib dein aktuelles Passwort ein.');
    expect(description(field('Neues Passwort wiederholen'))).toBe(
      'Die Passwörter stimmen nicht überein.',
    );
    expect(state.sent).toEqual([]);
  });

  it('sends the current and the new password and then empties the form', async () => {
    await fillIn('altes-passwort-1', 'neues-passwort-1');
    expect(state.sent).toEqual([{ current: 'altes-passwort-1', password: 'neues-passwort-1' }]);
    expect((await screen.findByRole('status')).textContent).toContain(
      'Passwort geändert. Auf anderen Geräten bist du jetzt abgemeldet.',
    );
    expect((field('Aktuelles Passwort') as HTMLInputElement).value).toBe('');
  });

  it('ties a wrong current password to its field, refused by the sign-in or by GoTrue', async () => {
    state.answer = new AuthApiError('Invalid login credentials', 400, 'invalid_credentials');
    await fillIn('falsch-1', 'neues-passwort-1');
    expect(description(field('Aktuelles Passwort'))).toBe('Das aktuelle Passwort stimmt nicht.');
    expect(field('Aktuelles Passwort').getAttribute('aria-invalid')).toBe('true');
    cleanup();

    state.answer = new AuthApiError('Current password required', 400, 'current_password_invalid');
    await fillIn('falsch-2', 'neues-passwort-1');
    expect(description(field('Aktuelles Passwort'))).toBe('Das aktuelle Passwort stimmt nicht.');
  });

  it('refuses the same and a too short password before any call', async () => {
    await fillIn('altes-passwort-1', 'altes-passwort-1');
    expect(description(field('Neues Passwort'))).toBe(
      'Das neue Passwort muss sich vom alten unterscheiden.',
    );
    cleanup();
    await fillIn('altes-passwort-1', 'kurz');
    expect(description(field('Neues Passwort'))).toBe(
      'Das Passwort ist zu schwach. Bitte wähle ein Passwort mit mindestens 8 Zeichen.',
    );
    expect(state.sent).toEqual([]);
  });

  it('ties GoTrue’s weak-password reasons and a same-password refusal to the new password', async () => {
    state.answer = new AuthWeakPasswordError('Password is weak', 422, ['characters']);
    await fillIn('altes-passwort-1', 'neuespasswort');
    expect(description(field('Neues Passwort'))).toBe(
      'Das Passwort ist zu schwach. Bitte wähle ein Passwort mit Klein- und Großbuchstaben, Ziffern und Sonderzeichen.',
    );
    cleanup();

    state.answer = new AuthApiError('New password should be different', 422, 'same_password');
    await fillIn('altes-passwort-1', 'neues-passwort-1');
    expect(description(field('Neues Passwort'))).toBe(
      'Das neue Passwort muss sich vom alten unterscheiden.',
    );
  });

  it('says so when too many wrong tries are throttled or the server is away', async () => {
    state.answer = new AuthApiError('Request rate limit reached', 429, 'over_request_rate_limit');
    await fillIn('falsch-4', 'neues-passwort-1');
    expect((await screen.findByRole('alert')).textContent).toContain('Zu viele falsche Versuche.');
    cleanup();

    state.answer = new AuthRetryableFetchError('fetch failed', 0);
    await fillIn('altes-passwort-1', 'neues-passwort-1');
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Das Passwort konnte gerade nicht geändert werden.',
    );
  });
});
