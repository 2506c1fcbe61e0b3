import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { isFormIdText } from '../../src/domain/questionnaire.ts';
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
    // The build writes one HTML file per public page, with that page's metadata in its head
    // (vite.config.ts); addresses that only the app can resolve get the plain shell; everything
    // else gets 404.html with status 404, so search engines do not index it. The app renders
    // every one of them itself, its own 404 page included.
    reply.header('cache-control', 'no-cache');
    const pageFile = publicPageFile(staticDir, url);
    if (pageFile) return reply.sendFile(pageFile);
    if (isAppAddress(url)) return reply.sendFile('index.html');
    if (!existsSync(path.join(staticDir, '404.html')))
      return reply.code(404).sendFile('index.html');
    return reply.code(404).sendFile('404.html');
  });
}

/** `tiptoptabaluga/index.html` for `/tiptoptabaluga` when the build wrote it. */
function publicPageFile(staticDir: string, url: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(url);
  } catch {
    return undefined;
  }
  const segments = decoded.split('/').filter(Boolean);
  if (segments.length === 0 || segments.some((s) => s === '..' || s === '.' || s.includes('\\'))) {
    return undefined;
  }
  const file = path.posix.join(...segments, 'index.html');
  return existsSync(path.join(staticDir, file)) ? file : undefined;
}

/** Client routes whose page the server cannot name (src/app/router.tsx): they get the shell. */
function isAppAddress(url: string): boolean {
  const address = url.length > 1 ? url.replace(/\/+$/, '') : url;
  if (address === '/' || address === '/login') return true;
  if (address === '/surveydesk' || address.startsWith('/surveydesk/')) return true;
  const questionnaire = /^\/fragebogen\/([^/]+)$/.exec(address);
  return questionnaire !== null && isFormIdText(questionnaire[1]!);
}
