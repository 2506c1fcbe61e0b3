import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'server/**/*.test.ts', 'tests/**/*.test.ts'],
    environment: 'node',
    setupFiles: ['src/testing/vitest-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 120_000,
    // PGlite instances and a PostgreSQL cluster are heavy; two cores do best with few workers.
    maxWorkers: 2,
  },
});
