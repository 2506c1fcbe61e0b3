// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeDeviceSetting } from './device-settings.ts';
import type { OutboxSubmissionKeys } from './offline-schema.ts';
import { submitLead } from './submit-lead.ts';
import { useLeadSender } from './use-lead-sender.ts';

const lockCode = vi.hoisted(() => ({ loaded: false }));
vi.mock('./kiosk-lock.ts', () => {
  lockCode.loaded = true;
  return {};
});

vi.mock('./submit-lead.ts', () => ({
  submitLead: vi.fn(() => Promise.resolve({ status: 'failed', message: 'Fehler' })),
}));

const lead = (clientId: string): OutboxSubmissionKeys => ({
  client_id: clientId,
  form_id: 1,
  source: 'contact',
});

afterEach(async () => {
  cleanup();
  await writeDeviceSetting('kiosk', false);
  vi.mocked(submitLead).mockClear();
});

async function sendTwice() {
  const { result } = renderHook(() => useLeadSender());
  await act(() => result.current.send(lead));
  await act(() => result.current.send(lead));
  return vi.mocked(submitLead).mock.calls.map(([submission]) => submission);
}

describe("the fair tablet's lock code", () => {
  // First in this file: the module registry remembers a module once any test has loaded it.
  it('is fetched when a form opens in kiosk mode, and never on an ordinary device', async () => {
    renderHook(() => useLeadSender());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(lockCode.loaded).toBe(false);
    cleanup();

    await writeDeviceSetting('kiosk', true);
    renderHook(() => useLeadSender());
    await vi.waitFor(() => expect(lockCode.loaded).toBe(true));
  });
});

describe('the channel of a lead', () => {
  it("is 'web' on an ordinary device", async () => {
    const [first] = await sendTwice();
    expect(first).toMatchObject({ channel: 'web' });
  });

  it("is 'fair_tablet' in kiosk mode, and a retry sends the identical lead", async () => {
    await writeDeviceSetting('kiosk', true);
    const [first, retry] = await sendTwice();
    expect(first).toMatchObject({ channel: 'fair_tablet' });
    expect(retry).toEqual(first);
  });
});
