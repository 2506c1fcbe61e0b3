// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LeadMailChange, LeadMailSettings } from '../api/lead-mail.ts';
import { LeadMailSettingsForm } from './lead-mail-settings.tsx';

// The admins' new-lead mail setting against stand-ins for its queries.

const off: LeadMailSettings = {
  enabled: false,
  address: null,
  mode: 'immediate',
  digest_hour: 8,
  updated_at: '2026-11-25T09:00:00Z',
};

const state = vi.hoisted(() => ({
  settings: {} as object,
  overview: {} as object,
  saved: [] as LeadMailChange[],
  saveFails: false,
  refetched: 0,
}));

vi.mock('../api/lead-mail.ts', async () => {
  const { useState } = await import('react');
  return {
    useLeadMailSettings: () => state.settings,
    useLeadMailOverview: () => state.overview,
    useSaveLeadMailSettings: () => {
      const [isError, setError] = useState(false);
      return {
        isError,
        mutateAsync: async (change: LeadMailChange) => {
          state.saved.push(change);
          setError(state.saveFails);
          if (state.saveFails) throw new Error('save failed');
        },
      };
    },
  };
});

beforeEach(() => {
  state.settings = { isPending: false, isError: false, data: off };
  state.overview = {
    isPending: false,
    isError: false,
    data: { waiting: 0, failed: 0, last_sent_at: null },
  };
  state.saved = [];
  state.saveFails = false;
  state.refetched = 0;
});
afterEach(cleanup);

const addressField = () => screen.getByLabelText('E-Mail-Adresse für Benachrichtigungen');

describe('LeadMailSettingsForm', () => {
  it('shows the saved setting: switch off, no address, sofort', () => {
    render(<LeadMailSettingsForm />);
    const toggle = screen.getByRole('switch', { name: 'E-Mail bei neuen Anfragen' });
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    expect(addressField()).toHaveProperty('value', '');
    expect(screen.getByLabelText('Wann')).toHaveProperty('value', 'sofort');
  });

  it('asks for the address when the mail is switched on without one, tied to the field', async () => {
    render(<LeadMailSettingsForm />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('switch', { name: 'E-Mail bei neuen Anfragen' }));
    await user.click(screen.getByRole('button', { name: 'Benachrichtigung speichern' }));
    const field = addressField();
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    const message = document.getElementById(field.getAttribute('aria-describedby')!);
    expect(message?.textContent).toBe(
      'Bitte gib die E-Mail-Adresse ein, an die die Benachrichtigung gehen soll.',
    );
    expect(state.saved).toEqual([]);
  });

  it('refuses a malformed address', async () => {
    render(<LeadMailSettingsForm />);
    const user = userEvent.setup();
    await user.type(addressField(), 'makler-at-example.de');
    await user.click(screen.getByRole('button', { name: 'Benachrichtigung speichern' }));
    await waitFor(() => expect(addressField().getAttribute('aria-invalid')).toBe('true'));
    expect(
      screen.getByText('Bitte gib eine gültige E-Mail-Adresse ein, z. B. makler@example.de.'),
    ).toBeTruthy();
    expect(state.saved).toEqual([]);
  });

  it('saves the daily digest at the chosen hour and confirms it', async () => {
    render(<LeadMailSettingsForm />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('switch', { name: 'E-Mail bei neuen Anfragen' }));
    await user.type(addressField(), ' makler@example.de ');
    await user.selectOptions(screen.getByLabelText('Wann'), 'täglich um 7 Uhr');
    await user.click(screen.getByRole('button', { name: 'Benachrichtigung speichern' }));
    expect(state.saved).toEqual([
      { enabled: true, address: 'makler@example.de', mode: 'digest', digestHour: 7 },
    ]);
    expect(screen.getByRole('status').textContent).toBe(
      'Gespeichert: Neue Anfragen werden täglich um 7 Uhr an makler@example.de gemeldet.',
    );
  });

  it('saves "sofort" and keeps the digest hour as it was', async () => {
    state.settings = {
      isPending: false,
      isError: false,
      data: { ...off, enabled: true, address: 'alt@example.de', mode: 'digest', digest_hour: 18 },
    };
    render(<LeadMailSettingsForm />);
    const user = userEvent.setup();
    expect(screen.getByLabelText('Wann')).toHaveProperty('value', '18');
    await user.selectOptions(screen.getByLabelText('Wann'), 'sofort');
    await user.click(screen.getByRole('button', { name: 'Benachrichtigung speichern' }));
    expect(state.saved).toEqual([
      { enabled: true, address: 'alt@example.de', mode: 'immediate', digestHour: 18 },
    ]);
  });

  it('tells when saving failed', async () => {
    state.saveFails = true;
    render(<LeadMailSettingsForm />);
    const user = userEvent.setup();
    await user.type(addressField(), 'makler@example.de');
    await user.click(screen.getByRole('button', { name: 'Benachrichtigung speichern' }));
    expect(screen.getByRole('alert').textContent).toContain(
      'Die Benachrichtigung konnte nicht gespeichert werden. Bitte versuche es erneut.',
    );
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('shows how many mails could not be sent', () => {
    state.overview = {
      isPending: false,
      isError: false,
      data: { waiting: 0, failed: 3, last_sent_at: null },
    };
    render(<LeadMailSettingsForm />);
    expect(screen.getByRole('alert').textContent).toContain(
      '3 Benachrichtigungen konnten auch nach mehreren Versuchen nicht verschickt werden.',
    );
  });

  it('offers to load again when the setting could not be loaded', async () => {
    state.settings = {
      isPending: false,
      isError: true,
      refetch: () => {
        state.refetched += 1;
      },
    };
    render(<LeadMailSettingsForm />);
    expect(screen.getByRole('alert').textContent).toContain(
      'Die Benachrichtigung konnte nicht geladen werden.',
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(state.refetched).toBe(1);
  });
});
