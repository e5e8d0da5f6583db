/**
 * The planner on DuckDB's parsed trees, without HTTP: which references a query has at any depth
 * and what they resolve to (CTEs first), the SQL it hands DuckDB (the user's text edited in
 * place), what it pushes down into a model's input rows, and where errors point.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Instance } from '../../instance';
import type { EngineSession } from '../../engine/session';
import { runSteps } from '../plan/execute';
import { planQuery } from '../plan/query';
import { paramsOf } from '../plan/state';
import { resolveTable } from '../plan/names';
import { toDuckText } from '../syntax/dialect';
import { StatementSource } from '../syntax/source';
import { Tokens } from '../syntax/tokens';
import { indexQuery, parseQuery, type JNode } from '../syntax/tree';
import { newExecContext, type ExecContext } from '../types';
import { open, run, waitForModel } from './model-helpers';
import type { ServiceError } from '../../errors';
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

function context(session: EngineSession, db = 'mindsdb'): ExecContext {
  return newExecContext(session, db);
}

/** Runs `fn` on a session of its own (TEMP tables live until it ends). */
const inSession = <T>(fn: (s: EngineSession) => Promise<T>) => inst.catalog.engine.session(fn);

async function tablesOf(sql: string, db = 'mindsdb') {
  return inSession(async (session) => {
    const p = await parseQuery(
      session,
      toDuckText(new Tokens(sql), { isDatabase: () => false }).rw.text,
    );
    if (!p.ok) throw new Error(p.message);
    const index = indexQuery(p.node);
    return index.tables.map((t) => ({
      parts: t.parts.join('.'),
      ctes: [...t.scope.names].sort().join(','),
      kind: resolveTable(inst.sql, t.parts, t.scope, db).kind,
    }));
  });
}

async function plan(sql: string, db = 'mindsdb') {
  return inSession(async (session) => {
    const ctx = context(session, db);
    const q = await planQuery(
      inst.sql,
      { text: sql, start: 0 },
      new StatementSource(sql, 0, sql),
      ctx,
    );
    // Planning runs nothing: the steps' tables exist, empty, until the executor fills them.
    const planned: Record<string, number> = {};
    for (const t of ctx.temps) {
      const r = await session
        .query(`SELECT count(*) FROM temp.main."${t}"`)
        .catch(() => ({ rows: [['absent']] }));
      planned[t.replace(/_\d+$/, '')] = Number(r.rows[0][0]);
    }
    const steps = q.steps.map((s) => s.kind);
    await runSteps(inst.sql, ctx, q.steps);
    const counts: Record<string, number> = {};
    for (const t of ctx.temps) {
      const r = await session.query(`SELECT count(*) FROM temp.main."${t}"`);
      counts[t.replace(/_\d+$/, '')] = Number(r.rows[0][0]);
    }
    const result =
      q.target.kind === 'duckdb'
        ? await session
            .query(q.sql, { db: q.target.db, params: paramsOf(q.sql, ctx.params) })
            .catch((e: Error) => e)
        : null;
    return {
      sql: q.sql,
      steps,
      planned,
      temps: counts,
      result: result as any,
      toSource: q.rw.toSource,
    };
  });
}

