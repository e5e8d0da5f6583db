/**
 * Issue 22, item 3: a URL import cut by its deadline never replaces a good table with a fragment.
 * A real slow HTTP server sends part of a CSV and then nothing, in each framing a body can have:
 * delimited by the connection's close (where the deadline's abort looked like a normal end: 8 of
 * 120 rows stored, answered 200), chunked, and Content-Length. Each import must answer 408 (the
 * status docs/http-api.md gives code 5) and leave the earlier table whole. Also: a JSON file
 * nested deeper than JSON_MAX_DEPTH is refused as it arrives.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../test/harness';

const ROWS = Array.from({ length: 120 }, (_, i) => `${i},city_${i}`).join('\n');
const CSV = `id,name\n${ROWS}\n`;
const PART = CSV.slice(0, 120);

let server: net.Server;
let origin: string;
let h: Harness;
const open = new Set<net.Socket>();

/** A raw HTTP server, so each framing is exactly what goes over the wire. */
function respond(socket: net.Socket, path: string) {
  const head = (lines: string[]) => `HTTP/1.1 200 OK\r\n${lines.join('\r\n')}\r\n\r\n`;
  switch (path) {
    case '/whole.csv':
      socket.end(head(['Content-Type: text/csv', 'Connection: close']) + CSV);
      return;
    case '/close-delimited.csv':
      // No Content-Length, not chunked: the body ends when the connection closes.
      socket.write(head(['Content-Type: text/csv', 'Connection: close']) + PART);
      return;
    case '/chunked.csv':
      socket.write(
        head(['Content-Type: text/csv', 'Transfer-Encoding: chunked']) +
          `${PART.length.toString(16)}\r\n${PART}\r\n`,
      );
      return;
    case '/content-length.csv':
      socket.write(head(['Content-Type: text/csv', `Content-Length: ${CSV.length}`]) + PART);
      return;
    case '/deep.json': {
      const deep = `[{"a": ${'['.repeat(5000)}1${']'.repeat(5000)}}]`;
      socket.end(head(['Content-Type: application/json', `Content-Length: ${deep.length}`]) + deep);
      return;
    }
    default:
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
  }
}

beforeAll(async () => {
  server = net.createServer((socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => undefined);
    let buf = '';
    socket.on('data', (d) => {
      buf += d;
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      respond(socket, buf.split(' ')[1]);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  h = await startHarness({ URL_IMPORT_ALLOWED_HOSTS: ['127.0.0.1'], URL_IMPORT_TIMEOUT_MS: 1000 });
});

afterAll(async () => {
  await h?.close();
  for (const s of open) s.destroy();
  await new Promise((r) => server.close(r));
});

async function importUrl(name: string, path: string) {
  const res = await fetch(`${h.url}/api/files/${name}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ source_type: 'url', source: origin + path }),
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe('a URL import past its deadline', () => {
  it('loads the whole file when it arrives in time', async () => {
    const r = await importUrl('cities', '/whole.csv');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: 'cities', row_count: 120 });
  });

  for (const framing of ['close-delimited', 'chunked', 'content-length']) {
    it(`is a 408 and keeps the earlier table when the body is ${framing}`, async () => {
      const r = await importUrl('cities', `/${framing}.csv`);
      expect(r.status).toBe(408);
      expect(r.body).toMatchObject({ error_code: 5 });
      expect(r.body.error_message).toMatch(
        /did not finish within 1000 ms \(URL_IMPORT_TIMEOUT_MS\)/,
      );
      const t = await h.sql('SELECT count(*), max(id) FROM files.cities');
      expect(t.data).toEqual([[120, 119]]);
    });
  }

  it('refuses a JSON file nested deeper than JSON_MAX_DEPTH', async () => {
    const r = await importUrl('deep', '/deep.json');
    expect(r.status).toBe(400);
    expect(r.body.error_message).toMatch(/nested 5002 levels deep; the limit is 100/);
    const names = (await h.get('/api/files')).body.map((f: { name: string }) => f.name);
    expect(names).not.toContain('deep');
  });
});
