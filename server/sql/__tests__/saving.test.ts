/**
 * Saving predictions, the last step of every MindsDB tutorial, in every form MindsDB has, through
 * the real HTTP endpoint: CREATE [OR REPLACE] TABLE db.t (SELECT ... JOIN model), CREATE TABLE
 * ... AS SELECT, INSERT INTO db.t (SELECT ...), views over models (which predict again each time
 * they are read), CREATE VIEW ... FROM db (...), ALTER VIEW, SHOW VIEWS, DROP VIEW, and writing
 * into a PostgreSQL integration (a real server started for this file).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPgServer, type PgTestServer } from '../../integrations/__tests__/pg-server';
import { startHarness, tempDataDir, type Harness } from '../../test/harness';
import { trainingCache } from '../../test/training-cache';

let h: Harness;
let pgs: PgTestServer;
let dataDir: string;

async function sql(query: string, extra: Record<string, unknown> = {}) {
  const r = await h.sql(query, extra);
  if (r.type === 'error') throw new Error(`${r.error_message}\n  in: ${query}`);
  return r;
}

const JOIN = `FROM example_db.demo_data.home_rentals AS t JOIN mindsdb.home_rentals_model AS m`;

beforeAll(async () => {
  pgs = await startPgServer();
  dataDir = tempDataDir();
  h = await startHarness(trainingCache(), dataDir);
  await sql(
    'CREATE MODEL mindsdb.home_rentals_model FROM example_db (SELECT * FROM demo_data.home_rentals) PREDICT rental_price',
  );
  await h.instance.models.idle();
  await sql(pgs.createDatabase('pg'));
});

afterAll(async () => {
  await h?.close();
  await pgs?.stop();
});

describe('tables of predictions', () => {
  it('CREATE TABLE files.p (SELECT ... JOIN model) saves the predictions, and says the catalog changed', async () => {
    const r = await h.sql(
      `CREATE TABLE files.predictions (SELECT t.sqft, m.rental_price AS predicted ${JOIN} LIMIT 50)`,
    );
    expect(r).toMatchObject({ type: 'ok', catalog_changed: true });
    const saved = await sql('SELECT count(*), min(predicted) > 0 FROM files.predictions');
    expect(saved.data).toEqual([[50, true]]);
    const tables = await sql('SHOW TABLES FROM files');
    expect(tables.data).toContainEqual(['predictions']);
  });

  it('CREATE OR REPLACE TABLE replaces it; CREATE TABLE ... AS SELECT works in the current project', async () => {
    await sql(
      `CREATE OR REPLACE TABLE files.predictions (SELECT t.sqft, m.rental_price AS predicted ${JOIN} LIMIT 10)`,
    );
    expect((await sql('SELECT count(*) FROM files.predictions')).data).toEqual([[10]]);
    const r = await h.sql(
      `CREATE TABLE saved_as AS SELECT t.location, m.rental_price ${JOIN} WHERE t.location = 'poor'`,
      {
        context: { db: 'mindsdb' },
      },
    );
    expect(r).toMatchObject({ type: 'ok', catalog_changed: true });
    expect(
      (await sql("SELECT count(*) FROM mindsdb.saved_as WHERE location = 'poor'")).data,
    ).toEqual([[1726]]);
  });

  it("INSERT INTO db.t (SELECT ...) appends, matching the query's columns to the table's by name", async () => {
    const r = await h.sql(
      `INSERT INTO files.predictions (SELECT m.rental_price AS predicted, t.sqft ${JOIN} LIMIT 5)`,
    );
    expect(r).toMatchObject({ type: 'ok', affected_rows: 5 });
    expect(r.catalog_changed).toBeUndefined();
    const rows = await sql('SELECT sqft, predicted FROM files.predictions');
    expect(rows.data).toHaveLength(15);
    // sqft is an integer column and predictions are prices: nothing landed in the wrong column.
    for (const [sqft, predicted] of rows.data) {
      expect(Number.isInteger(sqft)).toBe(true);
      expect(predicted).toBeGreaterThan(1000);
    }
    await sql(`INSERT INTO files.predictions VALUES (1, 2.5)`);
    expect((await sql('SELECT count(*) FROM files.predictions')).data).toEqual([[16]]);
  });
});

describe('views over models', () => {
  it('CREATE VIEW v AS (SELECT ... JOIN model) predicts again whenever it is read', async () => {
    await sql(
      'CREATE TABLE files.listings AS SELECT * FROM example_db.demo_data.home_rentals LIMIT 3',
    );
    const created = await h.sql(
      `CREATE VIEW mindsdb.priced AS (SELECT t.sqft, m.rental_price AS predicted FROM files.listings AS t JOIN mindsdb.home_rentals_model AS m)`,
    );
    expect(created).toMatchObject({ type: 'ok', catalog_changed: true });
    expect((await sql('SELECT count(*) FROM mindsdb.priced')).data).toEqual([[3]]);
    await sql('INSERT INTO files.listings SELECT * FROM example_db.demo_data.home_rentals LIMIT 2');
    const again = await sql('SELECT sqft, predicted FROM mindsdb.priced ORDER BY sqft');
    expect(again.data).toHaveLength(5);
    expect(again.data.every((r: number[]) => r[1] > 1000)).toBe(true);
  });

  it('lists views (SHOW VIEWS, SHOW FULL TABLES) with their columns in information_schema', async () => {
    const views = await sql('SHOW VIEWS FROM mindsdb');
    expect(views.column_names).toEqual(['NAME', 'PROJECT', 'QUERY']);
    expect(views.data.map((r: string[]) => r[0])).toContain('priced');
    expect((await sql('SHOW FULL TABLES FROM mindsdb')).data).toContainEqual(['priced', 'VIEW']);
    const cols = await sql(
      "SELECT column_name, data_type FROM information_schema.columns WHERE table_catalog = 'mindsdb' AND table_name = 'priced' ORDER BY ordinal_position",
    );
    expect(cols.data).toEqual([
      ['sqft', 'INTEGER'],
      ['predicted', 'DOUBLE'],
    ]);
  });

  it('CREATE VIEW p.v (SELECT ...) in a project, and CREATE VIEW v FROM db (native query)', async () => {
    await sql('CREATE PROJECT sales');
    await sql(
      'CREATE VIEW sales.expensive (SELECT * FROM example_db.demo_data.home_rentals WHERE rental_price > 5000)',
    );
    expect((await sql('SELECT count(*) FROM sales.expensive')).data[0][0]).toBeGreaterThan(100);
    await sql(
      'CREATE VIEW rentals FROM example_db (SELECT * FROM demo_data.home_rentals LIMIT 3)',
      {
        context: { db: 'sales' },
      },
    );
    expect((await sql('SELECT count(*) FROM rentals', { context: { db: 'sales' } })).data).toEqual([
      [3],
    ]);
    await sql(
      'ALTER VIEW sales.rentals (SELECT sqft FROM example_db.demo_data.home_rentals LIMIT 2)',
    );
    const altered = await sql('SELECT * FROM sales.rentals');
    expect(altered.column_names).toEqual(['sqft']);
    expect(altered.data).toHaveLength(2);
  });

  it('keeps views across a restart and drops them with DROP VIEW', async () => {
    await h.close({ keepData: true });
    h = await startHarness(trainingCache(), dataDir);
    expect((await sql('SELECT count(*) FROM mindsdb.priced')).data).toEqual([[5]]);
    expect(await h.sql('DROP VIEW sales.rentals, sales.expensive')).toMatchObject({
      type: 'ok',
      catalog_changed: true,
    });
    const gone = await h.sql('SELECT * FROM sales.rentals');
    expect(gone).toMatchObject({ type: 'error', error_code: 2 });
    expect((await sql('SHOW VIEWS FROM sales')).data).toEqual([]);
  });

  it('refuses ALTER VIEW of a view that does not exist', async () => {
    expect(await h.sql('ALTER VIEW mindsdb.nope (SELECT 1)')).toMatchObject({
      type: 'error',
      error_code: 2,
    });
  });
});

describe('saving into a PostgreSQL integration', () => {
  it('CREATE TABLE pg.t (SELECT ... JOIN model) creates the table there with the rows', async () => {
    const r = await h.sql(
      `CREATE TABLE pg.predictions (SELECT t.sqft, t.location, m.rental_price AS predicted ${JOIN} LIMIT 20)`,
    );
    expect(r).toMatchObject({ type: 'ok', affected_rows: 20, catalog_changed: true });
    const admin = await pgs.admin();
    try {
      const rows = await admin.query(
        'SELECT count(*)::int AS n, min(predicted) AS low FROM predictions',
      );
      expect(rows.rows[0].n).toBe(20);
      expect(rows.rows[0].low).toBeGreaterThan(1000);
      const types = await admin.query(
        "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'predictions' ORDER BY ordinal_position",
      );
      expect(types.rows.map((x) => [x.column_name, x.data_type])).toEqual([
        ['sqft', 'integer'],
        ['location', 'text'],
        ['predicted', 'double precision'],
      ]);
    } finally {
      await admin.end();
    }
  });

  it('INSERT INTO pg.t (SELECT ...) appends; CREATE OR REPLACE TABLE replaces; DROP TABLE drops', async () => {
    const r = await h.sql(
      `INSERT INTO pg.predictions (SELECT t.sqft, t.location, m.rental_price AS predicted ${JOIN} LIMIT 5)`,
    );
    expect(r).toMatchObject({ type: 'ok', affected_rows: 5 });
    expect((await sql('SELECT count(*) FROM pg.predictions')).data).toEqual([[25]]);
    await sql(
      `CREATE OR REPLACE TABLE pg.predictions (SELECT m.rental_price AS predicted ${JOIN} LIMIT 3)`,
    );
    expect((await sql('SELECT count(*) FROM pg.predictions')).data).toEqual([[3]]);
    expect(await h.sql('DROP TABLE pg.predictions')).toMatchObject({
      type: 'ok',
      catalog_changed: true,
    });
    expect((await sql('SHOW TABLES FROM pg')).data).toEqual([['home_rentals']]);
  });

  it('saves a PostgreSQL query into a local table, and predicts on a PostgreSQL table into one', async () => {
    await sql(
      'CREATE TABLE files.from_pg (SELECT * FROM pg.home_rentals WHERE sqft > 1000 LIMIT 7)',
    );
    expect((await sql('SELECT count(*) FROM files.from_pg')).data).toEqual([[7]]);
    await sql(
      'CREATE TABLE files.pg_predictions (SELECT t.sqft, m.rental_price FROM pg.home_rentals AS t JOIN mindsdb.home_rentals_model AS m LIMIT 9)',
    );
    expect((await sql('SELECT count(*) FROM files.pg_predictions')).data).toEqual([[9]]);
  });
});
