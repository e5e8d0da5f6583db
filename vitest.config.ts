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
          testTimeout: 60_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'web',
          environment: 'jsdom',
          // Worker threads start faster than forked processes; these files share no native state.
          pool: 'threads',
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['src/test/setup.ts'],
          // Waits end when their condition holds (src/test/setup.ts); these bounds only catch a hang.
          testTimeout: 30_000,
        },
      },
    ],
  },
});
