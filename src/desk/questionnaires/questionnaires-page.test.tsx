// @vitest-environment jsdom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ListedForm } from '../api/forms.ts';
import { QuestionnairesPage } from './questionnaires-page.tsx';

// The list's states and the sidebar's checks, with the data layer's hooks standing in for the
// database; the German message of a failed save comes from the real module.
type Query = { data?: ListedForm[]; isPending: boolean; isError: boolean; refetch: () => void };

const state = vi.hoisted(() => ({
  list: {} as Query,
  create: (() => Promise.resolve()) as (values: unknown) => Promise<unknown>,
}));

vi.mock('../api/forms.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../api/forms.ts')>()),
  useFormList: () => state.list,
  useCreateForm: () => ({ mutateAsync: state.create }),
}));

const hausrat: ListedForm = {
  id: 7,
  title: 'Hausrat',
  description: 'Fragen zur Hausratversicherung.',
  document: null,
  image: null,
  created_at: '2026-03-04T10:00:00Z',
  responseCount: 12,
};

const loaded = (data: ListedForm[]): Query => ({
  data,
  isPending: false,
  isError: false,
  refetch: vi.fn(),
});

function renderList() {
  render(
    <MemoryRouter>
      <QuestionnairesPage />
    </MemoryRouter>,
  );
}

const describedBy = (field: HTMLElement) =>
  (field.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent)
    .join(' ');

