// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { QuestionRow } from '../api/questions.ts';
import { QuestionsPanel } from './question-panel.tsx';

// The panel's states and its delete and move calls, with the data hooks standing in for the
// database; the German messages and their mapping from error codes are the real ones.
const state = vi.hoisted(() => ({
  questions: {} as Record<string, unknown>,
  remove: { mutate: vi.fn(), reset: vi.fn(), isPending: false, error: null as unknown },
  move: { mutate: vi.fn(), isPending: false, error: null as unknown },
  refresh: vi.fn(),
}));

vi.mock('../api/questions.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../api/questions.ts')>()),
  useFormQuestions: () => state.questions,
  useDeleteQuestion: () => state.remove,
  useMoveQuestion: () => state.move,
  useRefreshQuestions: () => state.refresh,
  useAddQuestion: () => ({ mutateAsync: vi.fn() }),
  useUpdateQuestion: () => ({ mutateAsync: vi.fn() }),
}));

const row = (id: number, sequence: number, question: string, key: string | null = null) =>
  ({
    id,
    form_id: 5,
    question,
    type: 'multiple-choice',
    options: { '1': 'Ja', '2': 'Nein' },
    required: false,
    multipleAnswers: false,
    sequence,
    information: 'Hinweis',
    custome_description: null,
    key,
  }) satisfies QuestionRow;

const loaded = (data: QuestionRow[]) => ({
  data,
  isPending: false,
  isError: false,
  isSuccess: true,
  refetch: vi.fn(),
});

function renderPanel() {
  const client = new QueryClient();
  const panel = () => (
    <QueryClientProvider client={client}>
      <QuestionsPanel form={{ id: 5, title: 'Test' }} />
    </QueryClientProvider>
  );
  const { rerender } = render(panel());
  return { rerender: () => rerender(panel()) };
}

beforeEach(() => {
  state.questions = loaded([row(8, 1, 'Erste Frage'), row(3, 2, 'Zweite Frage')]);
  state.remove = { mutate: vi.fn(), reset: vi.fn(), isPending: false, error: null };
  state.move = { mutate: vi.fn(), isPending: false, error: null };
  state.refresh = vi.fn();
});
afterEach(cleanup);

describe('QuestionsPanel', () => {
  it('says the questions are loading and offers no add yet', () => {
    state.questions = { isPending: true, isError: false, isSuccess: false, refetch: vi.fn() };
    renderPanel();
    expect(screen.getByRole('status').textContent).toBe('Fragen werden geladen …');
    expect(screen.getByRole('button', { name: 'Frage hinzufügen' })).toHaveProperty(
      'disabled',
      true,
    );
  });

  it('shows a German error with a retry that reads again', async () => {
    const refetch = vi.fn();
    state.questions = { isPending: false, isError: true, isSuccess: false, refetch };
    renderPanel();
    expect(screen.getByRole('alert').textContent).toContain(
      'Die Fragen konnten nicht geladen werden.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(refetch).toHaveBeenCalledOnce();
  });

  it('explains an empty questionnaire', () => {
    state.questions = loaded([]);
    renderPanel();
    expect(screen.getByText('Dieser Fragebogen hat noch keine Fragen.')).toBeTruthy();
  });

  it('lists the questions in the order given, numbered by id', () => {
    renderPanel();
    const titles = screen
      .getAllByRole('heading', { level: 3 })
      .map((heading) => heading.textContent?.replace('▾', '').trim());
    // Numbered by place (1..n), not by id (8 and 3).
    expect(titles).toEqual(['1. Erste Frage', '2. Zweite Frage']);
  });

  it('opens the add sidebar at the next position and reads the list again on closing', async () => {
    renderPanel();
    await userEvent.click(screen.getByRole('button', { name: 'Frage hinzufügen' }));
    const dialog = screen.getByRole('dialog', { name: 'Frage hinzufügen' });
    expect(within(dialog).getByLabelText(/^Position/)).toHaveProperty('value', '3');
    expect(state.refresh).not.toHaveBeenCalled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Schließen' }));
    expect(state.refresh).toHaveBeenCalledWith(5);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('deletes only after the confirmation', async () => {
    renderPanel();
    await userEvent.click(screen.getByRole('button', { name: '2. Zweite Frage' }));
    await userEvent.click(screen.getByRole('button', { name: 'Löschen (Frage 2)' }));
    const dialog = screen.getByRole('dialog', { name: 'Frage löschen?' });
    expect(dialog.textContent).toContain('bleiben mit dem Fragetext lesbar');
    expect(state.remove.mutate).not.toHaveBeenCalled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Löschen' }));
    expect(state.remove.mutate).toHaveBeenCalledWith(
      expect.objectContaining({ id: 3 }),
      expect.anything(),
    );
  });

  it('explains in German why a Tabaluga question cannot be deleted', async () => {
    state.remove.error = { code: 'UQ001', message: 'question tabaluga_child_dates is keyed' };
    renderPanel();
    await userEvent.click(screen.getByRole('button', { name: '2. Zweite Frage' }));
    await userEvent.click(screen.getByRole('button', { name: 'Löschen (Frage 2)' }));
    const alert = within(screen.getByRole('dialog')).getByRole('alert');
    expect(alert.textContent).toContain('steuert den Ablauf des Tabaluga-Fragebogens');
    expect(alert.textContent).not.toContain('keyed');
  });

  it('moves by one step and tells a failed move in German', async () => {
    state.move.error = { code: '42501', message: 'permission denied for function move_question' };
    renderPanel();
    expect(screen.getByRole('alert').textContent).toBe(
      'Die Frage konnte nicht verschoben werden. Bitte versuche es erneut.',
    );
    await userEvent.click(screen.getByRole('button', { name: '2. Zweite Frage' }));
    await userEvent.click(screen.getByRole('button', { name: 'Nach oben (Frage 2)' }));
    expect(state.move.mutate).toHaveBeenCalledWith({
      question: expect.objectContaining({ id: 3 }),
      steps: -1,
    });
    expect(screen.getByRole('button', { name: 'Nach unten (Frage 2)' })).toHaveProperty(
      'disabled',
      true,
    );
  });

  it('gives the focus back to the moved question once the new order shows', async () => {
    const { rerender } = renderPanel();
    await userEvent.click(screen.getByRole('button', { name: '2. Zweite Frage' }));
    await userEvent.click(screen.getByRole('button', { name: 'Nach oben (Frage 2)' }));
    state.questions = loaded([row(3, 1, 'Zweite Frage'), row(8, 2, 'Erste Frage')]);
    rerender();
    // At the top there is no 'up' any more: the focus goes to 'down', now of question 1.
    expect(document.activeElement).toBe(
      screen.getByRole('button', { name: 'Nach unten (Frage 1)' }),
    );
  });
});
