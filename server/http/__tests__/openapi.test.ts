/**
 * GET /api/openapi.json: an OpenAPI 3.1 document that covers every route the app registers (so a
 * new route cannot ship undocumented), whose references resolve, whose component schemas are the
 * contract's zod schemas, and whose declared response schemas accept what the routes really send.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ModelInfo } from '../../../contract';
import { FOREIGN_ROUTES } from '../foreign-routes';
import { undocumentedRoutes } from '../openapi';
import {
  registeredRoutes,
  routeKeys,
  routeUrls,
  servedRoutes,
  type ApiRoute,
} from '../route-table';
import { startHarness, type Harness } from '../../test/harness';

type Doc = {
  openapi: string;
  paths: Record<
    string,
    Record<
      string,
      {
        operationId: string;
        parameters: { name: string; in: string }[];
        requestBody?: unknown;
        security?: unknown[];
      }
    >
  >;
  components: {
    schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }>;
  };
  security?: unknown[];
};

let h: Harness;
let doc: Doc;

beforeAll(async () => {
  h = await startHarness();
  await h.sql(
    'CREATE MODEL mindsdb.small_model FROM example_db (SELECT sqft, location, rental_price FROM demo_data.home_rentals LIMIT 300) PREDICT rental_price',
  );
  await h.instance.models.idle();
  const r = await h.get('/api/openapi.json');
  expect(r.status).toBe(200);
  doc = r.body as Doc;
}, 120_000);

afterAll(async () => {
  await h?.close();
});

/** Every `$ref` in a JSON value. */
function refs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => refs(n, out));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refs(v, out);
    }
  }
  return out;
}

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 and documents every registered route, and only registered ones', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const registered = registeredRoutes(h.app);
    // The routes this issue adds are among them, in both the plain and the /v1/api form.
    for (const k of [
      'POST /api/projects/:project/models/:model/predict',
      'POST /v1/api/api/projects/:project/models/:model/predict',
      'GET /api/projects/:project/models/:model/describe',
      'GET /v1/api/api/projects/:project/models/:model/describe',
      'GET /api/projects',
      'GET /api/projects/:project/models',
      'DELETE /api/projects/:project/models/:model',
      'POST /api/sql/query',
      'GET /api/status',
      'POST /api/login',
      'GET /api/openapi.json',
    ]) {
      expect(registered).toContain(k);
    }
    expect(undocumentedRoutes(h.app)).toEqual([]);
    // And the other way: every documented operation is a route the app answers.
    for (const route of [...FOREIGN_ROUTES, ...servedRoutes(h.app)]) {
      const urls = routeUrls(route);
      routeKeys(route).forEach((key, i) => {
        const inDoc = doc.paths[urls[i]]?.[route.method.toLowerCase()] !== undefined;
        const url = key.slice(key.indexOf(' ') + 1);
        expect(inDoc, key).toBe(h.app.hasRoute({ method: route.method, url }));
      });
    }
    expect(Object.keys(doc.paths)).toContain('/api/files/{name}');
  });

  it('names a registered route that has no entry in the route table', async () => {
    const other = await startHarness();
    try {
      // Too late to register on a listening app, so check the function on a fresh one instead.
      const { buildApp, silentLogger } = await import('../app');
      const app = await buildApp(other.instance, silentLogger);
      app.get('/api/secret-feature', async () => ({}));
      await app.ready();
      expect(undocumentedRoutes(app)).toEqual(['GET /api/secret-feature']);
      const d = (await app.inject({ method: 'GET', url: '/api/openapi.json' })).json<Doc>();
      expect(d.paths['/api/secret-feature']).toBeUndefined();
      await app.close();
    } finally {
      await other.close();
    }
  });

  it('resolves every $ref and declares every path parameter', () => {
    for (const r of refs(doc)) {
      const m = /^#\/components\/schemas\/(\w+)$/.exec(r);
      expect(m, r).not.toBeNull();
      expect(doc.components.schemas[m![1]], r).toBeDefined();
    }
    for (const [path, ops] of Object.entries(doc.paths)) {
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const op of Object.values(ops)) {
        expect(
          op.parameters
            .filter((p) => p.in === 'path')
            .map((p) => p.name)
            .sort(),
        ).toEqual(names.sort());
      }
    }
    const ids = Object.values(doc.paths).flatMap((ops) =>
      Object.values(ops).map((o) => o.operationId),
    );
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('generates its components from the contract schemas the routes validate with', () => {
    const info = doc.components.schemas.ModelInfo ?? doc.components.schemas.ModelList;
    expect(info).toBeDefined();
    const modelInfo = doc.components.schemas.ModelDetail;
    expect(Object.keys(modelInfo.properties ?? {}).sort()).toEqual(
      [...Object.keys(ModelInfo.shape), 'versions'].sort(),
    );
    const predict = doc.paths['/api/projects/{project}/models/{model}/predict'].post;
    expect(predict.requestBody).toMatchObject({
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/PredictRequest' } } },
    });
    const describeOp = doc.paths['/api/projects/{project}/models/{model}/describe'].get;
    expect(describeOp.parameters.map((p) => `${p.in}:${p.name}`)).toEqual([
      'path:project',
      'path:model',
      'query:attribute',
    ]);
    expect(
      doc.paths['/v1/api/api/projects/{project}/models/{model}/describe'].get.operationId,
    ).toBe('describeV1');
  });
});

