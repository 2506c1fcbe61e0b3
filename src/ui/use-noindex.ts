import { useEffect } from 'react';

/**
 * Keeps a page out of search engines while it is shown: the robots tag the server's 404 answer
 * already carries, or a new one. Removed when the visitor moves on to a real page.
 */
export function useNoindex(enabled = true): void {
  useEffect(() => {
    if (!enabled) return;
    let robots = document.head.querySelector<HTMLMetaElement>('meta[name="robots"]');
    if (!robots) {
      robots = document.createElement('meta');
      robots.name = 'robots';
      document.head.append(robots);
    }
    robots.content = 'noindex';
    return () => robots.remove();
  }, [enabled]);
}
