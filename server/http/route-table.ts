/**
 * Declared routes: a route declared once (method, path, zod schemas of its input and answers) is
 * registered, validated and documented from that declaration, so the OpenAPI document
 * (`./openapi.ts`) cannot drift from what the routes accept. Also tracks every route registered on
 * the app, declared or not, so the document lists only real routes and a test can name a route
 * nothing documents.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { ErrorBody } from '../../contract';
import { ERROR_CODES, ServiceError } from '../errors';
import { readBodyOfGet } from './get-body';
import { validate } from './validate';

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface ResponseDoc {
  description: string;
  /** The body's schema; none for an empty body (204). */
  schema?: z.ZodType;
  /** Defaults to application/json. */
  contentType?: string;
}

export interface ApiRoute {
  method: HttpMethod;
  /** OpenAPI form, `{name}` for path parameters: `/api/projects/{project}`. */
  path: string;
  /** The URL as registered with Fastify when it is not `path` with `{x}` -> `:x` (a wildcard). */
  fastifyUrl?: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  /** A z.object whose keys are the path parameters. */
  params?: z.ZodObject;
  /** A z.object whose keys are the query parameters. */
  query?: z.ZodObject;
  body?: z.ZodType;
  /** Whether a body must be sent (false: a missing body skips body validation). */
  bodyRequired?: boolean;
  bodyDescription?: string;
  /** Request content for non-JSON bodies (uploads), as OpenAPI media type objects, verbatim. */
  requestContent?: Record<string, unknown>;
  /** Contract schemas `requestContent` refers to (`#/components/schemas/<export name>`). */
  requestSchemas?: readonly z.ZodType[];
  responses: Record<number, ResponseDoc>;
  /** The route is also served under these prefixes (the spec's `/v1/api` form). */
  prefixes?: readonly string[];
  /** Open without a session when auth is on (status, login, logout). */
  public?: boolean;
}

type Infer<S> = S extends z.ZodType ? z.output<S> : undefined;
interface RouteInput<R extends ApiRoute> {
  params: Infer<R['params']>;
  query: Infer<R['query']>;
  body: Infer<R['body']> | (R['bodyRequired'] extends true ? never : undefined);
}

/** The spec's versioned prefix: `/v1/api/api/projects/...` serves the same as `/api/projects/...`. */
export const V1_PREFIX = '/v1/api';

/** The media type of error bodies outside the SQL envelope (MindsDB's). */
const PROBLEM_TYPE = 'application/problem+json';

/** An error answer outside the SQL envelope. */
export const problem = (description: string): ResponseDoc => ({
  description,
  schema: ErrorBody,
  contentType: PROBLEM_TYPE,
});

/** Errors every JSON route can answer. */
export const ERROR_RESPONSES = {
  badInput: problem('Bad input: the message names the problem'),
  unauthorized: problem('Authentication required (only when auth is enabled)'),
  notFound: problem('Unknown project, model or version'),
  tooLarge: problem('Request body over the size limit'),
  unsupportedType: problem("Content-Type is not JSON; send 'Content-Type: application/json'"),
} satisfies Record<string, ResponseDoc>;

/** Every URL a declared route answers on (its path, then the prefixed forms). */
export function routeUrls(route: ApiRoute): string[] {
  return [route.path, ...(route.prefixes ?? []).map((p) => p + route.path)];
}

/**
 * The registered-route keys (`METHOD /api/projects/:project`) of a declared route, aligned with
 * `routeUrls`.
 */
export function routeKeys(route: ApiRoute): string[] {
  const base = route.fastifyUrl ?? route.path.replace(/\{(\w+)\}/g, ':$1');
  return [base, ...(route.prefixes ?? []).map((p) => p + base)].map((u) => `${route.method} ${u}`);
}

// ---- what the app registers --------------------------------------------------------------------

const served = new WeakMap<FastifyInstance, ApiRoute[]>();
const registered = new WeakMap<FastifyInstance, string[]>();

/**
 * Collects every route registered on the app from now on (`METHOD /path/:param`, HEAD left out:
 * Fastify adds one per GET). Call it first thing, before any route or plugin is registered.
 */
export function trackRoutes(app: FastifyInstance): void {
  const keys: string[] = [];
  registered.set(app, keys);
  app.addHook('onRoute', (r) => {
    for (const m of Array.isArray(r.method) ? r.method : [r.method]) {
      if (m !== 'HEAD') keys.push(`${m} ${r.url}`);
    }
  });
}

export function registeredRoutes(app: FastifyInstance): string[] {
  return [...(registered.get(app) ?? [])];
}

/** The declared routes registered on the app through `serve()`. */
export function servedRoutes(app: FastifyInstance): ApiRoute[] {
  return [...(served.get(app) ?? [])];
}

export interface ServeOptions<R extends ApiRoute> {
  /**
   * Checks that what the path names exists, before the body is parsed: MindsDB answers an unknown
   * project or model with 404 whatever the body holds, so a client's typo is reported as such
   * rather than as a body problem. Throws a ServiceError to refuse.
   */
  resolve?: (params: Infer<R['params']>) => void | Promise<void>;
}

/**
 * Registers a declared route on every URL it answers. Path parameters, query string and body are
 * validated with the declared schemas (a 400 naming the problem) before the handler sees them.
 * A GET route with a body schema reads the body itself: Fastify never parses GET bodies, but the
 * spec's describe operation sends its attribute that way.
 */
export function serve<const R extends ApiRoute>(
  app: FastifyInstance,
  route: R,
  handler: (input: RouteInput<R>, req: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  options: ServeOptions<R> = {},
): void {
  const list = served.get(app) ?? [];
  list.push(route);
  served.set(app, list);
  const bodyLimit = app.initialConfig.bodyLimit ?? 1024 * 1024;
  const { resolve } = options;
  // Route-level onRequest hooks run after the app's (the request guard: host, origin, auth) and
  // before the body is read, so a refused request never has its body parsed.
  const onRequest = resolve
    ? async (req: FastifyRequest) => {
        const params = route.params ? validate(route.params, req.params) : undefined;
        await resolve(params as Infer<R['params']>);
      }
    : undefined;
  const run = async (req: FastifyRequest, reply: FastifyReply) => {
    const params = route.params ? validate(route.params, req.params) : undefined;
    const query = route.query ? validate(route.query, req.query) : undefined;
    let body: unknown;
    if (route.body) {
      const raw = route.method === 'GET' ? await readBodyOfGet(req, bodyLimit) : req.body;
      if (raw === undefined && !route.bodyRequired) body = undefined;
      else if (raw === undefined)
        throw new ServiceError(ERROR_CODES.BAD_INPUT, 'Request body is empty; expected JSON');
      else body = validate(route.body, raw);
    }
    return handler({ params, query, body } as RouteInput<R>, req, reply);
  };
  for (const key of routeKeys(route)) {
    app.route({
      method: route.method,
      url: key.slice(key.indexOf(' ') + 1),
      handler: run,
      ...(onRequest ? { onRequest } : {}),
    });
  }
}
