/**
 * The model REST API over a real port (docs/DESIGN.md 3.2-3.4): predict and describe in the spec's and the
 * real service's forms, the projects and models resources, and every bad input the issue lists.
 * One home_rentals model is trained once and shared; tests that change models use their own.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DescribeCandidateRow,
  DescribeFeatureRow,
  DescribeProgressRow,
  DescribeSummaryRow,
  ErrorBody,
  ModelDetail,
  ModelList,
  PredictResponse,
  PredictionExplain,
  ProjectList,
} from '../../../contract';
import { startHarness, type Harness } from '../../test/harness';
import { RowColumns, readRowColumns } from '../row-columns';

let h: Harness;
const P = '/api/projects/mindsdb/models/home_rentals_model';

type Row = Record<string, unknown>;

/** A raw request, for what fetch refuses to send (a GET with a body) or exact bytes and headers. */
function raw(
  base: string,
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    // Node frames a GET/DELETE body only with an explicit length (it never chunks those methods).
    const all =
      body === undefined
        ? headers
        : { 'content-length': String(Buffer.byteLength(body)), ...headers };
    const req = http.request(`${base}${path}`, { method, headers: all }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // keep the text
        }
        resolve({ status: res.statusCode ?? 0, body: parsed });
      });
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

async function waitComplete(name: string, project = 'mindsdb') {
  await h.instance.models.idle();
  const r = await h.get(`/api/projects/${project}/models/${name}`);
  expect(r.body.status, JSON.stringify(r.body)).toBe('complete');
}

/** An error body of the documented shape, returned for further assertions. */
function errorOf(r: { status: number; body: unknown }, status: number, code: number) {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  const e = ErrorBody.parse(r.body);
  expect(e.error_code).toBe(code);
  return e.error_message;
}

beforeAll(async () => {
  h = await startHarness();
  const c = await h.sql(
    'CREATE MODEL mindsdb.home_rentals_model FROM example_db (SELECT * FROM demo_data.home_rentals) PREDICT rental_price',
  );
  expect(c.type, JSON.stringify(c)).toBe('table');
  await waitComplete('home_rentals_model');
});

afterAll(async () => {
  await h?.close();
});

