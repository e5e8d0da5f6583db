/**
 * Vite config for the playground. The SPA only ever calls `/api/...` on its own origin; the dev
 * and preview servers proxy `/api` and `/v1/api` to INSTANCE_URL (the embedded instance by
 * default, or any MindsDB-compatible server). INSTANCE_SESSION, when set, is sent as the
 * `session` cookie for hosted targets.
 *
 * The proxy is a door to the instance (and, with INSTANCE_SESSION, to a logged-in hosted
 * deployment), so it applies the instance's own rule before forwarding: a request whose Origin is
 * not the playground's own (or that a browser marks cross-site) is answered 403 here and never
 * reaches the target. A same-origin request is forwarded without its Origin header: the target
 * sees the proxy, not a foreign page.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { basename, dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin, type ProxyOptions } from 'vite';
import react from '@vitejs/plugin-react';
import { isAppStylesheetFile, scopeAppStyles } from './src/lib/scope-styles.js';
import { FIRST_SCREEN } from './scripts/dev-ready.mjs';

const srcDir = fileURLToPath(new URL('./src/', import.meta.url));

/** The Monaco features the app imports (src/lib/monaco-features.ts is their one list). */
const MONACO_FEATURES = [
  ...readFileSync(new URL('./src/lib/monaco-features.ts', import.meta.url), 'utf8').matchAll(
    /^import '(monaco-editor\/[^']+)';$/gm,
  ),
].map((m) => m[1]);

/** `npm run dev` first visit in under 3 s (README: figures): what to prepare before it. */
const DEV_PREBUNDLE = [
  'react',
  'react-dom/client',
  'react/jsx-runtime',
  '@tanstack/react-query',
  'zod',
  'monaco-editor/editor/editor.api',
  ...MONACO_FEATURES,
  '@monaco-editor/react',
  'ag-grid-community',
  'ag-grid-react',
];

/**
 * Dev only: Monaco's ESM imports ~100 small CSS files, which the browser would fetch one by one
 * before the editor bundle may run. The pre-bundle carries them as style injections instead, in
 * the same order (a production build bundles CSS anyway).
 */
