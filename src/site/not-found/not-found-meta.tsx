import { notFoundPage } from '../../config/page-meta.ts';
import { useNoindex } from '../../ui/use-noindex.ts';
import { usePageMeta } from '../../ui/use-page-meta.ts';

/**
 * The 404 page's metadata for the address it answers, as an island of the prerendered 404.html
 * (src/islands.tsx); without the router, which the static page does not run.
 */
export function NotFoundMeta() {
  usePageMeta(notFoundPage(window.location.pathname));
  useNoindex();
  return null;
}
