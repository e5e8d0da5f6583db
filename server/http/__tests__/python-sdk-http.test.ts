/**
 * MindsDB's Python SDK (mindsdb_sdk) against the instance, at the HTTP level: a client written
 * here sends exactly the requests `mindsdb_sdk.connectors.rest_api.RestAPI` sends (same paths,
 * JSON bodies, multipart layout) and reads the answers the way the SDK does, for its documented
 * flow: connect and status, databases, projects, raw queries, models create/wait/predict/
 * retrain/set_active/drop, and a DataFrame upload to `files`. The SQL strings are what the SDK's
 * ASTs render to with mindsdb_sql_parser (`to_string()`), spacing included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../test/harness';
import { trainingCache } from '../../test/training-cache';

let h: Harness;

type Records = Record<string, unknown>[];

/** `requests.HTTPError` as `_raise_for_status` raises it: the reason and the body text. */
class HttpError extends Error {
  constructor(
    readonly status: number,
    text: string,
  ) {
    super(`HTTP ${status}: ${text}`);
  }
}

/** The SDK's RestAPI: the same requests, the same reading of the answers. */
class RestApi {
  /** Every request sent, as `METHOD path body` (for assertions on what went over the wire). */
  readonly sent: string[] = [];

  /** The session's headers (`self.session.headers`): the bearer token once logged in. */
  private readonly headers: Record<string, string> = { 'user-agent': 'python-sdk/3.4.0' };

  constructor(readonly url: string) {}

  private async send(method: string, path: string, init: RequestInit = {}) {
    const body = typeof init.body === 'string' ? init.body : '';
    this.sent.push(`${method} ${path} ${body}`.trimEnd());
    return fetch(this.url + path, {
      method,
      ...init,
      headers: { ...this.headers, ...(init.headers as object) },
    });
  }

  private async request(method: string, path: string, init: RequestInit = {}) {
    const res = await this.send(method, path, init);
    const text = await res.text();
    if (res.status >= 400) throw new HttpError(res.status, text);
    return text === '' ? null : (JSON.parse(text) as unknown);
  }

  /**
   * `login()` with `is_managed=False`, what `mindsdb_sdk.connect(url, login, password)` calls: the
   * cloud endpoint first, MindsDB's own `/api/login` on 404 or 405, then the token as a bearer.
   */
  async login(username: string, password: string) {
    const json = { 'content-type': 'application/json' };
    let r = await this.send('POST', '/cloud/login', {
      headers: json,
      body: JSON.stringify({ password, email: username }),
    });
    if (r.status === 404 || r.status === 405) {
      await r.text();
      r = await this.send('POST', '/api/login', {
        headers: json,
        body: JSON.stringify({ password, username }),
      });
    }
    const text = await r.text();
    if (r.status >= 400) throw new HttpError(r.status, text);
    if ((r.headers.get('content-type') ?? '').includes('application/json')) {
      const body = JSON.parse(text) as { token?: string };
      if (typeof body.token === 'string') this.headers.authorization = `Bearer ${body.token}`;
    }
  }

