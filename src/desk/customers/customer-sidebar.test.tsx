// @vitest-environment jsdom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Customer } from '../../api/desk-customers.ts';
import { CustomerSidebar } from './customer-sidebar.tsx';
import { emailTakenMessage } from './customer-form.ts';

// The sidebar against a stand-in for the load and save calls; rules and messages are the real ones.
const stored: Customer = {
  id: 7,
  first_name: 'Jürgen',
  last_name: 'Meier',
  email: 'juergen@example.de',
  phone: '+49 30 1234567',
  adress: 'Hauptstraße 1',
  postcode: '10115',
  city: 'Berlin',
  created_at: '2026-11-01T10:00:00Z',
  updated_at: '2026-11-01T10:00:00Z',
};

const calls = vi.hoisted(() => ({ update: vi.fn() }));

vi.mock('../../api/desk-customers.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../api/desk-customers.ts')>()),
  useCustomer: () => ({ data: stored, isPending: false, isError: false, refetch: vi.fn() }),
  useUpdateCustomer: () => ({ mutateAsync: calls.update }),
}));

function Harness({ onClosed }: { onClosed: () => void }) {
  const [id, setId] = useState<number | null>(stored.id);
  return (
    <CustomerSidebar
      customerId={id}
      onClose={() => {
        setId(null);
        onClosed();
      }}
    />
  );
}

function setup() {
  const onClosed = vi.fn();
  render(
    <MemoryRouter>
      <Harness onClosed={onClosed} />
    </MemoryRouter>,
  );
  const dialog = screen.getByRole('dialog', { name: 'Kunden Details' });
  return { user: userEvent.setup(), dialog, onClosed };
}

const describedBy = (field: HTMLElement) =>
  document.getElementById(field.getAttribute('aria-describedby') ?? '')?.textContent;

beforeEach(() => {
  calls.update.mockReset();
});
afterEach(cleanup);

describe('CustomerSidebar', () => {
  it('shows the stored customer with the creation time read-only', () => {
    const { dialog } = setup();
    expect(within(dialog).getByLabelText('Ort')).toHaveProperty('value', 'Berlin');
    const created = within(dialog).getByLabelText('Angelegt am');
    expect(created).toHaveProperty('disabled', true);
    expect((created as HTMLInputElement).value).toMatch(/2026/);
  });

  it('tells a broken rule at its field and sends nothing', async () => {
    const { user, dialog } = setup();
    const postcode = within(dialog).getByLabelText('PLZ');
    await user.clear(postcode);
    await user.type(postcode, '123');
    await user.click(within(dialog).getByRole('button', { name: 'Speichern' }));
    expect(postcode.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(postcode)).toBe('Bitte eine gültige PLZ mit 5 Ziffern eingeben.');
    expect(calls.update).not.toHaveBeenCalled();
  });

  it('saves the changed fields and confirms with the stored row', async () => {
    calls.update.mockImplementation(({ fields }: { fields: Partial<Customer> }) =>
      Promise.resolve({ ...stored, ...fields }),
    );
    const { user, dialog } = setup();
    const city = within(dialog).getByLabelText('Ort');
    await user.clear(city);
    await user.type(city, 'Potsdam');
    await user.clear(within(dialog).getByLabelText('Telefonnummer'));
    await user.click(within(dialog).getByRole('button', { name: 'Speichern' }));
    expect(await within(dialog).findByRole('status')).toHaveProperty(
      'textContent',
      'Daten wurden erfolgreich gespeichert!',
    );
    expect(calls.update).toHaveBeenCalledWith({
      id: 7,
      fields: expect.objectContaining({ city: 'Potsdam', phone: null }) as unknown,
    });
  });

  it('keeps the input when the e-mail belongs to another customer', async () => {
    calls.update.mockRejectedValue({ code: '23505', message: 'duplicate key value' });
    const { user, dialog } = setup();
    const email = within(dialog).getByLabelText(/^E-Mail/);
    await user.clear(email);
    await user.type(email, 'vergeben@example.de');
    await user.click(within(dialog).getByRole('button', { name: 'Speichern' }));
    expect(await within(dialog).findByRole('alert')).toHaveProperty(
      'textContent',
      emailTakenMessage,
    );
    expect(email).toHaveProperty('value', 'vergeben@example.de');
    expect(describedBy(email)).toBe(emailTakenMessage);
  });

  it('closes at once without changes', async () => {
    const { user, dialog, onClosed } = setup();
    await user.click(within(dialog).getByRole('button', { name: 'Schließen' }));
    expect(onClosed).toHaveBeenCalledOnce();
  });

  it('asks before discarding unsaved changes', async () => {
    const { user, dialog, onClosed } = setup();
    await user.type(within(dialog).getByLabelText('Ort'), 'er');
    await user.click(within(dialog).getByRole('button', { name: 'Schließen' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Änderungen verwerfen?' });
    // The safe choice has the focus: Enter or Escape never throws the changes away.
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Weiter bearbeiten'));
    await user.click(within(confirm).getByRole('button', { name: 'Weiter bearbeiten' }));
    expect(onClosed).not.toHaveBeenCalled();
    expect(within(dialog).getByLabelText('Ort')).toHaveProperty('value', 'Berliner');

    await user.click(within(dialog).getByRole('button', { name: 'Schließen' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', {
        name: 'Änderungen verwerfen',
      }),
    );
    expect(onClosed).toHaveBeenCalledOnce();
  });
});
