/**
 * MindsDB's URL file import (`PUT /api/files/{name}` with `{"source_type": "url", "source"}`)
 * against a real HTTP server on loopback: the instance under test allows 127.0.0.1 through
 * URL_IMPORT_ALLOWED_HOSTS, and one with the default configuration refuses every loopback,
 * private and link-local form. DNS rebinding is tested on `fetchUrl` with a resolver that answers
 * like a rebinding name, with two loopback addresses standing in for "public" and "private".
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../test/harness';
import { fetchUrl, nonPublicRange, type Resolver } from '../url-fetch';

const CSV = 'city,temp\nparis,21\noslo,12\nrome,25\n';

let origin: string;
let port: number;
let server: http.Server;
/** Paths the local server was asked for, in order. */
const served: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    served.push(url);
    const send = (status: number, type: string, body: string | Buffer) => {
      res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
      res.end(body);
    };
    if (url === '/data.csv') return send(200, 'text/csv', CSV);
    if (url === '/download') return send(200, 'application/octet-stream', CSV);
    if (url === '/records')
      return send(
        200,
        'application/json',
        JSON.stringify([
          { k: 'a', n: 1 },
          { k: 'b', n: 2 },
        ]),
      );
    if (url === '/moved') {
      res.writeHead(302, { location: '/data.csv' });
      return res.end();
    }
    if (url.startsWith('/to?')) {
      res.writeHead(307, { location: decodeURIComponent(url.slice(4)) });
      return res.end();
    }
    if (url === '/loop') {
      res.writeHead(301, { location: '/loop' });
      return res.end();
    }
    if (url === '/page') return send(200, 'text/html; charset=utf-8', '<html>sign in</html>');
    if (url === '/big') return send(200, 'text/csv', `x\n${'1\n'.repeat(20_000)}`);
    if (url === '/big-chunked') {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.write('x\n');
      for (let i = 0; i < 100; i++) res.write('1\n'.repeat(500));
      return res.end();
    }
    if (url === '/stall') {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.write('x\n1\n');
      return; // never ends
    }
    send(404, 'text/plain', 'no such file');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

