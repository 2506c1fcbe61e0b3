import { Link, useLocation } from 'react-router-dom';
import { Island } from '../../islands/island.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { notFoundPage } from '../../config/page-meta.ts';
import { sitePaths } from '../../domain/routes.ts';
import { useNoindex } from '../../ui/use-noindex.ts';
import { usePageMeta } from '../../ui/use-page-meta.ts';

export function NotFoundPage() {
  usePageMeta(notFoundPage(useLocation().pathname));
  useNoindex();
  return (
    <div className="py-8">
      {/* The prerendered 404.html answers every unknown address: its island gives the page the
          address's title and canonical URL (the build could only write those of /404). */}
      <Island name="not-found-meta">{null}</Island>
      <PageHeader title="Seite nicht gefunden">
        <p>Die Seite, die Sie aufrufen wollten, gibt es nicht oder nicht mehr.</p>
      </PageHeader>
      <Link
        to={sitePaths.landing}
        className="inline-block rounded-md bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800"
      >
        Zur Startseite
      </Link>
    </div>
  );
}
