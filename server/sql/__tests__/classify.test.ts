/**
 * Issue 22, item 1: what a statement does is decided once, by the server, before anything runs
 * (POST /api/sql/classify). Writes hidden behind E'' strings, dollar quotes, comments, CTEs and
 * EXPLAIN ANALYZE are writes; a plain SELECT reads; expensive and unusual reads are flagged; and
 * classifying changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../test/harness';
import { waitForModel } from './model-helpers';
import { trainingCache } from '../../test/training-cache';

let h: Harness;

const classify = async (query: string, db?: string) => {
  const r = await h.post('/api/sql/classify', { query, ...(db ? { context: { db } } : {}) });
  expect(r.status).toBe(200);
  return r.body as {
    statements: {
      sql: string;
      effect: string;
      kind: string;
      reasons: string[];
      predicted_rows: number | null;
    }[];
    run_without_asking: boolean;
    context: { db: string };
  };
};

const count = async () => (await h.sql('SELECT count(*) AS n FROM mindsdb.precious')).data[0][0];

beforeAll(async () => {
  h = await startHarness(trainingCache());
  await h.sql('CREATE TABLE mindsdb.precious AS SELECT range AS i FROM range(5)');
  await h.sql('CREATE TABLE mindsdb.wide AS SELECT range AS i FROM range(20000)');
});
afterAll(async () => {
  await h.close();
});

describe('POST /api/sql/classify', () => {
  const ATTACKS: [string, RegExp][] = [
    [`WITH a AS (SELECT E'\\'' AS q) DELETE FROM mindsdb.precious`, /^DELETE$/],
    [`WITH a AS (SELECT E'\\'' AS q) UPDATE mindsdb.precious SET i = 0`, /^UPDATE$/],
    [`WITH a AS (SELECT $$'$$ AS q) INSERT INTO mindsdb.precious SELECT 9`, /^INSERT$/],
    [`EXPLAIN ANALYZE WITH a AS (SELECT E'\\'' AS q) DELETE FROM mindsdb.precious`, /DELETE/],
    [`EXPLAIN (ANALYZE) DELETE FROM mindsdb.precious`, /DELETE/],
    [`/* SELECT */ DELETE FROM mindsdb.precious`, /^DELETE$/],
    [`-- SELECT 1\nTRUNCATE mindsdb.precious`, /DELETE|TRUNCATE/],
    [`SELECT $q$ ' $q$ AS x; DELETE FROM mindsdb.precious`, /^DELETE$/],
    [`CREATE TABLE mindsdb.copy AS SELECT * FROM mindsdb.precious`, /CREATE/],
    [`DROP TABLE mindsdb.precious`, /DROP/],
    [`DROP MODEL IF EXISTS mindsdb.nothing`, /DROP MODEL/],
    [`SELECT nextval('no_such_sequence')`, /SELECT/],
  ];

  it.each(ATTACKS)('judges %j a change, not a read', async (sql, kind) => {
    const c = await classify(sql);
    expect(c.run_without_asking).toBe(false);
    const last = c.statements[c.statements.length - 1];
    expect(['write', 'unknown']).toContain(last.effect);
    expect(last.kind).toMatch(kind);
    expect(last.reasons.length).toBeGreaterThan(0);
    expect(await count()).toBe(5);
  });

  it('lets a plain SELECT run at once, and names what it is', async () => {
    const c = await classify(`SELECT i, 'DELETE FROM x' AS s FROM mindsdb.precious -- DROP`);
    expect(c.statements).toEqual([
      expect.objectContaining({ effect: 'read', kind: 'SELECT', reasons: [] }),
    ]);
    expect(c.run_without_asking).toBe(true);
    const many = await classify('USE example_db; SELECT count(*) FROM demo_data.home_rentals');
    expect(many.statements.map((s) => s.effect)).toEqual(['session', 'read']);
    expect(many.context.db).toBe('example_db');
    expect(many.run_without_asking).toBe(false);
  });

  it('flags the crashing JSON functions, large cross joins and huge results', async () => {
    const deep = await classify(
      `SELECT json_structure(repeat('[', 100000) || repeat(']', 100000))`,
    );
    expect(deep.run_without_asking).toBe(false);
    expect(deep.statements[0].reasons.join()).toMatch(/json_structure\(\) can crash the engine/);
    const cross = await classify('SELECT count(*) FROM mindsdb.wide a, mindsdb.wide b');
    expect(cross.statements[0].effect).toBe('read');
    expect(cross.statements[0].reasons.join()).toMatch(
      /\(a cross join\) into about 400 million rows/,
    );
    expect(cross.statements[0].reasons.join()).not.toMatch(/GB/);
    const huge = await classify('SELECT * FROM range(10000000000)');
    expect(huge.statements[0].reasons.join()).toMatch(/produces about 10 billion rows/);
    expect(huge.statements[0].reasons.join()).toMatch(/Its result is about 74.5 GB/);
    // A LIMIT stops the scan early: cheap.
    const limited = await classify('SELECT * FROM range(10000000000) LIMIT 10');
    expect(limited.statements[0].reasons).toEqual([]);
    const sorted = await classify('SELECT * FROM range(10000000000) ORDER BY 1 DESC LIMIT 10');
    expect(sorted.statements[0].reasons.join()).toMatch(/10 billion rows/);
  });

  it('answers errors and refusals without running anything', async () => {
    const bad = await classify('SELEC 1');
    expect(bad.statements[0].effect).toBe('error');
    const refused = await classify(`SELECT * FROM query('DELETE FROM mindsdb.precious')`);
    expect(refused.statements[0].effect).toBe('refused');
    const attach = await classify(`ATTACH ':memory:' AS x`);
    expect(attach.statements[0].effect).toBe('refused');
    expect(await count()).toBe(5);
    const r = await h.post('/api/sql/classify', { nope: 1 });
    expect(r.status).toBe(400);
  });
});

describe('models in a link', () => {
  beforeAll(async () => {
    await h.sql(
      `CREATE MODEL mindsdb.cls_model FROM mindsdb (SELECT i % 100 AS a, i % 7 AS b, (i % 100) * 2 + i % 7 AS y FROM wide) PREDICT y`,
    );
    expect((await waitForModel(h.instance, 'cls_model')).status).toBe('complete');
  });

  it('runs one prediction at once and asks before predicting many rows', async () => {
    const one = await classify('SELECT y FROM mindsdb.cls_model WHERE a = 3 AND b = 1');
    expect(one.statements[0]).toMatchObject({ effect: 'read', reasons: [] });
    expect(one.run_without_asking).toBe(true);
    const many = await classify(
      'SELECT m.y FROM (SELECT i % 100 AS a, i % 7 AS b FROM mindsdb.wide) AS t JOIN mindsdb.cls_model AS m',
    );
    expect(many.statements[0].effect).toBe('read');
    expect(many.statements[0].predicted_rows).toBeGreaterThan(10_000);
    expect(many.statements[0].reasons.join()).toMatch(/predicts with mindsdb.cls_model/);
    expect(many.run_without_asking).toBe(false);
    const retrain = await classify('RETRAIN mindsdb.cls_model');
    expect(retrain.statements[0]).toMatchObject({ effect: 'write', kind: 'RETRAIN' });
  });
});
