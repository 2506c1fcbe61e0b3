import type { FastifyInstance } from 'fastify';

/**
 * Makes every address under an area's prefix the area's own, so an unknown one reaches the area's
 * not-found handler. Without it the static site's wildcard route would take unknown GETs there
 * and answer them in the site's shape instead of the area's.
 */
export function claimPrefix(area: FastifyInstance): void {
  for (const url of ['/', '/*']) {
    area.all(url, (_request, reply) => reply.callNotFound());
  }
}
