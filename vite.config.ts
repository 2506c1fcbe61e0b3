import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type ProxyOptions } from 'vite';

const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? 8080}`;

// The Node server owns these prefixes (hub API and the Supabase-compatible gateway), so the dev
// server and `vite preview` hand them over instead of answering with index.html.
const proxy: Record<string, ProxyOptions> = Object.fromEntries(
  ['/api', '/auth', '/rest', '/storage'].map((prefix) => [prefix, { target: apiTarget }]),
);

// Survey Desk code must never reach a visitor of the public pages. Every chunk that contains a
// module of the desk (its screens or its layout) gets a `desk-` prefix, whatever rolldown decides
// to merge, so scripts/check-size.mjs can prove by file name that no such chunk is loaded
// statically for /universa.
const deskModule = /\/src\/(desk\/|app\/desk-)/;

interface ChunkInfo {
  moduleIds: readonly string[];
}

function containsDeskCode(chunk: ChunkInfo): boolean {
  return chunk.moduleIds.some((id) => deskModule.test(id.replaceAll('\\', '/')));
}

export default defineConfig({
  plugins: [react(), tailwindcss()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        entryFileNames: (chunk) =>
          containsDeskCode(chunk) ? 'assets/desk-[name]-[hash].js' : 'assets/[name]-[hash].js',
        chunkFileNames: (chunk) =>
          containsDeskCode(chunk) ? 'assets/desk-[name]-[hash].js' : 'assets/[name]-[hash].js',
      },
    },
  },
  server: { proxy },
  preview: { proxy },
});
