// @vitest-environment jsdom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LeadContactRecord } from '../api/customer-newest-lead.ts';
import type { Customer } from '../api/customers.ts';
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

const calls = vi.hoisted(() => ({
  update: vi.fn(),
  newestLead: null as LeadContactRecord | null,
}));

vi.mock('../api/customers.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../api/customers.ts')>()),
  useCustomer: () => ({ data: stored, isPending: false, isError: false, refetch: vi.fn() }),
  useUpdateCustomer: () => ({ mutateAsync: calls.update }),
}));

vi.mock('../api/customer-newest-lead.ts', () => ({
  useCustomerNewestLead: () => ({ data: calls.newestLead, isPending: false, isError: false }),
}));

// The data-protection actions have their own test (customer-privacy-actions.test.tsx); here a
// stand-in reports an erasure.
vi.mock('./customer-privacy-actions.tsx', () => ({
  CustomerPrivacyActions: (props: { onErased: () => void }) => (
    <button type="button" onClick={props.onErased}>
      Löschung melden
    </button>
  ),
}));

// Follow-ups and notes have their own tests (customer-follow-ups.test.tsx, customer-notes.test.tsx).
vi.mock('../shared/customer-follow-ups.tsx', () => ({ CustomerFollowUps: () => null }));
vi.mock('../shared/customer-notes.tsx', () => ({ CustomerNotes: () => null }));

/** A lead as typed, the same details as the stored customer unless overridden. */
const lead = (overrides: Partial<LeadContactRecord>): LeadContactRecord => ({
  id: 40,
  captured_at: '2026-11-20T15:30:00Z',
  received_at: '2026-11-20T18:00:00Z',
  first_name: stored.first_name,
  last_name: stored.last_name,
  email: stored.email,
  phone: stored.phone,
  adress: stored.adress,
  postcode: stored.postcode,
  city: stored.city,
  ...overrides,
});

function Harness({ onClosed, onErased }: { onClosed: () => void; onErased: () => void }) {
  const [id, setId] = useState<number | null>(stored.id);
  return (
    <CustomerSidebar
      customerId={id}
      onClose={() => {
        setId(null);
        onClosed();
      }}
      onErased={() => {
        setId(null);
        onErased();
      }}
    />
  );
}

function setup() {
  const onClosed = vi.fn();
  const onErased = vi.fn();
  render(
    <MemoryRouter>
      <Harness onClosed={onClosed} onErased={onErased} />
    </MemoryRouter>,
  );
  const dialog = screen.getByRole('dialog', { name: 'Kunden Details' });
  return { user: userEvent.setup(), dialog, onClosed, onErased };
}

const describedBy = (field: HTMLElement) =>
  document.getElementById(field.getAttribute('aria-describedby') ?? '')?.textContent;

beforeEach(() => {
  calls.update.mockReset();
  calls.newestLead = null;
});
afterEach(cleanup);

describe('CustomerSidebar', () => {
  it('closes after an erasure without asking about unsaved input', async () => {
    const { user, dialog, onClosed, onErased } = setup();
    await user.type(within(dialog).getByLabelText('Ort'), 'x');
    await user.click(within(dialog).getByRole('button', { name: 'Löschung melden' }));
    expect(onErased).toHaveBeenCalledTimes(1);
    expect(onClosed).not.toHaveBeenCalled();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('shows the stored customer with the creation time read-only', () => {
    const { dialog } = setup();
    expect(within(dialog).getByLabelText('Ort')).toHaveProperty('value', 'Berlin');
    const created = within(dialog).getByLabelText('Angelegt am');
    expect(created).toHaveProperty('disabled', true);
    expect((created as HTMLInputElement).value).toMatch(/2026/);
  });

  it('links the stored phone number and e-mail address to call and write', () => {
    const { dialog } = setup();
    const contact = within(within(dialog).getByRole('list', { name: 'Kontakt' }));
    expect(contact.getByRole('link', { name: /^Anrufen/ }).getAttribute('href')).toBe(
      'tel:+49301234567',
    );
    expect(contact.getByRole('link', { name: /^E-Mail schreiben/ }).getAttribute('href')).toBe(
      'mailto:juergen@example.de',
    );
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

  it('says where the newest lead differs and takes its details into the form on one click', async () => {
    calls.newestLead = lead({ first_name: 'Mallory', phone: '0171 999999', city: null });
    calls.update.mockImplementation(({ fields }: { fields: Partial<Customer> }) =>
      Promise.resolve({ ...stored, ...fields }),
    );
    const { user, dialog } = setup();
    // 15:30 UTC is 16:30 in Berlin.
    const notice = within(dialog).getByRole('region', {
      name: 'Neue Angaben aus der Anfrage vom 20.11.2026 16:30',
    });
    const items = within(notice)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    // A field the lead left empty (city) is no change.
    expect(items).toEqual([
      'Vorname: Jürgen →  wird zu Mallory',
      'Telefonnummer: +49 30 1234567 →  wird zu 0171 999999',
    ]);
    expect(within(dialog).getByLabelText(/^Vorname/)).toHaveProperty('value', 'Jürgen');

    await user.click(within(notice).getByRole('button', { name: 'Angaben übernehmen' }));
    expect(within(dialog).getByLabelText(/^Vorname/)).toHaveProperty('value', 'Mallory');
    expect(within(dialog).getByLabelText('Telefonnummer')).toHaveProperty('value', '0171 999999');
    expect(within(dialog).getByLabelText('Ort')).toHaveProperty('value', 'Berlin');
    // Nothing is stored yet: staff look and save; the keyboard is at the first field taken over.
    expect(calls.update).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(within(dialog).getByLabelText(/^Vorname/));
    expect(within(notice).getByRole('status').textContent).toBe(
      'Übernommen. Prüfe die Angaben und speichere sie.',
    );

    await user.click(within(dialog).getByRole('button', { name: 'Speichern' }));
    expect(calls.update).toHaveBeenCalledWith({
      id: 7,
      fields: expect.objectContaining({
        first_name: 'Mallory',
        phone: '0171 999999',
        city: 'Berlin',
      }) as unknown,
    });
  });

  it('shows no notice when the newest lead says what the customer record says', () => {
    calls.newestLead = lead({ email: 'JUERGEN@example.de', adress: null });
    const { dialog } = setup();
    expect(within(dialog).queryByText(/Neue Angaben/)).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Angaben übernehmen' })).toBeNull();
  });
});
