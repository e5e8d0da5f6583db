/**
 * The wire as MindsDB's clients read it, over a real port: the status route and ping, problem
 * details for REST errors (the SQL endpoint keeps its envelope), 404 for an unknown project or
 * model before the body is looked at, MindsDB's fields on model objects and predicted rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody, ModelDetail, ModelList, PredictResponse } from '../../../contract';
import { VERSION } from '../../instance';
import { startHarness, type Harness } from '../../test/harness';
import { rawRequest } from '../../test/http';
import { trainingCache } from '../../test/training-cache';

let h: Harness;
const MODEL = '/api/projects/mindsdb/models/wire_model';

/** A request with exact bytes and headers (fetch cannot send a GET body). */
const send = (method: string, path: string, body?: string, headers: Record<string, string> = {}) =>
  rawRequest(h.url, method, path, headers, body);

const JSON_TYPE = { 'content-type': 'application/json' };

beforeAll(async () => {
  h = await startHarness(trainingCache());
  const c = await h.sql(
    'CREATE MODEL mindsdb.wire_model FROM example_db (SELECT sqft, location, rental_price FROM demo_data.home_rentals LIMIT 300) PREDICT rental_price',
  );
  expect(c.type, JSON.stringify(c)).toBe('table');
  await h.instance.models.idle();
});

afterAll(async () => {
  await h?.close();
});

describe('GET /api/status and /api/util/ping', () => {
  it("reports mindsdb_version (what the Python SDK's server.status() reads), environment and auth", async () => {
    const r = await h.get('/api/status');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      mindsdb_version: VERSION,
      environment: 'local',
      auth: { http_auth_enabled: false, confirmed: true, provider: 'disabled' },
    });
  });

  it('answers ping with {"status": "ok"}, and both without a session when auth is on', async () => {
    const r = await h.get('/api/util/ping');
    expect(r).toEqual({ status: 200, body: { status: 'ok' } });
    const a = await startHarness({
      ...trainingCache(),
      AUTH_USERNAME: 'ada',
      AUTH_PASSWORD: 'pw-123456',
    });
    try {
      expect(await a.get('/api/util/ping')).toEqual({ status: 200, body: { status: 'ok' } });
      const status = await a.get('/api/status');
      expect(status.body).toMatchObject({
        mindsdb_version: VERSION,
        auth: { http_auth_enabled: true, confirmed: false, provider: 'local' },
      });
      expect((await a.get('/api/projects')).status).toBe(401);
    } finally {
      await a.close();
    }
  });
});

describe("errors outside the SQL endpoint: MindsDB's problem details", () => {
  it('sends application/problem+json with title and detail, and error_code/error_message beside them', async () => {
    const r = await send('GET', '/api/projects/nope');
    expect(r.status).toBe(404);
    expect(r.type).toBe('application/problem+json; charset=utf-8');
    expect(r.json).toEqual({
      title: 'Not Found',
      detail: "Project 'nope' does not exist",
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}$/),
      error_code: 2,
      error_message: "Project 'nope' does not exist",
    });
    const bad = await send('POST', `${MODEL}/predict`, '{"data": 7}', JSON_TYPE);
    expect(bad.status).toBe(400);
    expect(bad.type).toMatch(/^application\/problem\+json/);
    expect(ErrorBody.parse(bad.json)).toMatchObject({
      title: 'Bad Request',
      error_code: 3,
      detail: bad.json.error_message,
    });
    const type = await send('POST', `${MODEL}/predict`, '[]', { 'content-type': 'text/plain' });
    expect(type.status).toBe(415);
    expect(type.json.title).toBe('Unsupported Media Type');
  });

  it('keeps the SQL envelope on the SQL endpoint, also for its HTTP-level errors', async () => {
    const r = await send('POST', '/api/sql/query', '{"nope": 1}', JSON_TYPE);
    expect(r.status).toBe(400);
    expect(r.type).toMatch(/^application\/json/);
    expect(r.json).toEqual({
      type: 'error',
      column_names: [],
      context: { db: 'mindsdb' },
      error_code: 3,
      error_message: 'query is required',
    });
  });
});

describe('predict and describe on an unknown project or model', () => {
  const unknown = [
    '/api/projects/nope/models/wire_model',
    '/api/projects/mindsdb/models/nope',
    `${MODEL}.9`,
    '/v1/api/api/projects/mindsdb/models/nope',
  ];

  it('answer 404 whatever the body: not JSON, the wrong shape, or missing', async () => {
    for (const path of unknown) {
      for (const body of ['{not json', '{"nope": 1}', '[1, 2]', '']) {
        const r = await send('POST', `${path}/predict`, body, JSON_TYPE);
        expect(r.status, `${path} ${body}`).toBe(404);
        expect(r.json.error_code).toBe(2);
      }
      const d = await send('GET', `${path}/describe`, '{"attribute": 5', JSON_TYPE);
      expect(d.status, path).toBe(404);
    }
  });

  it('while a known model still gets the body problem', async () => {
    const r = await send('POST', `${MODEL}/predict`, '{not json', JSON_TYPE);
    expect(r.status).toBe(400);
    expect(r.json.error_message).toMatch(/not valid JSON/);
  });
});

describe('model objects and predictions carry MindsDB fields', () => {
  it('gives models an integer id, update and engine_name, stable across requests', async () => {
    const one = ModelDetail.parse((await h.get(MODEL)).body);
    expect(Number.isSafeInteger(one.id)).toBe(true);
    expect(one).toMatchObject({ update: 'up_to_date', engine_name: 'lightwood', version: 1 });
    expect(one.update).toBe(one.update_status);
    const list = ModelList.parse((await h.get('/api/projects/mindsdb/models')).body);
    expect(list.find((m) => m.name === 'wire_model')?.id).toBe(one.id);
    expect(one.versions[0].id).toBe(one.id);
  });

  it('gives each version its own id', async () => {
    await h.sql('RETRAIN mindsdb.wire_model');
    await h.instance.models.idle();
    const versions = ModelDetail.parse((await h.get(MODEL)).body).versions;
    expect(versions.map((v) => v.version)).toEqual([1, 2]);
    expect(versions[0].id).not.toBe(versions[1].id);
  });

  it('puts __mindsdb_row_id on predicted rows, with __service_row_id beside it', async () => {
    const r = await h.post(`${MODEL}/predict`, {
      data: [
        { sqft: 800, location: 'good' },
        { sqft: 1200, location: 'great' },
      ],
      params: {},
    });
    expect(r.status).toBe(200);
    const rows = PredictResponse.parse(r.body);
    expect(rows.map((x) => [x.__mindsdb_row_id, x.__service_row_id])).toEqual([
      [0, 0],
      [1, 1],
    ]);
  });
});
