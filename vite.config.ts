/**
 * Vite config for the playground. The SPA only ever calls `/api/...` on its own origin; the dev
 * and preview servers proxy `/api` and `/v1/api` to INSTANCE_URL (the embedded instance by
 * default, or any MindsDB-compatible server). INSTANCE_SESSION, when set, is sent as the
 * `session` cookie for hosted targets.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig, type ProxyOptions } from 'vite';
import react from '@vitejs/plugin-react';
import { isAppStylesheetFile, scopeAppStyles } from './src/lib/scope-styles.js';

const srcDir = fileURLToPath(new URL('./src/', import.meta.url));

const target = process.env.INSTANCE_URL ?? `http://127.0.0.1:${process.env.PORT ?? 47334}`;
const session = process.env.INSTANCE_SESSION;

const proxy: ProxyOptions = {
  target,
  changeOrigin: true,
  configure(p) {
    if (!session) return;
    p.on('proxyReq', (req) => {
      const existing = req.getHeader('cookie');
      const cookie = `session=${session}`;
      req.setHeader('cookie', existing ? `${existing}; ${cookie}` : cookie);
    });
  },
};

export default defineConfig({
  plugins: [react()],
  server: {
    host: '127.0.0.1',
    port: Number(process.env.UI_PORT ?? 5173),
    proxy: { '/api': proxy, '/v1/api': proxy },
  },
  preview: {
    host: '127.0.0.1',
    port: Number(process.env.UI_PORT ?? 4173),
    proxy: { '/api': proxy, '/v1/api': proxy },
  },
  css: {
    // App styles never reach inside Monaco or AG Grid (see src/lib/scope-styles.ts).
    postcss: {
      plugins: [scopeAppStyles({ isAppStylesheet: (f) => isAppStylesheetFile(f, srcDir) })],
    },
  },
  define: {
    __INSTANCE_TARGET__: JSON.stringify(target),
  },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 4000,
  },
});
