/**
 * The OpenAPI 3.1 document (`GET /api/openapi.json`), generated from the route table: the routes
 * served through `serve()` (`./route-table.ts`) plus the entries for routes other modules register
 * (`./foreign-routes.ts`), limited to the routes actually registered, so an entry for a route not
 * registered yet does not advertise it. Component schemas are the contract's zod schemas, by
 * export name.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import * as contract from '../../contract';
import { FOREIGN_ROUTES } from './foreign-routes';
import {
  ERROR_RESPONSES,
  registeredRoutes,
  routeKeys,
  routeUrls,
  serve,
  servedRoutes,
  type ApiRoute,
} from './route-table';

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
    for (const [name, field] of Object.entries(obj.shape)) {
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

interface OpenApiOptions {
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
function buildOpenApiDocument(routes: readonly ApiRoute[], opts: OpenApiOptions): JsonObject {
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
    route.requestSchemas?.forEach((schema, i) =>
      ref(schema, `${route.operationId}Request${i}`, reqNamed, reqEntries),
    );
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
        'A MindsDB-compatible REST service: SQL over HTTP, model prediction and description, projects and models. Errors outside the SQL envelope are MindsDB\'s problem details (`application/problem+json`): `{"title": string, "detail": string, "error_code": int, "error_message": string}`.',
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

const GET_OPENAPI = {
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
function openApiDocument(
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
