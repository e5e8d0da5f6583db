/**
 * The OpenAPI document and Swagger UI, from the routes' own declarations: `@fastify/swagger`
 * collects every route's `schema` and `fastify-type-provider-zod` turns its zod schemas into JSON
 * Schema, with the contract's exports as named components (`ModelInfo`; a request-side form gets
 * `Input` appended, `PredictRequestInput`). Served at `GET /api/openapi.json` (a declared route
 * itself) and browsable at `/api/docs` (Swagger UI), both behind the same auth as the rest.
 *
 * What the libraries leave to us, in `openApiTransform`: the `/v1/api` forms get their own
 * operation ids, routes open without a session say so (`security: []`), an optional body is not
 * marked required, and a route can add what its `schema` cannot carry (`config.openapi`: the
 * files routes match `{name}` as a wildcard and read their bodies as streams).
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import {
  createJsonSchemaTransform,
  createJsonSchemaTransformObject,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { z } from 'zod';
import * as contract from '../../contract';
import { answer, V1_PREFIX } from './responses';

/** Where Swagger UI is served (its own routes, hidden from the document, live under it). */
export const DOCS_PREFIX = '/api/docs';

/** Route options (`config`) the document reads. */
interface DocRouteConfig {
  /** Open without a session when auth is on: documented with `security: []`. */
  public?: boolean;
  /** What the route's `schema` cannot carry. */
  openapi?: {
    /** The path as documented, when the route matches a wildcard (`/api/files/{name}`). */
    url?: string;
    /** Path parameters as documented (for a wildcard route). */
    params?: z.ZodObject;
    /** Request bodies by media type, for a route that reads its body as a stream. */
    body?: Record<string, z.ZodType>;
  };
}

/** Contract exports that are zod schemas are components named after the export. */
function nameContractSchemas(): void {
  for (const [name, value] of Object.entries(contract)) {
    if (!(value instanceof z.ZodType)) continue;
    const meta = z.globalRegistry.get(value);
    if (meta?.id) continue;
    z.globalRegistry.add(value, { ...meta, id: name });
  }
}

type Json = Record<string, unknown>;

const OPTIONAL_BODY = 'x-optional-body';

function openApiTransform(authEnabled: boolean) {
  const zod = createJsonSchemaTransform({ skipList: [] });
  return (doc: Parameters<typeof zod>[0]): { schema: FastifySchema; url: string } => {
    const config = (doc.route.config ?? {}) as DocRouteConfig;
    const extra = config.openapi;
    const source = { ...(doc.schema as Json | undefined) };
    if (extra?.params) source.params = extra.params;
    // @fastify/swagger expands parameters itself and cannot follow a `$ref` there: a contract
    // schema (a named component) is copied into an unnamed one, which is inlined.
    for (const part of ['params', 'querystring', 'headers']) {
      const p = source[part];
      if (p instanceof z.ZodObject) source[part] = z.object(p.shape);
    }
    const out = zod({ ...doc, schema: source, url: extra?.url ?? doc.url });
    const schema = { ...(out.schema as Json) };
    if (schema.hide) return out;
    if (extra?.body) {
      // The library converts zod per media type for responses only; a body by media type goes
      // through that path and is moved over.
      const asResponse = zod({
        ...doc,
        schema: { response: { 200: { content: wrap(extra.body) } } },
      }).schema as { response: Record<string, Json> };
      // ... and, being a request, names the request-side components (`FileUrlImportInput`).
      const content = JSON.stringify(asResponse.response[200].content).replace(
        /"#\/components\/schemas\/(\w+)"/g,
        '"#/components/schemas/$1Input"',
      );
      schema.body = { content: JSON.parse(content) as Json };
    }
    const body = (doc.schema as Json | undefined)?.body;
    if (body instanceof z.ZodType && body.safeParse(undefined).success)
      schema[OPTIONAL_BODY] = true;
    if (out.url.startsWith(`${V1_PREFIX}/`)) {
      const plain = out.url.slice(V1_PREFIX.length);
      schema.operationId = `${String(schema.operationId)}V1`;
      schema.description = [
        schema.description,
        `Same as \`${doc.route.method as string} ${plain}\` (the spec's versioned prefix form).`,
      ]
        .filter(Boolean)
        .join('\n\n');
    }
    if (authEnabled && config.public) schema.security = [];
    return { schema: schema, url: out.url };
  };
}

const wrap = (body: Record<string, z.ZodType>) =>
  Object.fromEntries(Object.entries(body).map(([type, schema]) => [type, { schema }]));