beforeEach(() => {
  state.list = loaded([hausrat]);
  state.create = vi.fn(() => Promise.resolve({ ...hausrat, id: 8, title: 'Kfz-Check' }));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('QuestionnairesPage', () => {
  it('links Tabaluga and PKV to their own pages, with flyer and sample offer (issue 21, item 5)', () => {
    state.list = loaded([
      { ...hausrat, id: 1, title: 'Tabaluga' },
      { ...hausrat, id: 2, title: 'PKV' },
    ]);
    renderList();
    const href = (title: string) =>
      within(screen.getByRole('article', { name: title }))
        .getByRole('link', { name: /öffnet in einem neuen Fenster/ })
        .getAttribute('href');
    expect(href('Tabaluga')).toBe('/tiptoptabaluga');
    expect(href('PKV')).toBe('/pkv');
  });

  it('shows a card with date, responses, the public link and the way to the editor', () => {
    renderList();
    const card = screen.getByRole('article', { name: 'Hausrat' });
    expect(card.textContent).toContain('04.03.2026');
    expect(card.textContent).toContain('12 Antworten');
    expect(
      within(card)
        .getByRole('link', { name: /\/fragebogen\/7/ })
        .getAttribute('href'),
    ).toBe('/fragebogen/7');
    expect(
      within(card)
        .getByRole('link', { name: 'Fragebogen Hausrat bearbeiten' })
        .getAttribute('href'),
    ).toBe('/surveydesk/question/Hausrat');
  });

  it('has no image area without an image, and names the answers once (issue 36)', () => {
    state.list = loaded([
      { ...hausrat, responseCount: 397 },
      { ...hausrat, id: 8, title: 'Mit Bild', image: 'https://bilder.example.de/haus.jpg' },
    ]);
    renderList();
    const plain = screen.getByRole('article', { name: 'Hausrat' });
    expect(plain.querySelector('[style*="background-image"]')).toBeNull();
    expect(plain.querySelector('.bg-slate-700')).toBeNull();
    expect(plain.textContent?.match(/Antworten/g)).toEqual(['Antworten']);
    expect(plain.textContent).toContain('397 Antworten');
    expect(plain.textContent).toContain('Erstellt am 04.03.2026');

    const pictured = screen.getByRole('article', { name: 'Mit Bild' });
    const image = pictured.querySelector<HTMLElement>('[style*="background-image"]');
    expect(image?.style.backgroundImage).toContain('https://bilder.example.de/haus.jpg');
    expect(within(image!).getByRole('heading', { name: 'Mit Bild' })).toBeTruthy();
  });

  it('says so while loading, and offers a retry after a failure', async () => {
    state.list = { isPending: true, isError: false, refetch: vi.fn() };
    renderList();
    expect(screen.getByRole('status').textContent).toContain('wird geladen');
    cleanup();

    const refetch = vi.fn();
    state.list = { isPending: false, isError: true, refetch };
    renderList();
    expect(screen.getByRole('alert').textContent).toContain(
      'Die Fragebögen konnten nicht geladen werden.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(refetch).toHaveBeenCalledOnce();
  });

  it('explains an empty list and still offers to add one', () => {
    state.list = loaded([]);
    renderList();
    expect(screen.getByText(/Noch keine Fragebögen/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Hinzufügen' })).toBeTruthy();
  });

  it('falls back to selecting the link when there is no clipboard', async () => {
    vi.stubGlobal('navigator', { ...navigator, clipboard: undefined });
    renderList();
    const card = screen.getByRole('article', { name: 'Hausrat' });
    await userEvent.click(within(card).getByRole('button', { name: 'Link kopieren' }));
    expect(within(card).getByRole('status').textContent).toContain('Strg+C');
    expect(window.getSelection()?.toString()).toContain('/fragebogen/7');
  });
});

describe('the sidebar Fragebogen hinzufügen', () => {
  async function openSidebar() {
    renderList();
    await userEvent.click(screen.getByRole('button', { name: 'Hinzufügen' }));
    const sidebar = await screen.findByRole('dialog', { name: 'Fragebogen hinzufügen' });
    return {
      sidebar,
      title: within(sidebar).getByLabelText(/^Titel/),
      description: within(sidebar).getByLabelText('Beschreibung'),
      save: within(sidebar).getByRole('button', { name: 'Speichern' }),
    };
  }

  it('tells short input at its fields and saves nothing', async () => {
    const { title, description, save } = await openSidebar();
    await waitFor(() => expect(document.activeElement).toBe(title));
    await userEvent.type(title, 'ab');
    await userEvent.type(description, 'zu kurz');
    await userEvent.click(save);
    expect(describedBy(title)).toContain('Der Titel muss mindestens 3 Zeichen lang sein.');
    expect(title.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(description)).toContain(
      'Die Beschreibung muss mindestens 10 Zeichen lang sein.',
    );
    expect(state.create).not.toHaveBeenCalled();
  });

  it('tells a taken title at the title field and keeps the input', async () => {
    state.create = vi.fn(() => Promise.reject({ code: '23505', message: 'duplicate key' }));
    const { title, description, save } = await openSidebar();
    await userEvent.type(title, 'Tabaluga');
    await userEvent.type(description, 'Noch ein Fragebogen für Kinder.');
    await userEvent.click(save);
    expect(describedBy(title)).toContain('Diesen Titel gibt es schon.');
    expect((title as HTMLInputElement).value).toBe('Tabaluga');
    expect((description as HTMLTextAreaElement).value).toBe('Noch ein Fragebogen für Kinder.');
  });

  it('confirms a new form, empties the fields and reloads the list on closing', async () => {
    const { sidebar, title, description, save } = await openSidebar();
    await userEvent.type(title, ' Kfz-Check ');
    await userEvent.type(description, 'Fragen rund ums Auto.');
    await userEvent.click(save);
    expect(state.create).toHaveBeenCalledWith({
      title: 'Kfz-Check',
      description: 'Fragen rund ums Auto.',
    });
    expect(within(sidebar).getByRole('status').textContent).toContain('„Kfz-Check“ wurde angelegt');
    expect((title as HTMLInputElement).value).toBe('');
    await userEvent.click(within(sidebar).getByRole('button', { name: 'Schließen' }));
    expect(state.list.refetch).toHaveBeenCalled();
  });

  it('asks before Escape drops typed input (issue 21, item 8)', async () => {
    const { title } = await openSidebar();
    await userEvent.type(title, 'Hausrat plus');
    await userEvent.keyboard('{Escape}');
    const ask = screen.getByRole('alertdialog', { name: 'Änderungen verwerfen?' });
    await userEvent.click(within(ask).getByRole('button', { name: 'Weiter bearbeiten' }));
    expect((title as HTMLInputElement).value).toBe('Hausrat plus');
    await userEvent.keyboard('{Escape}');
    await userEvent.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Änderungen verwerfen' }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
