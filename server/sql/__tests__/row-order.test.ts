/**
 * A model JOIN answers in the data side's order, as MindsDB does (people zip predictions with
 * their own labels by position). The data here is larger than one DuckDB row group (122,880
 * rows), DuckDB runs on 4 threads, the table's order follows no column (rows shuffled by a
 * hash), and input rows repeat (many data rows share one distinct input row).
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Instance } from '../../instance';
import { open, run, waitForModel } from './model-helpers';
import { trainingCache } from '../../test/training-cache';

let inst: Instance;
const ROWS = 300_000;

beforeAll(async () => {
  // No SQL sandbox here: it locks DuckDB's configuration, and this file sets 4 threads.
  inst = await open(undefined, {
    ...trainingCache(),
    ALLOW_HOST_FILES: 'all',
    MAX_RESULT_ROWS: 1_000_000,
  });
  await inst.catalog.engine.query('SET threads = 4', { internal: true });
  await run(
    inst,
    `CREATE TABLE files.train AS SELECT i % 40 AS x, CASE WHEN i % 3 = 0 THEN 'a' ELSE 'b' END AS c,
       (i % 40) * 2 + CASE WHEN i % 3 = 0 THEN 10 ELSE 0 END AS y FROM range(400) t(i)`,
  );
  await run(inst, 'CREATE MODEL mindsdb.order_m FROM files (SELECT * FROM train) PREDICT y');
  // id: unique, in no order; x, c: inputs with 80 distinct pairs (each repeated ~3750 times).
  await run(
    inst,
    `CREATE TABLE files.big AS SELECT hash(i) % 1000003 AS id, (hash(i * 7) % 40)::INT AS x,
       CASE WHEN hash(i * 13) % 3 = 0 THEN 'a' ELSE 'b' END AS c
     FROM range(${ROWS}) t(i) ORDER BY hash(i * 31)`,
  );
  await waitForModel(inst, 'order_m');
});

afterAll(async () => {
  await inst?.close();
  if (inst) fs.rmSync(inst.config.DATA_DIR, { recursive: true, force: true });
});

/**
 * The ids of `SELECT id FROM files.big` (the data's own order), read once per WHERE: no test
 * changes files.big, and each read of its 300k ids took a third of a second of CPU.
 */
const orders = new Map<string, Promise<number[]>>();
function dataOrder(where = ''): Promise<number[]> {
  let ids = orders.get(where);
  if (!ids) {
    ids = run(inst, `SELECT id FROM files.big ${where}`).then((r) =>
      r.data.map((x) => Number(x[0])),
    );
    orders.set(where, ids);
  }
  return ids;
}

/** Where two id lists first differ (-1: equal), so a failure prints one position, not 300k ids. */
function firstDifference(got: number[], want: number[]): number {
  const n = Math.max(got.length, want.length);
  for (let i = 0; i < n; i++) if (got[i] !== want[i]) return i;
  return -1;
}

