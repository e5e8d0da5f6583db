/**
 * Names in a model JOIN as MindsDB resolves them (docs/sql.md, "Names in a model JOIN"): a bare
 * column both sides have is the model's (its prediction for the target, the input's value for
 * an input), `SELECT *` lists the data's columns then the prediction columns, and a saved table
 * keeps the first column of a name written twice. The statements of issue #23 run verbatim.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Instance } from '../../instance';
import { fails, objects, open, run, waitForModel } from './model-helpers';
import { trainingCache } from '../../test/training-cache';

let inst: Instance;
const HR = 'example_db.demo_data.home_rentals';

beforeAll(async () => {
  inst = await open(undefined, trainingCache());
  await run(
    inst,
    `CREATE MODEL mindsdb.home_rentals_model FROM example_db (SELECT * FROM demo_data.home_rentals) PREDICT rental_price`,
  );
  await run(
    inst,
    'CREATE TABLE files.house_sales AS SELECT * FROM example_db.demo_data.house_sales',
  );
  await run(
    inst,
    `CREATE MODEL mindsdb.house_sales_predictor FROM files (SELECT * FROM house_sales)
     PREDICT MA ORDER BY saledate GROUP BY bedrooms, type WINDOW 8 HORIZON 4`,
  );
  await waitForModel(inst, 'home_rentals_model');
  await waitForModel(inst, 'house_sales_predictor');
});

afterAll(async () => {
  await inst?.close();
  if (inst) fs.rmSync(inst.config.DATA_DIR, { recursive: true, force: true });
});

describe('a bare column both sides of a model JOIN have', () => {
  it('SELECT sqft, rental_price FROM example_db.demo_data.home_rentals JOIN mindsdb.home_rentals_model LIMIT 3: the data rows in order, the prediction', async () => {
    const r = await run(
      inst,
      'SELECT sqft, rental_price FROM example_db.demo_data.home_rentals JOIN mindsdb.home_rentals_model LIMIT 3',
    );
    expect(r.column_names).toEqual(['sqft', 'rental_price']);
    const data = await run(inst, `SELECT sqft, rental_price FROM ${HR} LIMIT 3`);
    expect(r.data.map((x) => x[0])).toEqual(data.data.map((x) => x[0]));
    const qualified = await run(
      inst,
      `SELECT t.sqft, m.rental_price FROM ${HR} AS t JOIN mindsdb.home_rentals_model AS m LIMIT 3`,
    );
    expect(r.data).toEqual(qualified.data);
    // The model's prediction, not the table's own price (a float next to the table's integers).
    expect(r.data.map((x) => x[1])).not.toEqual(data.data.map((x) => x[1]));
    for (const [i, row] of r.data.entries()) {
      expect(Math.abs(row[1] - data.data[i][1]) / data.data[i][1]).toBeLessThan(0.15);
    }
  });

  it('answers the same with the model first, and reads bare names in WHERE and ORDER BY as the model does', async () => {
    const first = await run(
      inst,
      'SELECT sqft, rental_price FROM mindsdb.home_rentals_model JOIN example_db.demo_data.home_rentals LIMIT 3',
    );
    const direct = await run(
      inst,
      'SELECT sqft, rental_price FROM example_db.demo_data.home_rentals JOIN mindsdb.home_rentals_model LIMIT 3',
    );
    expect(first.data).toEqual(direct.data);
    const r = await run(
      inst,
      `SELECT sqft, rental_price FROM ${HR} JOIN mindsdb.home_rentals_model
       WHERE rental_price > 5000 AND sqft > 1000 ORDER BY rental_price DESC LIMIT 5`,
    );
    expect(r.data.length).toBeGreaterThan(0);
    for (const [sqft, price] of r.data) {
      expect(sqft).toBeGreaterThan(1000);
      expect(price).toBeGreaterThan(5000);
    }
    const prices = r.data.map((x) => x[1]);
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
  });

  it('SELECT * lists the data columns, then the prediction columns (the target twice: truth, then prediction)', async () => {
    const r = await run(
      inst,
      `SELECT * FROM ${HR} AS t JOIN mindsdb.home_rentals_model AS m LIMIT 2`,
    );
    const data = await run(inst, `SELECT * FROM ${HR} LIMIT 2`);
    const n = data.column_names.length;
    expect(r.column_names.slice(0, n)).toEqual(data.column_names);
    expect(r.column_names.slice(n)).toEqual([
      'rental_price',
      'rental_price_confidence',
      'rental_price_min',
      'rental_price_max',
      'rental_price_anomaly',
      'rental_price_original',
      'rental_price_explain',
    ]);
    expect(r.data.map((row) => row.slice(0, n))).toEqual(data.data);
    // `_original` is the truth the data gave.
    const truth = data.column_names.indexOf('rental_price');
    expect(r.data.map((row) => row[n + 5])).toEqual(data.data.map((row) => row[truth]));
  });

  it("SELECT saledate, MA FROM files.house_sales JOIN mindsdb.house_sales_predictor WHERE saledate > LATEST: the forecast's dates and values", async () => {
    const r = await run(
      inst,
      'SELECT saledate, MA FROM files.house_sales JOIN mindsdb.house_sales_predictor WHERE saledate > LATEST',
    );
    expect(r.column_names).toEqual(['saledate', 'MA']);
    const qualified = await run(
      inst,
      `SELECT m.saledate, m.MA FROM files.house_sales AS t JOIN mindsdb.house_sales_predictor AS m
       WHERE t.saledate > LATEST`,
    );
    expect(r.data).toEqual(qualified.data);
    const groups = await run(
      inst,
      'SELECT count(*) FROM (SELECT DISTINCT bedrooms, type FROM files.house_sales)',
    );
    expect(r.data).toHaveLength(4 * Number(groups.data[0][0]));
    const latest = (await run(inst, 'SELECT max(saledate) FROM files.house_sales')).data[0][0];
    for (const [date, ma] of r.data) {
      expect(String(date) > String(latest).slice(0, 10)).toBe(true);
      expect(typeof ma).toBe('number');
    }
  });
});

describe('saving a model JOIN whose columns repeat a name', () => {
  it('INSERT INTO files.preds (SELECT * FROM ... AS ta JOIN mindsdb.m AS tb WHERE ...) keeps the first column of each name', async () => {
    await run(
      inst,
      `CREATE TABLE files.preds (SELECT * FROM ${HR} AS ta JOIN mindsdb.home_rentals_model AS tb WHERE ta.sqft > 100000)`,
    );
    const r = await inst.sql.execute({
      query: `INSERT INTO files.preds (SELECT * FROM ${HR} AS ta JOIN mindsdb.home_rentals_model AS tb WHERE ta.sqft > 1000)`,
    });
    expect(r).toMatchObject({ type: 'ok' });
    const saved = await run(inst, 'SELECT * FROM files.preds');
    const data = await run(inst, `SELECT * FROM ${HR} WHERE sqft > 1000`);
    expect(saved.column_names).toEqual([
      ...data.column_names,
      'rental_price_confidence',
      'rental_price_min',
      'rental_price_max',
      'rental_price_anomaly',
      'rental_price_original',
      'rental_price_explain',
    ]);
    expect(saved.data.map((row) => row.slice(0, data.column_names.length))).toEqual(data.data);
  });

  it('notes the columns it leaves out (SHOW WARNINGS) and saves the prediction when the query puts it first', async () => {
    const r = await inst.sql.execute({
      query: `CREATE TABLE files.preds2 (SELECT m.rental_price, t.* FROM ${HR} AS t JOIN mindsdb.home_rentals_model AS m LIMIT 5); SHOW WARNINGS`,
    });
    expect(r.type).toBe('table');
    const notes = objects(r as never);
    expect(notes).toHaveLength(1);
    expect(notes[0].Message).toMatch(/'rental_price'.*first column of each name is saved/);
    const saved = await run(inst, 'SELECT rental_price FROM files.preds2');
    const predicted = await run(
      inst,
      `SELECT m.rental_price FROM ${HR} AS t JOIN mindsdb.home_rentals_model AS m LIMIT 5`,
    );
    expect(saved.data).toEqual(predicted.data);
  });

  it('still refuses a name that is ambiguous outside a model JOIN (DuckDB decides there)', async () => {
    const e = await fails(
      inst,
      `SELECT sqft FROM ${HR} AS a JOIN ${HR} AS b ON a.sqft = b.sqft LIMIT 1`,
    );
    expect(e.message).toMatch(/Ambiguous reference to column name "sqft"/);
  });
});
