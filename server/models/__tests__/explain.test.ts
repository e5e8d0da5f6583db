/**
 * Per-row explanations in `<target>_explain` through SQL and REST, on a regression, a binary and
 * a multiclass model (L-CONTRACT 1): every input has a contribution, `base_value + sum =
 * explained_value` (the prediction, or the raw score of the predicted class), and they are only
 * computed when asked for (REST `params.explain`, SQL reading the column).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, waitComplete, type Harness } from '../../test/harness';
import { trainingCache } from '../../test/training-cache';

let h: Harness;

const PREDICT = (m: string) => `/api/projects/mindsdb/models/${m}/predict`;

async function sql(query: string) {
  const r = await h.sql(query);
  if (r.type === 'error') throw new Error(`${r.error_message}\n in: ${query}`);
  return r as { column_names: string[]; data: unknown[][] };
}

const objects = (t: { column_names: string[]; data: unknown[][] }) =>
  t.data.map((row) => Object.fromEntries(t.column_names.map((c, i) => [c, row[i]])));

interface Explained {
  predicted_value: unknown;
  base_value?: number;
  feature_contributions?: Record<string, number>;
  explained_value?: number;
  explained_class?: unknown;
  [k: string]: unknown;
}

/** base + sum(contributions) = explained value, to float precision at the value's scale. */
function expectAdditive(e: Explained, inputs: string[]): void {
  expect(Object.keys(e.feature_contributions!).sort()).toEqual([...inputs].sort());
  const sum = Object.values(e.feature_contributions!).reduce((s, v) => s + v, 0);
  const scale = Math.max(1, Math.abs(e.explained_value!));
  expect(Math.abs(e.base_value! + sum - e.explained_value!)).toBeLessThan(1e-9 * scale);
}

const explainedRows = () => h.instance.models.stats.explainedRows;

let regressionInputs: string[];
let binaryInputs: string[];
let multiInputs: string[];

beforeAll(async () => {
  h = await startHarness(trainingCache());
  await sql(`CREATE TABLE files.shapes AS SELECT i % 7 AS a, (i * 13) % 11 AS b,
    CASE WHEN i % 3 = 0 THEN 'red' WHEN i % 3 = 1 THEN 'green' ELSE 'blue' END AS color,
    CASE WHEN (i % 7) + ((i * 13) % 11) < 6 THEN 'small' WHEN (i % 7) + ((i * 13) % 11) < 11 THEN 'medium' ELSE 'large' END AS size
    FROM range(1200) t(i)`);
  await sql(
    `CREATE MODEL mindsdb.ex_rent FROM example_db (SELECT * FROM demo_data.home_rentals) PREDICT rental_price`,
  );
  await sql(
    `CREATE MODEL mindsdb.ex_churn FROM example_db (SELECT * FROM demo_data.customer_churn) PREDICT Exited`,
  );
  await sql(`CREATE MODEL mindsdb.ex_size FROM files (SELECT * FROM shapes) PREDICT size`);
  await Promise.all(['ex_rent', 'ex_churn', 'ex_size'].map((m) => waitComplete(h, m)));
  const inputs = async (m: string) =>
    (await h.get(`/api/projects/mindsdb/models/${m}/describe`)).body[0].inputs as string[];
  regressionInputs = await inputs('ex_rent');
  binaryInputs = await inputs('ex_churn');
  multiInputs = await inputs('ex_size');
});

afterAll(async () => {
  await h?.close();
});

describe('explanations through SQL', () => {
  it('regression: base_value + contributions = the predicted rental_price, for every row', async () => {
    const t = await sql(`SELECT d.sqft, m.rental_price, m.rental_price_explain
      FROM example_db.demo_data.home_rentals AS d JOIN mindsdb.ex_rent AS m LIMIT 200`);
    expect(t.data).toHaveLength(200);
    for (const r of objects(t)) {
      const e = JSON.parse(r.rental_price_explain as string) as Explained;
      expectAdditive(e, regressionInputs);
      expect(e.explained_value).toBeCloseTo(r.rental_price as number, 6);
      expect(e.predicted_value).toBe(r.rental_price);
      expect(e.explained_class).toBeNull();
    }
  });

  it('binary, through *: the explained class is the prediction, its logit adds up', async () => {
    const t = await sql(`SELECT * FROM example_db.demo_data.customer_churn AS d
      JOIN mindsdb.ex_churn AS m LIMIT 300`);
    const rows = objects(t);
    const classes = new Set<unknown>();
    for (const r of rows) {
      const e = JSON.parse(r.Exited_explain as string) as Explained;
      expectAdditive(e, binaryInputs);
      expect(e.explained_class).toBe(e.predicted_value);
      classes.add(e.explained_class);
    }
    // Both classes occur among 300 customers, so both signs of the logit were explained.
    expect(classes.size).toBe(2);
  });

  it('multiclass, through m.*: each row explains its predicted class', async () => {
    const t = await sql(
      `SELECT d.a, m.* FROM files.shapes AS d JOIN mindsdb.ex_size AS m LIMIT 100`,
    );
    const rows = objects(t);
    const seen = new Set<unknown>();
    for (const r of rows) {
      const e = JSON.parse(r.size_explain as string) as Explained;
      expectAdditive(e, multiInputs);
      expect(e.explained_class).toBe(r.size);
      seen.add(r.size);
    }
    expect(seen.size).toBe(3);
  });

  it('one prediction from WHERE, with inputs missing: every input still has a contribution', async () => {
    const t = await sql(
      `SELECT rental_price, rental_price_explain FROM mindsdb.ex_rent WHERE sqft = 900 AND location = 'great'`,
    );
    const [r] = objects(t);
    const e = JSON.parse(r.rental_price_explain as string) as Explained;
    expectAdditive(e, regressionInputs);
    expect(e.explained_value).toBeCloseTo(r.rental_price as number, 6);
  });
});