describe('POST .../predict', () => {
  it('answers the spec array body with one row per input: inputs, prediction, interval, explain', async () => {
    const r = await h.post(`${P}/predict`, [
      {
        sqft: 823,
        location: 'good',
        number_of_rooms: 1,
        number_of_bathrooms: 1,
        neighborhood: 'downtown',
        days_on_market: 10,
        initial_price: 2000,
      },
      { sqft: 1500, location: 'great', number_of_rooms: 3, initial_price: 4000 },
    ]);
    expect(r.status).toBe(200);
    const rows = PredictResponse.parse(r.body);
    expect(rows).toHaveLength(2);
    for (const [i, row] of rows.entries()) {
      const v = row.rental_price as number;
      expect(typeof v).toBe('number');
      expect(v).toBeGreaterThan(500);
      expect(v).toBeLessThan(15_000);
      expect(row.rental_price_min as number).toBeLessThanOrEqual(v);
      expect(row.rental_price_max as number).toBeGreaterThanOrEqual(v);
      expect(row.rental_price_confidence as number).toBeGreaterThan(0);
      expect(row.rental_price_confidence as number).toBeLessThanOrEqual(1);
      expect(row.rental_price_anomaly).toBeNull();
      expect(row.rental_price_original).toBeNull();
      expect(row.__service_row_id).toBe(i);
      expect(row.select_data_query).toBeNull();
      expect(row.when_data).toBeNull();
      const explain = PredictionExplain.parse(JSON.parse(row.rental_price_explain as string));
      expect(explain.predicted_value).toBe(v);
      expect(explain.confidence_lower_bound).toBe(row.rental_price_min);
      expect(explain.truth).toBeNull();
    }
    // Inputs echo back; those not supplied are null.
    expect(rows[1]).toMatchObject({
      sqft: 1500,
      location: 'great',
      number_of_rooms: 3,
      neighborhood: null,
    });
    // The rent follows the initial price closely in this data set (r2 ~ 0.999).
    expect(Math.abs((rows[0].rental_price as number) - 2000)).toBeLessThan(300);
    expect(Math.abs((rows[1].rental_price as number) - 4000)).toBeLessThan(500);
  });

  it('casts values to the training types ("823" -> 823) and predicts the same as with numbers', async () => {
    const asText = await h.post(`${P}/predict`, [
      { sqft: '823', location: 'good', number_of_rooms: '1' },
    ]);
    const asNumbers = await h.post(`${P}/predict`, [
      { sqft: 823, location: 'good', number_of_rooms: 1 },
    ]);
    expect(asText.status).toBe(200);
    expect(asText.body[0].sqft).toBe(823);
    expect(asText.body[0].rental_price).toBe(asNumbers.body[0].rental_price);
  });

  it('accepts the real service body {data: [...] | "<json>", params} with the same answer', async () => {
    const rows = [{ sqft: 900, location: 'poor', number_of_rooms: 2 }];
    const plain = await h.post(`${P}/predict`, rows);
    const data = await h.post(`${P}/predict`, {
      data: rows,
      params: { explain: false, unknown_option: 1 },
    });
    const text = await h.post(`${P}/predict`, { data: JSON.stringify(rows) });
    expect(data.status).toBe(200);
    expect(text.status).toBe(200);
    expect(data.body).toEqual(plain.body);
    expect(text.body).toEqual(plain.body);
  });

  it('answers rows read straight into columns byte for byte as the generic path does', async () => {
    // 2,000 rows (the prediction thread's slices): absent keys, text numbers, nulls, -0,
    // exponents, an unknown category, a repeated key, an unknown-to-the-model identifier.
    const rows = Array.from(
      { length: 2_000 },
      (_, i) =>
        `{"sqft": ${[300 + i, '"823"', null, '-0', '1.5e3', '1000.50'][i % 6]}, "location": ${
          ['"good"', '"great"', '"poor"', '"sous-sol é"', null][i % 5]
        }${i % 3 ? `, "number_of_rooms": ${i % 4}` : ''}${i % 7 ? '' : ', "location": "good"'}}`,
    );
    const body = `[${rows.join(',\n')}]`;
    const text = async (b: string) => {
      const r = await fetch(`${h.url}${P}/predict`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: b,
      });
      expect(r.status).toBe(200);
      return r.text();
    };
    const noParse = () => undefined;
    expect(readRowColumns(Buffer.from(body), noParse)).toBeInstanceOf(RowColumns);
    // `data` as a JSON string is read the generic way (JSON.parse, then rows to columns).
    const generic = await text(JSON.stringify({ data: body }));
    expect(await text(body)).toBe(generic);
    expect(await text(`{"data": ${body}}`)).toBe(generic);
    const few = `[${rows.slice(0, 60).join(',')}]`;
    const explained = await text(`{"params": {"explain": true}, "data": ${few}}`);
    expect(explained).toBe(await text(JSON.stringify({ data: few, params: { explain: true } })));
    expect(JSON.parse(explained)[1].rental_price_explain).toMatch(/feature_contributions/);
    // 9,000 rows in the answer's own shape (three slices on the prediction thread): every number
    // column a Float64Array, the inputs copied from the request's text.
    const exact = Array.from(
      { length: 9_000 },
      (_, i) =>
        `{"number_of_rooms":${i % 4},"number_of_bathrooms":${1 + (i % 2)},"sqft":${300 + ((i * 37) % 1700)},"location":"${['good', 'great', 'poor'][i % 3]}","days_on_market":${(i * 13) % 60},"initial_price":${1000 + ((i * 101) % 5000) / 4},"neighborhood":"${['downtown', 'westbrae', 'sous-sol é'][i % 3]}"}`,
    );
    const big = `[${exact.join(',')}]`;
    const read = readRowColumns(Buffer.from(big), noParse) as RowColumns;
    expect(read.columns.sqft).toBeInstanceOf(Float64Array);
    expect(Array.from(read.text.rows!.keys).every((k) => k === 7)).toBe(true);
    const answer = await text(big);
    expect(answer).toBe(await text(JSON.stringify({ data: big })));
    expect(JSON.parse(answer)[8_999]).toMatchObject({ sqft: 300 + ((8_999 * 37) % 1700) });
  });

  it('serves versioned names (model.1) and the /v1/api prefix form identically', async () => {
    const rows = [{ sqft: 700, location: 'good' }];
    const a = await h.post(`${P}/predict`, rows);
    const b = await h.post(`${P}.1/predict`, rows);
    const c = await h.post(`/v1/api${P}/predict`, rows);
    expect(b.status).toBe(200);
    expect(c.status).toBe(200);
    expect(b.body).toEqual(a.body);
    expect(c.body).toEqual(a.body);
  });

  it('fills _original and _anomaly when the truth is supplied', async () => {
    const r = await h.post(`${P}/predict`, [
      { sqft: 823, location: 'good', number_of_rooms: 1, rental_price: 2400 },
      { sqft: 823, location: 'good', number_of_rooms: 1, rental_price: 1_000_000 },
    ]);
    expect(r.status).toBe(200);
    expect(r.body[0].rental_price_original).toBe(2400);
    expect(r.body[1].rental_price_anomaly).toBe(true);
    expect(JSON.parse(r.body[1].rental_price_explain).truth).toBe(1_000_000);
  });

  it('answers an empty array with 200 []', async () => {
    const r = await h.post(`${P}/predict`, []);
    expect(r.status).toBe(200);
    expect(r.body).toEqual([]);
  });

  it('predicts a 10k-row batch in order', async () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => ({
      sqft: 300 + (i % 2000),
      location: i % 2 ? 'good' : 'great',
      number_of_rooms: i % 4,
    }));
    const r = await h.post(`${P}/predict`, rows);
    expect(r.status).toBe(200);
    expect(r.body).toHaveLength(10_000);
    expect(r.body[9_999].__service_row_id).toBe(9_999);
    expect(r.body[9_999].sqft).toBe(300 + (9_999 % 2000));
    expect(r.body.every((x: Row) => typeof x.rental_price === 'number')).toBe(true);
  });

  it('answers a body that is not JSON with 400 and a wrong content type with 415', async () => {
    const bad = await raw(h.url, 'POST', `${P}/predict`, '[{"sqft": 8', {
      'content-type': 'application/json',
    });
    expect(errorOf(bad, 400, 3)).toMatch(/not valid JSON/);
    const xml = await raw(h.url, 'POST', `${P}/predict`, '<rows/>', {
      'content-type': 'application/xml',
    });
    expect(errorOf(xml, 415, 3)).toMatch(/Content-Type/);
  });

  it('names the problem in a body of the wrong shape', async () => {
    expect(errorOf(await h.post(`${P}/predict`, [{ sqft: 1 }, 5]), 400, 3)).toBe(
      'row 2 is a number, not an object of column values like {"sqft": 823}',
    );
    expect(errorOf(await h.post(`${P}/predict`, { data: 5 }), 400, 3)).toBe(
      'data must be an array of row objects or a JSON string of one, got a number',
    );
    expect(errorOf(await h.post(`${P}/predict`, { data: [{ sqft: 1 }, 'x'] }), 400, 3)).toBe(
      'data: row 2 is a string, not an object of column values like {"sqft": 823}',
    );
    expect(errorOf(await h.post(`${P}/predict`, { data: '[{"sqft": ' }), 400, 3)).toMatch(
      /^data is a string but not valid JSON/,
    );
    expect(errorOf(await h.post(`${P}/predict`, { rows: [] }), 400, 3)).toMatch(
      /^data is required/,
    );
    expect(errorOf(await h.post(`${P}/predict`, 42), 400, 3)).toMatch(
      /must be a JSON array of row objects .* got a number$/,
    );
    expect(errorOf(await h.post(`${P}/predict`, { data: [], params: 3 }), 400, 3)).toBe(
      'params must be an object, got a number',
    );
  });

  it('names column and row of a value that cannot be cast, and an unknown column', async () => {
    const cast = errorOf(await h.post(`${P}/predict`, [{ sqft: 800 }, { sqft: 'large' }]), 400, 3);
    expect(cast).toMatch(/"large".*'sqft'.*row 2/);
    const unknown = errorOf(await h.post(`${P}/predict`, [{ sqfeet: 800 }]), 400, 3);
    expect(unknown).toMatch(/no input column 'sqfeet'/);
  });

  it('answers 404 for an unknown project, model or version, naming it', async () => {
    expect(
      errorOf(await h.post('/api/projects/nope/models/home_rentals_model/predict', [{}]), 404, 2),
    ).toMatch(/Project 'nope'/);
    expect(
      errorOf(await h.post('/api/projects/mindsdb/models/nope/predict', [{}]), 404, 2),
    ).toMatch(/'mindsdb.nope'/);
    expect(errorOf(await h.post(`${P}.9/predict`, []), 404, 2)).toMatch(
      /no version 9; its versions are 1/,
    );
  });
});

