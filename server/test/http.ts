/**
 * Raw HTTP for tests that must control every byte: the path goes out as written (fetch would
 * normalise `%2e%2e` and `//` away), any method may carry a body, any Host or Origin can be sent,
 * and `rawSocket` writes arbitrary bytes for malformed-HTTP cases.
 */
import http from 'node:http';
import net from 'node:net';

export interface RawResponse {
  status: number;
  type: string;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: any;
}

export function rawRequest(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
): Promise<RawResponse> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const h =
      body === undefined
        ? headers
        : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
    const req = http.request(
      { host: u.hostname, port: u.port, method, path, headers: h, setHost: !('host' in h) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({
            status: res.statusCode ?? 0,
            type: String(res.headers['content-type'] ?? ''),
            headers: res.headers,
            text,
            json,
          });
        });
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.end(body);
    else req.end();
  });
}

/**
 * Writes `bytes` to the server as they are and returns everything it answers until it closes
 * the connection (or `endAfterMs` passes, then the socket is closed from this side).
 */
export function rawSocket(
  base: string,
  bytes: string | Buffer,
  o: { halfClose?: boolean; endAfterMs?: number } = {},
): Promise<{ status: number; text: string; json: any }> {
  const u = new URL(base);
  return new Promise((resolve) => {
    let out = '';
    const s = net.connect(Number(u.port), u.hostname, () => {
      if (o.halfClose) s.end(bytes);
      else s.write(bytes);
    });
    const timer = setTimeout(() => s.destroy(), o.endAfterMs ?? 5_000);
    s.on('data', (d) => (out += d.toString('utf8')));
    const done = () => {
      clearTimeout(timer);
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(out)?.[1] ?? 0);
      const body = out.slice(out.indexOf('\r\n\r\n') + 4);
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      resolve({ status, text: out, json });
    };
    s.on('close', done);
    s.on('error', () => undefined);
  });
}
