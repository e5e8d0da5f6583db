/**
 * The route table and the OpenAPI 3.1 document generated from it (`GET /api/openapi.json`).
 *
 * Why a table: a route declared once (method, path, zod schemas of its input and answers) is both
 * served and documented from that declaration, so the document cannot drift from what the routes
 * accept. `serve()` registers a declared route, validates its path parameters, query string and
 * body with the declared schemas before the handler runs, and records it for the document. Routes
 * registered directly with Fastify by other modules (SQL, status, login) are documented by the
 * FOREIGN_ROUTES entries below, with schemas from the same contract; a test fails when a
 * registered route is in neither, so a new route cannot ship undocumented.
 *
 * The document lists only routes that are actually registered (collected with an onRoute hook),
 * so an entry for a route another module has not registered yet does not advertise it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import * as contract from '../../contract';
import {
  DatabaseList,
  ErrorBody,
  FileInfo,
  FileList,
  FileName,
  LoginResponse,
  LogoutResponse,
  SqlErrorResponse,
  SqlQueryRequest,
  SqlQueryResponse,
  StatusResponse,
} from '../../contract';
import { ERROR_CODES, ServiceError } from '../errors';
import { LoginRequest } from './auth';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

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
  responses: Record<number, ResponseDoc>;
  /** The route is also served under these prefixes (the spec's `/v1/api` form). */
  prefixes?: readonly string[];
  /** Open without a session when auth is on (status, login, logout). */
  public?: boolean;
}

type Infer<S> = S extends z.ZodType ? z.output<S> : undefined;
export interface RouteInput<R extends ApiRoute> {
  params: Infer<R['params']>;
  query: Infer<R['query']>;
  body: Infer<R['body']> | (R['bodyRequired'] extends true ? never : undefined);
}

/** The spec's versioned prefix: `/v1/api/api/projects/...` serves the same as `/api/projects/...`. */
export const V1_PREFIX = '/v1/api';

// ---- errors every JSON route can answer --------------------------------------------------------

export const ERROR_RESPONSES = {
  badInput: { description: 'Bad input: the message names the problem', schema: ErrorBody },
  unauthorized: {
    description: 'Authentication required (only when auth is enabled)',
    schema: ErrorBody,
  },
  notFound: { description: 'Unknown project, model or version', schema: ErrorBody },
  tooLarge: { description: 'Request body over the size limit', schema: ErrorBody },
  unsupportedType: {
    description: "Content-Type is not JSON; send 'Content-Type: application/json'",
    schema: ErrorBody,
  },
} satisfies Record<string, ResponseDoc>;

// ---- serving -----------------------------------------------------------------------------------

const served = new WeakMap<FastifyInstance, ApiRoute[]>();
const registered = new WeakMap<FastifyInstance, string[]>();

/** `GET /api/projects/{project}` -> `GET /api/projects/:project` (the key registered routes use). */
export function routeKey(method: string, openApiPath: string): string {
  return `${method.toUpperCase()} ${openApiPath.replace(/\{(\w+)\}/g, ':$1')}`;
}

/** Every URL a declared route answers on (its path, then the prefixed forms). */
export function routeUrls(route: ApiRoute): string[] {
  return [route.path, ...(route.prefixes ?? []).map((p) => p + route.path)];
}

/** The registered-route keys of a declared route, aligned with `routeUrls`. */
export function routeKeys(route: ApiRoute): string[] {
  const base = route.fastifyUrl ?? routeKey(route.method, route.path).split(' ')[1];
  return [base, ...(route.prefixes ?? []).map((p) => p + base)].map((u) => `${route.method} ${u}`);
}

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

export function servedRoutes(app: FastifyInstance): ApiRoute[] {
  return [...(served.get(app) ?? [])];
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
): void {
  const list = served.get(app) ?? [];
  list.push(route);
  served.set(app, list);
  const bodyLimit = app.initialConfig.bodyLimit ?? 1024 * 1024;
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
    app.route({ method: route.method, url: key.slice(key.indexOf(' ') + 1), handler: run });
  }
}

