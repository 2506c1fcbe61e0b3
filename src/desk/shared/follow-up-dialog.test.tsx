// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
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

beforeEach(() => {
  state.create.mockReset();
  state.refusal = null;
});
afterEach(cleanup);

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
    await user.type(screen.getByLabelText(/^Datum \(Berlin\)/), '2026-03-30');
    await user.clear(screen.getByLabelText(/^Uhrzeit \(Berlin\)/));
    await user.type(screen.getByLabelText(/^Uhrzeit \(Berlin\)/), '08:00');
    await user.selectOptions(assignee, 'u2');
    await user.type(screen.getByLabelText('Text'), 'Angebot besprechen');
    await user.click(screen.getByRole('button', { name: 'Speichern' }));
    expect(state.create).toHaveBeenCalledWith({
      customerId: 7,
      responseId: 31,
      dueAt: '2026-03-30T06:00:00.000Z',
      assignee: 'u2',
      body: 'Angebot besprechen',
    });
    expect(onClose).toHaveBeenCalled();
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
