/**
 * `EXPLAIN <query>` answers the plan of a model query as a table (step, action, detail): the steps
 * the planner would run (predict a model on the distinct input rows of a relation, one row of
 * values, ...), the final SQL and where it runs, then DuckDB's own plan of that SQL. Nothing of the
 * plan runs, except with `EXPLAIN ANALYZE`.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Instance } from '../../instance';
import { open, run, waitForModel } from './model-helpers';
import { trainingCache } from '../../test/training-cache';

let inst: Instance;

beforeAll(async () => {
  inst = await open(undefined, trainingCache());
  await run(
    inst,
    `CREATE TABLE files.small AS SELECT i % 50 AS x, (i % 50) * 2 + 1 AS y, CASE WHEN i % 2 = 0 THEN 'a' ELSE 'b' END AS c
     FROM range(200) t(i)`,
  );
  await run(inst, 'CREATE MODEL mindsdb.small_m FROM files (SELECT * FROM small) PREDICT y');
  await waitForModel(inst, 'small_m');
});

afterAll(async () => {
  await inst?.close();
  if (inst) fs.rmSync(inst.config.DATA_DIR, { recursive: true, force: true });
});

const JOIN = "SELECT t.x, m.y FROM files.small AS t JOIN mindsdb.small_m AS m WHERE t.c = 'a'";

describe('EXPLAIN of a model query', () => {
  it('answers the steps, the final SQL and DuckDB plan of a model JOIN, as a table', async () => {
    const r = await run(inst, `EXPLAIN ${JOIN}`);
    expect(r.column_names).toEqual(['step', 'action', 'detail']);
    expect(r.data.map((row) => row.slice(0, 2))).toEqual([
      ['1', 'predict mindsdb.small_m'],
      ['2', 'final SQL in DuckDB'],
      ['3', 'DuckDB plan'],
    ]);
    // The model predicts the distinct input rows of the data side, with its own WHERE.
    expect(r.data[0][2]).toMatch(/^on the distinct input rows of: .*files\.small.*'a'/s);
    // The final SQL joins the predictions and answers in the data's order.
    expect(r.data[1][2]).toMatch(/JOIN \(SELECT __mdb_v\.\* FROM temp\.main\./);
    expect(r.data[1][2]).toMatch(/ORDER BY "t"\."__mdb_pos_\d+"$/);
    // DuckDB's physical plan of that SQL: it scans the data table.
    expect(r.data[2][2]).toMatch(/SEQ_SCAN|TABLE_SCAN/);
    expect(r.data[2][2]).toContain('small');
  });

  it('plans a single prediction from its WHERE as one row of values', async () => {
    const r = await run(inst, "EXPLAIN SELECT y FROM mindsdb.small_m WHERE x = 3 AND c = 'b'");
    expect(r.data[0].slice(0, 2)).toEqual(['1', 'predict mindsdb.small_m']);
    expect(JSON.parse(String(r.data[0][2]).replace(/^one row: /, ''))).toEqual({ x: 3, c: 'b' });
  });

  it('lists no step for a query without models, and answers DuckDB plan of it', async () => {
    const r = await run(inst, 'EXPLAIN SELECT x, count(*) FROM files.small GROUP BY x');
    expect(r.data.map((row) => row.slice(0, 2))).toEqual([
      ['1', 'final SQL in DuckDB'],
      ['2', 'DuckDB plan'],
    ]);
    expect(r.data[1][2]).toMatch(/HASH_GROUP_BY|PERFECT_HASH_GROUP_BY/);
  });

  it('runs nothing: the same query afterwards still gives the same rows, and EXPLAIN ANALYZE runs the steps', async () => {
    const before = await run(inst, JOIN);
    await run(inst, `EXPLAIN ${JOIN}`);
    const analyzed = await run(inst, `EXPLAIN ANALYZE ${JOIN}`);
    expect(analyzed.data.at(-1)?.[1]).toBe('DuckDB plan');
    // DuckDB's EXPLAIN ANALYZE counts the rows that ran: 100 rows with c = 'a'.
    expect(String(analyzed.data.at(-1)?.[2])).toMatch(/Total Time/);
    expect(String(analyzed.data.at(-1)?.[2])).toContain('100');
    expect((await run(inst, JOIN)).data).toEqual(before.data);
  });

  it("points an error at the user's text, after the EXPLAIN keyword", async () => {
    const r: any = await inst.sql.execute({
      query: 'EXPLAIN SELECT t.x,\n  nope\nFROM files.small AS t JOIN mindsdb.small_m AS m',
    });
    expect(r.type).toBe('error');
    expect(r.error_message).toMatch(/nope/);
    expect(r.error_position).toEqual({ line: 2, column: 3 });
  });
});
