/**
 * Two Vitest projects: the server (node, real DuckDB, real ports) and the SPA's pure modules and
 * components (jsdom). `npm run test:unit` runs both.
 */
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  test: {
    // Two files at a time even on two cores (Vitest's default there is one): most server files
    // wait on trainings, instance start-ups and sockets, and one file's start-up overlaps the
    // other's work (measured: files ran one at a time with 352 s of the 856 s between files).
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts', 'bench/**/*.test.ts', 'scripts/**/*.test.ts'],
          // One training cache for the run (server/test/global-setup.ts): files that train the
          // same demo tables without watching the training opt in and train each request once.
          globalSetup: ['server/test/global-setup.ts'],
          // Hang guards, not speed checks: a training of 10-15 s on an idle machine takes 8 times
          // longer at load 16 on two cores, and no test may fail because the machine is busy.
          // Tests wait on conditions (a model complete, a process gone), never on the clock.
          testTimeout: 300_000,
          hookTimeout: 300_000,
          pool: 'forks',
          // Files share a worker's module graph: each server file otherwise imports Fastify,
          // DuckDB and the engine again (server/sql: 86 s of imports for 20 files -> 24 s).
          // Server modules keep no per-test state at module level (instances hold it), and tests
          // that change process.env or spy on a module restore it in finally blocks.
          isolate: false,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'web',
          environment: 'jsdom',
          // Worker threads start faster than forked processes; these files share no native state.
          pool: 'threads',
          // Files share a worker's jsdom and module graph: a fresh jsdom and React per file was
          // nine tenths of this project's CPU (measured: 156 CPU-s isolated, 19 shared, for the
          // same 451 tests; they pass in shuffled order too). src/test/setup.ts gives each file a
          // clean page: storage, URL and <html> attributes as a fresh jsdom has them.
          isolate: false,
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['src/test/setup.ts'],
          // Waits end when their condition holds (src/test/setup.ts); these bounds only catch a hang.
          testTimeout: 30_000,
        },
      },
    ],
  },
});