/** The components from the contract, and requestBody.required as each route's body schema says. */
function openApiTransformObject() {
  const zod = createJsonSchemaTransformObject({});
  return (doc: Parameters<typeof zod>[0]) => {
    const out = zod(doc) as { paths?: Record<string, Record<string, Json>> };
    for (const ops of Object.values(out.paths ?? {})) {
      for (const op of Object.values(ops)) {
        if (!op[OPTIONAL_BODY]) continue;
        delete op[OPTIONAL_BODY];
        (op.requestBody as Json).required = false;
      }
    }
    return out as ReturnType<typeof zod>;
  };
}

// ---- what the app registers --------------------------------------------------------------------

/** A registered route as the document and its tests see it. */
export interface RegisteredRoute {
  method: string;
  url: string;
  schema: FastifySchema | undefined;
  config: DocRouteConfig;
}

const registered = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/** Every route registered on the app (HEAD left out: Fastify adds one per GET). */
export function registeredRoutes(app: FastifyInstance): RegisteredRoute[] {
  return [...(registered.get(app) ?? [])];
}

/** The documented path of a registered route (`/api/projects/{project}`). */
export const documentedUrl = (r: RegisteredRoute) =>
  r.config.openapi?.url ?? r.url.replace(/:(\w+)/g, '{$1}');

const isZod = (v: unknown): v is z.ZodType => v instanceof z.ZodType;

/** Whether a declared response is zod, plain or by media type. */
function zodResponse(r: unknown): boolean {
  if (isZod(r)) return true;
  const content = (r as { content?: Record<string, { schema?: unknown }> } | null)?.content;
  return !!content && Object.values(content).every((m) => isZod(m.schema));
}

/**
 * Registered routes not declared in the one style (`METHOD /url`): a `schema` with an operation id,
 * a summary, tags and zod schemas for every answer. Swagger UI's own routes (hidden, under
 * DOCS_PREFIX) are the exception. The openapi test asserts this is empty.
 */
export function undeclaredRoutes(app: FastifyInstance): string[] {
  return registeredRoutes(app)
    .filter((r) => {
      const s = r.schema as (FastifySchema & { response?: Record<string, unknown> }) | undefined;
      if (r.url.startsWith(`${DOCS_PREFIX}/`) || r.url === DOCS_PREFIX) return !s?.hide;
      return !(
        s?.operationId &&
        s.summary &&
        s.tags?.length &&
        s.response &&
        Object.values(s.response).every(zodResponse)
      );
    })
    .map((r) => `${r.method} ${r.url}`);
}

function trackRoutes(app: FastifyInstance): void {
  const list: RegisteredRoute[] = [];
  registered.set(app, list);
  app.addHook('onRoute', (r: RouteOptions) => {
    for (const method of Array.isArray(r.method) ? r.method : [r.method]) {
      if (method === 'HEAD') continue;
      list.push({
        method,
        url: r.url,
        schema: r.schema,
        config: (r.config ?? {}) as DocRouteConfig,
      });
    }
  });
}

/**
 * Registers the document's collector, Swagger UI and `GET /api/openapi.json`. Call it before any
 * route is registered: routes registered earlier are not in the document.
 */
export async function registerOpenApi(
  app: FastifyInstance,
  opts: { version: string; authEnabled: boolean },
): Promise<void> {
  nameContractSchemas();
  trackRoutes(app);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'SQL & model playground local instance',
        version: opts.version,
        description:
          'A MindsDB-compatible REST service: SQL over HTTP, model prediction and description, projects and models. Errors outside the SQL envelope are MindsDB\'s problem details (`application/problem+json`): `{"title": string, "detail": string, "error_code": int, "error_message": string}`.',
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'session' },
          bearer: { type: 'http', scheme: 'bearer' },
        },
      },
      ...(opts.authEnabled ? { security: [{ session: [] }, { bearer: [] }] } : {}),
    },
    transform: openApiTransform(opts.authEnabled),
    transformObject: openApiTransformObject(),
  });
  await app.register(swaggerUi, { routePrefix: DOCS_PREFIX });
  app.withTypeProvider<ZodTypeProvider>().route({
    method: 'GET',
    url: '/api/openapi.json',
    schema: {
      operationId: 'getOpenApi',
      tags: ['instance'],
      summary: 'This document',
      description: `Browse it with Swagger UI at \`${DOCS_PREFIX}\`.`,
      response: {
        200: answer('OpenAPI 3.1 document of every route', z.record(z.string(), z.unknown())),
      },
    },
    handler: async () => app.swagger() as unknown as Record<string, unknown>,
  });
}