/** Validates with a contract schema; failures are one 400 whose message says what and where. */
export function validate<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  throw new ServiceError(ERROR_CODES.BAD_INPUT, issueMessages(r.error.issues).join('; '));
}

/**
 * Human messages for zod issues. For a union (the predict body is an array OR an envelope) the
 * branch that matched the input's JSON type explains the failure, not "Invalid input": branches
 * that failed on the type of the value itself are dropped. Field names prefix the message unless
 * it already starts with one; row indexes are left to the messages (they say "row 3").
 */
export function issueMessages(
  issues: readonly z.core.$ZodIssue[],
  prefix: readonly PropertyKey[] = [],
): string[] {
  const out: string[] = [];
  for (const iss of issues) {
    const path = [...prefix, ...iss.path];
    if (iss.code === 'invalid_union') {
      const relevant = iss.errors.filter(
        (b) => !(b.length === 1 && b[0].code === 'invalid_type' && b[0].path.length === 0),
      );
      if (relevant.length > 0) {
        out.push(...issueMessages(relevant[0], path));
        continue;
      }
    }
    const names = path.filter((p): p is string => typeof p === 'string');
    const field = names.join('.');
    out.push(field && !iss.message.startsWith(names[0]) ? `${field}: ${iss.message}` : iss.message);
  }
  return out;
}

const JSON_TYPES = new Set(['application/json', 'text/plain', 'application/x-www-form-urlencoded']);

/**
 * Reads and parses the JSON body of a GET request with the same limit and errors as Fastify's
 * parser for POST: undefined when there is none (no body, or only whitespace, so
 * `Content-Type: application/json` without a body is fine), 415 for a non-JSON content type, 413
 * over the limit, 400 for invalid JSON.
 */
export async function readBodyOfGet(req: FastifyRequest, limit: number): Promise<unknown> {
  const h = req.headers;
  const length = h['content-length'];
  if (h['transfer-encoding'] === undefined && (length === undefined || length === '0'))
    return undefined;
  const type = (h['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type && !JSON_TYPES.has(type) && !type.endsWith('+json')) {
    throw new ServiceError(
      ERROR_CODES.BAD_INPUT,
      `Unsupported Content-Type; send JSON with 'Content-Type: application/json'`,
      415,
    );
  }
  const tooLarge = () =>
    new ServiceError(
      ERROR_CODES.TOO_LARGE,
      `Request body is larger than the limit (${limit} bytes)`,
      413,
    );
  if (length !== undefined && Number(length) > limit) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req.raw) {
    size += (chunk as Buffer).length;
    if (size > limit) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new ServiceError(
      ERROR_CODES.BAD_INPUT,
      `Request body is not valid JSON: ${(err as Error).message}`,
      400,
    );
  }
}

// ---- routes other modules register (documented here, schemas from the contract) ---------------

const SqlEnvelopeError = (description: string): ResponseDoc => ({
  description,
  schema: SqlErrorResponse,
});

/**
 * Routes registered with plain Fastify calls elsewhere. Owners of those modules: when you add or
 * change a route, add or change its entry here (the openapi test names the missing one).
 */