  /** `sql_query(sql, database)`: a DataFrame of the table (here records), or null. */
  async sqlQuery(sql: string, database: string | null = null): Promise<Records | null> {
    const data = (await this.request('POST', '/api/sql/query', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: sql, context: { db: database ?? 'mindsdb' } }),
    })) as {
      type: string;
      column_names: string[];
      data: unknown[][];
      error_message: string;
    };
    if (data.type === 'table')
      return data.data.map((row) =>
        Object.fromEntries(data.column_names.map((c, i) => [c, row[i]])),
      );
    if (data.type === 'error') throw new Error(`RuntimeError: ${data.error_message}`);
    return null;
  }

  status() {
    return this.request('GET', '/api/status') as Promise<Record<string, unknown>>;
  }

  /** `model_predict`: `{"data": df.to_dict('records'), "params": {}}`, model `name.version`. */
  modelPredict(
    project: string,
    model: string,
    data: Records,
    params: Record<string, unknown> | null = null,
    version: number | null = null,
  ) {
    const m = version === null ? model : `${model}.${version}`;
    return this.request('POST', `/api/projects/${project}/models/${m}/predict`, {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data, params: params ?? {} }),
    }) as Promise<Records>;
  }

  /**
   * `upload_file(name, df)` -> `upload_data`: the DataFrame as CSV (`to_csv(index=False)`) in a
   * multipart form as `requests` encodes `data=` then `files=`: three fields, then the file part
   * named after the table, without a Content-Type of its own.
   */
  async uploadDataFrame(name: string, columns: string[], rows: unknown[][]) {
    const csv = [columns, ...rows].map((r) => r.join(',')).join('\n') + '\n';
    const boundary = 'b7f1c0de2f6a4c1e9d0a8b3c5e7f9a1b';
    const field = (k: string, v: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
    const body =
      field('original_file_name', name) +
      field('name', name) +
      field('source_type', 'file') +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n\r\n${csv}\r\n` +
      `--${boundary}--\r\n`;
    return this.request('PUT', `/api/files/${name.split('.')[0]}`, {
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
  }
}

const api = () => new RestApi(h.url);
let sdk: RestApi;

const PROJECT = 'sdk_http';
const MODEL = 'rentals_model';

/** `Models.list(name=..., version=...)` / `Models.get`: the models table, filtered. */
async function getModel(version: number | null = null) {
  const sql =
    version === null
      ? `SELECT * FROM models WHERE NAME = '${MODEL}' AND ACTIVE = '1'`
      : `SELECT * FROM models WHERE NAME = '${MODEL}' AND VERSION = ${version}`;
  const rows = (await sdk.sqlQuery(sql, PROJECT))!.map((r) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k.toLowerCase(), v])),
  );
  if (rows.length === 0) throw new Error("AttributeError: Model doesn't exist");
  if (rows.length > 1) throw new Error('RuntimeError: Several models with the same name/version');
  return rows[0];
}

/** `Model.wait_complete()`: polls `get_status()` (a refresh through `Models.get`). */
async function waitComplete(version: number | null = null) {
  for (let i = 0; i < 400; i++) {
    const m = await getModel(version);
    if (m.status === 'error') throw new Error(`Training failed: ${String(m.error)}`);
    if (m.status !== 'generating' && m.status !== 'training') return m;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error('still training');
}

beforeAll(async () => {
  h = await startHarness(trainingCache());
  sdk = api();
});

afterAll(async () => {
  await h?.close();
});

describe('mindsdb_sdk over HTTP', () => {
  it("connect() sends nothing; server.status()['mindsdb_version'] is there", async () => {
    const status = await sdk.status();
    expect(typeof status.mindsdb_version).toBe('string');
    expect(status).toMatchObject({ environment: 'local', auth: { http_auth_enabled: false } });
    expect(sdk.sent).toEqual(['GET /api/status']);
  });

  it('databases.list() and databases.get(name) read information_schema.databases', async () => {
    const rows = await sdk.sqlQuery(
      "select NAME, ENGINE, CONNECTION_DATA from information_schema.databases where TYPE='data'",
    );
    const names = rows!.map((r) => r.NAME);
    expect(names).toContain('example_db');
    // databases.files, as the DataFrame upload reaches it
    expect(names).toContain('files');
    expect(sdk.sent.at(-1)).toBe(
      'POST /api/sql/query {"query":"select NAME, ENGINE, CONNECTION_DATA from information_schema.databases where TYPE=\'data\'","context":{"db":"mindsdb"}}',
    );
  });

  it('projects.create / list / get', async () => {
    expect(await sdk.sqlQuery("CREATE DATABASE sdk_http ENGINE = 'mindsdb' ")).toBeNull();
    const projects = await sdk.sqlQuery(
      "select NAME from information_schema.databases where TYPE='project'",
    );
    expect(projects!.map((r) => r.NAME)).toEqual(['mindsdb', PROJECT]);
  });

  it("project.query(sql).fetch() runs in the project's context", async () => {
    const rows = await sdk.sqlQuery(
      'SELECT sqft, rental_price FROM example_db.demo_data.home_rentals ORDER BY sqft LIMIT 2',
      PROJECT,
    );
    expect(rows).toHaveLength(2);
    expect(Object.keys(rows![0])).toEqual(['sqft', 'rental_price']);
  });

  it('models.create(name, predict, query=database.query(...)) then wait_complete()', async () => {
    const created = await sdk.sqlQuery(
      'CREATE MODEL sdk_http.rentals_model FROM example_db (select * from demo_data.home_rentals limit 1000) PREDICT rental_price',
    );
    const data = Object.fromEntries(
      Object.entries(created![0]).map(([k, v]) => [k.toLowerCase(), v]),
    );
    expect(data).toMatchObject({ name: MODEL, status: 'generating', version: 1 });
    const done = await waitComplete();
    expect(done).toMatchObject({ name: MODEL, status: 'complete', active: true, version: 1 });
  });

  it('model.predict(query): the native query wrapped and joined with the model', async () => {
    const rows = await sdk.sqlQuery(
      'SELECT m.* FROM (SELECT * FROM example_db (select * from demo_data.home_rentals limit 5)) AS t JOIN sdk_http.rentals_model AS m',
    );
    expect(rows).toHaveLength(5);
    for (const r of rows!) expect(typeof r.rental_price).toBe('number');
  });

  it('model.predict(dict) and predict(DataFrame) go to the REST predict route', async () => {
    const one = await sdk.modelPredict(PROJECT, MODEL, [
      { sqft: 823, location: 'good', neighborhood: 'downtown', days_on_market: 10 },
    ]);
    expect(one).toHaveLength(1);
    expect(one[0]).toMatchObject({ __mindsdb_row_id: 0, sqft: 823 });
    expect(typeof one[0].rental_price).toBe('number');
    expect(sdk.sent.at(-1)).toBe(
      `POST /api/projects/sdk_http/models/rentals_model/predict {"data":[{"sqft":823,"location":"good","neighborhood":"downtown","days_on_market":10}],"params":{}}`,
    );
  });

  it('model.retrain(), models.get(name, version=2), set_active(1), and predict with a version', async () => {
    const retrained = await sdk.sqlQuery('RETRAIN sdk_http.rentals_model');
    expect(retrained![0]).toMatchObject({ NAME: MODEL, VERSION: 2 });
    const v2 = await waitComplete(2);
    expect(v2).toMatchObject({ version: 2, status: 'complete', active: true });
    expect(await sdk.sqlQuery('SET active sdk_http.rentals_model.`1`')).toBeNull();
    expect(await getModel()).toMatchObject({ version: 1, active: true });
    const viaRest = await sdk.modelPredict(PROJECT, MODEL, [{ sqft: 900 }], null, 2);
    expect(viaRest).toHaveLength(1);
    const viaSql = await sdk.sqlQuery(
      'SELECT m.* FROM (SELECT * FROM example_db (select * from demo_data.home_rentals limit 3)) AS t JOIN sdk_http.rentals_model.`2` AS m',
    );
    expect(viaSql).toHaveLength(3);
  });

  it('databases.files.tables.create(name, DataFrame) uploads the CSV; tables.list() shows it', async () => {
    await sdk.uploadDataFrame(
      'sdk_df',
      ['sqft', 'location', 'rental_price'],
      [
        [900, 'good', 2100],
        [1200, 'great', 3300],
      ],
    );
    const tables = await sdk.sqlQuery('show tables', 'files');
    expect(tables!.map((r) => Object.values(r)[0])).toContain('sdk_df');
    expect(
      await sdk.sqlQuery('SELECT location, rental_price FROM files.sdk_df ORDER BY sqft'),
    ).toEqual([
      { location: 'good', rental_price: 2100 },
      { location: 'great', rental_price: 3300 },
    ]);
  });

  it('models.drop and projects.drop', async () => {
    expect(await sdk.sqlQuery('DROP PREDICTOR sdk_http.rentals_model')).toBeNull();
    await expect(getModel()).rejects.toThrow("Model doesn't exist");
    expect(await sdk.sqlQuery('DROP DATABASE sdk_http')).toBeNull();
    const projects = await sdk.sqlQuery(
      "select NAME from information_schema.databases where TYPE='project'",
    );
    expect(projects!.map((r) => r.NAME)).toEqual(['mindsdb']);
  });
});

describe("GET /api/databases in MindsDB's shape", () => {
  it('gives every database an id: an integer, null for the system ones, stable across calls', async () => {
    const list = (await h.get('/api/databases')).body as {
      name: string;
      type: string;
      id: number | null;
    }[];
    for (const d of list) {
      expect(Object.keys(d)).toContain('id');
      if (d.type === 'system') expect(d.id, d.name).toBeNull();
      else expect(Number.isInteger(d.id), d.name).toBe(true);
    }
    const ids = list.filter((d) => d.id !== null).map((d) => d.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect((await h.get('/api/databases')).body).toEqual(list);
  });
});

describe('mindsdb_sdk.connect(url, login, password) with authentication on', () => {
  let a: Harness;
  beforeAll(async () => {
    a = await startHarness({
      ...trainingCache(),
      AUTH_USERNAME: 'ada',
      AUTH_PASSWORD: 'pw-123456',
    });
  });
  afterAll(async () => {
    await a?.close();
  });

  it('logs in with the default call: /cloud/login answers 404, /api/login gives the token', async () => {
    const client = new RestApi(a.url);
    await client.login('ada', 'pw-123456');
    expect(client.sent.map((s) => s.split(' ').slice(0, 2).join(' '))).toEqual([
      'POST /cloud/login',
      'POST /api/login',
    ]);
    const rows = await client.sqlQuery('SELECT 1 AS one');
    expect(rows).toEqual([{ one: 1 }]);
  });

  it('a wrong password is refused by /api/login, not by the cloud endpoint', async () => {
    const client = new RestApi(a.url);
    const err = await client.login('ada', 'nope').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(401);
    expect(client.sent.map((s) => s.split(' ')[1])).toEqual(['/cloud/login', '/api/login']);
  });

  it("answers MindsDB's 404 outside its protected paths, 401 inside them, whatever exists", async () => {
    const raw = (p: string, method = 'GET') => fetch(a.url + p, { method });
    for (const p of ['/cloud/login', '/api/no/such/route', '/api/auth/cloud_login', '/x']) {
      const r = await raw(p, 'POST');
      expect(r.status, p).toBe(404);
      expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await r.json()).toMatchObject({ title: 'Not Found', error_code: 2 });
    }
    // Under MindsDB's protected namespaces (and this instance's own paths) a path answers 401
    // whether a route is there or not: nothing about what exists is revealed.
    for (const p of [
      '/api/projects',
      '/api/projects/nope/models/x/y',
      '/api/agents',
      '/api/knowledge_bases/kb',
      '/api/sql/nothing',
      '/v1/api/api/projects',
      '/v1/anything',
      '/api/openapi.json',
      '/api/docs/x',
    ]) {
      expect((await raw(p)).status, p).toBe(401);
    }
  });
});