async function importUrl(h: Harness, name: string, body: unknown) {
  const res = await fetch(`${h.url}/api/files/${name}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe('with 127.0.0.1 allowed (URL_IMPORT_ALLOWED_HOSTS)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      URL_IMPORT_ALLOWED_HOSTS: ['127.0.0.1'],
      MAX_UPLOAD_BYTES: 10_000,
      URL_IMPORT_TIMEOUT_MS: 1500,
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('downloads the URL and loads it as files.<name>, not as a one-row table of the request', async () => {
    const r = await importUrl(h, 'weather', { source_type: 'url', source: `${origin}/data.csv` });
    expect(r).toEqual({
      status: 200,
      body: { name: 'weather', row_count: 3, columns: ['city', 'temp'] },
    });
    expect(
      (await h.sql('SELECT city FROM files.weather WHERE temp > 20 ORDER BY city')).data,
    ).toEqual([['paris'], ['rome']]);
  });

  it('takes the format from the Content-Type, the file name or the bytes', async () => {
    const json = await importUrl(h, 'records', {
      source_type: 'url',
      source: `${origin}/records`,
    });
    expect(json.body).toEqual({ name: 'records', row_count: 2, columns: ['k', 'n'] });
    const sniffed = await importUrl(h, 'sniffed', {
      source_type: 'url',
      source: `${origin}/download`,
      original_file_name: 'weather.csv',
    });
    expect(sniffed.body).toMatchObject({ row_count: 3, columns: ['city', 'temp'] });
  });

  it('follows redirects, at most five', async () => {
    const r = await importUrl(h, 'moved', { source_type: 'url', source: `${origin}/moved` });
    expect(r.body).toMatchObject({ name: 'moved', row_count: 3 });
    const loop = await importUrl(h, 'loop', { source_type: 'url', source: `${origin}/loop` });
    expect(loop.status).toBe(400);
    expect(loop.body.error_message).toBe(
      'The URL redirected more than 5 times; import the final URL',
    );
  });

  it('checks every redirect again: one to another loopback address or a private one is refused', async () => {
    for (const target of [
      `http://127.0.0.2:${port}/data.csv`,
      'http://10.255.255.1/data.csv',
      'http://169.254.169.254/latest/meta-data/',
      'file:///etc/passwd',
    ]) {
      const before = served.length;
      const r = await importUrl(h, 'hop', {
        source_type: 'url',
        source: `${origin}/to?${encodeURIComponent(target)}`,
      });
      expect(r.status, target).toBe(400);
      expect(r.body.error_code, target).toBe(10);
      expect(served.slice(before)).toHaveLength(1); // only the redirecting request
    }
  });

  it('answers failures of the download with specific 400s, 408s and 413s, and loads nothing', async () => {
    const missing = await importUrl(h, 'gone', { source_type: 'url', source: `${origin}/nope` });
    expect(missing.status).toBe(400);
    expect(missing.body.error_message).toBe(
      'The URL answered HTTP 404 Not Found, not 200 with a file',
    );
    const page = await importUrl(h, 'page', { source_type: 'url', source: `${origin}/page` });
    expect(page.status).toBe(400);
    expect(page.body.error_message).toMatch(/^The URL answered with an HTML page, not a data file/);
    const big = await importUrl(h, 'big', { source_type: 'url', source: `${origin}/big` });
    expect(big.status).toBe(413);
    expect(big.body.error_message).toMatch(/40002 bytes, more than the upload limit \(10000 bytes/);
    const chunked = await importUrl(h, 'big', {
      source_type: 'url',
      source: `${origin}/big-chunked`,
    });
    expect(chunked.status).toBe(413);
    const stall = await importUrl(h, 'stall', { source_type: 'url', source: `${origin}/stall` });
    expect(stall.status).toBe(408);
    expect(stall.body).toMatchObject({ error_code: 5 });
    expect(stall.body.error_message).toMatch(
      /did not finish within 1500 ms \(URL_IMPORT_TIMEOUT_MS\)/,
    );
    const closed = await importUrl(h, 'closed', {
      source_type: 'url',
      source: 'http://127.0.0.1:9/x.csv',
    });
    expect(closed.status).toBe(400);
    expect(closed.body.error_message).toMatch(/^Cannot download http:\/\/127\.0\.0\.1:9\/x\.csv: /);
    const names = (await h.get('/api/files')).body.map((f: { name: string }) => f.name);
    for (const n of ['gone', 'page', 'big', 'stall', 'closed']) expect(names).not.toContain(n);
  });

  it("refuses what MindsDB refuses in the request, with MindsDB's reasons", async () => {
    const cases: [unknown, RegExp][] = [
      [
        { source_type: 'url', source: 'ftp://127.0.0.1/x.csv' },
        /^Only http and https URLs can be imported, not 'ftp'$/,
      ],
      [{ source_type: 'url', source: 'file:///etc/passwd' }, /not 'file'/],
      [{ source_type: 'url', source: 'not a url' }, /^The URL is not valid: not a url$/],
      [{ source_type: 'url' }, /^source is required/],
      [
        { source_type: 'url', source: `${origin}/data.csv`, extra: 1 },
        /^Unexpected parameters in request: extra\. Allowed parameters: original_file_name, source, source_type$/,
      ],
      [{ source_type: 'file', source: 'x' }, /needs a multipart upload/],
      [{ source_type: 'ftp', source: 'x' }, /^source_type must be "url" or "file", got "ftp"$/],
    ];
    for (const [body, message] of cases) {
      const r = await importUrl(h, 'req', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error_message, JSON.stringify(body)).toMatch(message);
    }
  });

  it('still loads a JSON body that is data (an array of records) as the file', async () => {
    const r = await importUrl(h, 'inline', [{ source: 'web', n: 1 }]);
    expect(r.body).toEqual({ name: 'inline', row_count: 1, columns: ['source', 'n'] });
  });
});