// Each test reads up to 300k rows several times: bounded by that work, not by a busy machine's clock.
describe('row order of a model JOIN', { timeout: 600_000 }, () => {
  it('follows no column: the table is not sorted by id, x or c', async () => {
    const ids = await dataOrder();
    expect(ids).toHaveLength(ROWS);
    const sorted = [...ids].sort((a, b) => a - b);
    expect(ids).not.toEqual(sorted);
  });

  it('answers SELECT t.id, m.y FROM data JOIN model in the data order, each row its own prediction', async () => {
    const ids = await dataOrder();
    const r = await run(inst, 'SELECT t.id, m.y FROM files.big AS t JOIN mindsdb.order_m AS m');
    expect(
      firstDifference(
        r.data.map((row) => Number(row[0])),
        ids,
      ),
    ).toBe(-1);
    // Each row has the prediction of its own inputs: one y per (x, c), the model's own answer.
    const per = await run(
      inst,
      `SELECT t.x, t.c, count(DISTINCT m.y) AS ys, min(m.y) AS y
       FROM files.big AS t JOIN mindsdb.order_m AS m GROUP BY ALL ORDER BY ALL`,
    );
    expect(per.data).toHaveLength(80);
    for (const [, , ys] of per.data) expect(ys).toBe(1);
    for (const [x, c, , y] of [per.data[0], per.data[79]]) {
      const one = await run(inst, `SELECT y FROM mindsdb.order_m WHERE x = ${x} AND c = '${c}'`);
      expect(one.data[0][0]).toBeCloseTo(y, 9);
    }
  });

  const ids = (r: { data: unknown[][] }) => r.data.map((row) => Number(row[0]));
  const join = 'files.big AS t JOIN mindsdb.order_m AS m';

  it('keeps it with the model first in FROM, and with a WHERE on the data and on the prediction', async () => {
    const all = await dataOrder();
    const first = await run(inst, 'SELECT t.id, m.y FROM mindsdb.order_m AS m JOIN files.big AS t');
    expect(firstDifference(ids(first), all)).toBe(-1);
    const a = await dataOrder("WHERE c = 'a'");
    const filtered = await run(inst, `SELECT t.id FROM ${join} WHERE t.c = 'a' AND m.y >= 0`);
    expect(firstDifference(ids(filtered), a)).toBe(-1);
  });

  it('keeps it through a CTE on either side: the data in a CTE, the join in a CTE read by the query', async () => {
    const all = await dataOrder();
    const dataCte = await run(
      inst,
      'WITH d AS (SELECT * FROM files.big) SELECT d.id, m.y FROM d JOIN mindsdb.order_m AS m',
    );
    expect(firstDifference(ids(dataCte), all)).toBe(-1);
    const joinCte = await run(inst, `WITH p AS (SELECT t.id, m.y FROM ${join}) SELECT * FROM p`);
    expect(joinCte.column_names).toEqual(['id', 'y']);
    expect(firstDifference(ids(joinCte), all)).toBe(-1);
  });

  it('keeps it through subqueries on either side, nested, with filters outside', async () => {
    const all = await dataOrder();
    const b = await dataOrder("WHERE c = 'b'");
    const dataSub = await run(
      inst,
      'SELECT d.id, m.y FROM (SELECT id, x, c FROM files.big) AS d JOIN mindsdb.order_m AS m',
    );
    expect(firstDifference(ids(dataSub), all)).toBe(-1);
    const nested = await run(
      inst,
      `SELECT * FROM (SELECT * FROM (SELECT t.id, t.c, m.y FROM ${join}) AS s WHERE s.c = 'b') AS s2`,
    );
    expect(nested.column_names).toEqual(['id', 'c', 'y']);
    expect(firstDifference(ids(nested), b)).toBe(-1);
  });

  it('takes the first rows of the data for LIMIT and OFFSET, in the query and in a subquery', async () => {
    const all = await dataOrder();
    const limited = await run(inst, `SELECT t.id, m.y FROM ${join} LIMIT 1000 OFFSET 200`);
    expect(ids(limited)).toEqual(all.slice(200, 1200));
    const inner = await run(
      inst,
      `SELECT s.id FROM (SELECT t.id, m.y FROM ${join} LIMIT 500) AS s`,
    );
    expect(ids(inner)).toEqual(all.slice(0, 500));
    // ORDER BY decides, the data's order breaks its ties (y has 80 values over 300k rows).
    const byY = await run(inst, `SELECT t.id, m.y FROM ${join} ORDER BY m.y DESC LIMIT 2000`);
    const top = (await run(inst, `SELECT max(m.y) FROM ${join}`)).data[0][0];
    const ties = byY.data.filter((r) => r[1] === top).map((r) => Number(r[0]));
    const want = (await run(inst, `SELECT t.id FROM ${join} WHERE m.y = ${top}`)).data.map((r) =>
      Number(r[0]),
    );
    expect(ties).toEqual(want.slice(0, ties.length));
  });

  it('answers UNION ALL branch after branch, each in the data order', async () => {
    const a = await dataOrder("WHERE c = 'a'");
    const b = await dataOrder("WHERE c = 'b'");
    const r = await run(
      inst,
      `SELECT t.id, m.y FROM ${join} WHERE t.c = 'a' UNION ALL SELECT t.id, m.y FROM ${join} WHERE t.c = 'b'`,
    );
    expect(r.column_names).toEqual(['id', 'y']);
    expect(firstDifference(ids(r), [...a, ...b])).toBe(-1);
    // A branch without a model keeps its place too.
    const mixed = await run(
      inst,
      `SELECT -1 AS id UNION ALL SELECT t.id FROM ${join} WHERE t.c = 'a' LIMIT 100`,
    );
    expect(ids(mixed)).toEqual([-1, ...a.slice(0, 99)]);
  });

  it('saves rows in the data order: CREATE TABLE AS, CREATE TABLE (...), INSERT INTO', async () => {
    const all = await dataOrder();
    await run(inst, `CREATE TABLE files.saved_a AS SELECT t.id, m.y FROM ${join}`);
    expect(firstDifference(ids(await run(inst, 'SELECT id FROM files.saved_a')), all)).toBe(-1);
    await run(inst, `CREATE OR REPLACE TABLE files.saved_b (SELECT * FROM ${join})`);
    const saved = await run(inst, 'SELECT * FROM files.saved_b LIMIT 1');
    expect(saved.column_names.slice(0, 4)).toEqual(['id', 'x', 'c', 'y']);
    expect(firstDifference(ids(await run(inst, 'SELECT id FROM files.saved_b')), all)).toBe(-1);
    await run(inst, 'CREATE TABLE files.saved_c (id BIGINT, y DOUBLE)');
    await run(inst, `INSERT INTO files.saved_c (SELECT t.id, m.y FROM ${join} WHERE t.c = 'b')`);
    const b = await dataOrder("WHERE c = 'b'");
    expect(firstDifference(ids(await run(inst, 'SELECT id FROM files.saved_c')), b)).toBe(-1);
  });

  it('returns every duplicated data row, each in its place', async () => {
    // Whole rows repeated: the first 3000 rows of big, then the same rows again.
    await run(
      inst,
      'CREATE TABLE files.dup AS (SELECT * FROM files.big LIMIT 3000) UNION ALL (SELECT * FROM files.big LIMIT 3000)',
    );
    const want = (await run(inst, 'SELECT id FROM files.dup')).data.map((r) => Number(r[0]));
    const r = await run(
      inst,
      'SELECT t.id, t.x, m.y FROM files.dup AS t JOIN mindsdb.order_m AS m',
    );
    expect(r.data).toHaveLength(6000);
    expect(ids(r)).toEqual(want);
  });
});
