import { useEffect } from 'react';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router-dom';
import { sitePaths } from '../domain/routes.ts';

/**
 * A page's code failed to load in a page no service worker controls, while one is installed: the
 * first visit installs the worker but stays outside it. The landing page does not fetch the
 * forms' code ahead (issue 14), so offline a tap on a questionnaire lands here; loading the
 * address afresh lets the worker serve it from its precache. A page the worker controls is never
 * reloaded by this, so it cannot loop.
 */
async function reloadIntoWorker(error: unknown): Promise<void> {
  if (!isChunkLoadError(error)) return;
  const worker = globalThis.navigator?.serviceWorker;
  if (!worker || worker.controller) return;
  const registration = await worker.getRegistration();
  if (registration?.active) window.location.reload();
}

/** Chromium, Firefox and Safari word a failed `import()` differently; all are TypeErrors. */
function isChunkLoadError(error: unknown): boolean {
  return (
    error instanceof TypeError &&
    /dynamically imported module|Importing a module script failed/i.test(error.message)
  );
}

/**
 * Shown instead of a blank page when a screen throws or its code cannot be loaded. The latter
 * is the usual case after a new release replaced the hashed chunks, so reloading is offered.
 */
export function RouteErrorPage() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;

  useEffect(() => {
    void reloadIntoWorker(error).catch(() => undefined);
  }, [error]);

  return (
    <div role="alert" className="mx-auto max-w-xl px-4 py-16">
      <h1 className="text-3xl font-bold text-brand-900">
        {notFound ? 'Seite nicht gefunden' : 'Es ist ein Fehler aufgetreten'}
      </h1>
      <p className="mt-4 text-slate-600">
        {notFound
          ? 'Die angeforderte Seite gibt es nicht.'
          : 'Diese Seite konnte nicht angezeigt werden. Bitte laden Sie die Seite neu oder versuchen Sie es später noch einmal.'}
      </p>
      <div className="mt-8 flex flex-wrap gap-4">
        {notFound ? null : (
          <button
            type="button"
            onClick={() => window.location.reload()}
            className="rounded-md bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800"
          >
            Seite neu laden
          </button>
        )}
        <Link
          to={sitePaths.landing}
          className="rounded-md border border-brand-200 px-4 py-2 font-semibold text-brand-700 hover:bg-brand-50"
        >
          Zur Startseite
        </Link>
      </div>
    </div>
  );
}
