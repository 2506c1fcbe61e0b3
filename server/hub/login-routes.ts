import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { HubAuth } from './auth.ts';

const loginBody = z.object({
  email: z.string().min(1).max(320),
  password: z.string().min(1).max(1024),
});

export const loginRoutes: FastifyPluginAsyncZod<{ auth: HubAuth }> = async (hub, { auth }) => {
  hub.post(
    '/hub/login',
    {
      schema: { body: loginBody },
      bodyLimit: 4096,
      // Few tries per address and minute: the service password must not be guessable by volume.
      config: { rateLimit: { max: 10, timeWindow: 60_000 } },
    },
    async (request) => auth.issueServiceToken(request.body.email, request.body.password),
  );
};
