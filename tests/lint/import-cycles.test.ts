import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A cycle needs two real files that import each other, so each case writes them into a fresh
// folder of the tree the lint covers and removes it afterwards.
const root = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: root });
const depcruise = path.join(
  root,
  'node_modules',
  'dependency-cruiser',
  'bin',
  'dependency-cruise.mjs',
);

const pair = (importKind: 'import' | 'import type') => ({
  'a.ts': `${importKind} { b } from './b.ts';\nexport const a = (): unknown => ${importKind === 'import' ? 'b' : 'undefined'};\n`,
  'b.ts': `${importKind} { a } from './a.ts';\nexport const b = (): unknown => ${importKind === 'import' ? 'a' : 'undefined'};\n`,
});

async function eslintRules(file: string): Promise<string[]> {
  const [result] = await eslint.lintFiles([file]);
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

/** What `npm run lint`'s second step says about a folder: exit status and output. */
function cruise(dir: string): { status: number | null; output: string } {
  const run = spawnSync(
    process.execPath,
    [depcruise, path.relative(root, dir), '--config', '.dependency-cruiser.mjs'],
    { cwd: root, encoding: 'utf8' },
  );
  return { status: run.status, output: run.stdout + run.stderr };
}

describe.each(['src/offline', 'server/gateway'])('an import cycle in %s', (area) => {
  const dirs: Record<string, string> = {};
  beforeAll(() => {
    for (const kind of ['import', 'import type'] as const) {
      const dir = mkdtempSync(path.join(root, area, 'lint-cycle-case-'));
      for (const [name, code] of Object.entries(pair(kind))) {
        writeFileSync(path.join(dir, name), code);
      }
      dirs[kind] = dir;
    }
  });
  afterAll(() => {
    for (const dir of Object.values(dirs)) rmSync(dir, { recursive: true, force: true });
  });

  it('is refused by ESLint when it runs', async () => {
    expect(await eslintRules(path.join(dirs['import']!, 'a.ts'))).toContain('import-x/no-cycle');
  });

  it('is refused by dependency-cruiser, also through types only', () => {
    for (const dir of Object.values(dirs)) {
      const result = cruise(dir);
      expect(result.status).not.toBe(0);
      expect(result.output).toContain('no-circular');
    }
  });

  it('a one-way import is refused by neither', async () => {
    const dir = dirs['import']!;
    writeFileSync(path.join(dir, 'b.ts'), 'export const b = (): unknown => undefined;\n');
    expect(await eslintRules(path.join(dir, 'a.ts'))).not.toContain('import-x/no-cycle');
    expect(cruise(dir).status).toBe(0);
  });
});

it('the tree as committed has no cycle, types included', () => {
  const run = spawnSync(
    process.execPath,
    [depcruise, 'src', 'server', 'sw', '--config', '.dependency-cruiser.mjs'],
    { cwd: root, encoding: 'utf8' },
  );
  expect(run.stdout + run.stderr).toContain('no dependency violations found');
  expect(run.status).toBe(0);
});
