import { useEffect } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { PageHeader } from '../../ui/page-header';
import { usePageMeta } from '../../ui/use-page-meta';

/**
 * The static server answers every path with the app shell and status 200, so search engines
 * cannot tell this page from a real one; the robots tag keeps it out of their index. It is
 * removed again when the visitor moves on to a real page.
 */
function useNoindex() {
  useEffect(() => {
    const robots = document.createElement('meta');
    robots.name = 'robots';
    robots.content = 'noindex';
    document.head.append(robots);
    return () => robots.remove();
  }, []);
}

export function NotFoundPage() {
  usePageMeta({
    title: 'Seite nicht gefunden',
    description:
      'Diese Seite gibt es nicht oder nicht mehr. Über die Startseite finden Sie unsere Angebote zur Versicherung, das Kontaktformular und alle Rechtstexte.',
    path: useLocation().pathname,
  });
  useNoindex();
  return (
    <div className="py-8">
      <PageHeader title="Seite nicht gefunden">
        <p>Die Seite, die Sie aufrufen wollten, gibt es nicht oder nicht mehr.</p>
      </PageHeader>
      <Link
        to="/universa"
        className="inline-block rounded-md bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800"
      >
        Zur Startseite
      </Link>
    </div>
  );
}