describe('GET .../describe', () => {
  it('answers the spec row without an attribute', async () => {
    const r = await h.get(`${P}/describe`);
    expect(r.status).toBe(200);
    expect(r.body).toHaveLength(1);
    const d = DescribeSummaryRow.parse(r.body[0]);
    expect(d.accuracies.r2_score).toBeGreaterThan(0.9);
    expect(d.accuracies.r2_score).toBeLessThanOrEqual(1);
    expect(d.outputs).toEqual(['rental_price']);
    expect(Object.keys(d.column_importances).sort()).toEqual([...d.inputs].sort());
    expect(d.inputs).toContain('sqft');
    expect(d.model).toContain(' --> ');
  });

  it('reads the attribute from a GET body, as curl -X GET -H "Content-Type: application/json" -d sends it', async () => {
    const r = await raw(h.url, 'GET', `${P}/describe`, '{"attribute":"features"}', {
      'content-type': 'application/json',
    });
    expect(r.status).toBe(200);
    const rows = (r.body as unknown[]).map((x) => DescribeFeatureRow.parse(x));
    expect(rows.find((f) => f.column === 'rental_price')?.role).toBe('target');
    expect(rows.find((f) => f.column === 'sqft')).toMatchObject({
      type: 'integer',
      role: 'feature',
    });
    // curl's default form content type is read as JSON too.
    const form = await raw(h.url, 'GET', `${P}/describe`, '{"attribute":"progress"}', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    const progress = DescribeProgressRow.parse((form.body as unknown[])[0]);
    expect(progress.current).toBe(progress.total);
  });

  it('reads ?attribute= and lets the body win over it', async () => {
    const info = await h.get(`${P}/describe?attribute=info`);
    expect(info.status).toBe(200);
    expect(info.body[0].accuracies.r2_score).toBeGreaterThan(0.9);
    expect(info.body[0]).not.toHaveProperty('model');
    const both = await raw(h.url, 'GET', `${P}/describe?attribute=info`, '{"attribute":"model"}', {
      'content-type': 'application/json',
    });
    const candidates = (both.body as unknown[]).map((x) => DescribeCandidateRow.parse(x));
    expect(candidates.filter((c) => c.selected)).toHaveLength(1);
  });

  it('treats Content-Type: application/json without a body, and an empty object, as no attribute', async () => {
    const r = await raw(h.url, 'GET', `${P}/describe`, undefined, {
      'content-type': 'application/json',
    });
    expect(r.status).toBe(200);
    expect((r.body as Row[])[0]).toHaveProperty('model');
    const e = await raw(h.url, 'GET', `/v1/api${P}.1/describe`, '{}', {
      'content-type': 'application/json',
    });
    expect(e.body).toEqual(r.body);
  });

  it('answers an unknown attribute with 400 listing the allowed ones, and bad bodies with 400/415', async () => {
    expect(errorOf(await h.get(`${P}/describe?attribute=colour`), 400, 3)).toBe(
      "Unknown attribute 'colour' to describe; allowed: info, features, model, progress",
    );
    const notJson = await raw(h.url, 'GET', `${P}/describe`, '{attribute', {
      'content-type': 'application/json',
    });
    expect(errorOf(notJson, 400, 3)).toMatch(/not valid JSON/);
    const num = await raw(h.url, 'GET', `${P}/describe`, '{"attribute": 3}', {
      'content-type': 'application/json',
    });
    expect(errorOf(num, 400, 3)).toBe('attribute must be a string, got a number');
    const xml = await raw(h.url, 'GET', `${P}/describe`, '<a/>', {
      'content-type': 'application/xml',
    });
    expect(errorOf(xml, 415, 3)).toMatch(/Content-Type/);
  });

  it('answers 404 for an unknown model and version', async () => {
    expect(errorOf(await h.get('/api/projects/mindsdb/models/nope/describe'), 404, 2)).toMatch(
      /does not exist/,
    );
    expect(errorOf(await h.get(`${P}.4/describe`), 404, 2)).toMatch(/no version 4/);
  });
});

describe('models that are not complete', () => {
  it('answers 409 with the status while training, and DELETE cancels the training', async () => {
    // Big enough that training certainly outlasts the next request.
    await h.sql(`CREATE TABLE files.slow AS SELECT i AS id, (i * 7919) % 1000 AS a, (i * 104729) % 977 AS b, i % 13 AS c,
      ((i * 7919) % 1000) * 3 + (i % 13) AS y FROM range(300000) t(i)`);
    const c = await h.sql(
      'CREATE MODEL mindsdb.slow_model FROM files (SELECT a, b, c, y FROM slow) PREDICT y',
    );
    expect(c.type, JSON.stringify(c)).toBe('table');
    const p = await h.post('/api/projects/mindsdb/models/slow_model/predict', [{ a: 1 }]);
    expect(errorOf(p, 409, 4)).toMatch(/is not ready yet: its status is (generating|training)/);
    const empty = await h.post('/api/projects/mindsdb/models/slow_model/predict', []);
    expect(empty.status).toBe(409);
    const d = await h.get('/api/projects/mindsdb/models/slow_model/describe');
    expect(d.status).toBe(409);
    const progress = await h.get(
      '/api/projects/mindsdb/models/slow_model/describe?attribute=progress',
    );
    expect(progress.status).toBe(200);
    DescribeProgressRow.parse(progress.body[0]);
    const one = await h.get('/api/projects/mindsdb/models/slow_model');
    expect(['generating', 'training']).toContain(one.body.status);
    const del = await raw(h.url, 'DELETE', '/api/projects/mindsdb/models/slow_model');
    expect(del.status).toBe(204);
    expect((await h.get('/api/projects/mindsdb/models/slow_model')).status).toBe(404);
    await h.instance.models.idle();
  });

  it('answers 409 with the error of a model whose training failed', async () => {
    await h.sql(
      'CREATE TABLE files.nulls AS SELECT i AS x, CAST(NULL AS INTEGER) AS y FROM range(50) t(i)',
    );
    await h.sql('CREATE MODEL mindsdb.broken_model FROM files (SELECT * FROM nulls) PREDICT y');
    await h.instance.models.idle();
    const one = await h.get('/api/projects/mindsdb/models/broken_model');
    expect(one.body.status).toBe('error');
    expect(one.body.error).toMatch(/NULL in every row/);
    const p = await h.post('/api/projects/mindsdb/models/broken_model/predict', [{ x: 1 }]);
    expect(errorOf(p, 409, 4)).toMatch(/its status is error: .*NULL in every row/);
  });
});

describe('projects and models resources', () => {
  it('lists projects as [{name}] and gets one case-insensitively', async () => {
    const list = await h.get('/api/projects');
    expect(list.status).toBe(200);
    expect(ProjectList.parse(list.body)).toContainEqual({ name: 'mindsdb' });
    await h.sql('CREATE PROJECT rest_proj');
    expect((await h.get('/api/projects')).body.map((p: Row) => p.name)).toEqual(
      expect.arrayContaining(['mindsdb', 'rest_proj']),
    );
    expect((await h.get('/api/projects/MindsDB')).body).toEqual({ name: 'mindsdb' });
    expect((await h.get('/v1/api/api/projects/rest_proj')).body).toEqual({ name: 'rest_proj' });
    expect(errorOf(await h.get('/api/projects/nope'), 404, 2)).toBe(
      "Project 'nope' does not exist",
    );
    expect(errorOf(await h.get('/api/projects/nope/models'), 404, 2)).toBe(
      "Project 'nope' does not exist",
    );
  });

  it('lists models with the models-table values in lower case', async () => {
    const r = await h.get('/api/projects/mindsdb/models');
    expect(r.status).toBe(200);
    const m = ModelList.parse(r.body).find((x) => x.name === 'home_rentals_model');
    expect(m).toMatchObject({
      project: 'mindsdb',
      engine: 'lightwood',
      version: 1,
      active: true,
      status: 'complete',
      predict: 'rental_price',
      error: null,
      fetch_data_query: 'SELECT * FROM demo_data.home_rentals',
      problem_definition: { target: 'rental_price', using: {} },
    });
    expect(m!.accuracy).toBeGreaterThan(0.9);
    expect(m!.training_time).toBeGreaterThan(0);
    // The same values as SQL shows.
    const sql = await h.sql(
      "SELECT accuracy, created_at FROM mindsdb.models WHERE name = 'home_rentals_model'",
    );
    expect(sql.data[0]).toEqual([m!.accuracy, m!.created_at]);
    expect((await h.get('/api/projects/rest_proj/models')).body).toEqual([]);
  });

  it('gets a model with its versions, retrains, and drops one inactive version then the model', async () => {
    await h.sql(
      'CREATE MODEL mindsdb.versions_model FROM example_db (SELECT sqft, location, rental_price FROM demo_data.home_rentals LIMIT 500) PREDICT rental_price',
    );
    await waitComplete('versions_model');
    const re = await h.sql('RETRAIN mindsdb.versions_model');
    expect(re.type, JSON.stringify(re)).toBe('table');
    await waitComplete('versions_model');
    const one = ModelDetail.parse(
      (await h.get('/api/projects/mindsdb/models/versions_model')).body,
    );
    expect(one.version).toBe(2);
    expect(one.active).toBe(true);
    expect(one.versions.map((v) => [v.version, v.active])).toEqual([
      [1, false],
      [2, true],
    ]);
    const v1 = await h.get('/api/projects/mindsdb/models/versions_model.1');
    expect(v1.body).toMatchObject({ version: 1, active: false });
    // Version 1 still predicts by name.
    expect(
      (await h.post('/api/projects/mindsdb/models/versions_model.1/predict', [{ sqft: 800 }]))
        .status,
    ).toBe(200);

    const active = await raw(h.url, 'DELETE', '/api/projects/mindsdb/models/versions_model.2');
    expect(errorOf(active, 400, 3)).toMatch(/active version/);
    expect(
      (await raw(h.url, 'DELETE', '/api/projects/mindsdb/models/versions_model.1')).status,
    ).toBe(204);
    expect((await h.get('/api/projects/mindsdb/models/versions_model')).body.versions).toHaveLength(
      1,
    );
    expect(
      (await raw(h.url, 'DELETE', '/v1/api/api/projects/mindsdb/models/versions_model')).status,
    ).toBe(204);
    expect(errorOf(await h.get('/api/projects/mindsdb/models/versions_model'), 404, 2)).toMatch(
      /does not exist/,
    );
    expect(
      errorOf(await raw(h.url, 'DELETE', '/api/projects/mindsdb/models/versions_model'), 404, 2),
    ).toMatch(/does not exist/);
    const sql = await h.sql("SELECT * FROM mindsdb.models WHERE name = 'versions_model'");
    expect(sql.data).toEqual([]);
  });
});

describe('limits', () => {
  let small: Harness;
  beforeAll(async () => {
    small = await startHarness({ BODY_LIMIT_BYTES: 16 * 1024 });
    // The model must exist: an unknown one is answered 404 before its body is read.
    await small.sql(
      'CREATE MODEL mindsdb.m FROM example_db (SELECT sqft, rental_price FROM demo_data.home_rentals LIMIT 50) PREDICT rental_price',
    );
    await small.instance.models.idle();
  });
  afterAll(async () => {
    await small?.close();
  });

  it('answers a predict or describe body over the size limit with 413 and keeps serving', async () => {
    const rows = Array.from({ length: 2000 }, () => ({ sqft: 800 }));
    const p = await small.post('/api/projects/mindsdb/models/m/predict', rows);
    expect(errorOf(p, 413, 6)).toMatch(/larger than the limit/);
    const big = JSON.stringify({ attribute: 'x'.repeat(20_000) });
    const d = await raw(small.url, 'GET', '/api/projects/mindsdb/models/m/describe', big, {
      'content-type': 'application/json',
    });
    expect(errorOf(d, 413, 6)).toMatch(/larger than the limit \(16384 bytes, BODY_LIMIT_BYTES\)/);
    expect((await small.get('/api/projects')).status).toBe(200);
  });
});
