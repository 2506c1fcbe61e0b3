// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Customer } from '../api/customers.ts';
import type { CustomerDataExport } from '../api/person-rights.ts';
import { CustomerPrivacyActions } from './customer-privacy-actions.tsx';

// The sidebar's data-protection actions against a stand-in for supabase-js: what the database
// functions answer goes through the real hooks, schemas and document builder.

const customer: Customer = {
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

const exported: CustomerDataExport = {
  exported_at: '2026-11-25T09:30:00Z',
  customer,
  leads: [
    {
      id: 3,
      client_id: '7b1c1d4e-0000-4000-8000-000000000001',
      source: 'questionnaire',
      form_title: 'Tabaluga',
      received_at: '2026-11-20T18:00:00Z',
      offer_info: true,
      answers: [{ question: 'Wie viele Kinder haben Sie?', answer: 'Zwei <b>' }],
      status_history: [
        { status: 'contacted', note: 'Ruft <i>morgen</i> zurück', at: '2026-11-21T08:15:00Z' },
      ],
      notification_mails: [{ state: 'sent', sent_at: '2026-11-20T18:01:00Z' }],
    },
  ],
  notes: [{ created_at: '2026-11-21T08:20:00Z', updated_at: null, note: 'Hat zwei Kinder' }],
  follow_ups: [
    {
      due_at: '2026-11-26T13:00:00Z',
      text: 'Angebot schicken',
      created_at: '2026-11-21T08:21:00Z',
      done_at: null,
    },
  ],
  retention_holds: [
    { reason: 'Vertrag <dokumentiert>', until: null, created_at: '2026-11-21T08:22:00Z' },
  ],
  consent_records: [],
  support_messages: [],
  access_log: [{ at: '2026-11-25T09:00:00Z', action: 'customer_viewed' }],
};

const fake = vi.hoisted(() => ({
  role: 'staff' as string,
  canExport: true,
  rpc: vi.fn(),
  saved: [] as { blob: Blob; name: string }[],
  log: [] as unknown[],
}));

vi.mock('../api/supabase-context.ts', () => {
  const chain = () => {
    const builder = {
      select: () => builder,
      eq: () => builder,
      order: () => builder,
      limit: () => Promise.resolve({ data: fake.log, error: null }),
    };
    return builder;
  };
  const client = { rpc: fake.rpc, from: chain };
  return { useSupabase: () => client };
});
vi.mock('../api/staff.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../api/staff.ts')>()),
  useMyRole: () => ({ data: fake.role, isPending: false }),
}));
vi.mock('../api/export-settings.ts', () => ({
  useCanExport: () => ({ data: fake.canExport, isPending: false }),
}));
vi.mock('../api/uploads.ts', () => ({
  saveBlob: (blob: Blob, name: string) => fake.saved.push({ blob, name }),
}));

const preview = {
  leads: 2,
  answers: 6,
  files: 0,
  mails_waiting: 0,
  notes: 1,
  follow_ups: 2,
  status_changes: 1,
  support_messages: 1,
  consent_records_kept: 1,
  consent_kept_until: '2031-11-25T09:30:00Z',
};

function answer(name: string) {
  if (name === 'customer_data_export') return { data: exported, error: null };
  if (name === 'customer_erasure_preview') return { data: preview, error: null };
  if (name === 'erase_customer') return { data: { leads: 2, answers: 6 }, error: null };
  return { data: null, error: { code: '42501', message: 'permission denied' } };
}

function setup() {
  const onErased = vi.fn();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <CustomerPrivacyActions customer={customer} onErased={onErased} />
    </QueryClientProvider>,
  );
  return { user: userEvent.setup(), onErased };
}

// jsdom's Blob has no text(); FileReader reads it.
function text(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsText(blob);
  });
}

beforeEach(() => {
  fake.role = 'staff';
  fake.canExport = true;
  fake.saved = [];
  fake.log = [];
  fake.rpc.mockReset();
  fake.rpc.mockImplementation((name: string) => Promise.resolve(answer(name)));
});
afterEach(cleanup);

