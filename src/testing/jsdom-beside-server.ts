// A browser document for a component test that starts the real test server (PGlite and the
// gateway, tests/helpers/gateway-server.ts) in its own process. Import it first, before Testing
// Library, in a test file without `@vitest-environment jsdom`:
//
// - Vitest's jsdom environment transforms every module as browser code, which rewrites the
//   server's `new URL(path, import.meta.url)` into a page address; in the default (node)
//   environment the server's modules load as Node code, and this module adds the same jsdom
//   globals that environment would.
// - jsdom brings typed arrays of its own realm; jose and PGlite in the server check keys and
//   buffers with `instanceof Uint8Array`, so Node's typed arrays stay global. The browser side
//   is none the worse: jsdom's TextEncoder and crypto hand out Node's arrays anyway.
// - fetch, Request, Response and AbortController stay Node's (as in Vitest's jsdom environment),
//   so supabase-js talks real HTTP to 127.0.0.1.

import { afterAll } from 'vitest';
import { builtinEnvironments } from 'vitest/runtime';

const nodeArrays = {
  ArrayBuffer,
  Uint8Array,
  Uint8ClampedArray,
  Uint16Array,
  Uint32Array,
  Int8Array,
  Int16Array,
  Int32Array,
  Float32Array,
  Float64Array,
};

const dom = await builtinEnvironments.jsdom.setup(globalThis, {});
Object.assign(globalThis, nodeArrays);
afterAll(() => dom.teardown(globalThis));

// Testing Library binds `screen` to the document when it loads, so it loads after the setup. The
// wait is src/testing/vitest-setup.ts's for jsdom test files (that ran before the document).
const { configure } = await import('@testing-library/dom');
configure({ asyncUtilTimeout: 5_000 });
