/** The path as the service behind the prefix sees it: `/rest/v1/forms?id=eq.1` -> `/forms`. */
export function pathBelow(prefix: string, url: string): string {
  const pathname = url.split('?')[0] ?? '';
  const below = pathname.startsWith(prefix) ? pathname.slice(prefix.length) : pathname;
  return below.startsWith('/') ? below : `/${below}`;
}
