/**
 * A single prediction's plain projection (`SELECT cols | * FROM model WHERE a = 1 AND b = 'x'`) is
 * answered from the predict step's values without running the final SQL (plan/row-answer.ts):
 * the planner marks exactly those shapes, and the answer (column names as written, types, values,
 * column origins) is the one DuckDB gives for the same query read through a subquery, which takes
 * the general path. Over HTTP, on a real port.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseServerTiming } from '../../engine/timings';
import type { Harness } from '../../test/harness';
import { startWithSmallModel } from './small-model';
import { planQuery } from '../plan/query';
import { StatementSource } from '../syntax/source';
import { newExecContext } from '../types';

let h: Harness;

beforeAll(async () => {
  // y = 2x + 1 (+ 5 when c = 'b'): ./small-model.ts.
  h = await startWithSmallModel();
});

afterAll(async () => {
  await h?.close();
});

/** Whether the planner answers `query` from the step's values (`planned.row`). */
async function answeredAsRow(query: string): Promise<boolean> {
  return h.instance.catalog.engine.session(async (session) => {
    const ctx = newExecContext(session, 'mindsdb');
    const src = new StatementSource(query, 0, query);
    const planned = await planQuery(h.instance.sql, { text: query, start: 0 }, src, ctx);
    return planned.row !== undefined;
  });
}

/** The answer over HTTP, with the engine phases its Server-Timing header names. */
async function answer(query: string) {
  const res = await fetch(`${h.url}/api/sql/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  const body: any = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(200);
  expect(body.type, JSON.stringify(body)).toBe('table');
  return { body, phases: parseServerTiming(res.headers.get('server-timing')) };
}

const where = "WHERE x = 7 AND c = 'b'";

describe('a single prediction answered from its values', () => {
  const shapes = [
    `SELECT y FROM mindsdb.small_m ${where}`,
    `SELECT * FROM mindsdb.small_m ${where}`,
    `SELECT m.* FROM mindsdb.small_m AS m ${where}`,
    `SELECT Y, m.y_confidence AS "Conf", x, C FROM mindsdb.small_m AS m ${where}`,
    `SELECT y, y_explain, __service_row_id, when_data FROM small_m ${where} LIMIT 5`,
    'SELECT y, x, c FROM mindsdb.small_m WHERE x = 3',
  ];
  for (const q of shapes) {
    it(`answers as the general path does: ${q}`, async () => {
      expect(await answeredAsRow(q)).toBe(true);
      const fast = await answer(q);
      const general = await answer(`SELECT * FROM (${q}) AS general`);
      expect(fast.body.column_names).toEqual(general.body.column_names);
      expect(fast.body.column_types).toEqual(general.body.column_types);
      expect(fast.body.data).toEqual(general.body.data);
      expect(fast.body.column_origins).toEqual(general.body.column_origins);
      expect(fast.body.data).toHaveLength(1);
    });
  }

  it('predicts the row: the value follows the inputs', async () => {
    const b = (await answer(`SELECT y, x, c FROM mindsdb.small_m ${where}`)).body;
    expect(b.column_names).toEqual(['y', 'x', 'c']);
    expect(b.data[0][1]).toBe(7);
    expect(b.data[0][2]).toBe('b');
    expect(Math.abs(b.data[0][0] - 20)).toBeLessThan(3);
  });

  it('runs no engine statement once the query text was parsed before', async () => {
    const q = `SELECT y, y_confidence FROM mindsdb.small_m WHERE x = 11 AND c = 'a'`;
    await answer(q);
    const again = await answer(q);
    expect(again.phases.execute).toBeUndefined();
    const general = await answer(`SELECT y, y_confidence + 0 FROM mindsdb.small_m WHERE x = 11`);
    await answer(`SELECT y, y_confidence + 0 FROM mindsdb.small_m WHERE x = 11`);
    expect(general.phases.execute).toBeGreaterThanOrEqual(0);
  });

  const general = [
    `SELECT y + 1 AS more FROM mindsdb.small_m ${where}`,
    `SELECT DISTINCT y FROM mindsdb.small_m ${where}`,
    `SELECT y FROM mindsdb.small_m ${where} ORDER BY y`,
    `SELECT y FROM mindsdb.small_m ${where} LIMIT 0`,
    `SELECT y FROM mindsdb.small_m ${where} LIMIT 1 OFFSET 1`,
    `SELECT count(*) AS n FROM mindsdb.small_m ${where}`,
    `SELECT y, y FROM mindsdb.small_m ${where}`,
    `WITH q AS (SELECT 1 AS one) SELECT y FROM mindsdb.small_m ${where}`,
    `SELECT * EXCLUDE (x) FROM mindsdb.small_m ${where}`,
    `SELECT y FROM mindsdb.small_m ${where} UNION ALL SELECT 1`,
  ];
  for (const q of general) {
    it(`leaves other shapes to the final SQL: ${q}`, async () => {
      expect(await answeredAsRow(q)).toBe(false);
    });
  }

  it('answers the streamed form (jsonlines) as the general path does', async () => {
    const lines = async (query: string) => {
      const res = await fetch(`${h.url}/api/sql/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, response_format: 'jsonlines' }),
      });
      expect(res.status).toBe(200);
      return (await res.text())
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
    };
    const q = `SELECT m.*, y AS again FROM mindsdb.small_m AS m ${where}`;
    expect(await answeredAsRow(q)).toBe(true);
    const fast = await lines(q);
    expect(fast).toEqual(await lines(`SELECT * FROM (${q}) AS general`));
    expect(fast[0].column_names[0]).toBe('x');
    expect(fast.slice(1).flat()).toHaveLength(1);
  });

  it('LIMIT 0 and OFFSET still answer as SQL does (no row)', async () => {
    expect((await answer(`SELECT y FROM mindsdb.small_m ${where} LIMIT 0`)).body.data).toEqual([]);
    const off = await answer(`SELECT y FROM mindsdb.small_m ${where} LIMIT 1 OFFSET 1`);
    expect(off.body.data).toEqual([]);
  });
});
