/**
 * A real client against the instance: the `mindsdb-js-sdk` npm package (what MindsDB users script
 * with) drives a whole model life cycle over a real port. Every statement it generates must parse
 * and answer in the shape it reads (it lower-cases `column_names` and maps rows by name).
 *
 * Two SDK facts the assertions account for:
 * - `connect()` logs in to the cloud (`/cloud/login`) unless the host contains `127.0.0.1` or
 *   `localhost`; with `http://127.0.0.1:<port>` and empty credentials it sends nothing.
 * - It parses JSON with json-bigint `storeAsString`, so any number literal longer than 15
 *   characters (most predicted doubles, e.g. 2276.6548643675305) reaches the caller as a numeric
 *   string, against a real MindsDB server too. Hence `num()` below.
 */
import type { InternalAxiosRequestConfig } from 'axios';
import MindsDBModule, { type Model } from 'mindsdb-js-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollPause, startHarness, type Harness } from '../../test/harness';
import { trainingCache } from '../../test/training-cache';

// CommonJS with `exports.default`: under Node's ESM interop the default import is the whole
// exports object, under a bundler it is `exports.default`; take whichever holds `connect`.
const MindsDB =
  (MindsDBModule as unknown as { default?: typeof MindsDBModule }).default ?? MindsDBModule;

let h: Harness;
const sent: string[] = [];
const MODEL = 'sdk_home_rentals';

/** A value the SDK returns for a number: a number, or a numeric string when it is long. */
function num(v: unknown): number {
  expect(
    typeof v === 'number' ||
      (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))),
    String(v),
  ).toBe(true);
  return Number(v);
}

async function waitForVersion(version: number): Promise<Model> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const m = await MindsDB.Models.getModel(MODEL, 'mindsdb', version);
    if (m && (m.status === 'complete' || m.status === 'error')) return m;
    if (Date.now() > deadline)
      throw new Error(`version ${version} still ${m?.status} after the cap`);
    await pollPause(h);
  }
}

beforeAll(async () => {
  h = await startHarness(trainingCache());
  // Resolves only if it did not try the cloud login: this instance answers /cloud/login with 404,
  // which connect() would turn into a thrown MindsDbError.
  await MindsDB.connect({ host: h.url, user: '', password: '' });
  MindsDB.SQL.client.interceptors.request.use((c: InternalAxiosRequestConfig) => {
    const body =
      c.data === undefined ? '' : typeof c.data === 'string' ? c.data : JSON.stringify(c.data);
    sent.push(`${c.method?.toUpperCase()} ${new URL(c.url ?? '', c.baseURL).pathname} ${body}`);
    return c;
  });
});

afterAll(async () => {
  await h?.close();
});