describe('CustomerPrivacyActions', () => {
  it('downloads the export as JSON that reads back complete', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: 'JSON-Datei herunterladen' }));
    expect(await screen.findByText('Die JSON-Datei wurde heruntergeladen.')).toBeTruthy();
    expect(fake.rpc).toHaveBeenCalledWith('customer_data_export', { customer_id: 7 });
    expect(fake.saved).toHaveLength(1);
    expect(fake.saved[0]!.name).toMatch(/^kundendaten-7-\d{4}-\d{2}-\d{2}\.json$/);
    expect(JSON.parse(await text(fake.saved[0]!.blob))).toEqual(exported);
  });

  it('downloads a German, dated document with every answer, escaped', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: 'Dokument herunterladen' }));
    expect(await screen.findByText('Das Dokument wurde heruntergeladen.')).toBeTruthy();
    const html = await text(fake.saved[0]!.blob);
    expect(fake.saved[0]!.name).toMatch(/\.html$/);
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('Gespeicherte Daten zu Jürgen Meier');
    expect(html).toContain('Stand: 25.11.2026 10:30 Uhr (Berlin)');
    expect(html).toContain('Wie viele Kinder haben Sie?');
    expect(html).toContain('Zwei &lt;b&gt;');
    expect(html).toContain('<dt>Einwilligung in Angebote (§ 7a UWG)</dt><dd>Ja</dd>');
    expect(html).toContain('Kundendaten geöffnet');
    // The office's work about the person: status history (escaped), notes, follow-ups, mail.
    expect(html).toContain('<td>Kontaktiert</td><td>Ruft &lt;i&gt;morgen&lt;/i&gt; zurück</td>');
    expect(html).toContain('gesendet am 20.11.2026 19:01');
    expect(html).toContain('<h2>Notizen der Agentur</h2>');
    expect(html).toContain('<dd>Hat zwei Kinder</dd>');
    expect(html).toContain('<dt>Fällig am</dt><dd>26.11.2026 14:00</dd>');
  });

  it('says when the export failed and saves nothing', async () => {
    fake.rpc.mockResolvedValue({ data: null, error: { code: '42501', message: 'denied' } });
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: 'JSON-Datei herunterladen' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /Export konnte nicht erstellt werden/,
    );
    expect(fake.saved).toEqual([]);
  });

  it('offers no export without the export right, and says who may', () => {
    fake.canExport = false;
    setup();
    expect(screen.queryByRole('button', { name: 'JSON-Datei herunterladen' })).toBeNull();
    expect(screen.getByText(/Exportieren dürfen Admins und Mitarbeitende/)).toBeTruthy();
  });

  it('offers staff no erasure and no access log', () => {
    setup();
    expect(screen.queryByRole('button', { name: 'Kunde löschen' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Zugriffsprotokoll anzeigen' })).toBeNull();
  });

  it('lets an admin erase after a confirmation that names what goes and what is kept', async () => {
    fake.role = 'admin';
    const { user, onErased } = setup();
    await user.click(screen.getByRole('button', { name: 'Kunde löschen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Kunde löschen?' });
    expect(await within(dialog).findByText(/2 Anfragen mit 6 Antworten/)).toBeTruthy();
    expect(dialog.textContent).toMatch(/1 Einwilligungsnachweis \(§ 7a UWG\)/);
    expect(dialog.textContent).toMatch(
      /1 Notiz, 2 Wiedervorlagen und 1 Statusänderung der Agentur/,
    );
    expect(dialog.textContent).toMatch(
      /0 wartende Benachrichtigungen über neue Anfragen und 0 Dateien/,
    );
    expect(dialog.textContent).toMatch(/Nachweis der Löschung/);
    expect(fake.rpc).not.toHaveBeenCalledWith('erase_customer', expect.anything());
    await user.click(within(dialog).getByRole('button', { name: 'Endgültig löschen' }));
    await waitFor(() => expect(onErased).toHaveBeenCalledTimes(1));
    expect(fake.rpc).toHaveBeenCalledWith('erase_customer', { customer_id: 7 });
  });

  it('keeps the customer and says so when the erasure fails', async () => {
    fake.role = 'admin';
    fake.rpc.mockImplementation((name: string) =>
      Promise.resolve(
        name === 'erase_customer'
          ? { data: null, error: { code: '57014', message: 'timeout' } }
          : answer(name),
      ),
    );
    const { user, onErased } = setup();
    await user.click(screen.getByRole('button', { name: 'Kunde löschen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Kunde löschen?' });
    await within(dialog).findByText(/2 Anfragen/);
    await user.click(within(dialog).getByRole('button', { name: 'Endgültig löschen' }));
    expect((await within(dialog).findByRole('alert')).textContent).toMatch(
      /konnte nicht gelöscht werden/,
    );
    expect(onErased).not.toHaveBeenCalled();
  });

  it('shows an admin the customer’s access log in German', async () => {
    fake.role = 'admin';
    fake.log = [
      {
        id: 2,
        at: '2026-11-25T09:05:00Z',
        staff_email: 'team@example.de',
        action: 'customer_changed',
        customer_id: 7,
        detail: { columns: ['city'] },
      },
    ];
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: 'Zugriffsprotokoll anzeigen' }));
    const table = await screen.findByRole('table', {
      name: 'Zugriffe auf die Daten dieses Kunden',
    });
    expect(table.textContent).toContain('team@example.de');
    expect(table.textContent).toContain('Kundendaten geändert');
    expect(table.textContent).toContain('Felder: city');
  });
});
