/**
 * The front door: one onRequest hook that decides, before any parser or handler runs, whether a
 * request may reach the instance at all. The user's browser is also on the web, and any page can
 * send requests to 127.0.0.1, so the default (no auth, loopback) must hold against cross-site
 * requests and DNS rebinding, not only against remote hosts. In order:
 *
 * 1. Host: a DNS name must be a loopback name (`localhost`, `*.localhost`), the configured HOST or
 *    in ALLOWED_HOSTS; IP literals are always fine (a rebinding attack needs a name the attacker
 *    controls). Otherwise 421.
 * 2. Origin: when a browser says where the request comes from, it must be the instance's own
 *    origin (same host and port as the Host header) or in ALLOWED_ORIGINS; `null` (sandboxed
 *    frames, file://) is refused. A cross-site request without Origin (`Sec-Fetch-Site:
 *    cross-site`) that could change state is refused too. Otherwise 403.
 * 3. Content-Type: a request that could change state (POST, PUT, PATCH, DELETE) and carries a
 *    body must say JSON (uploads: multipart or a data type). The types a cross-site HTML form can
 *    send without a CORS preflight (text/plain, application/x-www-form-urlencoded) never pass.
 *    Otherwise 415.
 * 4. Authentication (when on): decided on the route Fastify actually dispatched to
 *    (`req.routeOptions`), never on the raw URL, so no spelling of a path (percent-encoding, a
 *    trailing slash, the `/v1/api` prefix) can reach a protected handler unauthenticated. Only
 *    routes registered with `config: { public: true }` open without a session; every other
 *    route answers 401. A path no route matches answers as MindsDB does: 401 under the paths
 *    MindsDB protects (and this instance's own), MindsDB's 404 elsewhere, so MindsDB's Python SDK,
 *    which tries `/cloud/login` first and falls back to `/api/login` on 404, can log in. Either
 *    way the answer depends on the path's prefix only, never on whether a route exists there.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isIpLiteral, isLoopback, type Config } from '../config';
import { ERROR_CODES, ServiceError } from '../errors';

/** Route options (`config`) the guard reads. */
interface GuardRouteConfig {
  /** Open without a session when auth is on (status, login). */
  public?: boolean;
  /** Media types this route accepts besides JSON for a body (uploads). */
  bodyTypes?: readonly string[];
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Where an unknown path still needs a session: MindsDB's protected namespaces
 * (mindsdb/api/http/initialize.py, `protected_namespaces`), and this instance's own paths outside
 * them (the `/v1/api` forms, the document, Swagger UI, logout).
 */
const PROTECTED_PREFIXES = [
  ...[
    'tabs',
    'util',
    'config',
    'files',
    'sql',
    'analysis',
    'handlers',
    'tree',
    'projects',
    'databases',
    'chatbots',
    'agents',
    'jobs',
    'knowledge_bases',
    'integrations',
    'openapi.json',
    'docs',
    'logout',
  ].map((ns) => `/api/${ns}`),
  '/v1/',
];

/**
 * A path as a router might read it, for the prefix test: percent-escapes decoded, dot segments
 * and repeated slashes resolved, matrix parameters dropped, lower case.
 */
function normalPath(url: string): string {
  let p = url.split('?')[0];
  for (let i = 0; i < 3 && p.includes('%'); i++) {
    try {
      p = decodeURIComponent(p);
    } catch {
      break;
    }
  }
  p = p.replace(/;[^/]*/g, '').replace(/\/+/g, '/');
  try {
    p = new URL(p, 'http://x').pathname;
  } catch {
    // keep p
  }
  return p.toLowerCase();
}

const needsSessionWhenUnknown = (url: string) => {
  const p = normalPath(url);
  return PROTECTED_PREFIXES.some((prefix) => p.startsWith(prefix));
};
const JSON_TYPE = 'application/json';

/** `example.com:8080` / `[::1]:8080` -> `example.com` / `::1`, lower case; null when malformed. */
function hostName(hostHeader: string): string | null {
  const h = hostHeader.trim().toLowerCase();
  const v6 = /^\[([0-9a-f:.]+)\](?::\d{1,5})?$/.exec(h);
  if (v6) return v6[1];
  const m = /^([a-z0-9._-]+)(?::\d{1,5})?$/.exec(h);
  return m ? m[1].replace(/\.$/, '') : null;
}

export function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0].trim().toLowerCase();
}

function hasBody(req: FastifyRequest): boolean {
  const len = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (len !== undefined && len !== '0');
}

export interface GuardOptions {
  config: Config;
  /** Whether this request carries a valid session; null when authentication is off. */
  authenticated: ((req: FastifyRequest) => boolean) | null;
}

export function registerRequestGuard(
  app: FastifyInstance,
  { config, authenticated }: GuardOptions,
) {
  const allowedHosts = new Set(
    [...config.ALLOWED_HOSTS, ...(isIpLiteral(config.HOST) ? [] : [config.HOST])].map((h) =>
      h.toLowerCase(),
    ),
  );
  const allowedOrigins = new Set(
    config.ALLOWED_ORIGINS.map((o) => o.replace(/\/+$/, '').toLowerCase()),
  );

  const hostAllowed = (name: string) =>
    isLoopback(name) || isIpLiteral(name) || allowedHosts.has(name) || allowedHosts.has('*');

  app.addHook('onRequest', async (req) => {
    // 1. Host
    const host = req.headers.host;
    if (host !== undefined) {
      const name = hostName(host);
      if (name === null || !hostAllowed(name)) {
        throw new ServiceError(
          ERROR_CODES.FORBIDDEN,
          `This instance does not answer to host '${host.slice(0, 100)}'; add it to ALLOWED_HOSTS to serve it under that name`,
          421,
        );
      }
    }
    // 2. Origin
    const origin = req.headers.origin;
    if (origin !== undefined) {
      const o = origin.toLowerCase();
      const h = host?.toLowerCase();
      const own = h !== undefined && (o === `http://${h}` || o === `https://${h}`);
      if (!own && !allowedOrigins.has(o)) {
        throw new ServiceError(
          ERROR_CODES.FORBIDDEN,
          `Requests from origin '${origin.slice(0, 100)}' are not allowed; add it to ALLOWED_ORIGINS to allow it`,
        );
      }
    } else if (UNSAFE.has(req.method) && req.headers['sec-fetch-site'] === 'cross-site') {
      throw new ServiceError(ERROR_CODES.FORBIDDEN, 'Cross-site requests are not allowed');
    }
    const route = (req.routeOptions.config ?? {}) as GuardRouteConfig;
    // 3. Content-Type of bodies that could change state
    if (UNSAFE.has(req.method) && (hasBody(req) || req.headers['content-type'] !== undefined)) {
      const type = mediaType(req.headers['content-type']);
      const accepted = [JSON_TYPE, ...(route.bodyTypes ?? [])];
      if (!accepted.includes(type)) {
        throw new ServiceError(
          ERROR_CODES.BAD_INPUT,
          `Unsupported Content-Type '${type || 'none'}'; send ${accepted.length > 1 ? `one of ${accepted.join(', ')}` : `JSON with 'Content-Type: application/json'`}`,
          415,
        );
      }
    }
    // 4. Authentication
    const unknown = req.routeOptions.url === undefined;
    if (unknown && !needsSessionWhenUnknown(req.url)) return;
    if (authenticated && !route.public && !authenticated(req)) {
      throw new ServiceError(
        ERROR_CODES.UNAUTHORIZED,
        'Authentication required: log in with POST /api/login or send Authorization: Bearer <token>',
      );
    }
  });
}