describe('explanations are computed only when the query can read them', () => {
  const join = `FROM example_db.demo_data.home_rentals AS d JOIN mindsdb.ex_rent AS m`;

  it.each([
    ['named columns', `SELECT d.sqft, m.rental_price, m.rental_price_confidence ${join}`],
    ['an aggregate', `SELECT d.location, avg(m.rental_price) ${join} GROUP BY 1`],
    ['d.* and a prediction', `SELECT d.*, m.rental_price ${join}`],
    ['* excluding the column', `SELECT * EXCLUDE (m.rental_price_explain) ${join}`],
    [
      'the model first',
      `SELECT d.sqft, m.rental_price FROM mindsdb.ex_rent AS m JOIN example_db.demo_data.home_rentals AS d`,
    ],
    [
      'a CTE of predictions',
      `WITH p AS (SELECT d.location, m.rental_price ${join}) SELECT location, max(rental_price) FROM p GROUP BY 1`,
    ],
    [
      'a saved table',
      `CREATE OR REPLACE TABLE files.saved_rent AS SELECT d.sqft, m.rental_price ${join}`,
    ],
  ])('%s: no row explained', async (_name, q) => {
    const before = explainedRows();
    await sql(q);
    expect(explainedRows()).toBe(before);
  });

  it.each([
    ['m.*', `SELECT m.* ${join}`],
    ['*', `SELECT * ${join}`],
    ['the column by name', `SELECT m.rental_price_explain ${join}`],
    [
      'an outer query through a subquery',
      `SELECT s.rental_price_explain FROM (SELECT m.rental_price, m.rental_price_explain ${join}) AS s`,
    ],
    ['JSON of the column', `SELECT json_extract(m.rental_price_explain, '$.base_value') ${join}`],
  ])('%s: every input row explained once', async (_name, q) => {
    const before = explainedRows();
    const t = await sql(q);
    expect(t.data.length).toBeGreaterThan(0);
    // Each distinct input row of the data side is predicted (and explained) once.
    expect(explainedRows()).toBeGreaterThan(before);
    expect(explainedRows() - before).toBeLessThanOrEqual(5037);
  });
});

describe('explanations through REST', () => {
  it('regression with params.explain: additive, every input present even when not sent', async () => {
    const r = await h.post(PREDICT('ex_rent'), {
      data: [{ sqft: 823, location: 'good' }, { sqft: 1500 }],
      params: { explain: true },
    });
    expect(r.status).toBe(200);
    for (const row of r.body) {
      const e = JSON.parse(row.rental_price_explain) as Explained;
      expectAdditive(e, regressionInputs);
      expect(e.explained_value).toBeCloseTo(row.rental_price, 6);
    }
  });

  it('binary and multiclass with params.explain: the predicted class is explained', async () => {
    const b = await h.post(PREDICT('ex_churn'), {
      data: [
        { Age: 62, NumOfProducts: 3, IsActiveMember: 0 },
        { Age: 30, NumOfProducts: 2 },
      ],
      params: { explain: true },
    });
    expect(b.status).toBe(200);
    for (const row of b.body) {
      const e = JSON.parse(row.Exited_explain) as Explained;
      expectAdditive(e, binaryInputs);
      expect(e.explained_class).toBe(row.Exited);
    }
    const m = await h.post(PREDICT('ex_size'), {
      data: [
        { a: 0, b: 1, color: 'red' },
        { a: 6, b: 10 },
      ],
      params: { explain: true },
    });
    expect(m.status).toBe(200);
    for (const row of m.body) {
      const e = JSON.parse(row.size_explain) as Explained;
      expectAdditive(e, multiInputs);
      expect(e.explained_class).toBe(row.size);
    }
  });

  it('without params.explain (and in the array form) there are no contribution keys', async () => {
    const before = explainedRows();
    for (const body of [
      [{ sqft: 823 }],
      { data: [{ sqft: 823 }] },
      { data: [{ sqft: 823 }], params: { explain: false } },
    ]) {
      const r = await h.post(PREDICT('ex_rent'), body);
      expect(r.status).toBe(200);
      const e = JSON.parse(r.body[0].rental_price_explain);
      expect(Object.keys(e)).toEqual([
        'predicted_value',
        'confidence',
        'anomaly',
        'truth',
        'confidence_lower_bound',
        'confidence_upper_bound',
      ]);
    }
    expect(explainedRows()).toBe(before);
  });

  it('a params.explain that is not a boolean is a 400 naming it', async () => {
    const r = await h.post(PREDICT('ex_rent'), {
      data: [{ sqft: 823 }],
      params: { explain: 'yes' },
    });
    expect(r.status).toBe(400);
    expect(r.body.detail).toContain('params.explain must be true or false');
  });
});
