import { z } from 'zod';
import {
  parseSubmission,
  submissionLimits,
  type Submission,
  type SubmissionResult,
} from '../../src/domain/submission.ts';
import { HubError, validationFailed } from './errors.ts';
import type { SaveOutcome } from './responses-intake.ts';
import type { ResponsesRepository } from './responses-repository.ts';

/**
 * A route's body schema for one lead: the shared domain rules (parseSubmission), which need
 * today's date for the contact form's age check; each issue keeps the path of its field.
 */
export function submissionBody(today: () => Date) {
  return z.unknown().transform((input, ctx) => {
    const parsed = parseSubmission(input, today);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.issues) {
      ctx.addIssue({
        code: 'custom',
        message: issue.message,
        path: issue.path === '' ? [] : issue.path.split('.'),
      });
    }
    return z.NEVER;
  });
}

export interface Receipt {
  status: 'created' | 'duplicate';
  id: number;
  client_id: string;
}

/** Takes in leads: one its route has validated, or a batch's items one by one. */
export function createSubmissionIntake(options: {
  responses: ResponsesRepository;
  now: () => Date;
  /** Told after a lead was committed; never awaited, so the visitor's reply does not wait. */
  onStored?: (() => void) | undefined;
}) {
  const { responses, now, onStored } = options;

  /** Stores a valid lead; a refusal is thrown as the HubError the caller gets. */
  async function store(submission: Submission): Promise<Receipt> {
    // A bot filled the hidden field: answer as if stored, so it learns nothing, store nothing.
    if (submission.website) return { status: 'created', id: 0, client_id: submission.client_id };
    const outcome = await responses.save(submission, now());
    if (outcome.kind !== 'created' && outcome.kind !== 'duplicate') throw refusal(outcome);
    if (outcome.kind === 'created') onStored?.();
    return { status: outcome.kind, id: outcome.id, client_id: submission.client_id };
  }

  /**
   * Judges a batch's items each on its own (size, fields), then stores the valid ones together
   * in one transaction. A refused item becomes a 'rejected' result and never blocks the others;
   * results keep the items' order.
   */
  async function storeBatch(items: unknown[]): Promise<SubmissionResult[]> {
    const results: (SubmissionResult | undefined)[] = items.map(() => undefined);
    const valid: { index: number; submission: Submission }[] = [];
    items.forEach((item, index) => {
      try {
        if (Buffer.byteLength(JSON.stringify(item)) > submissionLimits.maxBodyBytes) {
          throw new HubError(413, 'payload_too_large', 'Diese Einsendung ist zu groß.');
        }
        const parsed = parseSubmission(item, now);
        if (!parsed.success) throw validationFailed(parsed.issues);
        // A bot filled the hidden field: answer as if stored, so it learns nothing, store nothing.
        if (parsed.data.website) {
          results[index] = { index, client_id: parsed.data.client_id, status: 'created', id: 0 };
        } else {
          valid.push({ index, submission: parsed.data });
        }
      } catch (error) {
        results[index] = rejected(error, index, readClientId(item));
      }
    });
    const outcomes = await responses.saveBatch(
      valid.map((v) => v.submission),
      now(),
    );
    valid.forEach(({ index, submission }, i) => {
      const outcome = outcomes[i]!;
      results[index] =
        outcome.kind === 'created' || outcome.kind === 'duplicate'
          ? { index, client_id: submission.client_id, status: outcome.kind, id: outcome.id }
          : rejected(refusal(outcome), index, submission.client_id);
    });
    if (outcomes.some((outcome) => outcome.kind === 'created')) onStored?.();
    return results.map((result) => result!);
  }

  return { store, storeBatch };
}

function rejected(error: unknown, index: number, clientId: string | null): SubmissionResult {
  if (!(error instanceof HubError)) throw error;
  return {
    index,
    client_id: clientId,
    status: 'rejected',
    error: {
      code: error.code,
      message: error.message,
      ...(error.details === undefined ? {} : { details: error.details }),
    },
  };
}

function refusal(outcome: Exclude<SaveOutcome, { id: number }>): HubError {
  switch (outcome.kind) {
    case 'conflict':
      return new HubError(
        409,
        'conflict',
        'Unter dieser client_id wurde bereits eine andere Einsendung gespeichert.',
      );
    case 'unknown-form':
      return new HubError(422, 'unknown_form', `Fragebogen ${outcome.formId} gibt es nicht.`);
    case 'unknown-questions':
      return new HubError(
        422,
        'unknown_question',
        `Fragebogen ${outcome.formId} hat keine Frage mit der Nummer ${outcome.questionIds.join(', ')}.`,
        { question_ids: outcome.questionIds },
      );
  }
}

function readClientId(item: unknown): string | null {
  if (item && typeof item === 'object' && 'client_id' in item) {
    const value = (item as { client_id: unknown }).client_id;
    if (typeof value === 'string') return value;
  }
  return null;
}
