import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { HubAuth } from './auth.ts';
import { parseOrThrow } from './validation.ts';

const loginBody = z.object({
  email: z.string().min(1).max(320),
  password: z.string().min(1).max(1024),
});

export function registerLoginRoutes(app: FastifyInstance, auth: HubAuth): void {
  app.post(
    '/api/hub/login',
    // Few tries per address and minute: the service password must not be guessable by volume.
    { bodyLimit: 4096, config: { rateLimit: { max: 10, timeWindow: 60_000 } } },
    async (request) => {
      const { email, password } = parseOrThrow(loginBody, request.body);
      return auth.issueServiceToken(email, password);
    },
  );
}
