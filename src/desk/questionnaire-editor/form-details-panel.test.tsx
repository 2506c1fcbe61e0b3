// @vitest-environment jsdom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, Link, RouterProvider, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DeskForm, FormChanges } from '../api/forms.ts';
import { documentFileName, FormDetailsPanel } from './form-details-panel.tsx';

// The editor's left column with the data layer's hooks standing in for the database and
// Storage; the German messages come from the real modules.
const state = vi.hoisted(() => ({
  update: (() => Promise.reject(new Error('not set'))) as (
    changes: FormChanges,
  ) => Promise<DeskForm>,
  download: (() => undefined) as (file: unknown) => void,
}));

vi.mock('../api/forms.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../api/forms.ts')>()),
  useUpdateForm: () => ({ mutateAsync: state.update }),
}));
vi.mock('../api/uploads.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../api/uploads.ts')>()),
  useDocumentDownload: () => ({ mutate: state.download, isPending: false, isError: false }),
  useFormFileUpload: () => ({
    state: { status: 'idle' },
    start: (file: File) =>
      Promise.resolve({
        name: `forms/7/00000000-0000-4000-8000-000000000000-${file.name}`,
        publicUrl: `https://desk.example/storage/v1/object/public/documents/forms/7/${file.name}`,
      }),
    abort: vi.fn(),
    reset: vi.fn(),
  }),
}));

const hausrat: DeskForm = {
  id: 7,
  title: 'Hausrat',
  description: 'Fragen zur Hausratversicherung.',
  document: null,
  image: null,
  created_at: '2026-03-04T10:00:00Z',
};

function Address() {
  return <p data-testid="adresse">{useLocation().pathname}</p>;
}

function renderPanel(form: DeskForm = hausrat) {
  // A data router, as the app has: the panel asks before leaving with unsaved input.
  const router = createMemoryRouter(
    [
      {
        path: '/surveydesk/question/:id',
        element: (
          <>
            <FormDetailsPanel form={form} />
            <Address />
            <Link to="/surveydesk/question">Zur Übersicht</Link>
          </>
        ),
      },
      { path: '/surveydesk/question', element: <p>Übersicht</p> },
    ],
    { initialEntries: ['/surveydesk/question/Hausrat'] },
  );
  render(<RouterProvider router={router} />);
  return {
    title: screen.getByLabelText(/^Titel/) as HTMLInputElement,
    description: screen.getByLabelText('Beschreibung') as HTMLTextAreaElement,
    image: screen.getByLabelText('Bild-URL') as HTMLInputElement,
    save: screen.getByRole('button', { name: 'Speichern' }),
  };
}

const describedBy = (field: HTMLElement) =>
  (field.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent)
    .join(' ');

const savedMessage = () => screen.queryByText('Daten wurden erfolgreich gespeichert!');

beforeEach(() => {
  state.update = vi.fn((changes: FormChanges) =>
    Promise.resolve({ ...hausrat, ...changes } satisfies DeskForm),
  );
  state.download = vi.fn();
});
afterEach(cleanup);

