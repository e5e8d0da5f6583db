/**
 * A model JOIN whose data side is read from PostgreSQL answers in the order PostgreSQL sends the
 * rows (docs/sql.md, "Row order of a model JOIN"), over a real PostgreSQL server started for this
 * file: a table larger than one DuckDB row group once fetched (151,110 rows), in an order that
 * follows no column, every row repeated 30 times.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, tempDataDir, waitComplete, type Harness } from '../../test/harness';
import { startPgServer, type PgTestServer } from './pg-server';
import { trainingCache } from '../../test/training-cache';

let pgs: PgTestServer;
let h: Harness;

async function sql(query: string) {
  const r = await h.sql(query);
  if (r.type === 'error') throw new Error(`${r.error_message}\n  in: ${query}`);
  return r;
}

beforeAll(async () => {
  pgs = await startPgServer();
  const admin = await pgs.admin();
  await admin.query(
    `CREATE TABLE shuffled AS
       SELECT (h.sqft * 1000 + g) % 1000003 AS id, h.sqft, h.location, h.number_of_rooms,
              h.neighborhood, h.days_on_market
       FROM home_rentals h, generate_series(1, 30) g ORDER BY md5(h.sqft::text || g::text)`,
  );
  await admin.query(`GRANT SELECT ON shuffled TO ${pgs.user}`);
  await admin.end();
  h = await startHarness({ ...trainingCache(), MAX_RESULT_ROWS: 1_000_000 }, tempDataDir());
  await sql(pgs.createDatabase('pg'));
  await sql(
    'CREATE MODEL mindsdb.pg_m FROM pg (SELECT sqft, location, number_of_rooms, neighborhood, days_on_market, rental_price FROM home_rentals) PREDICT rental_price',
  );
  await waitComplete(h, 'pg_m');
});

afterAll(async () => {
  await h?.close();
  await pgs?.stop();
});

const firstDifference = (got: number[], want: number[]) => {
  for (let i = 0; i < Math.max(got.length, want.length); i++) if (got[i] !== want[i]) return i;
  return -1;
};

// Each test reads 151k rows a few times: bounded by that work, not by a busy machine's clock.
describe('row order of a model JOIN over PostgreSQL rows', { timeout: 600_000 }, () => {
  it("answers in PostgreSQL's order, each row with its own prediction", async () => {
    const want = (await sql('SELECT id FROM pg.shuffled')).data.map((r: number[]) => r[0]);
    expect(want).toHaveLength(151_110);
    expect(want).not.toEqual([...want].sort((a, b) => a - b));
    const r = await sql(
      'SELECT t.id, t.sqft, m.rental_price FROM pg.shuffled AS t JOIN mindsdb.pg_m AS m',
    );
    expect(
      firstDifference(
        r.data.map((row: number[]) => row[0]),
        want,
      ),
    ).toBe(-1);
    const limited = await sql(
      "SELECT t.id FROM pg.shuffled AS t JOIN mindsdb.pg_m AS m WHERE t.location = 'great' LIMIT 5000",
    );
    const great = (await sql("SELECT id FROM pg.shuffled WHERE location = 'great' LIMIT 5000"))
      .data;
    expect(limited.data).toEqual(great);
  });

  it('saves them in that order: CREATE TABLE files.t (SELECT ... JOIN model)', async () => {
    await sql(
      'CREATE TABLE files.pg_preds (SELECT t.id, m.rental_price FROM pg.shuffled AS t JOIN mindsdb.pg_m AS m)',
    );
    const want = (await sql('SELECT id FROM pg.shuffled')).data.map((r: number[]) => r[0]);
    const saved = (await sql('SELECT id FROM files.pg_preds')).data.map((r: number[]) => r[0]);
    expect(firstDifference(saved, want)).toBe(-1);
  });
});
