import { useEffect } from 'react';
import { pageHead, type PageMeta } from '../config/page-meta.ts';

export type { PageMeta } from '../config/page-meta.ts';

function setTag(selector: string, create: () => HTMLElement, attribute: string, value: string) {
  let element = document.head.querySelector<HTMLElement>(selector);
  if (!element) {
    element = create();
    document.head.append(element);
  }
  element.setAttribute(attribute, value);
}

const meta = (key: 'name' | 'property', name: string) => () => {
  const element = document.createElement('meta');
  element.setAttribute(key, name);
  return element;
};

/**
 * Title, description, canonical URL, Open Graph and Twitter tags of the current page. Set in an
 * effect, so rendering a page touches no `document`. The build writes the same tags into the
 * HTML of public pages (scripts/page-html.ts); this replaces them on client-side navigation.
 */
export function usePageMeta({ title, description, path }: PageMeta): void {
  useEffect(() => {
    const head = pageHead({ title, description, path });
    document.title = head.title;
    setTag('meta[name="description"]', meta('name', 'description'), 'content', head.description);
    setTag(
      'link[rel="canonical"]',
      () => Object.assign(document.createElement('link'), { rel: 'canonical' }),
      'href',
      head.canonical,
    );
    for (const { key, name, value } of head.tags) {
      setTag(`meta[${key}="${name}"]`, meta(key, name), 'content', value);
    }
  }, [title, description, path]);
}
