import { HubError, postSubmission } from '../api/hub-client';

export type SubmitLeadOutcome =
  { status: 'sent' } | { status: 'failed'; message: string; retryable: boolean };

/**
 * The one way a screen hands over a lead (questionnaire, KFZ, contact). The offline outbox takes
 * this function over, so screens do not change when leads start queueing on the device.
 */
export async function submitLead(submission: { client_id: string }): Promise<SubmitLeadOutcome> {
  try {
    await postSubmission(submission);
    return { status: 'sent' };
  } catch (error) {
    if (error instanceof HubError) {
      return {
        status: 'failed',
        message:
          error.kind === 'rejected'
            ? error.message
            : `Ihre Anfrage wurde nicht gesendet. ${error.message}`,
        retryable: error.kind !== 'rejected',
      };
    }
    return {
      status: 'failed',
      message: 'Ihre Anfrage wurde nicht gesendet. Bitte versuchen Sie es erneut.',
      retryable: true,
    };
  }
}
