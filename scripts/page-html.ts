import { pageHead, type PageMeta } from '../src/config/page-meta.ts';

const escapeHtml = (value: string) =>
  value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');

/**
 * The app's HTML with one page's title, description, canonical URL and social tags in its head,
 * so that a link preview or a crawler without JavaScript sees the page, not the generic shell.
 * The page sets the same tags itself (usePageMeta) when the visitor navigates on. A `noindex`
 * page (the 404 page, one file for every unknown address) gets no canonical URL.
 */
export function renderPageHtml(
  indexHtml: string,
  meta: PageMeta,
  options: { noindex?: boolean } = {},
): string {
  const head = pageHead(meta);
  const addressTags = new Set(['og:url']);
  const lines = [
    `<title>${escapeHtml(head.title)}</title>`,
    `<meta name="description" content="${escapeHtml(head.description)}" />`,
    ...(options.noindex
      ? ['<meta name="robots" content="noindex" />']
      : [`<link rel="canonical" href="${escapeHtml(head.canonical)}" />`]),
    ...head.tags
      .filter(({ name }) => !(options.noindex && addressTags.has(name)))
      .map(({ key, name, value }) => `<meta ${key}="${name}" content="${escapeHtml(value)}" />`),
  ];
  const title = /<title>[\s\S]*?<\/title>/;
  const description = /<meta\s+name="description"[^>]*>/;
  if (!title.test(indexHtml) || !description.test(indexHtml) || !indexHtml.includes('</head>')) {
    throw new Error('index.html hat nicht die erwartete Form (title, description, </head>).');
  }
  return indexHtml.replace(description, '').replace(title, lines.join('\n    '));
}

/** The shell's entry script in index.html: a prerendered page does not load the app shell. */
const shellEntry = /\s*<script type="module" src="\/src\/main\.tsx"><\/script>/;
const emptyRoot = '<div id="root"></div>';

/**
 * A prerendered public page: the app's index.html (the source, not Vite's output) with the
 * page's metadata (`renderPageHtml`), the page's HTML in `#root`, and `headTags` (the loader,
 * the stylesheet) in place of the shell's entry script.
 */
export function prerenderedPageHtml(
  indexHtml: string,
  page: { meta: PageMeta; noindex?: boolean; body: string; headTags: string[] },
): string {
  if (!shellEntry.test(indexHtml) || !indexHtml.includes(emptyRoot)) {
    throw new Error(`index.html hat nicht die erwartete Form (${emptyRoot}, /src/main.tsx).`);
  }
  const html = renderPageHtml(indexHtml.replace(shellEntry, ''), page.meta, {
    noindex: page.noindex ?? false,
  });
  return html
    .replace('</head>', () => `  ${page.headTags.join('\n    ')}\n  </head>`)
    .replace(emptyRoot, () => `<div id="root">${page.body}</div>`);
}
