import { isRouteErrorResponse, Link, useRouteError } from 'react-router-dom';
import { sitePaths } from '../domain/routes.ts';

/**
 * Shown instead of a blank page when a screen throws or its code cannot be loaded. The latter
 * is the usual case after a new release replaced the hashed chunks, so reloading is offered.
 */
export function RouteErrorPage() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;

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