describe('declared response schemas accept real responses', () => {
  const table = (): ApiRoute[] => [...FOREIGN_ROUTES, ...servedRoutes(h.app)];

  /** The zod schema a route declares for a status. */
  function declared(method: string, path: string, status: number): z.ZodType | undefined {
    const route = table().find((r) => r.method === method && r.path === path);
    expect(route, `${method} ${path}`).toBeDefined();
    const resp = route!.responses[status];
    expect(resp, `${method} ${path} does not declare ${status}`).toBeDefined();
    return resp.schema;
  }

  const cases: {
    method: 'GET' | 'POST' | 'DELETE';
    path: string;
    url: string;
    body?: unknown;
    status: number;
  }[] = [
    { method: 'GET', path: '/api/status', url: '/api/status', status: 200 },
    { method: 'GET', path: '/api/util/ping', url: '/api/util/ping', status: 200 },
    { method: 'POST', path: '/api/login', url: '/api/login', body: {}, status: 200 },
    { method: 'POST', path: '/api/logout', url: '/api/logout', body: {}, status: 200 },
    {
      method: 'POST',
      path: '/api/sql/query',
      url: '/api/sql/query',
      body: { query: 'SELECT 1 AS x' },
      status: 200,
    },
    {
      method: 'POST',
      path: '/api/sql/query',
      url: '/api/sql/query',
      body: { query: 'CREATE TABLE files.t AS SELECT 1 AS x' },
      status: 200,
    },
    {
      method: 'POST',
      path: '/api/sql/query',
      url: '/api/sql/query',
      body: { query: 'SELEC 1' },
      status: 200,
    },
    {
      method: 'POST',
      path: '/api/sql/query',
      url: '/api/sql/query',
      body: { nope: 1 },
      status: 400,
    },
    { method: 'GET', path: '/api/projects', url: '/api/projects', status: 200 },
    { method: 'GET', path: '/api/projects/{project}', url: '/api/projects/mindsdb', status: 200 },
    { method: 'GET', path: '/api/projects/{project}', url: '/api/projects/nope', status: 404 },
    {
      method: 'GET',
      path: '/api/projects/{project}/models',
      url: '/api/projects/mindsdb/models',
      status: 200,
    },
    {
      method: 'GET',
      path: '/api/projects/{project}/models/{model}',
      url: '/api/projects/mindsdb/models/small_model',
      status: 200,
    },
    {
      method: 'GET',
      path: '/api/projects/{project}/models/{model}',
      url: '/api/projects/mindsdb/models/nope',
      status: 404,
    },
    {
      method: 'POST',
      path: '/api/projects/{project}/models/{model}/predict',
      url: '/api/projects/mindsdb/models/small_model/predict',
      body: [{ sqft: 800, location: 'good' }],
      status: 200,
    },
    {
      method: 'POST',
      path: '/api/projects/{project}/models/{model}/predict',
      url: '/api/projects/mindsdb/models/small_model/predict',
      body: [1],
      status: 400,
    },
    {
      method: 'GET',
      path: '/api/projects/{project}/models/{model}/describe',
      url: '/api/projects/mindsdb/models/small_model/describe',
      status: 200,
    },
    {
      method: 'GET',
      path: '/api/projects/{project}/models/{model}/describe',
      url: '/api/projects/mindsdb/models/small_model/describe?attribute=info',
      status: 200,
    },
    {
      method: 'GET',
      path: '/api/projects/{project}/models/{model}/describe',
      url: '/api/projects/mindsdb/models/small_model/describe?attribute=features',
      status: 200,
    },
    {
      method: 'GET',
      path: '/api/projects/{project}/models/{model}/describe',
      url: '/api/projects/mindsdb/models/small_model/describe?attribute=model',
      status: 200,
    },
    {
      method: 'GET',
      path: '/api/projects/{project}/models/{model}/describe',
      url: '/api/projects/mindsdb/models/small_model/describe?attribute=progress',
      status: 200,
    },
    {
      method: 'GET',
      path: '/api/projects/{project}/models/{model}/describe',
      url: '/api/projects/mindsdb/models/small_model/describe?attribute=x',
      status: 400,
    },
    { method: 'GET', path: '/api/openapi.json', url: '/api/openapi.json', status: 200 },
    { method: 'GET', path: '/api/databases', url: '/api/databases', status: 200 },
    { method: 'GET', path: '/api/files', url: '/api/files', status: 200 },
  ];

  for (const c of cases) {
    it(`${c.method} ${c.url} -> ${c.status}`, async () => {
      const r = c.method === 'GET' ? await h.get(c.url) : await h.post(c.url, c.body);
      expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(c.status);
      const schema = declared(c.method, c.path, c.status);
      expect(schema).toBeDefined();
      const parsed = schema!.safeParse(r.body);
      expect(parsed.success, JSON.stringify(parsed.error?.issues ?? []).slice(0, 500)).toBe(true);
    });
  }
});

describe('with auth enabled', () => {
  it('requires a session for the document and marks status, login and logout as public', async () => {
    const a = await startHarness({ AUTH_USERNAME: 'ada', AUTH_PASSWORD: 'pw-123456' });
    try {
      expect((await a.get('/api/openapi.json')).status).toBe(401);
      const login = await a.post('/api/login', { username: 'ada', password: 'pw-123456' });
      const d = (await a.get('/api/openapi.json', { authorization: `Bearer ${login.body.token}` }))
        .body as Doc;
      expect(d.security).toEqual([{ session: [] }, { bearer: [] }]);
      expect(d.paths['/api/status'].get.security).toEqual([]);
      expect(d.paths['/api/login'].post.security).toEqual([]);
      expect(d.paths['/api/projects'].get.security).toBeUndefined();
    } finally {
      await a.close();
    }
  });
});
