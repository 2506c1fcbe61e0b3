import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  batchRequestSchema,
  parseSubmission,
  submissionLimits,
  type SubmissionResult,
} from '../../src/domain/submission.ts';
import type { Database } from '../db/database.ts';
import { HttpError } from '../http/errors.ts';
import type { HubAuth } from './auth.ts';
import { findResponse, listResponses, saveSubmission } from './responses-repository.ts';
import { parseOrThrow } from './validation.ts';

export interface ResponseRouteOptions {
  db: Database;
  auth: HubAuth;
  now: () => Date;
  rateLimit: { submissionsPerMinute: number; batchesPerMinute: number };
}

// A batch carries up to 50 leads of at most 64 KB each; real leads are 1-2 KB, so 1 MiB
// leaves room without letting one request tie up the server.
const BATCH_BODY_LIMIT = 1024 * 1024;

const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const listQuery = z.object({
  form_id: z.coerce.number().int().positive().optional(),
  since: z.iso.datetime({ offset: true }).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export function registerResponseRoutes(app: FastifyInstance, options: ResponseRouteOptions): void {
  const { db, auth, now } = options;

  async function store(body: unknown) {
    const parsed = parseSubmission(body, now);
    if (!parsed.success) {
      throw new HttpError(
        400,
        'validation_failed',
        'Die Angaben sind unvollständig oder ungültig.',
        parsed.issues,
      );
    }
    // A bot filled the hidden field: answer as if stored, so it learns nothing, store nothing.
    if (parsed.data.website) {
      return { status: 'created' as const, id: 0, client_id: parsed.data.client_id };
    }
    const outcome = await saveSubmission(db, parsed.data, now());
    return { ...outcome, client_id: parsed.data.client_id };
  }

  app.post(
    '/api/responses',
    {
      bodyLimit: submissionLimits.maxBodyBytes,
      config: { rateLimit: { max: options.rateLimit.submissionsPerMinute, timeWindow: 60_000 } },
    },
    async (request, reply) => {
      const result = await store(request.body);
      return reply.code(result.status === 'created' ? 201 : 200).send(result);
    },
  );

  app.post(
    '/api/responses/batch',
    {
      bodyLimit: BATCH_BODY_LIMIT,
      config: { rateLimit: { max: options.rateLimit.batchesPerMinute, timeWindow: 60_000 } },
    },
    async (request) => {
      const { submissions } = parseOrThrow(batchRequestSchema, request.body);
      const results: SubmissionResult[] = [];
      // One after another: each lead is its own transaction, so one rejected lead never
      // blocks or undoes the others.
      for (const [index, item] of submissions.entries()) {
        const clientId = readClientId(item);
        try {
          if (Buffer.byteLength(JSON.stringify(item)) > submissionLimits.maxBodyBytes) {
            throw new HttpError(413, 'payload_too_large', 'Diese Einsendung ist zu groß.');
          }
          const saved = await store(item);
          results.push({ index, client_id: saved.client_id, status: saved.status, id: saved.id });
        } catch (error) {
          if (!(error instanceof HttpError)) throw error;
          results.push({
            index,
            client_id: clientId,
            status: 'rejected',
            error: {
              code: error.code,
              message: error.message,
              ...(error.details === undefined ? {} : { details: error.details }),
            },
          });
        }
      }
      return { results };
    },
  );

  app.get('/api/responses/:id', async (request) => {
    await auth.requireReader(request);
    const { id } = parseOrThrow(idParams, request.params);
    const response = await findResponse(db, id);
    if (!response) throw new HttpError(404, 'not_found', `Einsendung ${id} gibt es nicht.`);
    return response;
  });

  app.get('/api/responses', async (request) => {
    await auth.requireReader(request);
    const query = parseOrThrow(listQuery, request.query);
    return listResponses(db, { formId: query.form_id, since: query.since, limit: query.limit });
  });
}

function readClientId(item: unknown): string | null {
  if (item && typeof item === 'object' && 'client_id' in item) {
    const value = (item as { client_id: unknown }).client_id;
    if (typeof value === 'string') return value;
  }
  return null;
}
