// Import cycles, type-only imports included (`npm run lint`). ESLint's import-x/no-cycle finds
// the cycles that run; it skips `import type` by design, and a type cycle is still two modules
// that cannot be understood or moved one without the other (issue 22).
/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'Ein Import-Kreis: zwei Module hängen (auch nur über Typen) voneinander ab. ' +
        'Das Gemeinsame gehört in ein Modul darunter.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js', '.mjs'],
    },
  },
};
