// @vitest-environment jsdom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FollowUpDialog } from './follow-up-dialog.tsx';

// The dialog against stand-ins for the staff list, the session and the insert.
const state = vi.hoisted(() => ({
  create: vi.fn(),
  refusal: null as Error | null,
}));

vi.mock('../api/staff-directory.ts', () => ({
  useStaffDirectory: () => ({
    data: [
      { user_id: 'me', name: 'Mia Mitarbeiterin', role: 'staff' },
      { user_id: 'u2', name: 'Anna Admin', role: 'admin' },
    ],
    isPending: false,
    isError: false,
    refetch: vi.fn(),
  }),
}));
vi.mock('../api/follow-ups.ts', () => ({
  useCreateFollowUp: () => ({
    mutateAsync: async (input: unknown) => {
      if (state.refusal) throw state.refusal;
      return state.create(input);
    },
  }),
}));
vi.mock('../api/session.ts', () => ({
  useSession: () => ({ data: { session: { user: { id: 'me' } } } }),
}));

const subject = { customerId: 7, responseId: 31, label: 'KFZ-Wechsel vom 25.11.2026' };

const describedBy = (field: HTMLElement) =>
  document.getElementById(field.getAttribute('aria-describedby') ?? '')?.textContent;

// Wednesday 25 November 2026, 10:20 in Berlin: only Date is faked, user-event's timers run.
const now = new Date('2026-11-25T09:20:00Z');

beforeEach(() => {
  vi.useFakeTimers({ now, toFake: ['Date'] });
  state.create.mockReset();
  state.refusal = null;
});
afterEach(() => {
  vi.useRealTimers();
  cleanup();
});

describe('FollowUpDialog', () => {
  it('is for me by default and saves day and time as the instant in Berlin', async () => {
    const onClose = vi.fn();
    state.create.mockResolvedValue(1);
    render(<FollowUpDialog subject={subject} onClose={onClose} />);
    const dialog = screen.getByRole('dialog', { name: 'Wiedervorlage anlegen' });
    expect(dialog.textContent).toContain('KFZ-Wechsel vom 25.11.2026');
    const assignee = screen.getByLabelText<HTMLSelectElement>('Zuständig');
    expect(assignee.value).toBe('me');
    const user = userEvent.setup();
    await user.clear(screen.getByLabelText(/^Datum \(Berlin\)/));
    await user.type(screen.getByLabelText(/^Datum \(Berlin\)/), '2026-12-07');
    await user.clear(screen.getByLabelText(/^Uhrzeit \(Berlin\)/));
    await user.type(screen.getByLabelText(/^Uhrzeit \(Berlin\)/), '08:00');
    await user.selectOptions(assignee, 'u2');
    await user.type(screen.getByLabelText('Text'), 'Angebot besprechen');
    await user.click(screen.getByRole('button', { name: 'Speichern' }));
    expect(state.create).toHaveBeenCalledWith({
      customerId: 7,
      responseId: 31,
      dueAt: '2026-12-07T07:00:00.000Z',
      assignee: 'u2',
      body: 'Angebot besprechen',
    });
    expect(onClose).toHaveBeenCalled();
  });

  it('starts at the next working-hours slot and fills day and time from a quick choice', async () => {
    render(<FollowUpDialog subject={subject} onClose={vi.fn()} />);
    const day = screen.getByLabelText<HTMLInputElement>(/^Datum \(Berlin\)/);
    const time = screen.getByLabelText<HTMLInputElement>(/^Uhrzeit \(Berlin\)/);
    expect([day.value, time.value]).toEqual(['2026-11-25', '11:00']);
    // The date picker offers no day before today.
    expect(day.min).toBe('2026-11-25');
    const choices = screen.getByRole('group', { name: 'Schnellauswahl' });
    expect(
      within(choices)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Heute 16 Uhr', 'Morgen 9 Uhr', 'In 3 Tagen', 'Nächste Woche']);
    const user = userEvent.setup();
    const nextWeek = within(choices).getByRole('button', { name: 'Nächste Woche' });
    await user.click(nextWeek);
    expect([day.value, time.value]).toEqual(['2026-11-30', '09:00']);
    expect(nextWeek.getAttribute('aria-pressed')).toBe('true');
    await user.click(within(choices).getByRole('button', { name: 'Heute 16 Uhr' }));
    expect([day.value, time.value]).toEqual(['2026-11-25', '16:00']);
    expect(nextWeek.getAttribute('aria-pressed')).toBe('false');
    await user.click(screen.getByRole('button', { name: 'Speichern' }));
    expect(state.create).toHaveBeenCalledWith(
      expect.objectContaining({ dueAt: '2026-11-25T15:00:00.000Z' }),
    );
  });

  it('refuses a date in the past with a German message at the date, and sends nothing', async () => {
    render(<FollowUpDialog subject={subject} onClose={vi.fn()} />);
    const user = userEvent.setup();
    const day = screen.getByLabelText(/^Datum \(Berlin\)/);
    await user.clear(day);
    await user.type(day, '2026-11-24');
    await user.click(screen.getByRole('button', { name: 'Speichern' }));
    await waitFor(() =>
      expect(describedBy(day)).toBe(
        'Das Datum liegt in der Vergangenheit. Bitte ein späteres wählen.',
      ),
    );
    expect(day.getAttribute('aria-invalid')).toBe('true');
    // Today, but an hour already past: the time is refused.
    await user.clear(day);
    await user.type(day, '2026-11-25');
    const time = screen.getByLabelText(/^Uhrzeit \(Berlin\)/);
    await user.clear(time);
    await user.type(time, '09:30');
    await user.click(screen.getByRole('button', { name: 'Speichern' }));
    await waitFor(() =>
      expect(describedBy(time)).toBe(
        'Diese Uhrzeit ist heute schon vorbei. Bitte eine spätere wählen.',
      ),
    );
    expect(state.create).not.toHaveBeenCalled();
  });

  it('ties German errors to their fields and sends nothing', async () => {
    render(<FollowUpDialog subject={subject} onClose={vi.fn()} />);
    const user = userEvent.setup();
    const day = screen.getByLabelText(/^Datum \(Berlin\)/);
    await user.clear(day);
    await user.click(screen.getByRole('button', { name: 'Speichern' }));
    await waitFor(() => expect(describedBy(day)).toBe('Bitte ein Datum wählen.'));
    expect(day.getAttribute('aria-invalid')).toBe('true');
    expect(state.create).not.toHaveBeenCalled();
  });

  it('shows the database’s refusal of an assignee at that field', async () => {
    state.refusal = Object.assign(
      new Error('Zuständig kann nur ein freigeschaltetes Konto sein.'),
      { code: '23514' },
    );
    render(<FollowUpDialog subject={subject} onClose={vi.fn()} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Speichern' }));
    expect(describedBy(screen.getByLabelText('Zuständig'))).toBe(
      'Zuständig kann nur ein freigeschaltetes Konto sein.',
    );
  });
});
