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
import type { IncomingMessage, ServerResponse } from 'node:http';
import { defineConfig, type ProxyOptions } from 'vite';
import react from '@vitejs/plugin-react';

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
    res.writeHead(403, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify({ error_code: 10, error_message: problem }));
    // A string with the response ended tells Vite the request is handled.
    return req.url ?? '/';
  },
  configure(p) {
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
  define: {
    __INSTANCE_TARGET__: JSON.stringify(target),
  },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 4000,
  },
});
