import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// Each case is a file that does not exist, linted as if it lay at `file`, with imports of real
// modules: the boundary rule resolves an import to its file before it judges it.
const eslint = new ESLint({ cwd: fileURLToPath(new URL('../..', import.meta.url)) });

async function ruleIds(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: file });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

const restrictedPath = 'import-x/no-restricted-paths';

describe('import boundaries', () => {
  it.each([
    {
      breaks: 'a public page imports Survey Desk',
      file: 'src/site/landing/lint-case.tsx',
      code: "export { SigninPage } from '../../desk/signin/signin-page.tsx';",
    },
    ...[
      'src/site/kfz/lint-case.tsx',
      'src/config/lint-case.ts',
      'src/api/lint-case.ts',
      'src/offline/lint-case.ts',
      'src/ui/lint-case.tsx',
      'src/domain/lint-case.ts',
      'src/islands.tsx',
      'src/main.tsx',
      'src/app/public-layout.tsx',
      'sw/lint-case.ts',
    ].flatMap((file) => {
      const desk = `${'../'.repeat(file.split('/').length - 2)}desk/`.replace(/^desk/, './desk');
      const fromSw = file.startsWith('sw/') ? '../src/desk/' : desk;
      return [
        {
          breaks: `public code (${file}) imports Survey Desk's data layer`,
          file,
          code: `export { supabase } from '${fromSw}api/supabase-client.ts';`,
        },
        {
          breaks: `public code (${file}) loads Survey Desk's entry`,
          file,
          code: `export const load = () => import('${fromSw}desk-entry.ts');`,
        },
      ];
    }),
    {
      breaks: 'the router loads a desk screen past the entry',
      file: 'src/app/router.tsx',
      code: "export const load = () => import('../desk/signin/signin-page.tsx');",
    },
    {
      breaks: 'the router imports the desk layout',
      file: 'src/app/router.tsx',
      code: "export { DeskLayout } from '../desk/layout/desk-layout.tsx';",
    },
    {
      breaks: 'Survey Desk imports a public page',
      file: 'src/desk/signin/lint-case.tsx',
      code: "export { KfzPage } from '../../site/kfz/kfz-page.tsx';",
    },
    {
      breaks: 'src/api imports src/offline',
      file: 'src/api/lint-case.ts',
      code: "export { openOfflineDb } from '../offline/outbox-db.ts';",
    },
    {
      breaks: 'src/ui imports src/offline',
      file: 'src/ui/lint-case.tsx',
      code: "export { openOfflineDb } from '../offline/outbox-db.ts';",
    },
    {
      breaks: 'src/offline imports a public page',
      file: 'src/offline/lint-case.ts',
      code: "export { KfzPage } from '../site/kfz/kfz-page.tsx';",
    },
    {
      breaks: 'src/domain imports another folder of src',
      file: 'src/domain/lint-case.ts',
      code: "export { openOfflineDb } from '../offline/outbox-db.ts';",
    },
    {
      breaks: 'one screen imports another screen',
      file: 'src/site/kfz/lint-case.tsx',
      code: "export { ContactPage } from '../contact/contact-page.tsx';",
    },
    {
      breaks: 'one screen imports another screen lazily',
      file: 'src/site/kfz/lint-case.tsx',
      code: "export const load = () => import('../contact/contact-page.tsx');",
    },
    {
      breaks: 'the server imports a public page',
      file: 'server/lint-case.ts',
      code: "export { KfzPage } from '../src/site/kfz/kfz-page.tsx';",
    },
    {
      breaks: 'a shared HTTP helper imports a server area',
      file: 'server/http/lint-case.ts',
      code: "export { errorBody } from '../hub/errors.ts';",
    },
    {
      breaks: 'the service worker imports the browser configuration',
      file: 'sw/lint-case.ts',
      code: "export * from '../src/config/env.ts';",
    },
    {
      breaks: 'the service worker imports a public page',
      file: 'sw/lint-case.ts',
      code: "export { KfzPage } from '../src/site/kfz/kfz-page.tsx';",
    },
  ])('reports $breaks', async ({ file, code }) => {
    expect(await ruleIds(file, code)).toEqual([restrictedPath]);
  });

  it('reports a static import of the desk entry, even by the router', async () => {
    expect(
      await ruleIds(
        'src/app/router.tsx',
        "export { loadDeskScreen } from '../desk/desk-entry.ts';",
      ),
    ).toEqual(['no-restricted-syntax']);
    expect(
      await ruleIds(
        'src/app/router.tsx',
        "import { loadDeskScreen } from '../desk/desk-entry.ts';\nexport const screen = loadDeskScreen;",
      ),
    ).toEqual(['no-restricted-syntax']);
  });

  it('reports React in src/domain', async () => {
    expect(await ruleIds('src/domain/lint-case.ts', "export { useState } from 'react';")).toEqual([
      'no-restricted-imports',
    ]);
  });

  it('reports an import of our own file without its extension', async () => {
    expect(
      await ruleIds('src/domain/lint-case.ts', "export { sitePaths } from './routes';"),
    ).toEqual(['import-x/extensions']);
  });

  it('lets each folder import what lies inwards', async () => {
    const allowed: [file: string, code: string][] = [
      ['src/site/kfz/lint-case.tsx', "export { openOfflineDb } from '../../offline/outbox-db.ts';"],
      ['src/site/kfz/lint-case.tsx', "export { Button } from '../../ui/button.tsx';"],
      ['src/site/kfz/lint-case.tsx', "export * from '../shared/use-lead-form.ts';"],
      ['src/offline/lint-case.ts', "export * from '../domain/routes.ts';"],
      ['src/app/router.tsx', "export const load = () => import('../desk/desk-entry.ts');"],
      ['sw/lint-case.ts', "export { openOfflineDb } from '../src/offline/outbox-db.ts';"],
      ['server/lint-case.ts', "export * from '../src/domain/routes.ts';"],
      ['src/domain/lint-case.ts', "export { z } from 'zod';"],
    ];
    for (const [file, code] of allowed) {
      expect(await ruleIds(file, code), `${file}: ${code}`).toEqual([]);
    }
  });
});
