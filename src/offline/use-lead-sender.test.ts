// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeDeviceSetting } from './device-settings.ts';
import type { OutboxSubmissionKeys } from './offline-schema.ts';
import { submitLead } from './submit-lead.ts';
import { useLeadSender } from './use-lead-sender.ts';

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
