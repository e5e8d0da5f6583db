/**
 * MindsDB's SQL dialect as clients send it, through the real HTTP endpoint: MySQL-isms
 * (double-quoted strings, LIMIT offset, count, @@variables, DATABASE(), SHOW VARIABLES ...),
 * system tables (information_schema.databases, ml_engines, handlers), SHOW in MindsDB's shapes,
 * model versions, ML engines, Lightwood USING options, EVALUATE, `catalog_changed`, and the
 * refusals that name what this instance does not have.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollPause, startHarness, type Harness } from '../../test/harness';
import { trainingCache } from '../../test/training-cache';

let h: Harness;

async function sql(query: string, extra: Record<string, unknown> = {}) {
  const r = await h.sql(query, extra);
  if (r.type === 'error') throw new Error(`${r.error_message}\n  in: ${query}`);
  return r;
}

async function waitFor(name: string, version?: number) {
  for (;;) {
    const cond = version === undefined ? 'active = true' : `version = ${version}`;
    const r = await sql(
      `SELECT status, error FROM mindsdb.models_versions WHERE name = '${name}' AND ${cond}`,
    );
    if (r.data[0]?.[0] === 'complete') return;
    if (r.data[0]?.[0] === 'error') throw new Error(`training ${name} failed: ${r.data[0][1]}`);
    await pollPause(h);
  }
}

beforeAll(async () => {
  h = await startHarness(trainingCache());
  await sql(
    'CREATE MODEL mindsdb.home_rentals_model FROM example_db (SELECT * FROM demo_data.home_rentals) PREDICT rental_price',
  );
  await waitFor('home_rentals_model');
});

afterAll(async () => {
  await h?.close();
});

describe('MySQL dialect the clients send', () => {
  it('reads double-quoted values as strings, as MindsDB does, and names columns of literals by their value', async () => {
    const r = await sql(
      'SELECT "a", \'b\', count(*) FROM example_db.demo_data.home_rentals WHERE location = "good" AND neighborhood IN ("downtown", "westbrae")',
    );
    expect(r.column_names).toEqual(['a', 'b', 'count_star()']);
    expect(r.data[0].slice(0, 2)).toEqual(['a', 'b']);
    expect(r.data[0][2]).toBeGreaterThan(100);
    // Double quotes around a table name or either side of a dot are names.
    const names = await sql(
      'SELECT "t"."sqft" FROM "example_db"."demo_data"."home_rentals" AS "t" LIMIT 1',
    );
    expect(names.column_names).toEqual(['sqft']);
  });

  it("reads MySQL's LIMIT offset, count and backticked schema.table names", async () => {
    const all = await sql(
      'SELECT sqft FROM example_db.demo_data.home_rentals ORDER BY sqft, rental_price LIMIT 5',
    );
    const page = await sql(
      'SELECT sqft FROM example_db.demo_data.home_rentals ORDER BY sqft, rental_price LIMIT 2, 3',
    );
    expect(page.data).toEqual(all.data.slice(2, 5));
    const bt = await sql('SELECT count(*) FROM `example_db.demo_data.home_rentals`');
    expect(bt.data).toEqual([[5037]]);
  });

  it('answers @@version_comment, DATABASE() and SHOW VARIABLES [LIKE]', async () => {
    const r = await sql(
      'SELECT @@version_comment, DATABASE(), @@session.auto_increment_increment',
      {
        context: { db: 'example_db' },
      },
    );
    expect(r.column_names).toEqual([
      '@@version_comment',
      'DATABASE()',
      '@@session.auto_increment_increment',
    ]);
    expect(r.data).toEqual([['(MindsDB)', 'example_db', 1]]);
    const vars = await sql("SHOW VARIABLES LIKE 'version%'");
    expect(vars.column_names).toEqual(['Variable_name', 'Value']);
    expect(vars.data).toEqual([
      ['version', '8.0.17'],
      ['version_comment', '(MindsDB)'],
    ]);
    expect((await sql('SHOW SESSION VARIABLES')).data.length).toBeGreaterThan(20);
  });

  it('answers SHOW ENGINES, CHARSET, COLLATION, WARNINGS and accepts SET NAMES', async () => {
    expect((await sql('SHOW ENGINES')).data[0][0]).toBe('InnoDB');
    expect((await sql('SHOW CHARSET')).data.map((r: string[]) => r[0])).toEqual([
      'utf8',
      'latin1',
      'utf8mb4',
    ]);
    expect((await sql("SHOW COLLATION WHERE Charset = 'utf8'")).data).toHaveLength(1);
    expect((await sql('SHOW WARNINGS')).data).toEqual([]);
    expect(await h.sql('SET NAMES utf8mb4')).toMatchObject({ type: 'ok' });
    expect(await h.sql('SET autocommit = 1')).toMatchObject({ type: 'ok' });
  });
});

describe("system tables and SHOW in MindsDB's shapes", () => {
  it("filters SHOW DATABASES on the table's own columns: WHERE type = 'project'", async () => {
    await sql('CREATE PROJECT dialect_p');
    const r = await sql("SHOW DATABASES WHERE type = 'project'");
    expect(r.column_names).toEqual(['Database']);
    expect(r.data).toEqual([['mindsdb'], ['dialect_p']]);
    expect((await sql("SHOW FULL DATABASES WHERE engine = 'duckdb'")).data).toEqual([
      ['example_db', 'data', 'duckdb'],
    ]);
  });

  it("lists a project's models table and its models in SHOW TABLES", async () => {
    const r = await sql('SHOW FULL TABLES', { context: { db: 'mindsdb' } });
    expect(r.column_names).toEqual(['Tables_in_mindsdb', 'Table_type']);
    expect(r.data).toContainEqual(['models', 'BASE TABLE']);
    expect(r.data).toContainEqual(['home_rentals_model', 'MODEL']);
  });

  it('answers SHOW [FULL] COLUMNS FROM t [FROM db] for tables and models, as MySQL clients ask', async () => {
    const t = await sql('SHOW COLUMNS FROM home_rentals FROM example_db');
    expect(t.column_names).toEqual(['Field', 'Type', 'Null', 'Key', 'Default', 'Extra']);
    expect(t.data.slice(0, 3).map((r: string[]) => [r[0], r[1]])).toEqual([
      ['number_of_rooms', 'BIGINT'],
      ['number_of_bathrooms', 'BIGINT'],
      ['sqft', 'INTEGER'],
    ]);
    const m = await sql("SHOW FULL COLUMNS FROM mindsdb.home_rentals_model LIKE 'rental_price%'");
    expect(m.column_names).toHaveLength(9);
    expect(m.data.map((r: string[]) => r[0])).toContain('rental_price_confidence');
  });

  it('reads bare names as information_schema views after USE information_schema', async () => {
    const r = await sql(
      "SELECT table_name FROM tables WHERE table_schema = 'demo_data' AND table_name = 'home_rentals'",
      {
        context: { db: 'information_schema' },
      },
    );
    expect(r.data).toEqual([['home_rentals']]);
  });

  it('has information_schema.databases, ml_engines and handlers, as the Python SDK reads them', async () => {
    const dbs = await sql(
      "select NAME, ENGINE, CONNECTION_DATA from information_schema.databases where TYPE='data'",
    );
    expect(dbs.data.map((r: string[]) => r[0])).toEqual(['files', 'example_db']);
    const projects = await sql(
      "select NAME from information_schema.databases where TYPE='project'",
    );
    expect(projects.data.map((r: string[]) => r[0])).toContain('mindsdb');
    const engines = await sql('SELECT * FROM information_schema.ml_engines');
    expect(engines.column_names).toEqual(['NAME', 'HANDLER', 'CONNECTION_DATA']);
    expect(engines.data[0].slice(0, 2)).toEqual(['lightwood', 'lightwood']);
    const handlers = await sql("SHOW HANDLERS WHERE type = 'ml'");
    expect(handlers.column_names.slice(0, 3)).toEqual(['NAME', 'TYPE', 'TITLE']);
    expect(handlers.data.map((r: string[]) => r[0])).toEqual(['lightwood']);
    expect(
      (await sql("SELECT NAME FROM information_schema.handlers WHERE TYPE = 'data' ORDER BY 1"))
        .data,
    ).toEqual([['duckdb'], ['postgres']]);
  });
});

describe('ML engines, USING options and model versions', () => {
  it('CREATE ML_ENGINE x FROM lightwood makes an engine models can name; other handlers are refused by name', async () => {
    expect(await h.sql('CREATE ML_ENGINE my_lightwood FROM lightwood')).toMatchObject({
      type: 'ok',
    });
    expect((await sql('SHOW ML_ENGINES')).data.map((r: string[]) => r[0])).toEqual([
      'lightwood',
      'my_lightwood',
    ]);
    const other = await h.sql("CREATE ML_ENGINE my_openai FROM openai USING openai_api_key = 'k'");
    expect(other).toMatchObject({ type: 'error', error_code: 3 });
    expect(other.error_message).toMatch(/ML handler 'openai' is not supported by this instance/);
    const r = await h.sql(
      "CREATE MODEL mindsdb.small_rentals FROM example_db (SELECT * FROM demo_data.home_rentals LIMIT 500) PREDICT rental_price AS price USING engine = 'my_lightwood', tag = 'v1', encoders.location.module = 'OneHotEncoder', dtype_dict = {'sqft': 'integer'}; SHOW WARNINGS",
    );
    expect(r.column_names).toEqual(['Level', 'Code', 'Message']);
    const notes = r.data.map((x: string[]) => x[2]).join('\n');
    expect(notes).toMatch(/USING encoders is accepted and not applied/);
    expect(notes).toMatch(/USING dtype_dict is accepted and not applied/);
    await waitFor('small_rentals');
    // PREDICT rental_price AS price: the predictions are named after the alias.
    const p = await sql(
      "SELECT price, price_confidence FROM mindsdb.small_rentals WHERE sqft = 823 AND location = 'good'",
    );
    expect(p.column_names).toEqual(['price', 'price_confidence']);
    expect(p.data[0][0]).toBeGreaterThan(1000);
    const [row] = (await sql("SELECT TAG, ENGINE FROM mindsdb.models WHERE name = 'small_rentals'"))
      .data;
    expect(row).toEqual(['v1', 'lightwood']);
    expect(await h.sql('DROP ML_ENGINE my_lightwood')).toMatchObject({ type: 'ok' });
  });

  it('switches versions with SET model_active, SET active (the SDK) and UPDATE, and deletes one with DELETE FROM models_versions', async () => {
    await sql('RETRAIN mindsdb.small_rentals');
    await waitFor('small_rentals', 2);
    const active = async () =>
      (
        await sql(
          "SELECT version FROM mindsdb.models_versions WHERE name = 'small_rentals' AND active = true",
        )
      ).data;
    expect(await active()).toEqual([[2]]);
    expect(
      await h.sql('SET model_active = small_rentals.1', { context: { db: 'mindsdb' } }),
    ).toMatchObject({
      type: 'ok',
      catalog_changed: true,
    });
    expect(await active()).toEqual([[1]]);
    await sql('SET active mindsdb.small_rentals.`2`');
    expect(await active()).toEqual([[2]]);
    await sql(
      "UPDATE mindsdb.models_versions SET active = 1 WHERE name = 'small_rentals' AND version = 1",
    );
    expect(await active()).toEqual([[1]]);
    const refused = await h.sql(
      "DELETE FROM mindsdb.models_versions WHERE name = 'small_rentals' AND version = 1",
    );
    expect(refused.error_message).toMatch(/is the active version/);
    const deleted = await h.sql(
      "DELETE FROM mindsdb.models_versions WHERE name = 'small_rentals' AND version = 2",
    );
    expect(deleted).toMatchObject({ type: 'ok', affected_rows: 1, catalog_changed: true });
    expect(
      (await sql("SELECT version FROM mindsdb.models_versions WHERE name = 'small_rentals'")).data,
    ).toEqual([[1]]);
  });

  it('keeps a version retrained or finetuned with USING active = 0 inactive when it completes, as MindsDB documents', async () => {
    await sql(
      'CREATE MODEL mindsdb.quiet_rentals FROM example_db (SELECT sqft, location, rental_price FROM demo_data.home_rentals LIMIT 300) PREDICT rental_price',
    );
    await waitFor('quiet_rentals');
    const versions = async () =>
      (
        await sql(
          "SELECT version, active, status FROM mindsdb.models_versions WHERE name = 'quiet_rentals' ORDER BY version",
        )
      ).data;
    await sql('RETRAIN mindsdb.quiet_rentals USING active = 0');
    await waitFor('quiet_rentals', 2);
    expect(await versions()).toEqual([
      [1, true, 'complete'],
      [2, false, 'complete'],
    ]);
    await sql(
      'FINETUNE mindsdb.quiet_rentals FROM example_db (SELECT sqft, location, rental_price FROM demo_data.home_rentals LIMIT 50) USING active = false',
    );
    await waitFor('quiet_rentals', 3);
    expect((await versions()).map((v: unknown[]) => v[1])).toEqual([true, false, false]);
    await sql('RETRAIN mindsdb.quiet_rentals USING active = 1');
    await waitFor('quiet_rentals', 4);
    expect((await versions()).map((v: unknown[]) => v[1])).toEqual([false, false, false, true]);
    const bad = await h.sql("RETRAIN mindsdb.quiet_rentals USING active = 'maybe'");
    expect(bad.error_message).toBe('USING active must be 0 or 1, got "maybe"');
  });

  it('evaluates predictions with EVALUATE <metric> FROM (SELECT ... AS actual, ... AS prediction)', async () => {
    const r = await sql(
      `EVALUATE r2_score FROM (SELECT t.rental_price AS actual, m.rental_price AS prediction
       FROM example_db.demo_data.home_rentals AS t JOIN mindsdb.home_rentals_model AS m LIMIT 100)`,
    );
    expect(r.column_names).toEqual(['r2_score']);
    expect(r.data[0][0]).toBeGreaterThan(0.95);
    const acc = await sql(
      "EVALUATE accuracy_score FROM (SELECT 'a' AS actual, x AS prediction FROM (VALUES ('a'), ('a'), ('b'), ('a')) v(x))",
    );
    expect(acc.data).toEqual([[0.75]]);
    const bad = await h.sql('EVALUATE r2_score FROM (SELECT 1 AS real, 2 AS prediction)');
    expect(bad.error_message).toMatch(/`actual` column was not provided/);
  });
});

describe('catalog_changed', () => {
  it('is set by statements that create, drop or alter what the catalog lists, and by nothing else', async () => {
    expect(await h.sql('CREATE TABLE files.cc AS SELECT 1 AS x')).toMatchObject({
      catalog_changed: true,
    });
    expect(await h.sql('ALTER TABLE files.cc ADD COLUMN y INTEGER')).toMatchObject({
      catalog_changed: true,
    });
    expect((await h.sql('INSERT INTO files.cc VALUES (2, 3)')).catalog_changed).toBeUndefined();
    expect((await h.sql('SELECT * FROM files.cc')).catalog_changed).toBeUndefined();
    expect((await h.sql('SHOW TABLES FROM files')).catalog_changed).toBeUndefined();
    expect(await h.sql('DROP TABLE files.cc')).toMatchObject({ catalog_changed: true });
    expect(await h.sql('CREATE PROJECT cc_p')).toMatchObject({ catalog_changed: true });
    expect(await h.sql('DROP DATABASE cc_p')).toMatchObject({ catalog_changed: true });
  });

  it('is on the jsonlines header and ok lines', async () => {
    const lines = async (query: string) => {
      const res = await fetch(`${h.url}/api/sql/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, response_format: 'jsonlines' }),
      });
      return (await res.text())
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
    };
    expect((await lines('CREATE TABLE files.jl AS SELECT 1 AS x'))[0]).toMatchObject({
      type: 'ok',
      catalog_changed: true,
    });
    const created = await lines(
      'CREATE MODEL mindsdb.jl_model FROM files (SELECT * FROM jl) PREDICT x',
    );
    expect(created[0]).toMatchObject({ type: 'table', catalog_changed: true });
    const plain = await lines('SELECT * FROM files.jl');
    expect(plain[0].catalog_changed).toBeUndefined();
  });
});

describe('refusals name what this instance does not have', () => {
  it('refuses MindsDB objects it does not have, by name', async () => {
    const cases: [string, RegExp][] = [
      [
        'CREATE JOB j (SELECT 1) EVERY hour',
        /^CREATE JOB is not supported by this instance \(this instance has no jobs\)$/,
      ],
      ['CREATE KNOWLEDGE_BASE kb', /^CREATE KNOWLEDGE BASE is not supported by this instance/],
      [
        'CREATE ANOMALY DETECTION MODEL m',
        /^CREATE ANOMALY DETECTION MODEL is not supported by this instance$/,
      ],
      ['SHOW TRIGGERS', /^SHOW TRIGGERS is not supported by this instance/],
      ['SHOW PROCESSLIST', /^SHOW PROCESSLIST is not supported by this instance$/],
      [
        'CREATE MODEL mindsdb.house_sales_model FROM example_db (SELECT * FROM demo_data.home_rentals) PREDICT rental_price GROUP BY location WINDOW 8',
        /^GROUP BY, WINDOW and HORIZON belong to time-series models, which also need ORDER BY <time column>/,
      ],
      [
        // A tabular model has no LATEST (time-series forms: server/sql/__tests__/forecast.test.ts).
        'SELECT * FROM example_db.demo_data.home_rentals AS t JOIN mindsdb.home_rentals_model AS m WHERE t.days_on_market > LATEST',
        /^LATEST \(the latest time of each group\) belongs in the WHERE clause of a query joining a time-series model.* \(line 1, column \d+\)$/,
      ],
    ];
    for (const [query, re] of cases) {
      const r = await h.sql(query);
      expect(r.type, query).toBe('error');
      expect(r.error_message, query).toMatch(re);
    }
  });

  it('accepts SELECT ... USING options for models and reports them', async () => {
    const r = await h.sql(
      'SELECT m.rental_price FROM example_db.demo_data.home_rentals AS t JOIN mindsdb.home_rentals_model AS m LIMIT 2 USING partition_size = 100; SHOW WARNINGS',
    );
    expect(r.data.map((x: string[]) => x[2])).toEqual([
      "SELECT ... USING partition_size: options for the models of a query are accepted and not applied by this instance's engine",
    ]);
  });
});
