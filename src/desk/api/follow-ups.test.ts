import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { customerKeys } from './customers.ts';
import { followUpKeys, invalidateFollowUpViews } from './follow-ups.ts';
import { leadStatusKeys } from './lead-status.ts';
import { noteKeys } from './customer-notes.ts';

// What a change of a follow-up marks stale: every follow-up list and every lead's 'Verlauf'
// (lead_activity lists follow-ups made, changed, done and opened again), nothing else.
describe('invalidateFollowUpViews', () => {
  it('marks the follow-up lists and the leads’ activity stale', async () => {
    const client = new QueryClient();
    const keys = {
      counts: followUpKeys.counts(),
      customer: followUpKeys.customer(7),
      activity: leadStatusKeys.activity(7),
      otherActivity: leadStatusKeys.activity(8),
      statusHistory: leadStatusKeys.history(7),
      notes: noteKeys.list(7),
      responses: customerKeys.responses(7),
    };
    for (const key of Object.values(keys)) client.setQueryData(key, []);
    await invalidateFollowUpViews(client);
    const stale = Object.fromEntries(
      Object.entries(keys).map(([name, key]) => [name, client.getQueryState(key)?.isInvalidated]),
    );
    expect(stale).toEqual({
      counts: true,
      customer: true,
      activity: true,
      otherActivity: true,
      statusHistory: false,
      notes: false,
      responses: false,
    });
  });
});
