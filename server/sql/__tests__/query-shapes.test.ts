/**
 * Query shapes with models, through the real HTTP endpoint, written as MindsDB's documentation
 * writes them: models in CTEs, in subqueries, on either side of a JOIN, on both sides of a UNION,
 * several models in one query, two models chained, JOIN ... ON mappings, row values from WHERE,
 * aggregates and CASE over predictions, CTEs shadowing models and system tables.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollPause, startHarness, type Harness } from '../../test/harness';
import { trainingCache } from '../../test/training-cache';

let h: Harness;

async function sql(query: string, extra: Record<string, unknown> = {}) {
  const r = await h.sql(query, extra);
  if (r.type === 'error') throw new Error(`${r.error_message}\n  in: ${query}`);
  return r;
}

async function train(statement: string, name: string) {
  await sql(statement);
  for (;;) {
    const r = await sql(`SELECT status, error FROM mindsdb.models WHERE name = '${name}'`);
    if (r.data[0][0] === 'complete') return;
    if (r.data[0][0] === 'error') throw new Error(`training ${name} failed: ${r.data[0][1]}`);
    await pollPause(h);
  }
}

beforeAll(async () => {
  h = await startHarness(trainingCache());
  await train(
    'CREATE MODEL mindsdb.home_rentals_model FROM example_db (SELECT * FROM demo_data.home_rentals) PREDICT rental_price',
    'home_rentals_model',
  );
  // A second model that reads the first one's prediction (rental_price) to classify location.
  await train(
    'CREATE MODEL mindsdb.location_model FROM example_db (SELECT sqft, rental_price, location FROM demo_data.home_rentals) PREDICT location',
    'location_model',
  );
  // A model whose input is named differently from the table's column (for JOIN ... ON).
  await train(
    'CREATE MODEL mindsdb.area_model FROM example_db (SELECT sqft AS area, rental_price FROM demo_data.home_rentals) PREDICT rental_price',
    'area_model',
  );
});

afterAll(async () => {
  await h?.close();
});

const TABLE = 'example_db.demo_data.home_rentals';
const near = (a: number, b: number, rel = 0.15) => Math.abs(a - b) <= rel * Math.abs(b);

describe('models anywhere in a query', () => {
  it('joins a CTE with a model: WITH t AS (...) SELECT ... FROM t JOIN mindsdb.m', async () => {
    const r = await sql(
      `WITH t AS (SELECT * FROM ${TABLE} WHERE location = 'great' LIMIT 20)
       SELECT t.rental_price AS real, m.rental_price AS predicted FROM t JOIN mindsdb.home_rentals_model AS m`,
    );
    expect(r.column_names).toEqual(['real', 'predicted']);
    expect(r.data).toHaveLength(20);
    for (const [real, predicted] of r.data) expect(near(predicted, real)).toBe(true);
  });

  it('filters a subquery that joins a model: SELECT * FROM (SELECT ... JOIN model) x WHERE ...', async () => {
    const r = await sql(
      `SELECT * FROM (SELECT t.sqft, m.rental_price AS predicted FROM ${TABLE} AS t JOIN mindsdb.home_rentals_model AS m) AS x
       WHERE x.predicted > 5000 ORDER BY x.predicted DESC`,
    );
    expect(r.data.length).toBeGreaterThan(10);
    expect(r.data.every((row: number[]) => row[1] > 5000)).toBe(true);
    const sorted = r.data.map((row: number[]) => row[1]);
    expect([...sorted].sort((a, b) => b - a)).toEqual(sorted);
  });

  it('aggregates over predictions, grouped by a table column', async () => {
    const r = await sql(
      `SELECT t.location, count(*) AS n, round(avg(m.rental_price)) AS predicted, round(avg(t.rental_price)) AS real
       FROM ${TABLE} AS t JOIN mindsdb.home_rentals_model AS m GROUP BY t.location ORDER BY t.location`,
    );
    expect(r.data.map((x: unknown[]) => [x[0], x[1]])).toEqual([
      ['good', 2217],
      ['great', 1094],
      ['poor', 1726],
    ]);
    for (const [, , predicted, real] of r.data) expect(near(predicted, real, 0.02)).toBe(true);
  });

  it('evaluates CASE WHEN over a prediction', async () => {
    const r = await sql(
      `SELECT CASE WHEN m.rental_price > 4000 THEN 'high' ELSE 'low' END AS band, count(*) AS n
       FROM ${TABLE} AS t JOIN mindsdb.home_rentals_model AS m GROUP BY band ORDER BY band`,
    );
    expect(r.data.map((x: unknown[]) => x[0])).toEqual(['high', 'low']);
    expect(r.data[0][1] + r.data[1][1]).toBe(5037);
  });

  it("chains two models: the second reads the first one's prediction", async () => {
    const r = await sql(
      `SELECT t.sqft, m1.rental_price, m2.location, m2.location_confidence
       FROM (SELECT sqft FROM ${TABLE} LIMIT 300) AS t
       JOIN mindsdb.home_rentals_model AS m1
       JOIN mindsdb.location_model AS m2`,
    );
    expect(r.data).toHaveLength(300);
    // Each row's second prediction is what the second model says for that sqft and the first
    // model's predicted price (the table has no price column: it can only come from m1).
    for (const [sqft, price, location, confidence] of r.data.slice(0, 5)) {
      const one = await sql(
        `SELECT location, location_confidence FROM mindsdb.location_model WHERE sqft = ${sqft} AND rental_price = ${price}`,
      );
      expect(one.data).toEqual([[location, confidence]]);
    }
  });

  it('joins the model first, as the docs do: FROM mindsdb.m AS p JOIN data AS d', async () => {
    const r = await sql(`SELECT * FROM mindsdb.home_rentals_model AS p JOIN ${TABLE} AS d LIMIT 5`);
    expect(r.column_names.slice(0, 2)).toEqual(['rental_price', 'rental_price_confidence']);
    expect(r.column_names).toContain('neighborhood');
    expect(r.column_names.some((c: string) => c.startsWith('__mdb'))).toBe(false);
    expect(r.data).toHaveLength(5);
    const real = r.column_names.lastIndexOf('rental_price');
    for (const row of r.data) expect(near(row[0], row[real])).toBe(true);
  });

  it('maps a data column onto a model input with JOIN ... ON d.col = m.input', async () => {
    const mapped = await sql(
      `SELECT d.sqft, m.rental_price FROM ${TABLE} AS d JOIN mindsdb.area_model AS m ON d.sqft = m.area LIMIT 50`,
    );
    const unmapped = await sql(
      `SELECT d.sqft, m.rental_price FROM ${TABLE} AS d JOIN mindsdb.area_model AS m LIMIT 50`,
    );
    const spread = (rows: number[][]) => new Set(rows.map((x) => Math.round(x[1]))).size;
    // Without the mapping the model sees no area at all: one prediction for every row.
    expect(spread(unmapped.data)).toBe(1);
    expect(spread(mapped.data)).toBeGreaterThan(20);
  });

  it('gives every row the same input from WHERE m.input = value', async () => {
    const r = await sql(
      `SELECT t.sqft, m.rental_price FROM (SELECT sqft FROM ${TABLE} LIMIT 30) AS t
       JOIN mindsdb.home_rentals_model AS m WHERE m.location = 'great' AND m.number_of_rooms = 2`,
    );
    expect(r.data).toHaveLength(30);
    const poor = await sql(
      `SELECT t.sqft, m.rental_price FROM (SELECT sqft FROM ${TABLE} LIMIT 30) AS t
       JOIN mindsdb.home_rentals_model AS m WHERE m.location = 'poor' AND m.number_of_rooms = 2`,
    );
    const mean = (rows: number[][]) => rows.reduce((a, x) => a + x[1], 0) / rows.length;
    expect(mean(r.data)).toBeGreaterThan(mean(poor.data));
  });

  it('predicts on both sides of a UNION and in a WHERE subquery', async () => {
    const r = await sql(
      `SELECT 'a' AS side, m.rental_price FROM (SELECT * FROM ${TABLE} LIMIT 3) AS t JOIN mindsdb.home_rentals_model AS m
       UNION ALL
       SELECT 'b', m.rental_price FROM (SELECT * FROM ${TABLE} LIMIT 2) AS t JOIN mindsdb.home_rentals_model AS m`,
    );
    expect(r.data.map((x: unknown[]) => x[0]).sort()).toEqual(['a', 'a', 'a', 'b', 'b']);
    const w = await sql(
      `SELECT count(*) FROM ${TABLE} WHERE rental_price > (SELECT avg(m.rental_price) FROM ${TABLE} AS t JOIN mindsdb.home_rentals_model AS m)`,
    );
    expect(w.data[0][0]).toBeGreaterThan(1000);
    expect(w.data[0][0]).toBeLessThan(4000);
  });

  it('answers the Python SDK predict-with-a-query shape', async () => {
    const r = await sql(
      'SELECT m.* FROM (SELECT * FROM example_db (select * from demo_data.home_rentals limit 5)) AS t JOIN mindsdb.home_rentals_model AS m',
    );
    expect(r.data).toHaveLength(5);
    expect(r.column_names[0]).toBe('rental_price');
  });

  it('lets a CTE named like a system table or a model shadow it', async () => {
    const models = await sql('WITH models AS (SELECT 1 AS x) SELECT * FROM models');
    expect(models.data).toEqual([[1]]);
    const model = await sql(
      'WITH home_rentals_model AS (SELECT 42 AS rental_price) SELECT rental_price FROM home_rentals_model',
      { context: { db: 'mindsdb' } },
    );
    expect(model.data).toEqual([[42]]);
  });

  it('keeps single-row predictions from WHERE equalities, with :params', async () => {
    const r = await sql(
      'SELECT rental_price FROM mindsdb.home_rentals_model WHERE sqft = :sqft AND location = "good"',
      { params: { sqft: 823 } },
    );
    expect(typeof r.data[0][0]).toBe('number');
  });
});

describe("errors point into the user's text", () => {
  it('locates a missing column in a model query at its line and column', async () => {
    const r = await h.sql(
      `SELECT t.sqft,\n  m.nope FROM ${TABLE} AS t JOIN mindsdb.home_rentals_model AS m LIMIT 3`,
    );
    expect(r.type).toBe('error');
    expect(r.error_message).toMatch(/nope.*\(line 2, column 3\)/);
  });

  it('locates a missing table on the data side of a model join', async () => {
    const r = await h.sql(
      'SELECT t.sqft, m.rental_price\nFROM files.no_such_table AS t JOIN mindsdb.home_rentals_model AS m',
    );
    expect(r).toMatchObject({ type: 'error', error_code: 2 });
    expect(r.error_message).toMatch(/no_such_table does not exist.*\(line 2, column 6\)$/);
  });

  it('locates a syntax error in a model query', async () => {
    const r = await h.sql(
      `SELECT t.sqft FROM ${TABLE} AS t\nJOIN mindsdb.home_rentals_model AS m WHERE AND`,
    );
    expect(r).toMatchObject({ type: 'error', error_code: 1 });
    expect(r.error_message).toMatch(/\(line 2, column 4[0-9]\)/);
  });
});