export const FOREIGN_ROUTES: readonly ApiRoute[] = [
  {
    method: 'POST',
    path: '/api/sql/query',
    operationId: 'sqlQuery',
    tag: 'sql',
    summary: 'Execute an SQL statement',
    description:
      'HTTP 200 for every statement the engine processed, including SQL errors (`type: "error"`). `context.db` is the current database; send back the returned context. `"response_format": "jsonlines"` streams the result as newline-delimited JSON: a header line, `{"data": [...]}` chunks, then `{"type":"end"}`.',
    body: SqlQueryRequest,
    bodyRequired: true,
    responses: {
      200: { description: 'A table, an acknowledgement or an SQL error', schema: SqlQueryResponse },
      400: SqlEnvelopeError('Body not JSON, or `query` missing or not a string'),
      401: SqlEnvelopeError('Authentication required (only when auth is enabled)'),
      413: SqlEnvelopeError('Body or query over the size limit'),
      415: SqlEnvelopeError('Content-Type is not JSON'),
    },
  },
  {
    method: 'GET',
    path: '/api/status',
    operationId: 'getStatus',
    tag: 'instance',
    summary: 'Version, environment and whether auth is on and this request is authenticated',
    public: true,
    responses: { 200: { description: 'Instance status', schema: StatusResponse } },
  },
  {
    method: 'POST',
    path: '/api/login',
    operationId: 'login',
    tag: 'auth',
    summary: 'Log in: sets the `session` cookie and returns the token for `Authorization: Bearer`',
    description:
      'When auth is disabled, answers `{"ok": true, "auth": "disabled"}` without reading the body.',
    public: true,
    body: LoginRequest,
    responses: {
      200: { description: 'Logged in (or auth disabled)', schema: LoginResponse },
      400: ERROR_RESPONSES.badInput,
      401: { description: 'Wrong username or password', schema: ErrorBody },
      429: { description: 'Too many failed attempts from this address', schema: ErrorBody },
    },
  },
  {
    method: 'POST',
    path: '/api/logout',
    operationId: 'logout',
    tag: 'auth',
    summary: 'Revoke the session and clear the cookie',
    public: true,
    responses: { 200: { description: 'Logged out', schema: LogoutResponse } },
  },
  {
    method: 'GET',
    path: '/api/databases',
    operationId: 'listDatabases',
    tag: 'files',
    summary: 'Databases as SHOW FULL DATABASES lists them (never connection parameters)',
    responses: {
      200: { description: 'One entry per database', schema: DatabaseList },
      401: ERROR_RESPONSES.unauthorized,
    },
  },
  {
    method: 'GET',
    path: '/api/files',
    operationId: 'listFiles',
    tag: 'files',
    summary: 'Uploaded files (tables of the `files` database)',
    responses: {
      200: { description: 'One entry per file', schema: FileList },
      401: ERROR_RESPONSES.unauthorized,
    },
  },
  {
    method: 'PUT',
    path: '/api/files/{name}',
    fastifyUrl: '/api/files/*',
    operationId: 'uploadFile',
    tag: 'files',
    summary: 'Upload a file as table `files.<name>` (replaces one of that name)',
    description:
      'A multipart form with a `file` field, or the raw bytes with Content-Type text/csv, application/json, application/octet-stream or a parquet type. Streams to disk; the upload limit applies instead of the JSON body limit.',
    params: z.object({ name: FileName }),
    requestContent: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          properties: { file: { type: 'string', format: 'binary' } },
          required: ['file'],
        },
      },
      'text/csv': { schema: { type: 'string' } },
      'application/octet-stream': { schema: { type: 'string', format: 'binary' } },
    },
    responses: {
      200: { description: 'The imported file', schema: FileInfo },
      400: ERROR_RESPONSES.badInput,
      401: ERROR_RESPONSES.unauthorized,
      413: { description: 'File over the upload limit', schema: ErrorBody },
    },
  },
  {
    method: 'DELETE',
    path: '/api/files/{name}',
    fastifyUrl: '/api/files/*',
    operationId: 'deleteFile',
    tag: 'files',
    summary: 'Delete an uploaded file',
    params: z.object({ name: FileName }),
    responses: {
      200: { description: 'Deleted', schema: z.object({ name: z.string() }) },
      400: ERROR_RESPONSES.badInput,
      401: ERROR_RESPONSES.unauthorized,
      404: { description: 'No such file', schema: ErrorBody },
    },
  },
];

// ---- the document ------------------------------------------------------------------------------

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

interface Named {
  schemas: Map<z.ZodType, string>;
}

/** Rewrites zod's `$ref`s to shared definitions (`__shared#/$defs/x`) into components refs. */
function fixRefs(node: Json, shared: Map<string, string>): Json {
  if (Array.isArray(node)) return node.map((n) => fixRefs(n, shared));
  if (node && typeof node === 'object') {
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') {
        const m = /#\/components\/schemas\/__shared#\/\$defs\/(\w+)$/.exec(v);
        out[k] = m ? `#/components/schemas/${shared.get(m[1]) ?? m[1]}` : v;
      } else if (k !== '$schema' && k !== '$id') out[k] = fixRefs(v, shared);
    }
    return out;
  }
  return node;
}

