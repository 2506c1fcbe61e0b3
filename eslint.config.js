import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import { defineConfig, globalIgnores } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Import boundaries (docs/design.md 4, docs/style.md 1), checked on resolved files: `target` may
// not import anything under `from` except what `except` names (relative to `from`). Dynamic
// `import()` counts too. Imports point inwards: site, desk -> api, offline, ui -> domain;
// app, site -> islands (the island mark and runtime; src/island-registry.ts, above all, names
// each island's code).

const features = ['src/site', 'src/desk', 'src/app'];
/** The one module of Survey Desk that public code may load, and only by `import()`. */
const deskEntry = 'src/desk/desk-entry.ts';

/** One screen folder does not import another's; `shared/` is for what several screens use. */
function screenZones(area, shared = ['./shared']) {
  const screens = readdirSync(new URL(`./${area}/`, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  return screens.map((screen) => ({
    target: `${area}/${screen}`,
    from: area,
    except: [...new Set([`./${screen}`, ...shared])],
    message: `Ein Screen importiert keinen anderen Screen; Gemeinsames gehört nach ${area}/shared oder src/ui.`,
  }));
}

const zones = [
  {
    target: 'src/domain',
    from: 'src',
    except: ['./domain'],
    message: 'src/domain ist reines TypeScript und importiert nichts aus anderen Ordnern.',
  },
  {
    target: 'src/domain',
    from: ['server', 'sw', 'scripts'],
    message: 'src/domain ist reines TypeScript und importiert nichts aus anderen Ordnern.',
  },
  {
    target: 'src/ui',
    from: [...features, 'src/api', 'src/offline'],
    message: 'src/ui zeigt nur an: keine Seiten, kein Survey Desk, kein src/api oder src/offline.',
  },
  {
    target: 'src/api',
    from: [...features, 'src/ui', 'src/offline'],
    message: 'src/api importiert src/offline nicht (umgekehrt ja) und keine Seiten oder src/ui.',
  },
  {
    target: 'src/offline',
    from: [...features, 'src/ui'],
    message: 'src/offline darf nicht von Seiten, Survey Desk oder src/ui abhängen.',
  },
  {
    target: 'src/islands',
    from: [...features, 'src/api', 'src/offline', 'src/ui'],
    message:
      'src/islands liegt unter Seiten und App (Insel-Markierung, Lader, Start): eine Insel wird in src/island-registry.ts eingetragen.',
  },
  {
    target: 'src/site',
    from: 'src/app',
    message:
      'Öffentliche Seiten importieren nichts aus src/app; die Insel-Markierung liegt in src/islands.',
  },
  // Survey Desk is a folder: public code reaches it only through its entry module, loaded by the
  // router's one `import()` (src/app/router.tsx). src/domain, src/ui, src/api, src/offline and sw
  // are kept from src/desk by their own zones above and below.
  {
    target: ['src/site', 'src/config', 'src/islands.tsx', 'src/island-registry.ts', 'src/main.tsx'],
    from: 'src/desk',
    message: 'Öffentlicher Code importiert Survey Desk nicht.',
  },
  {
    target: ['src/app/!(router).{ts,tsx}', 'src/app/*/**'],
    from: 'src/desk',
    message: `Survey Desk lädt nur der Router, über import('${deskEntry}').`,
  },
  {
    target: 'src/app/router.tsx',
    from: 'src/desk',
    except: ['./desk-entry.ts'],
    message: `Der Router lädt von Survey Desk nur den Einstieg, über import('${deskEntry}').`,
  },
  {
    target: 'src/desk',
    from: 'src/site',
    message: 'Survey Desk darf öffentliche Seiten nicht importieren.',
  },
  ...screenZones('src/site'),
  // src/desk/api is the desk's data layer and src/desk/layout its frame: every screen uses them.
  ...screenZones('src/desk', ['./shared', './api', './layout']),
  {
    target: 'sw',
    from: 'src',
    except: ['./domain', './api', './offline'],
    message: 'Der Service Worker importiert aus src nur src/domain, src/api und src/offline.',
  },
  {
    target: 'server',
    from: 'src',
    except: ['./domain'],
    message: 'Der Server darf aus src nur src/domain importieren.',
  },
  {
    target: 'server/http',
    from: 'server',
    except: ['./http'],
    message:
      'server/http hält HTTP-Helfer unter allen Bereichen (Hub, Gateway, Seite): es importiert keinen davon.',
  },
];

// Tests may also build their leads with the shared fixtures (src/testing).
const testZones = zones.map((zone) =>
  zone.except?.includes('./domain') ? { ...zone, except: [...zone.except, './testing'] } : zone,
);

export default defineConfig([
  globalIgnores([
    'dist/',
    'dist-server/',
    'node_modules/',
    'data/',
    'test-results/',
    'playwright-report/',
    '.tmp/',
  ]),
  {
    name: 'base/javascript',
    files: ['**/*.{js,mjs,cjs,ts,tsx}'],
    extends: [js.configs.recommended],
  },
  {
    name: 'base/typescript',
    files: ['**/*.{ts,tsx}'],
    extends: [tseslint.configs.recommended],
    rules: {
      // `const { secret: _, ...rest } = value` is the idiomatic way to drop a field.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    name: 'browser',
    files: ['src/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended],
    languageOptions: { globals: globals.browser },
  },
  {
    name: 'service-worker',
    files: ['sw/**/*.{ts,js}'],
    languageOptions: { globals: globals.serviceworker },
  },
  {
    name: 'node',
    files: [
      'server/**',
      'scripts/**',
      'e2e/**',
      'bench/**',
      'tests/**',
      '*.config.{js,mjs,ts}',
      '**/*.test.{ts,tsx}',
    ],
    languageOptions: { globals: globals.node },
  },
  {
    name: 'imports',
    files: ['**/*.{js,mjs,cjs,ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver()],
      // What import-x reads to follow an import into a file (no-cycle walks the whole graph):
      // without these it only reads .js files and finds no cycle among TypeScript modules.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs', '.cjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      // Browsers, Node's type stripping and Vite all need the real file name.
      'import-x/extensions': ['error', 'always', { ignorePackages: true, checkTypeImports: true }],
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones }],
      // Cycles that run. Type-only cycles are refused too, by dependency-cruiser in `npm run lint`
      // (.dependency-cruiser.mjs): this rule skips `import type` by design.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    name: 'imports/tests',
    files: ['**/*.test.{ts,tsx}'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { basePath: import.meta.dirname, zones: testZones },
      ],
    },
  },
  {
    // The zones let the router import the desk's entry; this keeps that import an `import()`, so
    // the desk stays out of the visitors' entry chunk.
    name: 'boundaries/desk-entry-lazy',
    files: ['src/app/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['ImportDeclaration', 'ExportNamedDeclaration', 'ExportAllDeclaration'].map((node) => ({
          selector: `${node}[source.value=/desk-entry/]`,
          message: `Survey Desk wird nur über import('${deskEntry}') geladen, nie statisch.`,
        })),
      ],
    },
  },
  {
    name: 'boundaries/domain-without-react',
    files: ['src/domain/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(react|react-dom|react-router|react-router-dom|scheduler)(/|$)',
              message: 'src/domain importiert kein React: es läuft auch im Server.',
            },
          ],
        },
      ],
    },
  },
]);
