import type { FastifyPluginAsync } from 'fastify';
import type { GatewayOptions } from '../gateway-area.ts';
import { claimPrefix } from '../../http/claim-prefix.ts';
import { authErrorHandler, authNotFound } from './errors.ts';

/** GoTrue's API for supabase-js (`/auth/v1`): sign-up, sessions and users come with the gateway. */
export const authArea: FastifyPluginAsync<GatewayOptions> = async (auth) => {
  auth.setErrorHandler(authErrorHandler);
  auth.setNotFoundHandler(authNotFound);
  claimPrefix(auth);
};