/**
 * JSON Schemas of a set of zod schemas as components, each named schema once, references between
 * them as `$ref`. Requests are converted as zod inputs and responses as outputs (an object that
 * strips unknown keys on input is documented as closed only where we produce it).
 */
function components(entries: Map<string, z.ZodType>, io: 'input' | 'output'): Record<string, Json> {
  const reg = z.registry<{ id: string }>();
  for (const [id, schema] of entries) reg.add(schema, { id });
  const out = z.toJSONSchema(reg, {
    io,
    uri: (id) => `#/components/schemas/${id}`,
    unrepresentable: 'any',
  }) as unknown as { schemas: Record<string, Json> };
  const result: Record<string, Json> = {};
  const shared = new Map<string, string>();
  const sharedDefs = (out.schemas.__shared as JsonObject | undefined)?.$defs as
    JsonObject | undefined;
  for (const k of Object.keys(sharedDefs ?? {})) shared.set(k, `Shared_${io}_${k}`);
  for (const [id, s] of Object.entries(out.schemas)) {
    if (id !== '__shared') result[id] = fixRefs(s, shared);
  }
  for (const [k, s] of Object.entries(sharedDefs ?? {}))
    result[shared.get(k)!] = fixRefs(s, shared);
  return result;
}

/** A parameter's schema, inline (parameters are scalars; no components needed). */
function inlineSchema(s: z.ZodType): Json {
  return fixRefs(
    z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }) as unknown as Json,
    new Map(),
  );
}

function parameters(route: ApiRoute): Json[] {
  const out: Json[] = [];
  const add = (obj: z.ZodObject | undefined, where: 'path' | 'query') => {
    if (!obj) return;
    for (const [name, field] of Object.entries(obj.shape as Record<string, z.ZodType>)) {
      const schema = inlineSchema(field) as JsonObject;
      const { description, ...rest } = schema;
      out.push({
        name,
        in: where,
        required: where === 'path' || !field.safeParse(undefined).success,
        ...(typeof description === 'string' ? { description } : {}),
        schema: rest,
      });
    }
  };
  add(route.params, 'path');
  add(route.query, 'query');
  return out;
}

export interface OpenApiOptions {
  version: string;
  authEnabled: boolean;
  /** Only routes whose `routeKey` is in this list (the registered ones); all when omitted. */
  registered?: readonly string[];
  /** Names for schemas (contract exports); unnamed schemas get `<operationId>Body` etc. */
  names?: Record<string, z.ZodType>;
}

/**
 * The OpenAPI 3.1 document of a route table. Each route appears under each of its URLs; the
 * prefixed (`/v1/api`) forms share the operation with an `operationId` suffixed `V1`.
 */