describe('references at any depth, with CTE scopes', () => {
  it('finds tables in CTEs, FROM subqueries, WHERE subqueries and both sides of a UNION', async () => {
    const refs = await tablesOf(
      `WITH c AS (SELECT * FROM files.small)
       SELECT * FROM c JOIN (SELECT * FROM mindsdb.models) s ON TRUE
       WHERE x IN (SELECT y FROM example_db.demo_data.home_rentals)
       UNION ALL SELECT * FROM mindsdb.small_m`,
    );
    expect(refs).toEqual(
      expect.arrayContaining([
        { parts: 'files.small', ctes: '', kind: 'local' },
        { parts: 'c', ctes: 'c', kind: 'cte' },
        { parts: 'mindsdb.models', ctes: 'c', kind: 'system' },
        { parts: 'example_db.demo_data.home_rentals', ctes: 'c', kind: 'local' },
        { parts: 'mindsdb.small_m', ctes: 'c', kind: 'model' },
      ]),
    );
    expect(refs).toHaveLength(5);
  });

  it('lets a CTE named like a system table or a model shadow it, but not inside its own body', async () => {
    expect(await tablesOf('WITH models AS (SELECT 1 AS a) SELECT * FROM models')).toEqual([
      { parts: 'models', ctes: 'models', kind: 'cte' },
    ]);
    expect(await tablesOf('WITH small_m AS (SELECT * FROM small_m) SELECT * FROM small_m')).toEqual(
      [
        { parts: 'small_m', ctes: '', kind: 'model' },
        { parts: 'small_m', ctes: 'small_m', kind: 'cte' },
      ],
    );
  });

  it('resolves versions, system tables, backticked dotted names and bare names in a project', async () => {
    const refs = await tablesOf(
      'SELECT * FROM small_m.1, mindsdb.small_m.1, mindsdb.models_versions, information_schema.ml_engines, `files.small`, small_m',
    );
    expect(refs.map((r) => r.kind)).toEqual([
      'model',
      'model',
      'system',
      'system',
      'local',
      'model',
    ]);
    expect((await tablesOf('SELECT * FROM small_m', 'files'))[0].kind).toBe('local');
  });
});

