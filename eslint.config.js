import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// ---------------------------------------------------------------------------------------------
// Import boundaries (STYLE.md 1, DESIGN.md 4).
//
// The built-in no-restricted-imports compares the import text, not the resolved file, so
// `../../desk/x` only means "src/desk" for a file two folders below src. The boundaries are
// therefore written as folders of the repository and turned into one config object per folder
// depth, each listing every relative spelling that reaches a forbidden folder from that depth
// (plus Vite's root-absolute `/src/...`). A later config object replaces an earlier rule setting
// instead of adding to it, so every file gets exactly one object with all its restrictions.
// ---------------------------------------------------------------------------------------------

const SOURCE_FILES = '*.{ts,tsx,js,mjs}';
const MAX_DEPTH = 6;

/** @param {string} inner @param {string} outer true when `inner` is `outer` or inside it */
const isWithin = (inner, outer) => outer === '' || inner === outer || inner.startsWith(`${outer}/`);
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const parent = (dir) => dir.split('/').slice(0, -1).join('/');
const relativeTo = (from, to) => (from === '' ? to : to.slice(from.length + 1));

/**
 * Regexes matching imports that leave `folder` (from a file `depth` folders below it) and land in
 * `rule.target`, outside `rule.except`. Only paths that climb at least up to `folder` are
 * considered: below it the folder names are unknown, and staying inside is always allowed. That
 * is also what makes the one-screen-per-folder rule work: `folder` itself is the target, and a
 * file in a screen that climbs to `folder` can only be heading for another screen.
 */
function forbiddenImportRegexes(folder, depth, rule) {
  const regexes = [];
  const except = rule.except ?? [];
  const levels = folder.split('/').length;
  const addFor = (ancestor, prefix) => {
    if (except.some((allowed) => isWithin(ancestor, allowed))) return;
    if (isWithin(ancestor, rule.target)) {
      const allowed = except
        .filter((dir) => isWithin(dir, ancestor) && dir !== ancestor)
        .map((dir) => `(?!${escape(relativeTo(ancestor, dir))}(?:/|$))`)
        .join('');
      regexes.push(`^${prefix}(?!\\.\\./)${allowed}`);
    } else if (isWithin(rule.target, ancestor)) {
      const allowed = except
        .filter((dir) => isWithin(dir, rule.target) && dir !== rule.target)
        .map((dir) => `(?!/${escape(relativeTo(rule.target, dir))}(?:/|$))`)
        .join('');
      regexes.push(`^${prefix}${escape(relativeTo(ancestor, rule.target))}(?=/|$)${allowed}`);
    }
  };
  // Going up `depth` levels from the file reaches `folder`; each further level one ancestor more.
  let ancestor = folder;
  for (let up = depth; up <= depth + levels; up += 1) {
    const ups = up === 0 ? '\\./' : `(?:\\.\\./){${up}}`;
    addFor(ancestor, ups);
    ancestor = parent(ancestor);
  }
  addFor('', '/');
  return regexes;
}

/**
 * @param {{ folder: string, rules: { target: string, except?: string[], message: string,
 *   ownScreen?: boolean }[], packages?: { regex: string, message: string }[] }} boundary
 */
function boundaryConfigs({ folder, rules, packages = [] }) {
  return Array.from({ length: MAX_DEPTH + 1 }, (_, depth) => {
    const patterns = [
      ...packages,
      ...rules
        .filter((rule) => !rule.ownScreen || depth >= 1)
        .flatMap((rule) =>
          forbiddenImportRegexes(folder, depth, rule).map((regex) => ({
            regex,
            message: rule.message,
          })),
        ),
    ];
    return {
      name: `boundaries/${folder}/depth-${depth}`,
      files: [`${folder}/${'*/'.repeat(depth)}${SOURCE_FILES}`],
      rules: {
        'no-restricted-imports': ['error', { patterns }],
        // no-restricted-imports does not look at `import()`; the same limits apply to it.
        'no-restricted-syntax': [
          'error',
          ...patterns.map(({ regex, message }) => ({
            // esquery ends a regex at the first slash, so slashes are written as \x2F.
            selector: `ImportExpression > Literal.source[value=/${regex.replaceAll('/', '\\x2F')}/]`,
            message,
          })),
        ],
      },
    };
  });
}

const outward = (name) => `${name} darf nicht von src/site, src/desk oder src/app abhängen.`;

const boundaries = [
  {
    folder: 'src/domain',
    rules: [
      {
        target: '',
        except: ['src/domain'],
        message: 'src/domain ist reines TypeScript und importiert nichts aus anderen Ordnern.',
      },
    ],
    packages: [
      {
        regex: '^(react|react-dom|react-router|react-router-dom|scheduler)(/|$)',
        message: 'src/domain importiert kein React: es läuft auch im Server.',
      },
    ],
  },
  {
    folder: 'server',
    rules: [
      {
        target: 'src',
        except: ['src/domain'],
        message: 'Der Server darf aus src nur src/domain importieren.',
      },
    ],
  },
  {
    folder: 'src/site',
    rules: [
      { target: 'src/desk', message: 'Öffentliche Seiten dürfen Survey Desk nicht importieren.' },
      {
        target: 'src/site',
        ownScreen: true,
        message: 'Ein Screen importiert keinen anderen Screen; Gemeinsames gehört nach src/ui.',
      },
    ],
  },
  {
    folder: 'src/desk',
    rules: [
      { target: 'src/site', message: 'Survey Desk darf öffentliche Seiten nicht importieren.' },
      {
        target: 'src/desk',
        ownScreen: true,
        message: 'Ein Screen importiert keinen anderen Screen; Gemeinsames gehört nach src/ui.',
      },
    ],
  },
  ...['src/ui', 'src/api', 'src/offline'].map((folder) => ({
    folder,
    rules: ['src/site', 'src/desk', 'src/app'].map((target) => ({
      target,
      message: outward(folder),
    })),
  })),
];

export default defineConfig([
  globalIgnores([
    'dist/',
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
  ...boundaries.flatMap(boundaryConfigs),
]);
