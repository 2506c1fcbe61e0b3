// @vitest-environment jsdom
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { QuestionRow } from '../api/questions.ts';
import { QuestionAccordion } from './question-accordion.tsx';
import { QuestionSidebar, type QuestionSidebarMode } from './question-sidebar.tsx';

// The sidebar against stand-ins for the two save calls; the messages and mapping are the real ones.
const calls = vi.hoisted(() => ({ add: vi.fn(), update: vi.fn() }));

vi.mock('../api/questions.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../api/questions.ts')>()),
  useAddQuestion: () => ({ mutateAsync: calls.add }),
  useUpdateQuestion: () => ({ mutateAsync: calls.update }),
}));

const stored: QuestionRow = {
  id: 41,
  form_id: 9,
  question: 'Welche Farbe?',
  type: 'multiple-choice',
  options: { '2': 'Blau', '1': 'Rot' },
  required: false,
  multipleAnswers: false,
  sequence: 2,
  information: 'Bitte eine Farbe wählen.',
  custome_description: null,
  key: null,
};

function Harness({ initial }: { initial: QuestionSidebarMode }) {
  const [mode, setMode] = useState<QuestionSidebarMode | null>(initial);
  return <QuestionSidebar mode={mode} onModeChange={setMode} onClose={() => setMode(null)} />;
}

