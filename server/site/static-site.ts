import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';
import { isAppShellAddress, isServerPath } from '../../src/domain/routes.ts';
import { hubErrorHandler, sendHubNotFound } from '../hub/errors.ts';

/**
 * The built app (`dist/`): its files, one prerendered HTML file per public page, the app shell
 * for addresses only the app can resolve, and 404.html for everything else. Registered without a
 * prefix, its not-found handler answers every address no other area claims.
 *
 * Text files go out compressed as the build left them (scripts/compress-dist.mjs writes `.br`
 * and `.gz` beside each): brotli when the browser accepts it, else gzip, else the file itself,
 * always with `Vary: Accept-Encoding`. Nothing is compressed per request here, so the APIs'
 * on-the-fly compression (server/http/api-compression.ts) is not registered for this area.
 */
export const staticSite: FastifyPluginAsync<{ staticDir: string }> = async (
  site,
  { staticDir },
) => {
  const indexFile = path.join(staticDir, 'index.html');
  const hasBuild = existsSync(indexFile);
  if (hasBuild) {
    await site.register(fastifyStatic, {
      root: staticDir,
      wildcard: true,
      // '/' is the app itself; every other client route comes through the not-found handler.
      index: ['index.html'],
      // Build bookkeeping (.vite/manifest.json, .build-hash) is no business of visitors.
      dotfiles: 'ignore',
      // Also for reply.sendFile below: the pages, the shell and 404.html are compressed too.
      preCompressed: true,
      setHeaders: (res, filePath) => {
        // Hashed build output never changes under its name; everything else is revalidated.
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  // What reaches the site without being a page load (a POST to a page, a server address no area
  // took, a body that fails to parse) expects JSON: it gets the hub's shape, as it always did.
  site.setErrorHandler(hubErrorHandler);
  site.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const wantsPage = request.method === 'GET' || request.method === 'HEAD';
    // A client that expects JSON from an API address must never get a page it cannot parse.
    if (isServerPath(url) || !wantsPage) return sendHubNotFound(request, reply);
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
    if (isAppShellAddress(url)) return reply.sendFile('index.html');
    if (!existsSync(path.join(staticDir, '404.html')))
      return reply.code(404).sendFile('index.html');
    return reply.code(404).sendFile('404.html');
  });
};

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
