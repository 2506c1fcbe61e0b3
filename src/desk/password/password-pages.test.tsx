// @vitest-environment jsdom
import { AuthApiError, AuthWeakPasswordError } from '@supabase/supabase-js';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PasswordForgottenPage } from './password-forgotten-page.tsx';
import { PasswordNewPage } from './password-new-page.tsx';

// 'Passwort vergessen?' and the page the mailed link opens, against stand-ins for GoTrue's answers.

const state = vi.hoisted(() => ({
  requested: [] as string[],
  requestAnswer: null as Error | null,
  tokens: [] as string[],
  passwords: [] as string[],
  setAnswer: null as Error | null,
}));

vi.mock('../api/password-recovery.ts', async (importOriginal) => {
  const { useState } = await import('react');
  return {
    ...(await importOriginal<typeof import('../api/password-recovery.ts')>()),
    useRequestRecovery: () => {
      const [isSuccess, setSuccess] = useState(false);
      return {
        isSuccess,
        mutateAsync: async (email: string) => {
          state.requested.push(email);
          if (state.requestAnswer) throw state.requestAnswer;
          setSuccess(true);
        },
      };
    },
    useSetRecoveredPassword: (tokenHash: string) => ({
      mutateAsync: async (password: string) => {
        state.tokens.push(tokenHash);
        state.passwords.push(password);
        if (state.setAnswer) throw state.setAnswer;
      },
    }),
  };
});

beforeEach(() => {
  state.requested = [];
  state.requestAnswer = null;
  state.tokens = [];
  state.passwords = [];
  state.setAnswer = null;
});
afterEach(cleanup);

function description(element: HTMLElement): string {
  const ids = element.getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
}

function Where() {
  const location = useLocation();
  return <p data-testid="ort">{location.pathname + location.search}</p>;
}

function renderAt(url: string) {
  render(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path="/surveydesk/passwort-vergessen" element={<PasswordForgottenPage />} />
        <Route path="/surveydesk/passwort-neu" element={<PasswordNewPage />} />
        <Route path="*" element={<Where />} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('PasswordForgottenPage', () => {
  it('says the same for every address once the request went out', async () => {
    const user = userEvent.setup();
    renderAt('/surveydesk/passwort-vergessen');
    await user.type(screen.getByLabelText('E-Mail-Adresse'), ' erika@example.de ');
    await user.click(screen.getByRole('button', { name: 'Link anfordern' }));
    expect(state.requested).toEqual(['erika@example.de']);
    expect((await screen.findByRole('status')).textContent).toContain(
      'Wenn ein Konto mit dieser Adresse besteht, haben wir einen Link geschickt.',
    );
  });

  it('asks for an address, and says when to wait', async () => {
    const user = userEvent.setup();
    renderAt('/surveydesk/passwort-vergessen');
    await user.click(screen.getByRole('button', { name: 'Link anfordern' }));
    expect(description(screen.getByLabelText('E-Mail-Adresse'))).toBe(
      'Bitte gib deine E-Mail-Adresse ein.',
    );
    expect(state.requested).toEqual([]);

    state.requestAnswer = new AuthApiError(
      'For security purposes',
      429,
      'over_email_send_rate_limit',
    );
    await user.type(screen.getByLabelText('E-Mail-Adresse'), 'erika@example.de');
    await user.click(screen.getByRole('button', { name: 'Link anfordern' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Bitte warte eine Minute');
  });
});

describe('PasswordNewPage', () => {
  const link = '/surveydesk/passwort-neu?token_hash=geheim-123&type=recovery';

  async function choose(password: string, confirmation = password) {
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Neues Passwort'), password);
    await user.type(screen.getByLabelText('Neues Passwort wiederholen'), confirmation);
    await user.click(screen.getByRole('button', { name: 'Passwort speichern' }));
  }

  it('sets the new password with the link’s token and leads to the sign-in', async () => {
    renderAt(link);
    await choose('neues-passwort-1');
    expect(state.tokens).toEqual(['geheim-123']);
    expect(state.passwords).toEqual(['neues-passwort-1']);
    expect((await screen.findByTestId('ort')).textContent).toBe('/surveydesk/signin?passwort=neu');
  });

  it('checks the repetition first and ties a weak password to its field', async () => {
    renderAt(link);
    await choose('neues-passwort-1', 'anderes');
    expect(description(screen.getByLabelText('Neues Passwort wiederholen'))).toBe(
      'Die Passwörter stimmen nicht überein.',
    );
    expect(state.passwords).toEqual([]);
    cleanup();

    state.setAnswer = new AuthWeakPasswordError('weak', 422, ['length', 'pwned']);
    renderAt(link);
    await choose('kurz');
    expect(description(screen.getByLabelText('Neues Passwort'))).toBe(
      'Das Passwort ist zu schwach. Bitte wähle ein Passwort mit mindestens 8 Zeichen. Dieses Passwort ist aus Datenlecks bekannt; bitte wähle ein anderes.',
    );
  });

  it('explains a used or expired link and offers a new one', async () => {
    state.setAnswer = new AuthApiError('Email link is invalid or has expired', 403, 'otp_expired');
    renderAt(link);
    await choose('neues-passwort-1');
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Dieser Link ist ungültig oder abgelaufen.',
    );
    expect(screen.getByRole('link', { name: 'Neuen Link anfordern' }).getAttribute('href')).toBe(
      '/surveydesk/passwort-vergessen',
    );
  });

  it('treats a recovery session past its hour as an expired link (issue 32, item 8)', async () => {
    state.setAnswer = new AuthApiError(
      'Current password required when setting new password.',
      400,
      'current_password_required',
    );
    renderAt(link);
    await choose('neues-passwort-1');
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Dieser Link ist ungültig oder abgelaufen.',
    );
  });

  it('says so at once for an address without a token', () => {
    renderAt('/surveydesk/passwort-neu');
    expect(screen.getByRole('alert').textContent).toContain('ungültig oder abgelaufen');
    expect(screen.queryByLabelText('Neues Passwort')).toBeNull();
  });
});