describe('FormDetailsPanel', () => {
  it('saves the details and shows the green status for 3 seconds', async () => {
    const { description, save } = renderPanel();
    await userEvent.clear(description);
    await userEvent.type(description, 'Hausrat und Fahrrad in fünf Fragen.');
    await userEvent.click(save);
    expect(state.update).toHaveBeenCalledWith({
      id: 7,
      title: 'Hausrat',
      description: 'Hausrat und Fahrrad in fünf Fragen.',
      image: null,
      document: null,
    });
    expect(savedMessage()?.getAttribute('role')).toBe('status');
    const shownAt = Date.now();
    await waitFor(() => expect(savedMessage()).toBeNull(), { timeout: 4000 });
    expect(Date.now() - shownAt).toBeGreaterThanOrEqual(2900);
  });

  it('keeps the input and says so in German when saving fails', async () => {
    state.update = vi.fn(() => Promise.reject(new TypeError('Failed to fetch')));
    const { description, save } = renderPanel();
    await userEvent.clear(description);
    await userEvent.type(description, 'Eine neue Beschreibung, die bleibt.');
    await userEvent.click(save);
    expect(screen.getByRole('alert').textContent).toContain(
      'Die Daten konnten nicht gespeichert werden.',
    );
    expect(description.value).toBe('Eine neue Beschreibung, die bleibt.');
    expect(savedMessage()).toBeNull();
  });

  it('tells a taken title at the title field', async () => {
    state.update = vi.fn(() => Promise.reject({ code: '23505' }));
    const { title, save } = renderPanel();
    await userEvent.clear(title);
    await userEvent.type(title, 'Tabaluga');
    await userEvent.click(save);
    expect(describedBy(title)).toContain('Diesen Titel gibt es schon.');
    expect(title.value).toBe('Tabaluga');
  });

  it('moves to the new address after a rename', async () => {
    const { title, save } = renderPanel();
    await userEvent.clear(title);
    await userEvent.type(title, 'Hausrat Plus');
    await userEvent.click(save);
    await waitFor(() =>
      expect(screen.getByTestId('adresse').textContent).toBe('/surveydesk/question/Hausrat%20Plus'),
    );
  });

  it('takes only an http(s) image address', async () => {
    const { image, save } = renderPanel();
    await userEvent.type(image, 'javascript:alert(1)');
    await userEvent.click(save);
    expect(describedBy(image)).toContain('mit http:// oder https:// beginnt');
    expect(state.update).not.toHaveBeenCalled();
  });

  it('puts an uploaded image into the Bild-URL field', async () => {
    const { image } = renderPanel();
    const file = new File(['png'], 'haus.png', { type: 'image/png' });
    await userEvent.upload(screen.getByLabelText('Bild hochladen'), file);
    expect(image.value).toBe(
      'https://desk.example/storage/v1/object/public/documents/forms/7/haus.png',
    );
  });

  it('saves an uploaded offer PDF with the form, and removes it on request', async () => {
    const { save } = renderPanel();
    expect(screen.queryByRole('button', { name: 'Angebot herunterladen' })).toBeNull();
    const file = new File(['%PDF'], 'Angebot.pdf', { type: 'application/pdf' });
    await userEvent.upload(screen.getByLabelText('Angebot (PDF)'), file);
    expect(screen.getByText('Angebot.pdf')).toBeTruthy();
    expect(screen.getByText(/Noch nicht gespeichert/)).toBeTruthy();
    await userEvent.click(save);
    expect(state.update).toHaveBeenLastCalledWith(
      expect.objectContaining({
        document: 'forms/7/00000000-0000-4000-8000-000000000000-Angebot.pdf',
      }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Dokument entfernen' }));
    expect(screen.getByText('Kein Dokument hinterlegt')).toBeTruthy();
    await userEvent.click(save);
    expect(state.update).toHaveBeenLastCalledWith(expect.objectContaining({ document: null }));
  });

  it("offers the saved document's download as '{title}.pdf'", async () => {
    renderPanel({ ...hausrat, document: 'forms/7/abc-Angebot.pdf' });
    await userEvent.click(screen.getByRole('button', { name: 'Angebot herunterladen' }));
    expect(state.download).toHaveBeenCalledWith({
      name: 'forms/7/abc-Angebot.pdf',
      title: 'Hausrat',
    });
  });
});

describe('documentFileName', () => {
  it('shows the file name without the folder and version', () => {
    expect(documentFileName('forms/7/0f8b2c1e-3d4a-4b5c-8d9e-0a1b2c3d4e5f-Angebot_2026.pdf')).toBe(
      'Angebot_2026.pdf',
    );
    expect(documentFileName('angebot.pdf')).toBe('angebot.pdf');
  });

  it('asks before leaving the page with unsaved input (issue 21, item 8)', async () => {
    const user = userEvent.setup();
    const { description } = renderPanel();
    await user.type(description, ' Neu.');
    await user.click(screen.getByRole('link', { name: 'Zur Übersicht' }));
    const ask = screen.getByRole('alertdialog', { name: 'Änderungen verwerfen?' });
    expect(ask.textContent).toContain('an diesem Fragebogen');
    await user.click(within(ask).getByRole('button', { name: 'Weiter bearbeiten' }));
    expect(screen.getByTestId('adresse').textContent).toBe('/surveydesk/question/Hausrat');
    expect(description.value).toBe('Fragen zur Hausratversicherung. Neu.');

    await user.click(screen.getByRole('link', { name: 'Zur Übersicht' }));
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Änderungen verwerfen' }),
    );
    expect(await screen.findByText('Übersicht')).toBeTruthy();
  });
});
