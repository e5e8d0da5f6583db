/**
 * `column_origins` (issue 27): which result columns a model produced and where each row's inputs
 * are, decided by the planner (plan/column-origins.ts) on a JOIN, aliases, `*`, a subquery, the
 * one-row form, and absent from a plain table; then over HTTP in the JSON and the streamed forms,
 * where a MindsDB client reading only `column_names` and `data` sees nothing new.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../../test/harness';
import { startWithSmallModel } from './small-model';

let h: Harness;

beforeAll(async () => {
  // y = 2x + 1 (+ 5 when c = 'b'): ./small-model.ts.
  h = await startWithSmallModel();
});

afterAll(async () => {
  await h?.close();
});

/** The service's answer, in process (the planner and the executor, no HTTP). */
async function origins(query: string) {
  const r: any = await h.instance.sql.execute({ query });
  if (r.type !== 'table') throw new Error(`${query}: ${JSON.stringify(r).slice(0, 300)}`);
  return { names: r.column_names as string[], origins: r.column_origins, data: r.data };
}

const of = (column: string, predicted: boolean, inputs: Record<string, number>) => ({
  project: 'mindsdb',
  model: 'small_m',
  version: 1,
  column,
  predicted,
  inputs,
});

describe('column origins in the planner', () => {
  it('a JOIN with aliases: the prediction and its confidence, the inputs by result column', async () => {
    const r = await origins(
      `SELECT t.c, t.x AS size, m.y AS predicted, m.y_confidence
       FROM files.small AS t JOIN mindsdb.small_m AS m LIMIT 3`,
    );
    expect(r.names).toEqual(['c', 'size', 'predicted', 'y_confidence']);
    expect(r.origins).toEqual([
      null,
      null,
      of('y', true, { c: 0, x: 1 }),
      of('y_confidence', false, { c: 0, x: 1 }),
    ]);
  });

  it('SELECT *: the data columns have none, the model columns follow them', async () => {
    const r = await origins('SELECT * FROM files.small AS t JOIN mindsdb.small_m AS m LIMIT 2');
    const at = r.names.indexOf('y', 3);
    expect(r.names.slice(0, 3)).toEqual(['x', 'c', 'y']);
    expect(r.origins.slice(0, 3)).toEqual([null, null, null]);
    expect(r.origins[at]).toEqual(of('y', true, { x: 0, c: 1 }));
    expect(r.origins.slice(3).every((o: any) => o?.model === 'small_m')).toBe(true);
  });

  it('a subquery: the outer columns keep the model and the data positions', async () => {
    const r = await origins(
      `SELECT s.pred, s.x FROM (SELECT t.x, t.c, m.y AS pred FROM files.small AS t
       JOIN mindsdb.small_m AS m) AS s LIMIT 2`,
    );
    expect(r.names).toEqual(['pred', 'x']);
    // c is not in the outer result: only x is found.
    expect(r.origins).toEqual([of('y', true, { x: 1 }), null]);
  });

  it('the one-row form carries the values it was given', async () => {
    const r = await origins(`SELECT y FROM mindsdb.small_m WHERE x = 3 AND c = 'b'`);
    expect(r.origins).toEqual([{ ...of('y', true, {}), values: { x: 3, c: 'b' } }]);
  });

  it('a plain table and an expression over a prediction have none', async () => {
    expect((await origins('SELECT * FROM files.small LIMIT 2')).origins).toBeUndefined();
    const r = await origins(
      'SELECT m.y + 1 AS shifted FROM files.small AS t JOIN mindsdb.small_m AS m LIMIT 2',
    );
    expect(r.origins).toBeUndefined();
  });

  it('the inputs it names give back the same prediction', async () => {
    const r = await origins(
      `SELECT t.x, t.c, m.y FROM files.small AS t JOIN mindsdb.small_m AS m WHERE t.x = 7 LIMIT 1`,
    );
    const o = r.origins[2];
    const row = Object.fromEntries(
      Object.entries(o.inputs).map(([k, i]) => [k, r.data[0][i as number]]),
    );
    const one = await origins(
      `SELECT y FROM mindsdb.small_m WHERE x = ${row.x} AND c = '${row.c}'`,
    );
    expect(one.data[0][0]).toBe(r.data[0][2]);
  });
});

describe('column origins over HTTP', () => {
  const q = 'SELECT t.x, t.c, m.y FROM files.small AS t JOIN mindsdb.small_m AS m LIMIT 2';

  it('the JSON answer carries them beside what MindsDB sends', async () => {
    const r = await h.sql(q);
    expect(r.type).toBe('table');
    expect(r.column_names).toEqual(['x', 'c', 'y']);
    expect(r.data).toHaveLength(2);
    expect(r.column_origins).toEqual([null, null, of('y', true, { x: 0, c: 1 })]);
    expect((await h.sql('SELECT 1 AS one')).column_origins).toBeUndefined();
  });

  it('the streamed header carries them', async () => {
    const res = await fetch(`${h.url}/api/sql/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: q, response_format: 'jsonlines' }),
    });
    expect(res.status).toBe(200);
    const lines = (await res.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0].column_origins).toEqual([null, null, of('y', true, { x: 0, c: 1 })]);
    expect(lines.slice(1).flat()).toHaveLength(2);
  });
});
