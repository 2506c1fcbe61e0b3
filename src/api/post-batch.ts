import { hubPrefix } from '../domain/routes.ts';
import { batchReplySchema, type SubmissionResult } from '../domain/submission.ts';
import { hubFailure } from './hub-failure.ts';
import { callHub, type HubConnection, type HubResult } from './hub-client.ts';

/**
 * `POST /api/responses/batch`: each submission's result by its `client_id`. A reply that does
 * not answer exactly the submissions sent is no answer from the hub (`foreign`).
 */
export async function postBatch(
  hub: HubConnection,
  submissions: readonly { client_id: string }[],
  timeoutMs: number,
): Promise<HubResult<Map<string, SubmissionResult>>> {
  const reply = await callHub(
    hub,
    { method: 'POST', path: `${hubPrefix}/responses/batch`, json: { submissions }, timeoutMs },
    batchReplySchema,
  );
  if (!reply.ok) return reply;
  const results = new Map<string, SubmissionResult>();
  const foreign = { ok: false, failure: hubFailure('foreign') } as const;
  if (reply.data.results.length !== submissions.length) return foreign;
  for (const result of reply.data.results) {
    const sent = submissions[result.index];
    if (sent === undefined || result.client_id !== sent.client_id || results.has(sent.client_id)) {
      return foreign;
    }
    results.set(sent.client_id, result);
  }
  return { ok: true, data: results };
}
