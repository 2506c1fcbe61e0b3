import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { HubRateLimit } from '../config.ts';
import { z } from 'zod';
import {
  batchRequestSchema,
  submissionLimits,
  type SubmissionResult,
} from '../../src/domain/submission.ts';
import { clientKey } from '../http/client-key.ts';
import type { HubAuth } from './auth.ts';
import { HubError } from './errors.ts';
import { idParams } from './params.ts';
import type { ResponsesRepository } from './responses-repository.ts';
import { createSubmissionIntake, submissionBody } from './submissions.ts';

export interface ResponseRouteOptions {
  responses: ResponsesRepository;
  auth: HubAuth;
  now: () => Date;
  rateLimit: HubRateLimit;
  onLeadsStored?: (() => void) | undefined;
}

// A batch carries up to 50 leads of at most 64 KB each; real leads are 1-2 KB, so 1 MiB
// leaves room without letting one request tie up the server.
const BATCH_BODY_LIMIT = 1024 * 1024;

/** Reads of leads per client and minute when RATE_LIMIT_LEAD_READS_PER_MINUTE is unset. */
export const defaultLeadReadsPerMinute = 60;

const listQuery = z.object({
  form_id: z.coerce.number().int().positive().optional(),
  since: z.iso.datetime({ offset: true }).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export const responseRoutes: FastifyPluginAsyncZod<ResponseRouteOptions> = async (
  hub,
  { responses, auth, now, rateLimit, onLeadsStored },
) => {
  const intake = createSubmissionIntake({ responses, now, onStored: onLeadsStored });

  hub.post(
    '/responses',
    {
      schema: { body: submissionBody(now) },
      bodyLimit: submissionLimits.maxBodyBytes,
      config: { rateLimit: { max: rateLimit.submissionsPerMinute, timeWindow: 60_000 } },
    },
    async (request, reply) => {
      const receipt = await intake.store(request.body);
      return reply.code(receipt.status === 'created' ? 201 : 200).send(receipt);
    },
  );

  hub.post(
    '/responses/batch',
    {
      // Only the envelope here: each item is judged on its own, so one bad lead never
      // refuses the others.
      schema: { body: batchRequestSchema },
      bodyLimit: BATCH_BODY_LIMIT,
      config: { rateLimit: { max: rateLimit.batchesPerMinute, timeWindow: 60_000 } },
    },
    async (request) => {
      // One transaction for the batch (one statement when every lead is new, else a savepoint
      // per lead): one rejected lead never blocks or undoes the others.
      const results: SubmissionResult[] = await intake.storeBatch(request.body.submissions);
      return { results };
    },
  );

  // Reading is for integrations and for staff who may export (the desk's export right: admins
  // always, staff while an admin allows it). Reads of leads share one budget per client and
  // minute, counted before the token is even checked. The check runs on request, before
  // validation: a caller without access learns nothing about the addresses, not even that an id
  // is malformed. What a staff account reads here is logged ('answers_viewed'), as in the desk.
  const readLimit = hub.rateLimit({
    max: rateLimit.leadReadsPerMinute ?? defaultLeadReadsPerMinute,
    timeWindow: 60_000,
    keyGenerator: (request) => `lead-reads ${clientKey(request)}`,
  });
  hub.get(
    '/responses/:id',
    { onRequest: [readLimit, auth.requireReader], schema: { params: idParams } },
    async (request) => {
      const { id } = request.params;
      const response = await responses.find(id, auth.staffReader(request));
      if (!response) throw new HubError(404, 'not_found', `Einsendung ${id} gibt es nicht.`);
      return response;
    },
  );

  hub.get(
    '/responses',
    { onRequest: [readLimit, auth.requireReader], schema: { querystring: listQuery } },
    async (request) => {
      const { form_id, since, limit } = request.query;
      return responses.list({ formId: form_id, since, limit }, auth.staffReader(request));
    },
  );
};