function setup(initial: QuestionSidebarMode) {
  const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
  render(<Harness initial={initial} />);
  return { user, dialog: screen.getByRole('dialog') };
}

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  calls.add.mockReset();
  calls.update.mockReset();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('QuestionSidebar', () => {
  it('adds at the end as multiple choice and tells empty fields in German, without a call', async () => {
    const { user, dialog } = setup({ kind: 'add', formId: 9, nextSequence: 4 });
    expect(within(dialog).getByRole('heading', { name: 'Frage hinzufügen' })).toBeTruthy();
    expect(within(dialog).getByLabelText(/^Position/)).toHaveProperty('value', '4');
    expect(within(dialog).getByLabelText('Typ')).toHaveProperty('value', 'multiple-choice');

    await user.click(within(dialog).getByRole('button', { name: 'Hinzufügen' }));
    const question = within(dialog).getByLabelText('Frage');
    expect(question.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(question.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Bitte gib die Frage ein.',
    );
    expect(
      within(dialog).getByText('Eine Auswahlfrage braucht mindestens zwei Antworten.'),
    ).toBeTruthy();
    expect(calls.add).not.toHaveBeenCalled();
  });

  it('saves the options keyed from 1, then shows the status for 3 s in edit mode', async () => {
    calls.add.mockImplementation((change: object) =>
      Promise.resolve({ ...stored, ...change, id: 77 }),
    );
    const { user, dialog } = setup({ kind: 'add', formId: 9, nextSequence: 1 });
    await user.type(within(dialog).getByLabelText('Frage'), 'Welche Farbe?');
    await user.type(within(dialog).getByLabelText('Antwort 1'), 'Rot');
    await user.type(within(dialog).getByLabelText('Antwort 2'), 'Blau');
    await user.click(within(dialog).getByRole('button', { name: 'Antwort hinzufügen' }));
    await user.type(within(dialog).getByLabelText('Antwort 3'), 'Grün');
    await user.type(within(dialog).getByLabelText('Information (freiwillig)'), 'Eine Farbe.');
    await user.click(within(dialog).getByRole('button', { name: 'Hinzufügen' }));

    expect(calls.add).toHaveBeenCalledWith({
      form_id: 9,
      sequence: 1,
      question: 'Welche Farbe?',
      type: 'multiple-choice',
      options: { '1': 'Rot', '2': 'Blau', '3': 'Grün' },
      multipleAnswers: false,
      information: 'Eine Farbe.',
      custome_description: null,
    });
    const status = screen.getByRole('status');
    expect(status.textContent).toBe('Daten wurden erfolgreich gespeichert!');
    expect(screen.getByRole('heading', { name: 'Frage bearbeiten' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Speichern' })).toBeTruthy();

    // Lets React run the effect that starts the timer (its scheduler runs on the faked timers too).
    await act(() => vi.advanceTimersByTimeAsync(0));
    act(() => vi.advanceTimersByTime(2900));
    expect(status.textContent).toBe('Daten wurden erfolgreich gespeichert!');
    act(() => vi.advanceTimersByTime(200));
    expect(status.textContent).toBe('');
  });

  it('keeps the input after a failed save and shows the catalogue message', async () => {
    calls.update.mockRejectedValue({
      code: '42501',
      message: 'permission denied for table questions',
    });
    const { user, dialog } = setup({ kind: 'edit', question: stored });
    expect(within(dialog).getByLabelText('Antwort 1')).toHaveProperty('value', 'Rot');
    const text = within(dialog).getByLabelText('Frage');
    await user.clear(text);
    await user.type(text, 'Welche Lieblingsfarbe?');
    await user.click(within(dialog).getByRole('button', { name: 'Speichern' }));

    expect(within(dialog).getByRole('alert').textContent).toBe('Fehler beim Speichern der Daten!');
    expect(dialog.textContent).not.toContain('permission');
    expect(text).toHaveProperty('value', 'Welche Lieblingsfarbe?');
    expect(calls.update).toHaveBeenCalledWith(expect.objectContaining({ id: 41 }));
  });

  it('removes an option, and hides the remove buttons for an input question', async () => {
    const { user, dialog } = setup({
      kind: 'edit',
      question: { ...stored, options: ['Rot', 'Blau', 'Grün'] },
    });
    await user.click(within(dialog).getByRole('button', { name: 'Entfernen (Antwort 1)' }));
    expect(within(dialog).getByLabelText('Antwort 1')).toHaveProperty('value', 'Blau');
    expect(within(dialog).getAllByRole('button', { name: /^Entfernen/ })).toHaveLength(2);
    await user.selectOptions(within(dialog).getByLabelText('Typ'), 'input');
    expect(within(dialog).queryAllByRole('button', { name: /^Entfernen/ })).toHaveLength(0);
  });
});

describe('the sidebar’s labels (issue 36)', () => {
  it('names the types in German, marks the optional fields and saves without information', async () => {
    calls.add.mockImplementation((change: object) =>
      Promise.resolve({ ...stored, ...change, id: 78 }),
    );
    const { user, dialog } = setup({ kind: 'add', formId: 9, nextSequence: 1 });
    const types = [...within(dialog).getByLabelText('Typ').querySelectorAll('option')];
    expect(types.map((option) => option.textContent)).toEqual([
      'Auswahl aus vorgegebenen Antworten',
      'Freitext (Eingabefeld)',
    ]);
    expect(dialog.textContent).not.toMatch(/Multiple-Choice|Input/);
    expect(within(dialog).getByLabelText('Antwort 1').getAttribute('placeholder')).toBe(
      'Antworttext, z. B. „Ja“',
    );
    expect(dialog.querySelector('[placeholder="Wert"]')).toBeNull();
    const information = within(dialog).getByLabelText('Information (freiwillig)');
    expect(information.getAttribute('aria-required')).toBeNull();
    expect(within(dialog).getByLabelText('Anmerkung (freiwillig)')).toBeTruthy();

    await user.type(within(dialog).getByLabelText('Frage'), 'Welche Farbe?');
    await user.type(within(dialog).getByLabelText('Antwort 1'), 'Rot');
    await user.type(within(dialog).getByLabelText('Antwort 2'), 'Blau');
    await user.click(within(dialog).getByRole('button', { name: 'Hinzufügen' }));
    expect(calls.add).toHaveBeenCalledWith(expect.objectContaining({ information: null }));

    await user.selectOptions(within(dialog).getByLabelText('Typ'), 'input');
    expect(within(dialog).getByLabelText('Antwort 1').getAttribute('placeholder')).toBe(
      'Platzhalter, z. B. „TT.MM.JJJJ“',
    );
  });
});

describe('typed input in the question sidebar (issue 21, item 8)', () => {
  it('asks before Escape or Schließen drop it, and closes at once when nothing was typed', async () => {
    const { user, dialog } = setup({ kind: 'edit', question: stored });
    await user.type(within(dialog).getByLabelText('Frage'), ' Und welche noch?');
    await user.keyboard('{Escape}');
    const ask = screen.getByRole('alertdialog', { name: 'Änderungen verwerfen?' });
    expect(ask.textContent).toContain('Du hast Änderungen an dieser Frage noch nicht gespeichert.');
    await user.click(within(ask).getByRole('button', { name: 'Weiter bearbeiten' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(within(dialog).getByLabelText('Frage')).toHaveProperty(
      'value',
      'Welche Farbe? Und welche noch?',
    );

    await user.click(within(dialog).getByRole('button', { name: 'Schließen' }));
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Änderungen verwerfen' }),
    );
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('closes without asking once the input is saved', async () => {
    calls.update.mockImplementation((call: { change: object }) =>
      Promise.resolve({ ...stored, ...call.change }),
    );
    const { user, dialog } = setup({ kind: 'edit', question: stored });
    await user.type(within(dialog).getByLabelText('Frage'), '!');
    await user.click(within(dialog).getByRole('button', { name: 'Speichern' }));
    await within(dialog).findByText('Daten wurden erfolgreich gespeichert!');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('QuestionAccordion', () => {
  const actions = { onEdit: vi.fn(), onDelete: vi.fn(), onMove: vi.fn() };

  it('numbers the question by its place and offers no delete for a keyed one', async () => {
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    render(
      <ol>
        <QuestionAccordion
          question={{ ...stored, key: 'tabaluga_child_dates' }}
          position={1}
          first
          last={false}
          {...actions}
        />
      </ol>,
    );
    await user.click(screen.getByRole('button', { name: '1. Welche Farbe?' }));
    expect(screen.getByRole('button', { name: 'Nach oben (Frage 1)' })).toHaveProperty(
      'disabled',
      true,
    );
    await user.click(screen.getByRole('button', { name: 'Nach unten (Frage 1)' }));
    expect(actions.onMove).toHaveBeenCalledWith(expect.objectContaining({ id: 41 }), 1);
    expect(screen.queryByRole('button', { name: /^Löschen/ })).toBeNull();
    expect(screen.getByText(/kann deshalb nicht gelöscht werden/)).toBeTruthy();
    expect(screen.getAllByRole('radio')).toHaveLength(2);
  });
});
