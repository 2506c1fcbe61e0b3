import { useRef, useState } from 'react';
import { submissionContentKey, type LeadChannel } from '../domain/submission.ts';
import type { OutboxSubmissionKeys } from './offline-schema.ts';
import { newClientId } from './client-id.ts';
import { leadChannel } from './device-settings.ts';
import { submitLead } from './submit-lead.ts';

export type LeadSendState =
  | { status: 'idle' }
  | { status: 'sending' }
  | { status: 'sent' }
  | { status: 'queued' }
  | { status: 'failed'; message: string };

/**
 * Sends a form's lead through the outbox. A repeat of unchanged data after a failure sends the
 * identical lead again (same client_id, same timestamps), so it is never stored twice; changed
 * data is a new lead.
 */
export function useLeadSender<T extends OutboxSubmissionKeys>() {
  const [state, setState] = useState<LeadSendState>({ status: 'idle' });
  const pending = useRef<{ key: string; submission: T & { channel: LeadChannel } }>(undefined);

  /** `onStored` runs as soon as the lead is safe in the outbox, before the hub answers. */
  async function send(
    buildLead: (clientId: string, now: Date) => T,
    options: { onStored?: () => void } = {},
  ): Promise<LeadSendState> {
    setState({ status: 'sending' });
    // Every screen's lead says where it was captured, read at sending time like the kiosk switch.
    const build = (clientId: string, now: Date) => ({
      ...buildLead(clientId, now),
      channel: leadChannel(),
    });
    const built = build(pending.current?.submission.client_id ?? newClientId(), new Date());
    const key = submissionContentKey(built);
    if (pending.current?.key !== key) {
      const submission = pending.current ? build(newClientId(), new Date()) : built;
      pending.current = { key, submission };
    }
    const outcome = await submitLead(pending.current.submission, options);
    const next: LeadSendState =
      outcome.status === 'failed' ? { status: 'failed', message: outcome.message } : outcome;
    if (next.status !== 'failed') pending.current = undefined;
    setState(next);
    return next;
  }

  /** A bot filled the honeypot: it sees the usual success, and nothing is stored or sent. */
  function pretendSent() {
    setState({ status: 'sent' });
  }

  function reset() {
    pending.current = undefined;
    setState({ status: 'idle' });
  }

  return { state, send, pretendSent, reset };
}
