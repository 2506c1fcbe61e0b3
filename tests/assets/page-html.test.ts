import { describe, expect, it } from 'vitest';
import { prerenderedPageHtml, renderPageHtml } from '../../scripts/page-html.ts';
import { notFoundPage, publicPages } from '../../src/config/page-meta.ts';
import { siteConfig } from '../../src/config/site.ts';

const shell = `<!doctype html>
<html lang="de">
  <head>
    <meta charset="UTF-8" />
    <title>Allgemein</title>
    <meta
      name="description"
      content="Allgemeine Beschreibung"
    />
    <link rel="icon" href="/favicon.svg" />
  </head>
  <body><div id="root"></div></body>
</html>`;

const count = (html: string, text: string) => html.split(text).length - 1;

describe('the HTML file of a public page', () => {
  it("carries the page's own title, description, canonical URL and social tags, once each", () => {
    const html = renderPageHtml(shell, publicPages.kfz);
    const title = `KFZ-Versicherung: Rückruf anfordern | ${siteConfig.agencyName}`;
    const url = `${siteConfig.siteUrl}/universa/kfz`;
    expect(html).toContain(`<title>${title}</title>`);
    expect(html).toContain(`<meta name="description" content="${publicPages.kfz.description}" />`);
    expect(html).toContain(`<link rel="canonical" href="${url}" />`);
    expect(html).toContain(`<meta property="og:url" content="${url}" />`);
    expect(html).toContain(`<meta name="twitter:title" content="${title}" />`);
    expect(count(html, '<title>')).toBe(1);
    expect(count(html, 'name="description"')).toBe(1);
    expect(html).not.toContain('Allgemein');
    expect(html).not.toContain('robots');
    expect(html).toContain('<link rel="icon" href="/favicon.svg" />');
  });

  it('escapes what it writes into attributes', () => {
    const html = renderPageHtml(shell, {
      title: 'A & B <C>',
      description: 'Sagt "Hallo"',
      path: '/x',
    });
    expect(html).toContain('<title>A &amp; B &lt;C&gt; |');
    expect(html).toContain('content="Sagt &quot;Hallo&quot;"');
  });

  it('the 404 page is kept out of search engines and names no address of its own', () => {
    const html = renderPageHtml(shell, notFoundPage('/404'), { noindex: true });
    expect(html).toContain('<meta name="robots" content="noindex" />');
    expect(html).not.toContain('canonical');
    expect(html).not.toContain('og:url');
    expect(html).toContain('<title>Seite nicht gefunden |');
  });

  it('refuses a shell without the tags it replaces', () => {
    expect(() => renderPageHtml('<html><head></head></html>', publicPages.kfz)).toThrow(
      /index\.html/,
    );
  });

  it('a prerendered page has its body and its own scripts, not the shell entry', () => {
    const indexHtml = shell.replace(
      '</body>',
      '\n    <script type="module" src="/src/main.tsx"></script>\n  </body>',
    );
    const html = prerenderedPageHtml(indexHtml, {
      meta: publicPages.kfz,
      body: '<main>Inhalt</main>',
      headTags: ['<script type="module" src="/lader.js"></script>', '<style>p{}</style>'],
    });
    expect(html).toContain('<div id="root"><main>Inhalt</main></div>');
    expect(html).not.toContain('/src/main.tsx');
    expect(html).toMatch(
      /<script type="module" src="\/lader.js"><\/script>\s*<style>p\{\}<\/style>\s*<\/head>/,
    );
    expect(html).toContain('<link rel="canonical"');
    expect(() =>
      prerenderedPageHtml(shell, { meta: publicPages.kfz, body: '', headTags: [] }),
    ).toThrow(/main\.tsx/);
  });
});