const INLINE_CSS = '?monaco-inline-css';
const inlineMonacoCss = {
  name: 'inline-monaco-css',
  resolveId(id: string, importer?: string) {
    if (!id.endsWith('.css') || !importer?.includes('/monaco-editor/esm/')) return null;
    return resolve(dirname(importer), id) + INLINE_CSS;
  },
  load(id: string) {
    if (!id.endsWith(INLINE_CSS)) return null;
    const file = id.slice(0, -INLINE_CSS.length);
    const dir = relative(fileURLToPath(new URL('.', import.meta.url)), dirname(file));
    const css = readFileSync(file, 'utf8').replace(
      /url\((['"]?)\.\/([^)'"]+)\1\)/g,
      (_m, q: string, path: string) => `url(${q}/${dir}/${path}${q})`,
    );
    const code = `const s = document.createElement('style');\ns.textContent = ${JSON.stringify(css)};\ndocument.head.appendChild(s);\n`;
    return { code, moduleType: 'js' as const };
  },
};

/**
 * Monaco 0.55-0.57's `internal/common/workers.js` (what a language worker such as JSON's starts
 * through) side-imports every editor contribution, so opening the JSON body editor would load all
 * that src/lib/monaco-features.ts leaves out (microsoft/monaco-editor#5162, open). Its code stays;
 * only those side imports are dropped, in the build and in the dev pre-bundle alike.
 */
const MONACO_WORKERS = '/monaco-editor/esm/vs/internal/common/workers.js';
const slimMonacoWorkers = {
  name: 'slim-monaco-workers',
  transform(code: string, id: string) {
    if (!id.split('?')[0].endsWith(MONACO_WORKERS)) return null;
    const slim = code.replace(/^import '\.\.\/\.\.\/(editor|base)\/[^']+';\n/gm, '');
    return { code: slim, map: null };
  },
};

/**
 * Dev only: a pre-bundled dependency is served with a link to its source map file instead of the
 * map inlined as base64 (which the dev server would otherwise build for every request: Monaco's
 * chunk grew from 4.5 MB to 16.5 MB on the wire). DevTools still find the map.
 */
const linkDepSourcemaps: Plugin = {
  name: 'link-dep-sourcemaps',
  apply: 'serve',
  transform(code, id) {
    const file = id.split('?')[0];
    if (!file.includes('/node_modules/.vite/deps/') || !file.endsWith('.js')) return null;
    if (/\/\/# sourceMappingURL=/.test(code) || !existsSync(`${file}.map`)) return null;
    // An empty map tells the dev server not to inline one.
    return { code: `${code}\n//# sourceMappingURL=${basename(file)}.map\n`, map: { mappings: '' } };
  },
};

const target = process.env.INSTANCE_URL ?? `http://127.0.0.1:${process.env.PORT ?? 47334}`;
const session = process.env.INSTANCE_SESSION;

/** Why the proxy refuses this request, or null to forward it. */
export function crossSiteProblem(req: IncomingMessage): string | null {
  const origin = req.headers.origin?.toLowerCase();
  const host = req.headers.host?.toLowerCase();
  if (origin !== undefined) {
    if (!host || (origin !== `http://${host}` && origin !== `https://${host}`))
      return `Requests from origin '${origin.slice(0, 100)}' are not forwarded`;
    return null;
  }
  const unsafe = !['GET', 'HEAD', 'OPTIONS'].includes(req.method ?? 'GET');
  if (unsafe && req.headers['sec-fetch-site'] === 'cross-site')
    return 'Cross-site requests are not forwarded';
  return null;
}

const proxy: ProxyOptions = {
  target,
  changeOrigin: true,
  bypass(req: IncomingMessage, res: ServerResponse | undefined) {
    const problem = crossSiteProblem(req);
    if (!problem || !res) return undefined;
    // The instance's error shape (MindsDB's problem details plus error_code/error_message).
    res.writeHead(403, { 'content-type': 'application/problem+json; charset=utf-8' });
    res.end(
      JSON.stringify({
        title: 'Forbidden',
        detail: problem,
        error_code: 10,
        error_message: problem,
      }),
    );
    // A string with the response ended tells Vite the request is handled.
    return req.url ?? '/';
  },
  configure(p) {
    // Names the target at run time (src/api/http.ts instanceTarget): a build never bakes it in, so
    // a preview on another port or against another instance shows where it really forwards.
    p.on('proxyRes', (res) => {
      res.headers['x-playground-target'] = target;
    });
    p.on('proxyReq', (req) => {
      req.removeHeader('origin');
      if (!session) return;
      const existing = req.getHeader('cookie');
      const cookie = `session=${session}`;
      req.setHeader('cookie', existing ? `${existing}; ${cookie}` : cookie);
    });
  },
};

export default defineConfig({
  plugins: [react(), linkDepSourcemaps, slimMonacoWorkers],
  server: {
    host: '127.0.0.1',
    port: Number(process.env.UI_PORT ?? 5173),
    proxy: { '/api': proxy, '/v1/api': proxy },
    // Transform the first screen (shell, editor, grid) while the instance boots, so the first
    // visit does not wait for it.
    warmup: { clientFiles: FIRST_SCREEN.map((f) => `./${f}`) },
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
  optimizeDeps: {
    // Pre-bundled at server start (not discovered on the first visit): Monaco and AG Grid are
    // thousands of modules as published.
    include: DEV_PREBUNDLE,
    // The first page is served as soon as the listed dependencies are bundled, without waiting
    // for the crawl of every import (seconds on a busy machine); a dependency found later is
    // bundled then.
    holdUntilCrawlEnd: false,
    rolldownOptions: { plugins: [inlineMonacoCss, slimMonacoWorkers] },
  },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 4000,
  },
});
