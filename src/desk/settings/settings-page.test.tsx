// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SettingsPage } from './settings-page.tsx';

// The account panel of the settings (issue 36): what matters to a person, not a raw dump of the
// account's fields. The name and password forms have tests of their own.

vi.mock('./name-form.tsx', () => ({ NameForm: () => null }));
vi.mock('./password-change-form.tsx', () => ({ PasswordChangeForm: () => null }));
vi.mock('../api/session.ts', () => ({
  useSession: () => ({
    data: {
      session: {
        user: {
          email: 'chefin@example.de',
          created_at: '2026-03-04T10:00:00Z',
          email_confirmed_at: '2026-03-04T10:05:00Z',
          phone_confirmed_at: undefined,
          user_metadata: { email_verified: true, phone_verified: false },
        },
      },
    },
  }),
}));
vi.mock('../api/staff.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../api/staff.ts')>()),
  useMyRole: () => ({ data: 'admin' }),
}));

afterEach(cleanup);

describe('the settings’ account panel', () => {
  it('shows address, role and since when, read-only, and no verification flags', () => {
    render(<SettingsPage />);
    const panel = screen.getByRole('form', { name: 'Konto' });
    const shown = [...panel.querySelectorAll('input')].map((input) => [
      document.querySelector(`label[for="${input.id}"]`)?.textContent,
      input.value,
      input.readOnly,
    ]);
    expect(shown).toEqual([
      ['E-Mail-Adresse', 'chefin@example.de', true],
      ['Rolle', 'Admin', true],
      ['Konto seit', '04.03.2026', true],
    ]);
    expect(panel.textContent).not.toContain('bestätigt');
    expect(screen.queryByLabelText('Telefon bestätigt')).toBeNull();
  });
});
