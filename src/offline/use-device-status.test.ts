// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { cleanup, renderHook } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import type { SubmissionResult } from '../domain/submission.ts';
import { questionnaireLead } from '../testing/lead-fixtures.ts';
import { enqueue } from './outbox.ts';
import { openOfflineDb } from './outbox-db.ts';
import { syncOutbox } from './sync-engine.ts';
import { useDeviceStatus } from './use-device-status.ts';

// The header's status reads the outbox with plain IndexedDB; another sender (a tab, the service
// worker) works on its own connection, and Dexie's change notice makes the header read again.

const sender = openOfflineDb();

afterEach(async () => {
  cleanup();
  await sender.outbox.clear();
  await sender.settings.clear();
});

function hubFetch(_url: string | URL | Request, init?: RequestInit): Promise<Response> {
  const { submissions } = JSON.parse(String(init?.body)) as {
    submissions: { client_id: string }[];
  };
  const results: SubmissionResult[] = submissions.map(({ client_id }, index) => ({
    index,
    client_id,
    status: 'created',
    id: index + 1,
  }));
  return Promise.resolve(
    new Response(JSON.stringify({ results }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    }),
  );
}

it('shows what another sender delivered: how many since the outbox last ran empty, and when', async () => {
  await enqueue(sender, questionnaireLead(), 1);
  await enqueue(sender, questionnaireLead(), 2);
  const { result } = renderHook(() => useDeviceStatus());
  await vi.waitFor(() => expect(result.current.waiting).toBe(2));
  expect(result.current.lastDelivery).toBeUndefined();

  await syncOutbox({
    db: sender,
    fetch: hubFetch,
    hubUrl: 'https://hub.example/',
    now: () => 1_700_000_000_000,
    random: () => 0.5,
    mayPost: () => Promise.resolve(true),
  });

  await vi.waitFor(() =>
    expect(result.current).toMatchObject({
      waiting: 0,
      lastDelivery: { sent: 2, at: 1_700_000_000_000 },
    }),
  );
});
