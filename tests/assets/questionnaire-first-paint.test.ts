import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAst } from 'vite';
import { describe, expect, it } from 'vitest';

// Issue 37: a questionnaire page paints its first question from the HTML, and its island's code
// up to that question carries no checks (zod), no device database (Dexie), no form library and
// no contact schemas: those load when the page is idle (the live definition) or after the first
// answer (the contact step), by `import()`. Read from the sources' static imports, as the
// bundler follows them into the island's chunk.

const root = fileURLToPath(new URL('../..', import.meta.url));

interface Node {
  type: string;
  [key: string]: unknown;
}

/** A module's imports that load with it: not `import type`, not `import()`. */
function staticImports(code: string, file: string): string[] {
  const program = parseAst(code, { lang: file.endsWith('.tsx') ? 'tsx' : 'ts' }) as unknown as {
    body: Node[];
  };
  return program.body.flatMap((node) => {
    const source = (node['source'] as { value?: string } | null | undefined)?.value;
    if (!source) return [];
    if (node.type === 'ImportDeclaration') {
      const specifiers = (node['specifiers'] as Node[] | undefined) ?? [];
      const onlyTypes =
        node['importKind'] === 'type' ||
        (specifiers.length > 0 && specifiers.every((s) => s['importKind'] === 'type'));
      return onlyTypes ? [] : [source];
    }
    if (node.type === 'ExportNamedDeclaration' || node.type === 'ExportAllDeclaration') {
      const specifiers = (node['specifiers'] as Node[] | undefined) ?? [];
      const onlyTypes =
        node['exportKind'] === 'type' ||
        (specifiers.length > 0 && specifiers.every((s) => s['exportKind'] === 'type'));
      return onlyTypes ? [] : [source];
    }
    return [];
  });
}

/** Every module and package that loads with `entry` before anything it imports on demand. */
async function loadedWith(entry: string): Promise<{ modules: string[]; packages: string[] }> {
  const modules = new Set<string>();
  const packages = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (modules.has(file)) continue;
    modules.add(file);
    if (!/\.tsx?$/.test(file)) continue;
    const code = await readFile(path.join(root, file), 'utf8');
    for (const specifier of staticImports(code, file)) {
      if (specifier.startsWith('.')) queue.push(path.join(path.dirname(file), specifier));
      else
        packages.add(
          specifier
            .split('/')
            .slice(0, specifier.startsWith('@') ? 2 : 1)
            .join('/'),
        );
    }
  }
  return { modules: [...modules], packages: [...packages] };
}

describe("a questionnaire's first question", () => {
  it.each(['src/site/questionnaire/tabaluga-page.tsx', 'src/site/questionnaire/pkv-page.tsx'])(
    '%s loads React and its own code only',
    async (page) => {
      const { modules, packages } = await loadedWith(page);
      expect(packages.sort()).toEqual(['react']);
      expect(modules).toContain('src/config/questionnaires-built.json');
      for (const later of [
        'src/domain/questionnaire-schema.ts',
        'src/domain/contact-forms.ts',
        'src/domain/submission.ts',
        'src/offline/definitions.ts',
        'src/offline/offline-db.ts',
        'src/offline/submit-lead.ts',
        'src/site/questionnaire/contact-step.tsx',
      ]) {
        expect(modules, later).not.toContain(later);
      }
    },
  );
});
