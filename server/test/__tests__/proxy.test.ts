/**
 * The playground's proxy (vite.config.ts) with INSTANCE_SESSION set, as it runs against a hosted
 * deployment: a request from another origin is answered 403 by the proxy and never reaches the
 * target (so never with the session cookie attached); the playground's own requests reach it with
 * the session and without their Origin. The real Vite dev server, a recording target.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type ViteDevServer } from 'vite';
import { rawRequest } from '../http';

let target: http.Server;
const seen: { url: string; cookie?: string; origin?: string }[] = [];
let vite: ViteDevServer;
let base = '';

beforeAll(async () => {
  target = http.createServer((req, res) => {
    seen.push({ url: req.url ?? '', cookie: req.headers.cookie, origin: req.headers.origin });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok": true}');
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  process.env.INSTANCE_URL = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
  process.env.INSTANCE_SESSION = 'hosted-session-value';
  vite = await createServer({
    configFile: 'vite.config.ts',
    logLevel: 'silent',
    server: { port: 0, host: '127.0.0.1', hmr: false },
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  await vite.listen();
  const addr = vite.httpServer!.address() as AddressInfo;
  base = `http://127.0.0.1:${addr.port}`;
});

afterAll(async () => {
  await vite?.close();
  await new Promise((r) => target.close(r));
  delete process.env.INSTANCE_URL;
  delete process.env.INSTANCE_SESSION;
});

const post = (headers: Record<string, string>) =>
  rawRequest(
    base,
    'POST',
    '/api/sql/query',
    { 'content-type': 'application/json', ...headers },
    '{"query": "SELECT 1"}',
  );

describe('the proxy with INSTANCE_SESSION', () => {
  it('answers 403 to a foreign Origin and forwards nothing', async () => {
    for (const origin of ['http://evil.example', 'null', `${base}.evil.example`]) {
      const r = await post({ origin });
      expect(r.status, origin).toBe(403);
      expect(r.json).toMatchObject({
        title: 'Forbidden',
        detail: expect.stringContaining('not forwarded'),
        error_code: 10,
      });
    }
    const cross = await post({ 'sec-fetch-site': 'cross-site' });
    expect(cross.status).toBe(403);
    expect(seen).toEqual([]);
  });

  it("forwards the playground's own requests with the session and without their Origin", async () => {
    const own = await post({ origin: base });
    expect(own.status).toBe(200);
    const plain = await post({});
    expect(plain.status).toBe(200);
    expect(seen).toHaveLength(2);
    for (const s of seen) {
      expect(s.url).toBe('/api/sql/query');
      expect(s.cookie).toBe('session=hosted-session-value');
      expect(s.origin).toBeUndefined();
    }
  });
});
