import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { errorBody } from './errors.ts';

// Paths that belong to an API: never answered with the app's HTML, so a client that expects
// JSON gets a JSON 404 instead of a page it cannot parse.
const API_PREFIXES = ['/api/', '/auth/', '/rest/', '/storage/'];

export async function registerStaticSite(app: FastifyInstance, staticDir: string): Promise<void> {
  const indexFile = path.join(staticDir, 'index.html');
  const hasBuild = existsSync(indexFile);
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: staticDir,
      wildcard: true,
      // '/' is the app itself; every other client route comes through the fallback below.
      index: ['index.html'],
      setHeaders: (res, filePath) => {
        // Hashed build output never changes under its name; everything else is revalidated.
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const isApi = API_PREFIXES.some((p) => url === p.slice(0, -1) || url.startsWith(p));
    const wantsPage = request.method === 'GET' || request.method === 'HEAD';
    if (isApi || !wantsPage) {
      return reply.code(404).send(errorBody('not_found', 'Diese Adresse gibt es nicht.'));
    }
    if (!hasBuild) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('Die App ist nicht gebaut. Bitte `npm run build` ausführen oder `npm start` nutzen.');
    }
    // SPA fallback: the client router decides, and shows its own 404 page for unknown paths.
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