describe('mindsdb-js-sdk against the local instance', () => {
  let model: Model;

  it('lists projects', async () => {
    const projects = await MindsDB.Projects.getAllProjects();
    expect(projects.map((p) => p.name)).toContain('mindsdb');
  });

  it('trains a model with Models.trainModel and polls it with Models.getModel until complete', async () => {
    const created = await MindsDB.Models.trainModel(MODEL, 'rental_price', 'mindsdb', {
      integration: 'example_db',
      select: 'SELECT * FROM demo_data.home_rentals',
      using: { engine: 'lightwood', tag: 'from_sdk' },
    });
    expect(created.status).toBe('generating');
    expect(sent.at(-1)).toContain(
      'CREATE MODEL `mindsdb`.`sdk_home_rentals`\\nFROM `example_db`\\n(SELECT * FROM demo_data.home_rentals)\\nPREDICT `rental_price`\\nUSING',
    );
    model = await waitForVersion(1);
    expect(model.status).toBe('complete');
    const active = await MindsDB.Models.getModel(MODEL, 'mindsdb');
    expect(active).toMatchObject({
      name: MODEL,
      project: 'mindsdb',
      targetColumn: 'rental_price',
      version: 1,
      active: true,
      tag: 'from_sdk',
      updateStatus: 'up_to_date',
    });
    expect(num(active!.accuracy)).toBeGreaterThan(0.99);
    model = active!;
  });

  it('predicts one row with model.query and a where list', async () => {
    const p = await model.query({
      where: ['sqft = 823', "location = 'good'", 'initial_price = 2000'],
    });
    expect(num(p.value)).toBeGreaterThan(1500);
    expect(num(p.value)).toBeLessThan(2500);
    const explain = JSON.parse(p.explain as unknown as string) as Record<string, unknown>;
    expect(num(explain.predicted_value)).toBe(num(p.value));
    const data = p.data as Record<string, unknown>;
    expect(num(data.rental_price_min)).toBeLessThanOrEqual(num(p.value));
    expect(num(data.rental_price_max)).toBeGreaterThanOrEqual(num(p.value));
    expect(data.sqft).toBe(823);
  });

  it('predicts a batch with model.batchQuery and a join, close to the truth', async () => {
    const rows = await model.batchQuery({ join: 'example_db.demo_data.home_rentals', limit: 50 });
    expect(sent.at(-1)).toContain(
      'FROM `example_db`.`demo_data`.`home_rentals` AS t\\nJOIN `mindsdb`.`sdk_home_rentals`.1 AS m',
    );
    expect(rows).toHaveLength(50);
    const truth = await MindsDB.SQL.runQuery(
      'SELECT rental_price FROM example_db.demo_data.home_rentals LIMIT 50',
    );
    let err = 0;
    rows.forEach((r, i) => {
      err += Math.abs(num(r.value) - num(truth.rows[i].rental_price));
    });
    // r2 ~ 0.999 on data whose rents are in the thousands: a mean error of tens, not hundreds.
    expect(err / rows.length).toBeLessThan(150);
  });

  it('describes features with model.describe and accuracies with describeAttribute("info")', async () => {
    const features = await model.describe();
    expect(sent.at(-1)).toContain('DESCRIBE `mindsdb`.`sdk_home_rentals`.`1`.`features`');
    expect(features.find((f) => f.column === 'rental_price')?.role).toBe('target');
    expect(features.find((f) => f.column === 'sqft')).toMatchObject({
      type: 'integer',
      role: 'feature',
    });
    const [info] = (await model.describeAttribute('info')) as {
      accuracies: Record<string, unknown>;
      outputs: string[];
    }[];
    expect(num(info.accuracies.r2_score)).toBeGreaterThan(0.99);
    expect(info.outputs).toEqual(['rental_price']);
  });

  it('retrains with model.retrain (FROM/select/PREDICT form) and Models.retrainModel (bare form)', async () => {
    const v2 = await model.retrain({
      integration: 'example_db',
      select: 'SELECT * FROM demo_data.home_rentals LIMIT 800',
    });
    expect(sent.at(-1)).toContain(
      'RETRAIN `mindsdb`.`sdk_home_rentals`\\nFROM `example_db`\\n(SELECT * FROM demo_data.home_rentals LIMIT 800)\\nPREDICT `rental_price`',
    );
    expect(v2).toMatchObject({ version: 2, status: 'generating' });
    expect((await waitForVersion(2)).status).toBe('complete');
    const v3 = await MindsDB.Models.retrainModel(MODEL, 'rental_price', 'mindsdb');
    expect(sent.at(-1)).toContain('"RETRAIN `mindsdb`.`sdk_home_rentals`"');
    expect(v3.version).toBe(3);
    expect((await waitForVersion(3)).status).toBe('complete');
    const all = await MindsDB.Models.getAllModels('mindsdb');
    expect(all.filter((m) => m.name === MODEL).map((m) => [m.version, m.active])).toEqual([
      [1, false],
      [2, false],
      [3, true],
    ]);
    // The REST view agrees with what the SDK read through SQL.
    const rest = await h.get(`/api/projects/mindsdb/models/${MODEL}`);
    expect(rest.body.version).toBe(3);
    expect(rest.body.versions).toHaveLength(3);
  });

  it('lists databases and runs SQL', async () => {
    const dbs = await MindsDB.Databases.getAllDatabases();
    expect(dbs.find((d) => d.name === 'example_db')).toMatchObject({ type: 'data' });
    expect(dbs.find((d) => d.name === 'mindsdb')).toMatchObject({ type: 'project' });
    const r = await MindsDB.SQL.runQuery(
      'SELECT count(*) AS n FROM example_db.demo_data.home_rentals',
    );
    expect(r.type).toBe('table');
    expect(r.columnNames).toEqual(['n']);
    expect(num(r.rows[0].n)).toBeGreaterThan(1000);
    const bad = await MindsDB.SQL.runQuery('SELECT * FROM nowhere');
    expect(bad.type).toBe('error');
    expect(bad.error_message).toMatch(/nowhere/);
  });

  it('deletes the model with model.delete', async () => {
    await model.delete();
    expect(sent.at(-1)).toContain('DROP MODEL `mindsdb`.`sdk_home_rentals`');
    expect(await MindsDB.Models.getModel(MODEL, 'mindsdb')).toBeUndefined();
    expect((await h.get(`/api/projects/mindsdb/models/${MODEL}`)).status).toBe(404);
  });

  it("runs the SDK's time-series tutorial: trainModel with orderBy/groupBy/window/horizon, batchQuery after LATEST", async () => {
    // docs/sdks/javascript/create_model.mdx (MindsDB), verbatim options.
    const timeSeriesTrainingOptions = {
      integration: 'example_db',
      select: 'SELECT * FROM demo_data.house_sales',
      orderBy: 'saledate',
      groupBy: 'bedrooms',
      window: 8,
      horizon: 4,
    };
    let forecaster = await MindsDB.Models.trainModel(
      'house_sales_model',
      'ma',
      'mindsdb',
      timeSeriesTrainingOptions,
    );
    expect(sent.at(-1)).toContain('ORDER BY `saledate`');
    const deadline = Date.now() + 120_000;
    while (forecaster.status !== 'complete' && forecaster.status !== 'error') {
      if (Date.now() > deadline) throw new Error(`still ${forecaster.status}`);
      await pollPause(h);
      forecaster = (await MindsDB.Models.getModel('house_sales_model', 'mindsdb'))!;
    }
    expect(forecaster.status).toBe('complete');
    const description = await forecaster.describe();
    expect(description.map((f) => f.column)).toContain('saledate');
    const rows = await forecaster.batchQuery({
      join: 'example_db.demo_data.house_sales',
      where: ['t.saledate > LATEST', 't.bedrooms = 2'],
      limit: 4,
    });
    expect(rows.map((r) => (r.data as Record<string, unknown>).saledate)).toEqual([
      '2019-12-31',
      '2020-03-31',
      '2020-06-30',
      '2020-09-30',
    ]);
    for (const r of rows) expect(num(r.value)).toBeGreaterThan(0);
  });

  it('sent only SQL and project requests (no cloud login)', () => {
    const paths = new Set(sent.map((s) => s.split(' ')[1]));
    expect([...paths].sort()).toEqual(['/api/projects', '/api/sql/query']);
  });
});
