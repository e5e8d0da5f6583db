/**
 * Two Vitest projects: the server (node, real DuckDB, real ports) and the SPA's pure modules and
 * components (jsdom). `npm run test:unit` runs both.
 */
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  test: {
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
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['src/test/setup.ts'],
          // Waits end when their condition holds (src/test/setup.ts); these bounds only catch a hang.
          testTimeout: 30_000,
        },
      },
    ],
  },
});