describe('by default (no URL_IMPORT_ALLOWED_HOSTS)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('refuses loopback, private, link-local and other non-public hosts, before connecting', async () => {
    const before = served.length;
    const refused: [string, RegExp][] = [
      [
        `${origin}/data.csv`,
        /^'127\.0\.0\.1' is a loopback address\. URL imports reach public addresses only; add the host or address to URL_IMPORT_ALLOWED_HOSTS to allow it$/,
      ],
      [
        `http://localhost:${port}/data.csv`,
        /^'localhost' resolves to (127\.0\.0\.1|::1), which is a loopback address/,
      ],
      [`http://[::1]:${port}/data.csv`, /loopback/],
      [`http://[::ffff:127.0.0.1]:${port}/data.csv`, /loopback/],
      [`http://2130706433:${port}/data.csv`, /'127\.0\.0\.1' is a loopback address/],
      [`http://0.0.0.0:${port}/data.csv`, /unspecified/],
      ['http://10.1.2.3/data.csv', /'10\.1\.2\.3' is a private address/],
      ['http://192.168.0.10/data.csv', /private/],
      ['http://100.64.0.1/data.csv', /carrier-grade NAT/],
      ['http://169.254.169.254/latest/meta-data/', /link-local/],
      ['http://[fe80::1]/data.csv', /link-local/],
      ['http://[fd12::1]/data.csv', /unique-local/],
      ['https://[::]/data.csv', /unspecified/],
    ];
    for (const [source, message] of refused) {
      const r = await importUrl(h, 'refused', { source_type: 'url', source });
      expect(r.status, source).toBe(400);
      expect(r.body.error_code, source).toBe(10);
      expect(r.body.error_message, source).toMatch(message);
    }
    expect(served.length).toBe(before);
    expect((await h.get('/api/files')).body).toEqual([]);
  });
});

describe('fetchUrl and DNS answers', () => {
  /** A resolver from a table of answers per name, each answer used in turn (the last repeats). */
  function resolver(answers: Record<string, string[][]>): Resolver & { calls: string[] } {
    const calls: string[] = [];
    const fn = async (name: string) => {
      calls.push(name);
      const list = answers[name] ?? [];
      const addrs =
        list[Math.min(calls.filter((c) => c === name).length - 1, list.length - 1)] ?? [];
      return addrs.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    };
    return Object.assign(fn, { calls });
  }
  const opts = (resolve: Resolver, allowedHosts: string[] = []) => ({
    allowedHosts,
    timeoutMs: 2000,
    maxBytes: 10_000,
    resolve,
  });

  it('refuses a name when any of its addresses is non-public', async () => {
    const resolve = resolver({ 'mixed.test': [['93.184.216.34', '127.0.0.1']] });
    await expect(fetchUrl(`http://mixed.test:${port}/data.csv`, opts(resolve))).rejects.toThrow(
      "'mixed.test' resolves to 127.0.0.1, which is a loopback address",
    );
  });

  it('connects only to the address it checked, so a rebinding name never reaches the private address', async () => {
    // 127.0.0.2 stands in for a public address (allowed); 127.0.0.1, where the server listens,
    // for the private one. The name answers the allowed address first, then the private one:
    // an implementation that checked one answer and connected with another would reach the
    // server.
    const before = served.length;
    const resolve = resolver({ 'rebind.test': [['127.0.0.2'], ['127.0.0.1']] });
    await expect(
      fetchUrl(`http://rebind.test:${port}/data.csv`, opts(resolve, ['127.0.0.2'])),
    ).rejects.toThrow(/ECONNREFUSED 127\.0\.0\.2/);
    await expect(
      fetchUrl(`http://rebind.test:${port}/data.csv`, opts(resolve, ['127.0.0.2'])),
    ).rejects.toThrow("'rebind.test' resolves to 127.0.0.1, which is a loopback address");
    expect(resolve.calls).toEqual(['rebind.test', 'rebind.test']);
    expect(served.length).toBe(before);
  });

  it('resolves names again after a redirect, and an allowed name allows its addresses', async () => {
    const resolve = resolver({ 'files.test': [['127.0.0.1']], 'other.test': [['127.0.0.1']] });
    const ok = await fetchUrl(`http://files.test:${port}/moved`, opts(resolve, ['files.test']));
    ok.body.resume();
    expect(ok.url).toBe(`http://files.test:${port}/data.csv`);
    expect(resolve.calls).toEqual(['files.test', 'files.test']);
    const target = encodeURIComponent(`http://other.test:${port}/data.csv`);
    await expect(
      fetchUrl(`http://files.test:${port}/to?${target}`, opts(resolve, ['files.test'])),
    ).rejects.toThrow("'other.test' resolves to 127.0.0.1, which is a loopback address");
  });

  it('classifies addresses with their IANA ranges', () => {
    expect(nonPublicRange('8.8.8.8')).toBeNull();
    expect(nonPublicRange('2606:4700::1111')).toBeNull();
    expect(nonPublicRange('::ffff:10.0.0.1')).toBe('private');
    expect(nonPublicRange('64:ff9b::7f00:1')).toBe('rfc6052');
    expect(nonPublicRange('198.18.0.1')).toBe('reserved');
    expect(nonPublicRange('nonsense')).toBe('invalid');
  });
});
