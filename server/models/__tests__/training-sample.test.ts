/**
 * Issue 28 item 1: a FROM query larger than the row budget trains on a sample drawn where the data
 * lives (DuckDB, PostgreSQL), stratified by class for classifiers, and DESCRIBE says so. Over
 * real HTTP on a real instance, with a real PostgreSQL server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPgServer, type PgTestServer } from '../../integrations/__tests__/pg-server';
import { startHarness, sqlOk as sqlOn, waitComplete, type Harness } from '../../test/harness';
import { classRates } from '../training-sample';

let h: Harness;
let pgs: PgTestServer;
const sqlOk = (q: string) => sqlOn(h, q);

async function trainingData(name: string) {
  const r = await h.get(`/api/projects/mindsdb/models/${name}/describe?attribute=info`);
  expect(r.status).toBe(200);
  return r.body[0].training_data;
}

// 60,000 rows: x decides 'a' or 'b'; every 200th row is 'rare' (300 rows, 0.5 %) whatever x says.
const TABLE = `CREATE TABLE files.big AS SELECT i, (i * 7919 % 1000) / 10.0 AS x,
  CASE WHEN i % 200 = 0 THEN 'rare' WHEN (i * 7919 % 1000) < 400 THEN 'a' ELSE 'b' END AS label,
  (i * 7919 % 1000) / 10.0 * 3 + (i % 7) AS y
  FROM range(60000) t(i)`;

beforeAll(async () => {
  [h, pgs] = await Promise.all([startHarness(), startPgServer({ seed: false })]);
  await sqlOk(TABLE);
});

afterAll(async () => {
  await h?.close();
  await pgs?.stop();
});

describe('class rates of a stratified sample', () => {
  it('keep a rare class whole, give the others one rate, and fill the budget', () => {
    const r = classRates(
      [
        { value: 'a', rows: 600_000 },
        { value: 'b', rows: 399_000 },
        { value: 'rare', rows: 1_000 },
      ],
      100_000,
    );
    expect(r[2].rate).toBe(1);
    expect(r[0].rate).toBeCloseTo(r[1].rate, 12);
    const expected = r.reduce((s, c) => s + c.rows * c.rate, 0);
    expect(expected).toBeCloseTo(100_000, 6);
  });

  it('with a small budget, every class still gets an equal floor', () => {
    const r = classRates(
      [
        { value: 'a', rows: 99_000 },
        { value: 'rare', rows: 1_000 },
      ],
      400,
    );
    // floor = 400 / (2 x 2) = 100 rows for the rare class; 'a' fills the rest.
    expect(r[1].rate * 1_000).toBeCloseTo(100, 9);
    expect(r[0].rate * 99_000).toBeCloseTo(300, 9);
  });
});

describe('training past the row budget (DuckDB)', () => {
  it('a classifier trains on a stratified sample: rare class whole, probabilities at the source share', async () => {
    await sqlOk(
      'CREATE MODEL mindsdb.sampled_cls FROM files (SELECT x, label FROM big) PREDICT label USING sample_rows = 6000',
    );
    await waitComplete(h, 'sampled_cls');
    const td = await trainingData('sampled_cls');
    expect(td).toMatchObject({ method: 'stratified', drawn_in: 'duckdb', rows_available: 60_000 });
    expect(td.rows_used).toBeLessThanOrEqual(6000);
    expect(td.rows_used).toBeGreaterThan(5000);
    const rare = td.classes.find((c: { value: string }) => c.value === 'rare');
    expect(rare).toEqual({ value: 'rare', rows: 300, rate: 1 });
    expect(td.summary).toMatch(
      /^Trained on [\d,]+ of 60,000 rows: a random sample drawn in DuckDB, stratified by class/,
    );
    // The sample holds 300 / ~6,000 = 5 % 'rare' rows; the source 0.5 %. x says nothing about
    // them, so the mean probability of 'rare' over the source is its share there.
    const p = await sqlOk(
      `SELECT avg(CAST(json_extract(m.label_explain, '$.probability_class_rare') AS DOUBLE)) FROM files.big AS t JOIN mindsdb.sampled_cls AS m`,
    );
    const meanRare = p.data[0][0] as number;
    expect(meanRare).toBeGreaterThan(0.002);
    expect(meanRare).toBeLessThan(0.012);
  });

  it('a regression trains on a Bernoulli sample; DESCRIBE in SQL says it in a sentence', async () => {
    await sqlOk(
      'CREATE MODEL mindsdb.sampled_reg FROM files (SELECT x, y FROM big) PREDICT y USING sample_rows = 5000',
    );
    await waitComplete(h, 'sampled_reg');
    const td = await trainingData('sampled_reg');
    expect(td).toMatchObject({ method: 'bernoulli', drawn_in: 'duckdb', rows_available: 60_000 });
    expect(td.rows_used).toBeLessThanOrEqual(5000);
    expect(td.rows_used).toBeGreaterThan(4500);
    const d = await sqlOk('DESCRIBE mindsdb.sampled_reg');
    const cell = d.data[0][d.column_names.indexOf('training_data')] as string;
    expect(cell).toMatch(
      /^Trained on [\d,]+ of 60,000 rows: a random sample drawn in DuckDB \(each row with probability 0\.0\d+\)/,
    );
  });

  it('USING sample_rows = 0 reads every row', async () => {
    await sqlOk(
      'CREATE MODEL mindsdb.whole FROM files (SELECT x, y FROM big) PREDICT y USING sample_rows = 0, max_iterations = 5',
    );
    await waitComplete(h, 'whole');
    expect(await trainingData('whole')).toBeNull();
  });

  it('a bad sample_rows fails the statement with the rule', async () => {
    const r = await h.sql(
      "CREATE MODEL mindsdb.bad_sample FROM files (SELECT x, y FROM big) PREDICT y USING sample_rows = 'lots'",
    );
    expect(r.type).toBe('error');
    expect(r.error_message).toBe(
      `USING sample_rows must be a whole number of rows (at least 100), or 0 to read every row; got "lots"`,
    );
  });
});

describe('training past the row budget (PostgreSQL)', () => {
  it('the sample is drawn in PostgreSQL: only sampled rows leave the server', async () => {
    const admin = await pgs.admin();
    try {
      await admin.query(`CREATE TABLE big AS SELECT i, (i * 7919 % 1000) / 10.0 AS x,
        CASE WHEN i % 200 = 0 THEN 'rare' WHEN (i * 7919 % 1000) < 400 THEN 'a' ELSE 'b' END AS label
        FROM generate_series(0, 39999) AS i`);
      await admin.query(`ALTER TABLE big OWNER TO ${pgs.user}`);
    } finally {
      await admin.end();
    }
    await sqlOk(pgs.createDatabase('pg'));
    await sqlOk(
      'CREATE MODEL mindsdb.pg_sampled FROM pg (SELECT x, label FROM big) PREDICT label USING sample_rows = 4000',
    );
    await waitComplete(h, 'pg_sampled');
    const td = await trainingData('pg_sampled');
    expect(td).toMatchObject({
      method: 'stratified',
      drawn_in: 'postgres',
      rows_available: 40_000,
    });
    expect(td.rows_used).toBeLessThanOrEqual(4000);
    expect(td.rows_used).toBeGreaterThan(3300);
    // What PostgreSQL was asked to stream: the FROM query under the per-class random draw.
    const declared = pgs
      .log()
      .split(/\n(?=\S)/)
      .filter((l) => /DECLARE __playground_reader/.test(l));
    expect(declared.length).toBe(1);
    expect(declared[0]).toMatch(/WHERE "label" IS NOT NULL AND random\(\) < CASE "label" WHEN/);
  });
});
