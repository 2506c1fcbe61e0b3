import { useEffect } from 'react';
import { siteConfig } from '../config/site';

export interface PageMeta {
  /** The page's own title; the agency's name is appended. */
  title: string;
  description: string;
  /** The route's canonical path, e.g. '/kontakt' for both /kontakt and /universa/kontakt. */
  path: string;
}

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
 * effect, so rendering a page touches no `document` (pages stay prerenderable).
 */
export function usePageMeta({ title, description, path }: PageMeta): void {
  useEffect(() => {
    const fullTitle = `${title} | ${siteConfig.agencyName}`;
    const url = `${siteConfig.siteUrl}${path}`;
    document.title = fullTitle;
    setTag('meta[name="description"]', meta('name', 'description'), 'content', description);
    setTag(
      'link[rel="canonical"]',
      () => Object.assign(document.createElement('link'), { rel: 'canonical' }),
      'href',
      url,
    );
    const tags: [key: 'name' | 'property', name: string, value: string][] = [
      ['property', 'og:title', fullTitle],
      ['property', 'og:description', description],
      ['property', 'og:url', url],
      ['property', 'og:type', 'website'],
      ['property', 'og:locale', 'de_DE'],
      ['property', 'og:site_name', siteConfig.agencyName],
      ['property', 'og:image', `${siteConfig.siteUrl}/icons/app-512.png`],
      ['name', 'twitter:card', 'summary'],
      ['name', 'twitter:title', fullTitle],
      ['name', 'twitter:description', description],
    ];
    for (const [key, name, value] of tags) {
      setTag(`meta[${key}="${name}"]`, meta(key, name), 'content', value);
    }
  }, [title, description, path]);
}