describe('the SQL DuckDB runs', () => {
  it('passes DuckDB SQL through, with MindsDB double-quoted strings and string columns named by their value', async () => {
    const p = await plan(
      `SELECT "a", 'b', s."x" FROM files.small AS s WHERE c = "a" ORDER BY x LIMIT 1`,
    );
    expect(p.sql).toBe(
      `SELECT 'a' AS "a", 'b' AS "b", s."x" FROM files.small AS s WHERE c = 'a' ORDER BY x LIMIT 1`,
    );
    expect(p.result).toMatchObject({ columns: ['a', 'b', 'x'], rows: [['a', 'b', 0]] });
  });

  it('answers @@version_comment and DATABASE() as MySQL clients read them', async () => {
    const p = await plan('SELECT @@version_comment, DATABASE(), database() AS d', 'files');
    expect(p.result).toMatchObject({
      columns: ['@@version_comment', 'DATABASE()', 'd'],
      rows: [['(MindsDB)', 'files', 'files']],
    });
  });

  it('rewrites only the model reference of a batch join and numbers the data rows; the rest stays as written', async () => {
    const sql =
      "SELECT t.x, m.y AS predicted FROM files.small AS t JOIN mindsdb.small_m AS m WHERE t.c = 'a'";
    const p = await plan(sql);
    // The data side carries its row positions; the answer is in their order (plan/order.ts).
    const pos = /"(__mdb_pos_\d+)"/.exec(p.sql)?.[1];
    expect(pos).toBeDefined();
    expect(
      p.sql.startsWith(
        `SELECT t.x, m.y AS predicted FROM (SELECT *, row_number() OVER () AS "${pos}" FROM files.small AS t) AS "t" JOIN (SELECT __mdb_v.* FROM temp.main.`,
      ),
    ).toBe(true);
    expect(p.sql.endsWith(`) AS m ON TRUE WHERE t.c = 'a' ORDER BY "t"."${pos}"`)).toBe(true);
    // Only the rows the data side's own WHERE keeps are predicted: 25 distinct inputs for c = 'a'
    // (x decides y and c, so the 200 rows hold 50 distinct inputs).
    expect(p.steps).toEqual(['predict']);
    // The prediction's table exists for DuckDB to bind the final SQL against, with no rows yet.
    expect(p.planned.__mdb_pv).toBe(0);
    expect(p.temps).toMatchObject({ __mdb_in: 25, __mdb_pv: 25 });
    const rows = (p.result as { rows: [number, number][] }).rows;
    expect(rows).toHaveLength(100);
    for (const [x, y] of rows) expect(Math.abs(y - (2 * x + 1))).toBeLessThan(15);
  });

  it("reads a model input through the model's alias (m.x) as the data column the model read", async () => {
    const r = await run(
      inst,
      `SELECT m.x, m.y, t.x AS tx, m.c FROM files.small AS t JOIN mindsdb.small_m AS m
       WHERE m.x >= 48 AND t.c = 'a' ORDER BY m.x`,
    );
    expect(r.column_names).toEqual(['x', 'y', 'tx', 'c']);
    expect(r.data.length).toBe(4); // x 48 (i = 48, 98, 148, 198), all even: c = 'a'
    for (const [x, y, tx, c] of r.data) {
      expect(x).toBe(48);
      expect(tx).toBe(48);
      expect(c).toBe('a');
      expect(Math.abs((y as number) - 97)).toBeLessThan(5); // the prediction of y = 2x + 1
    }
    // m.* stays the prediction columns (the data side's * has the inputs).
    const star = await run(
      inst,
      'SELECT m.* FROM files.small AS t JOIN mindsdb.small_m AS m LIMIT 1',
    );
    expect(star.column_names).not.toContain('x');
    expect(star.column_names).toContain('y_confidence');
  });

  it('pushes LIMIT down only when nothing after the join can change which rows come out', async () => {
    const limited = await plan(
      'SELECT t.x, m.y FROM files.small AS t JOIN mindsdb.small_m AS m LIMIT 7',
    );
    expect(limited.temps.__mdb_in).toBeLessThanOrEqual(7);
    expect((limited.result as { rows: unknown[] }).rows).toHaveLength(7);
    const byPrediction = await plan(
      'SELECT t.x, m.y FROM files.small AS t JOIN mindsdb.small_m AS m ORDER BY m.y DESC LIMIT 3',
    );
    // Every distinct input row of the table (x decides y and c): nothing was pushed down.
    expect(byPrediction.temps.__mdb_in).toBe(50);
    expect((byPrediction.result as { rows: number[][] }).rows.map((r) => r[0])).toEqual([
      49, 49, 49,
    ]);
    const aggregated = await plan(
      'SELECT count(*) FROM files.small AS t JOIN mindsdb.small_m AS m LIMIT 1',
    );
    expect((aggregated.result as { rows: unknown[][] }).rows).toEqual([[200]]);
  });

  it('turns the single-prediction WHERE into the input row', async () => {
    const p = await plan(
      'SELECT y, y_confidence > 0 AS sure FROM mindsdb.small_m WHERE x = 10 AND c = "a"',
    );
    // The row is a relation of typed parameters the predict step gives values: no TEMP table is
    // created, filled or dropped (three engine round trips of the form's five).
    expect(p.sql).toMatch(
      /^SELECT y, y_confidence > 0 AS sure FROM \(SELECT CAST\(\$__mdb_one_1_0 AS DOUBLE\) AS "x", CAST\(\$__mdb_one_1_1 AS VARCHAR\) AS "c", CAST\(\$__mdb_one_1_2 AS DOUBLE\) AS "y", .* CAST\(NULL AS VARCHAR\) AS "when_data"\) AS "small_m" WHERE TRUE AND TRUE$/,
    );
    expect(p.steps).toEqual(['predict']);
    expect(p.planned).toEqual({});
    expect(p.temps).toEqual({});
    const [[y, sure]] = (p.result as { rows: [number, boolean][] }).rows;
    expect(Math.abs(y - 21)).toBeLessThan(10);
    expect(sure).toBe(true);
  });

  it('keeps DuckDB error positions on what the user wrote, also after rewriting', async () => {
    const sql = 'SELECT t.x,\n  nope\nFROM files.small AS t JOIN mindsdb.small_m AS m';
    const p = await plan(sql);
    expect(p.result).toBeInstanceOf(Error);
    // The position is data on the error (the HTTP edge formats it into the message): `nope`.
    expect((p.result as ServiceError).position).toEqual({ line: 2, column: 3 });
    // The engine reports a position in the SQL it ran; mapped back it is `nope` in the user's text.
    const offset = p.sql.indexOf('nope');
    expect(p.toSource(offset)).toBe(sql.indexOf('nope'));
  });
});

describe('tree nodes', () => {
  it('keeps big integers exact through the tree', async () => {
    const r = await inSession(async (session) => {
      const p = await parseQuery(session, 'SELECT 9007199254740993 AS big');
      if (!p.ok) throw new Error(p.message);
      return ((p.node.select_list as JNode[])[0].value as JNode).value;
    });
    expect(String(r)).toContain('9007199254740993');
  });
});
