// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NewRetentionHold } from '../api/retention.ts';
import { RetentionHolds } from './retention-holds.tsx';

// The admins' retention holds against stand-ins for their queries.

const state = vi.hoisted(() => ({
  holds: {} as object,
  added: [] as unknown[],
  addAnswer: 'added' as 'added' | 'unknown_customer' | 'fails',
  lifted: [] as number[],
  liftFails: false,
}));

vi.mock('../api/retention.ts', async () => {
  const { useState } = await import('react');
  return {
    useRetentionHolds: () => state.holds,
    useAddRetentionHold: () => {
      const [isError, setError] = useState(false);
      return {
        isError,
        mutateAsync: async (hold: NewRetentionHold) => {
          state.added.push(hold);
          if (state.addAnswer === 'fails') {
            setError(true);
            throw new Error('offline');
          }
          return state.addAnswer;
        },
      };
    },
    useLiftRetentionHold: () => {
      const [isError, setError] = useState(false);
      return {
        isPending: false,
        isError,
        mutate: (id: number) => {
          state.lifted.push(id);
          if (state.liftFails) setError(true);
        },
      };
    },
  };
});

const hold = {
  id: 7,
  reason: 'Vertrag 4711',
  until: '2031-12-31',
  created_at: '2026-11-25T09:00:00Z',
  users: { first_name: 'Erika', last_name: 'Muster', email: 'erika@example.de' },
};

beforeEach(() => {
  state.holds = { isPending: false, isError: false, data: [] };
  state.added = [];
  state.addAnswer = 'added';
  state.lifted = [];
  state.liftFails = false;
});
afterEach(cleanup);

describe('RetentionHolds', () => {
  it('lists the holds and lifts one', async () => {
    state.holds = {
      isPending: false,
      isError: false,
      data: [hold, { ...hold, id: 8, until: null, reason: 'Streitfall' }],
    };
    render(<RetentionHolds />);
    const table = screen.getByRole('table', { name: 'Aufbewahrungssperren' });
    const [, first, second] = within(table).getAllByRole('row');
    expect(
      within(first!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Vertrag 4711', '31.12.2031', '25.11.2026, 10:00', 'Aufheben']);
    expect(within(second!).getByText('unbefristet')).toBeTruthy();
    state.liftFails = true;
    await userEvent
      .setup()
      .click(within(first!).getByRole('button', { name: 'Sperre für Erika Muster aufheben' }));
    expect(state.lifted).toEqual([7]);
    expect(screen.getByRole('alert').textContent).toBe(
      'Die Aufbewahrungssperre konnte nicht aufgehoben werden. Bitte versuche es erneut.',
    );
  });

  it('checks the input, names an unknown customer at its field and confirms a saved hold', async () => {
    render(<RetentionHolds />);
    expect(screen.getByText('Keine Aufbewahrungssperren.')).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Sperre anlegen' }));
    expect(state.added).toEqual([]);
    expect(screen.getByLabelText(/E-Mail-Adresse des Kunden/)).toHaveProperty(
      'ariaInvalid',
      'true',
    );
    expect(screen.getByText('Bitte gib die E-Mail-Adresse des Kunden ein.')).toBeTruthy();
    expect(
      screen.getByText('Bitte nenne den Grund (mindestens 3 Zeichen), z. B. den Vertrag.'),
    ).toBeTruthy();

    await user.type(screen.getByLabelText(/E-Mail-Adresse des Kunden/), 'niemand@example.de');
    await user.type(screen.getByLabelText(/Grund/), 'Vertrag 4711');
    state.addAnswer = 'unknown_customer';
    await user.click(screen.getByRole('button', { name: 'Sperre anlegen' }));
    const email = screen.getByLabelText(/E-Mail-Adresse des Kunden/);
    expect(email.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(email.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Zu dieser E-Mail-Adresse gibt es keinen Kunden.',
    );

    state.addAnswer = 'added';
    await user.clear(email);
    await user.type(email, 'erika@example.de');
    await user.click(screen.getByRole('button', { name: 'Sperre anlegen' }));
    expect(state.added.at(-1)).toEqual({
      email: 'erika@example.de',
      reason: 'Vertrag 4711',
      until: '',
    });
    expect(screen.getByRole('status').textContent).toBe(
      'Gespeichert: Die Daten zu erika@example.de werden nicht automatisch gelöscht.',
    );
  });

  it('refuses a date in the past and says when saving failed', async () => {
    render(<RetentionHolds />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/E-Mail-Adresse des Kunden/), 'erika@example.de');
    await user.type(screen.getByLabelText(/Grund/), 'Vertrag 4711');
    await user.type(screen.getByLabelText('Aufbewahren bis'), '2000-01-01');
    await user.click(screen.getByRole('button', { name: 'Sperre anlegen' }));
    expect(screen.getByText('Das Datum darf nicht in der Vergangenheit liegen.')).toBeTruthy();
    expect(state.added).toEqual([]);

    await user.clear(screen.getByLabelText('Aufbewahren bis'));
    state.addAnswer = 'fails';
    await user.click(screen.getByRole('button', { name: 'Sperre anlegen' }));
    expect(state.added).toHaveLength(1);
    expect(screen.getByRole('alert').textContent).toBe(
      'Die Aufbewahrungssperre konnte nicht gespeichert werden. Bitte versuche es erneut.',
    );
  });

  it('shows loading and a load error with a retry', async () => {
    state.holds = { isPending: true, isError: false };
    render(<RetentionHolds />);
    expect(screen.getByText('Sperren werden geladen …').getAttribute('role')).toBe('status');
    cleanup();
    let retried = 0;
    state.holds = { isPending: false, isError: true, refetch: () => (retried += 1) };
    render(<RetentionHolds />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(retried).toBe(1);
  });
});
