/**
 * Downloads for MindsDB's URL file import (`PUT /api/files/{name}` with `{"source_type": "url"}`),
 * made so that a URL cannot turn the instance against its own network (SSRF): only http and
 * https; only public unicast addresses unless URL_IMPORT_ALLOWED_HOSTS names the host or address;
 * every address a name resolves to is checked, inside the socket's own DNS lookup, so the
 * connection goes only to an address that passed (a name that answers a public address to a
 * check and a private one to the connect, DNS rebinding, has no second lookup to exploit); each
 * redirect is a new request checked the same way; one deadline covers the whole download.
 */
import dns from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { ERROR_CODES, ServiceError } from '../errors';
import { hostAllowed } from './index';

interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address of a name (tests substitute one that answers like a rebinding name). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

const systemResolver: Resolver = (hostname) =>
  dns.promises.lookup(hostname, { all: true, verbatim: true });

export interface UrlFetchOptions {
  /**
   * URL_IMPORT_ALLOWED_HOSTS: names (`files.internal`, `*.corp.example`) whose addresses are all
   * allowed, and addresses or CIDR ranges (`127.0.0.1`, `10.0.0.0/8`) allowed whatever the name.
   */
  allowedHosts: readonly string[];
  /** Deadline of the whole download, redirects included. */
  timeoutMs: number;
  /** Refuses a response that announces more (Content-Length); the caller counts the bytes. */
  maxBytes: number;
  maxRedirects?: number;
  resolve?: Resolver;
}

export interface FetchedUrl {
  body: IncomingMessage;
  /** The media type the server declared, if any. */
  contentType?: string;
  /** The last path segment of the final URL (`data.csv`), for format detection. */
  fileName?: string;
  url: string;
  /** Aborts at the deadline (the body is destroyed then); `aborted` tells a timeout apart. */
  deadline: AbortSignal;
}

const MAX_REDIRECTS = 5;

/** What `address` is when it is not a public unicast address (`loopback`, `private`, ...). */
export function nonPublicRange(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'invalid';
  const range = ipaddr.process(address).range();
  return range === 'unicast' ? null : range;
}

const refused = (message: string) => new ServiceError(ERROR_CODES.FORBIDDEN, message, 400);
const failed = (message: string) => new ServiceError(ERROR_CODES.BAD_INPUT, message, 400);

const ALLOW_HINT =
  'URL imports reach public addresses only; add the host or address to URL_IMPORT_ALLOWED_HOSTS to allow it';

class Policy {
  constructor(private readonly allowed: readonly string[]) {}

  nameAllowed(hostname: string): boolean {
    return this.allowed.length > 0 && !net.isIP(hostname) && hostAllowed(hostname, this.allowed);
  }

  /** Throws unless `address` is public or allowed; `via` names the host it came from. */
  check(address: string, via: string): void {
    const range = nonPublicRange(address);
    if (range === null) return;
    const plain = ipaddr.isValid(address) ? ipaddr.process(address).toString() : address;
    if (
      this.allowed.length > 0 &&
      (hostAllowed(plain, this.allowed) || hostAllowed(address, this.allowed))
    )
      return;
    const what = via === plain ? `'${via}'` : `'${via}' resolves to ${plain}, which`;
    throw refused(`${what} is a ${rangeName(range)} address. ${ALLOW_HINT}`);
  }
}

function rangeName(range: string): string {
  const names: Record<string, string> = {
    loopback: 'loopback',
    private: 'private',
    linkLocal: 'link-local',
    uniqueLocal: 'unique-local (private)',
    unspecified: 'unspecified',
    carrierGradeNat: 'carrier-grade NAT (shared)',
    multicast: 'multicast',
    broadcast: 'broadcast',
  };
  return names[range] ?? `non-public (${range})`;
}

/**
 * The socket's DNS lookup: resolves every address of the name, refuses the connection if any is
 * non-public and not allowed, and hands the socket only the addresses it checked.
 */
function guardedLookup(policy: Policy, resolve: Resolver): net.LookupFunction {
  return (hostname, options, done) => {
    const wanted =
      options.family === 4 || options.family === 'IPv4'
        ? 4
        : options.family === 6 || options.family === 'IPv6'
          ? 6
          : 0;
    const checked = async () => {
      const all = await resolve(hostname).catch((err: Error) => {
        throw failed(`Cannot resolve host '${hostname}': ${err.message}`);
      });
      if (all.length === 0) throw failed(`Cannot resolve host '${hostname}'`);
      if (!policy.nameAllowed(hostname)) for (const a of all) policy.check(a.address, hostname);
      const usable = wanted ? all.filter((a) => a.family === wanted) : all;
      if (usable.length === 0) throw failed(`Host '${hostname}' has no IPv${wanted} address`);
      return usable;
    };
    // Two-armed then: an exception inside the socket's callback is not taken for a lookup failure.
    checked().then(
      (usable) =>
        options.all ? done(null, usable) : done(null, usable[0].address, usable[0].family),
      (err: unknown) => done(err as NodeJS.ErrnoException, '', 0),
    );
  };
}

function parseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw failed(`The URL is not valid: ${raw.slice(0, 200)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw refused(
      `Only http and https URLs can be imported, not '${url.protocol.replace(/:$/, '')}'`,
    );
  }
  return url;
}

function lastSegment(url: URL): string | undefined {
  const seg = url.pathname.split('/').filter(Boolean).at(-1);
  if (!seg) return undefined;
  try {
    return decodeURIComponent(seg);
  } catch {
    return seg;
  }
}

/** One request: the response, or a ServiceError naming what failed. */
function request(
  url: URL,
  policy: Policy,
  resolve: Resolver,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  // An address literal never reaches the lookup: check it here.
  if (net.isIP(host)) policy.check(host, host);
  const get = url.protocol === 'https:' ? https.get : http.get;
  return new Promise((ok, fail) => {
    const req = get(
      url,
      {
        lookup: guardedLookup(policy, resolve),
        signal,
        headers: { 'user-agent': 'sql-model-playground-url-import', accept: '*/*' },
        // No connection reuse: every request goes through the lookup above.
        agent: false,
      },
      ok,
    );
    req.on('error', (err) => {
      if (err instanceof ServiceError) return fail(err);
      const cause = (err as Error & { cause?: unknown }).cause;
      if (cause instanceof ServiceError) return fail(cause);
      fail(err);
    });
  });
}

/**
 * Downloads `raw` under the policy: the response body of the final, 200 answer after at most five
 * redirects. The caller reads `body` (bounded by its own byte count) before the deadline.
 */
export async function fetchUrl(raw: string, opts: UrlFetchOptions): Promise<FetchedUrl> {
  const policy = new Policy(opts.allowedHosts);
  const resolve = opts.resolve ?? systemResolver;
  const signal = AbortSignal.timeout(opts.timeoutMs);
  let url = parseUrl(raw);
  const maxRedirects = opts.maxRedirects ?? MAX_REDIRECTS;
  for (let hop = 0; ; hop++) {
    let res: IncomingMessage;
    try {
      res = await request(url, policy, resolve, signal);
    } catch (err) {
      throw downloadError(err, url, opts.timeoutMs);
    }
    const status = res.statusCode ?? 0;
    if (status >= 300 && status < 400 && res.headers.location) {
      res.resume();
      if (hop >= maxRedirects)
        throw failed(`The URL redirected more than ${maxRedirects} times; import the final URL`);
      url = parseUrl(new URL(res.headers.location, url).href);
      continue;
    }
    if (status !== 200) {
      res.resume();
      throw failed(
        `The URL answered HTTP ${status}${res.statusMessage ? ` ${res.statusMessage}` : ''}, not 200 with a file`,
      );
    }
    const length = Number(res.headers['content-length']);
    if (Number.isFinite(length) && length > opts.maxBytes) {
      res.destroy();
      throw new ServiceError(
        ERROR_CODES.TOO_LARGE,
        `The file at the URL is ${length} bytes, more than the upload limit (${opts.maxBytes} bytes, MAX_UPLOAD_BYTES)`,
      );
    }
    // The deadline also covers reading the body: the signal destroys the response.
    res.on('error', () => undefined);
    return {
      body: res,
      contentType: res.headers['content-type'],
      fileName: lastSegment(url),
      url: url.href,
      deadline: signal,
    };
  }
}

/** A failed request as a ServiceError: refusals as they are, timeouts and network errors named. */
export function downloadError(err: unknown, url: URL, timeoutMs: number): ServiceError {
  if (err instanceof ServiceError) return err;
  const e = err as Error & { code?: string };
  if (e.name === 'AbortError' || e.name === 'TimeoutError' || e.code === 'ABORT_ERR') {
    return new ServiceError(
      ERROR_CODES.TIMEOUT,
      `The download from ${url.host} did not finish within ${timeoutMs} ms (URL_IMPORT_TIMEOUT_MS)`,
    );
  }
  return failed(`Cannot download ${url.href.slice(0, 200)}: ${e.message}`);
}