export function buildOpenApiDocument(
  routes: readonly ApiRoute[],
  opts: OpenApiOptions,
): JsonObject {
  const only = opts.registered ? new Set(opts.registered) : null;
  const reqNamed: Named = { schemas: new Map() };
  const resNamed: Named = { schemas: new Map() };
  for (const [name, schema] of Object.entries(opts.names ?? {})) {
    reqNamed.schemas.set(schema, name);
    resNamed.schemas.set(schema, name);
  }
  const reqEntries = new Map<string, z.ZodType>();
  const resEntries = new Map<string, z.ZodType>();
  const ref = (
    schema: z.ZodType,
    fallback: string,
    named: Named,
    entries: Map<string, z.ZodType>,
  ): Json => {
    let id = named.schemas.get(schema);
    if (!id) {
      id = fallback.charAt(0).toUpperCase() + fallback.slice(1);
      named.schemas.set(schema, id);
    }
    entries.set(id, schema);
    return { $ref: `#/components/schemas/${id}` };
  };

  const paths: Record<string, JsonObject> = {};
  for (const route of routes) {
    const keys = routeKeys(route);
    routeUrls(route).forEach((url, i) => {
      if (only && !only.has(keys[i])) return;
      const responses: JsonObject = {};
      for (const [status, r] of Object.entries(route.responses)) {
        responses[status] = {
          description: r.description,
          ...(r.schema
            ? {
                content: {
                  [r.contentType ?? 'application/json']: {
                    schema: ref(
                      r.schema,
                      `${route.operationId}Response${status}`,
                      resNamed,
                      resEntries,
                    ),
                  },
                },
              }
            : {}),
        };
      }
      const op: JsonObject = {
        operationId: i === 0 ? route.operationId : `${route.operationId}V1`,
        tags: [route.tag],
        summary: route.summary,
        ...(route.description || i > 0
          ? {
              description: [
                route.description,
                i > 0
                  ? `Same as \`${route.method} ${route.path}\` (the spec's versioned prefix form).`
                  : '',
              ]
                .filter(Boolean)
                .join('\n\n'),
            }
          : {}),
        parameters: parameters(route),
        ...(route.requestContent
          ? { requestBody: { required: true, content: route.requestContent as Json } }
          : {}),
        ...(route.body
          ? {
              requestBody: {
                required: !!route.bodyRequired,
                ...(route.bodyDescription ? { description: route.bodyDescription } : {}),
                content: {
                  'application/json': {
                    schema: ref(route.body, `${route.operationId}Request`, reqNamed, reqEntries),
                  },
                },
              },
            }
          : {}),
        responses,
        ...(opts.authEnabled && route.public ? { security: [] } : {}),
      };
      (paths[url] ??= {})[route.method.toLowerCase()] = op;
    });
  }

  const schemas = { ...components(reqEntries, 'input'), ...components(resEntries, 'output') };
  return {
    openapi: '3.1.0',
    info: {
      title: 'SQL & model playground local instance',
      version: opts.version,
      description:
        'A MindsDB-compatible REST service: SQL over HTTP, model prediction and description, projects and models. Errors outside the SQL envelope are `{"error_code": int, "error_message": string}`.',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'session' },
        bearer: { type: 'http', scheme: 'bearer' },
      },
    },
    ...(opts.authEnabled ? { security: [{ session: [] }, { bearer: [] }] } : {}),
  };
}

// ---- GET /api/openapi.json ---------------------------------------------------------------------

export const GET_OPENAPI = {
  method: 'GET',
  path: '/api/openapi.json',
  operationId: 'getOpenApi',
  tag: 'instance',
  summary: 'This document',
  responses: {
    200: {
      description: 'OpenAPI 3.1 document of every registered route',
      schema: z.record(z.string(), z.unknown()),
    },
    401: ERROR_RESPONSES.unauthorized,
  },
} as const satisfies ApiRoute;

/** Contract exports that are zod schemas, by export name: the component names of the document. */
function contractSchemaNames(): Record<string, z.ZodType> {
  const out: Record<string, z.ZodType> = {};
  for (const [name, value] of Object.entries(contract)) {
    if (value instanceof z.ZodType) out[name] = value;
  }
  return out;
}

/**
 * The document of this app: every route served through `serve()` plus the foreign ones, limited
 * to what is registered. Built on first request (when every route is registered) and kept.
 */
export function openApiDocument(
  app: FastifyInstance,
  opts: { version: string; authEnabled: boolean },
): JsonObject {
  return buildOpenApiDocument([...FOREIGN_ROUTES, ...servedRoutes(app)], {
    ...opts,
    registered: registeredRoutes(app),
    names: contractSchemaNames(),
  });
}

export function openApiRoutes(
  app: FastifyInstance,
  opts: { version: string; authEnabled: boolean },
) {
  let doc: JsonObject | undefined;
  serve(app, GET_OPENAPI, async () => (doc ??= openApiDocument(app, opts)));
}

/**
 * Registered routes that no entry of the route table describes (`METHOD /path/:param`); empty
 * when the table covers the app. The openapi test asserts it is empty, which is what keeps the
 * table, and so the document, in step with the routes.
 */
export function undocumentedRoutes(app: FastifyInstance): string[] {
  const documented = new Set([...FOREIGN_ROUTES, ...servedRoutes(app)].flatMap(routeKeys));
  return registeredRoutes(app).filter((k) => !documented.has(k));
}
