/**
 * PostgreSQL integrations against a real PostgreSQL server started for this file (Debian's
 * binaries; the test fails, never skips, when they are missing), through the real HTTP endpoint.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badInput } from '../../errors';
import { pollPause, startHarness, tempDataDir, type Harness } from '../../test/harness';
import { startPgServer, type PgTestServer } from './pg-server';
import { trainingCache } from '../../test/training-cache';

let pgs: PgTestServer;
let h: Harness;
let dataDir: string;

const params = (over: Record<string, unknown> = {}) =>
  JSON.stringify({
    host: pgs.host,
    port: pgs.port,
    user: pgs.user,
    password: pgs.password,
    database: pgs.database,
    ...over,
  });

/** The first statement line of the PostgreSQL log matching `re` (what reached the server), or null. */
const logged = (re: RegExp) =>
  pgs
    .log()
    .split(/\n(?=\S)/)
    .find((line) => re.test(line)) ?? null;

beforeAll(async () => {
  pgs = await startPgServer();
  dataDir = tempDataDir();
  h = await startHarness(trainingCache(), dataDir);
});

afterAll(async () => {
  await h?.close();
  await pgs?.stop();
});

describe('CREATE DATABASE ... ENGINE = postgres', () => {
  it('connects, lists the integration with its engine, and shows its tables', async () => {
    const r = await h.sql(`CREATE DATABASE pg WITH ENGINE = 'postgres', PARAMETERS = ${params()}`);
    expect(r).toMatchObject({ type: 'ok' });
    const dbs = await h.sql('SHOW FULL DATABASES');
    expect(dbs.data).toContainEqual(['pg', 'data', 'postgres']);
    expect((await h.sql('SHOW TABLES FROM pg')).data).toEqual([['home_rentals']]);
    const full = await h.sql('SHOW FULL TABLES FROM pg');
    expect(full.column_names).toEqual(['Tables_in_pg', 'Table_type']);
    expect(full.data).toEqual([['home_rentals', 'BASE TABLE']]);
  });

  it('accepts MindsDB spellings: single quotes, no "=", port as a string, a schema', async () => {
    const admin = await pgs.admin();
    await admin.query(`CREATE SCHEMA sales AUTHORIZATION ${pgs.user}`);
    await admin.end();
    const q = `CREATE DATABASE pg_sales WITH ENGINE 'postgres', PARAMETERS {'host': '${pgs.host}', 'port': '${pgs.port}',
      'user': '${pgs.user}', 'password': '${pgs.password}', 'database': '${pgs.database}', 'schema': 'sales',}`;
    expect(await h.sql(q)).toMatchObject({ type: 'ok' });
    expect((await h.sql('SHOW TABLES FROM pg_sales')).data).toEqual([]);
    expect(await h.sql('DROP DATABASE pg_sales')).toMatchObject({ type: 'ok' });
  });

  it('never echoes the password (SHOW FULL DATABASES, /api/databases)', async () => {
    const shown = await h.sql('SHOW FULL DATABASES');
    expect(JSON.stringify(shown)).not.toContain(pgs.password);
    const api = await h.get('/api/databases');
    expect(api.status).toBe(200);
    expect(api.body).toContainEqual({
      name: 'pg',
      type: 'data',
      engine: 'postgres',
      id: expect.any(Number),
    });
    expect(JSON.stringify(api.body)).not.toContain(pgs.password);
  });

  it('rejects an unknown engine, missing and mistyped parameters with specific errors and creates nothing', async () => {
    const unknown = await h.sql(
      `CREATE DATABASE x1 WITH ENGINE = 'oracle', PARAMETERS = {"host": "h"}`,
    );
    expect(unknown).toMatchObject({ type: 'error', error_code: 2 });
    expect(unknown.error_message).toMatch(/Unknown engine 'oracle'.*postgres, duckdb/);

    const missing = await h.sql(
      `CREATE DATABASE x2 WITH ENGINE = 'postgres', PARAMETERS = {"host": "127.0.0.1", "user": "u"}`,
    );
    expect(missing).toMatchObject({ type: 'error', error_code: 3 });
    expect(missing.error_message).toMatch(/Missing PARAMETERS for engine 'postgres': database/);

    const badPort = await h.sql(
      `CREATE DATABASE x3 WITH ENGINE = 'postgres', PARAMETERS = ${params({ port: 'abc' })}`,
    );
    expect(badPort).toMatchObject({ type: 'error', error_code: 3 });
    expect(badPort.error_message).toMatch(
      /'port' must be an integer between 1 and 65535, got 'abc'/,
    );

    const badHost = await h.sql(
      `CREATE DATABASE x4 WITH ENGINE = 'postgres', PARAMETERS = ${params({ host: 5 })}`,
    );
    expect(badHost.error_message).toMatch(/'host' must be a string, got number 5/);

    const typo = await h.sql(
      `CREATE DATABASE x5 WITH ENGINE = 'postgres', PARAMETERS = ${params({ passwd: 'x' })}`,
    );
    expect(typo.error_message).toMatch(/Unknown PARAMETERS for engine 'postgres': passwd/);

    const noParams = await h.sql(`CREATE DATABASE x6 WITH ENGINE = 'postgres'`);
    expect(noParams.error_message).toMatch(/needs PARAMETERS/);

    const names = (await h.sql('SHOW DATABASES')).data.flat();
    for (const n of ['x1', 'x2', 'x3', 'x4', 'x5', 'x6']) expect(names).not.toContain(n);
  });

  it('fails fast and clearly on a wrong port, a wrong password, a wrong database and a missing schema', async () => {
    let t = Date.now();
    const port = await h.sql(
      `CREATE DATABASE bad1 WITH ENGINE = 'postgres', PARAMETERS = ${params({ port: 1 })}`,
    );
    expect(Date.now() - t).toBeLessThan(5_000);
    expect(port).toMatchObject({ type: 'error', error_code: 3 });
    expect(port.error_message).toMatch(
      /Cannot connect to integration 'bad1' \(PostgreSQL at 127\.0\.0\.1:1.*connection refused/,
    );

    t = Date.now();
    const pw = await h.sql(
      `CREATE DATABASE bad2 WITH ENGINE = 'postgres', PARAMETERS = ${params({ password: 'wrong-pass' })}`,
    );
    expect(Date.now() - t).toBeLessThan(5_000);
    expect(pw).toMatchObject({ type: 'error', error_code: 3 });
    expect(pw.error_message).toMatch(/password authentication failed/);
    expect(pw.error_message).not.toContain('wrong-pass');

    const db = await h.sql(
      `CREATE DATABASE bad3 WITH ENGINE = 'postgres', PARAMETERS = ${params({ database: 'no_such_db' })}`,
    );
    expect(db).toMatchObject({ type: 'error', error_code: 2 });
    expect(db.error_message).toMatch(/database 'no_such_db' does not exist/);

    const schema = await h.sql(
      `CREATE DATABASE bad4 WITH ENGINE = 'postgres', PARAMETERS = ${params({ schema: 'nope' })}`,
    );
    expect(schema).toMatchObject({ type: 'error', error_code: 2 });
    expect(schema.error_message).toMatch(/Schema 'nope' does not exist/);

    const names = (await h.sql('SHOW DATABASES')).data.flat();
    for (const n of ['bad1', 'bad2', 'bad3', 'bad4']) expect(names).not.toContain(n);
  });

  it('gives up on an unanswering host within the connect timeout', async () => {
    const t = Date.now();
    // A non-routable address: either the network says so at once or the 1 s connect timeout fires.
    const r = await h.sql(
      `CREATE DATABASE bad5 WITH ENGINE = 'postgres', PARAMETERS = ${params({ host: '10.255.255.1', connect_timeout: 1 })}`,
    );
    expect(Date.now() - t).toBeLessThan(4_000);
    expect(r).toMatchObject({ type: 'error', error_code: 3 });
    expect(r.error_message).toMatch(
      /Cannot connect to integration 'bad5'.*(no answer within 1 s|unreachable|refused)/,
    );
  });

  it('refuses a second database with the same name', async () => {
    const r = await h.sql(`CREATE DATABASE pg WITH ENGINE = 'postgres', PARAMETERS = ${params()}`);
    expect(r).toMatchObject({ type: 'error', error_code: 7 });
    expect(
      await h.sql(
        `CREATE DATABASE IF NOT EXISTS pg WITH ENGINE = 'postgres', PARAMETERS = ${params()}`,
      ),
    ).toMatchObject({
      type: 'ok',
    });
  });
});

describe('queries on a PostgreSQL integration', () => {
  it('pushes a whole SELECT down and returns the same values as the local copy of the data', async () => {
    const q = (from: string) =>
      `SELECT location, count(*) AS n, round(avg(rental_price)) AS avg_price, max(sqft) AS max_sqft
       FROM ${from} WHERE number_of_rooms >= 2 GROUP BY location ORDER BY location`;
    const remote = await h.sql(q('pg.home_rentals'));
    const local = await h.sql(q('example_db.demo_data.home_rentals'));
    expect(remote.type).toBe('table');
    expect(remote.column_names).toEqual(['location', 'n', 'avg_price', 'max_sqft']);
    expect(remote.data).toEqual(local.data);
    expect(remote.data.map((r: unknown[]) => r[0])).toEqual(['good', 'great', 'poor']);
    // The GROUP BY ran in PostgreSQL, with the `pg.` prefix removed.
    expect(
      logged(/FROM home_rentals WHERE number_of_rooms >= 2\s+GROUP BY location/),
    ).not.toBeNull();
  });

  it('reads schema-qualified names, backtick identifiers and :params', async () => {
    const r = await h.sql(
      'SELECT `sqft`, rental_price FROM pg.public.home_rentals WHERE sqft = :s ORDER BY rental_price LIMIT 2',
      {
        params: { s: 917 },
      },
    );
    expect(r.type).toBe('table');
    expect(r.data.length).toBeGreaterThan(0);
    for (const row of r.data) expect(row[0]).toBe(917);
    expect(r.column_types).toEqual(['INTEGER', 'DOUBLE']);
  });

  it('runs native SQL verbatim: SELECT * FROM pg (native query)', async () => {
    const r = await h.sql(
      `SELECT * FROM pg (SELECT g::int8 * 10 AS tens, to_char(date '2024-03-01' + g, 'YYYY-MM-DD') AS day,
        date '2024-03-01' + g AS d, timestamp '2024-03-01 10:00:00.5' AS ts, 'NaN'::float8 AS nan,
        9007199254740993::int8 AS big, 1.25::numeric AS num, '{"a": [1, 2]}'::jsonb AS j
        FROM generate_series(1, 3) AS g ORDER BY g)`,
    );
    expect(r.type).toBe('table');
    expect(r.data).toEqual([
      [
        10,
        '2024-03-02',
        '2024-03-02',
        '2024-03-01 10:00:00.5',
        null,
        '9007199254740993',
        1.25,
        { a: [1, 2] },
      ],
      [
        20,
        '2024-03-03',
        '2024-03-03',
        '2024-03-01 10:00:00.5',
        null,
        '9007199254740993',
        1.25,
        { a: [1, 2] },
      ],
      [
        30,
        '2024-03-04',
        '2024-03-04',
        '2024-03-01 10:00:00.5',
        null,
        '9007199254740993',
        1.25,
        { a: [1, 2] },
      ],
    ]);
    expect(r.column_types).toEqual([
      'BIGINT',
      'VARCHAR',
      'DATE',
      'TIMESTAMP',
      'DOUBLE',
      'BIGINT',
      'DECIMAL',
      'JSON',
    ]);
  });

  it('applies the row cap with truncated: true', async () => {
    const r = await h.sql('SELECT * FROM pg (SELECT g FROM generate_series(1, 100005) AS g)');
    expect(r.data.length).toBe(100_000);
    expect(r.truncated).toBe(true);
    expect(r.data[99_999]).toEqual([100_000]);
  });

  it('reports PostgreSQL errors with their position in the statement the user wrote', async () => {
    const r = await h.sql('SELECT sqft FROM pg.home_rentals\nWHERE nope = 1');
    expect(r).toMatchObject({ type: 'error', error_code: 2 });
    expect(r.error_message).toBe(
      `PostgreSQL error from 'pg': column "nope" does not exist (line 2, column 7)`,
    );
    const t = await h.sql('SELECT * FROM pg.no_table');
    expect(t.error_message).toMatch(/relation "no_table" does not exist \(line 1, column 18\)/);
    expect(t.error_code).toBe(2);
  });

  it('joins a PostgreSQL table with a local table in DuckDB, fetching only the needed columns and rows', async () => {
    await h.sql(
      `CREATE TABLE mindsdb.location_labels AS SELECT * FROM (VALUES ('good', 'G'), ('great', 'A'), ('poor', 'P')) t(location, label)`,
    );
    const r = await h.sql(
      `SELECT l.label, count(*) AS n, min(r.sqft) AS min_sqft
       FROM pg.home_rentals AS r JOIN mindsdb.location_labels AS l ON r.location = l.location
       WHERE r.sqft > 1000 AND l.label <> 'P' GROUP BY l.label ORDER BY l.label`,
    );
    const expected = await h.sql(
      `SELECT l.label, count(*) AS n, min(r.sqft) AS min_sqft
       FROM example_db.demo_data.home_rentals AS r JOIN mindsdb.location_labels AS l ON r.location = l.location
       WHERE r.sqft > 1000 AND l.label <> 'P' GROUP BY l.label ORDER BY l.label`,
    );
    expect(r.type).toBe('table');
    expect(r.data).toEqual(expected.data);
    expect(r.data.map((x: unknown[]) => x[0])).toEqual(['A', 'G']);
    // Only the relation's columns named in the statement, and its own condition, went to PostgreSQL.
    expect(
      logged(/SELECT "sqft", "location" FROM home_rentals AS r WHERE \(r\.sqft > 1000\)/),
    ).not.toBeNull();
  });

  it('joins a native query with a local table', async () => {
    const r = await h.sql(
      `SELECT n.location, l.label, n.c FROM pg (SELECT location, count(*) AS c FROM home_rentals GROUP BY location) AS n
       JOIN mindsdb.location_labels l ON l.location = n.location ORDER BY n.location`,
    );
    expect(r.data).toEqual([
      ['good', 'G', 2217],
      ['great', 'A', 1094],
      ['poor', 'P', 1726],
    ]);
  });

  it('treats bare table names as PostgreSQL tables after USE pg', async () => {
    const r = await h.sql('SELECT count(*) AS n FROM home_rentals', { context: { db: 'pg' } });
    expect(r.data).toEqual([[5037]]);
    expect(r.context.db).toBe('pg');
    const used = await h.sql('USE pg; SELECT max(sqft) FROM home_rentals');
    expect(used.context.db).toBe('pg');
    expect(used.data).toEqual(
      (await h.sql('SELECT max(sqft) FROM example_db.demo_data.home_rentals')).data,
    );
  });

  it('stops a statement at the statement timeout (PostgreSQL cancels it)', async () => {
    const t = Date.now();
    await expect(
      h.instance.integrations.query('pg', 'SELECT pg_sleep(10)', { timeoutMs: 300 }),
    ).rejects.toThrow(/longer than the statement timeout \(300 ms\) on integration 'pg'/);
    expect(Date.now() - t).toBeLessThan(3_000);
  });

  it('reads training data in chunks through a server-side cursor (the model layer hook)', async () => {
    const sizes: number[] = [];
    let sum = 0;
    const out = await h.instance.integrations.readRows(
      'pg',
      'SELECT g AS id, g * 2 AS twice FROM generate_series(1, 25000) AS g',
      (rows, columns) => {
        expect(columns.map((c) => c.name)).toEqual(['id', 'twice']);
        sizes.push(rows.length);
        for (const r of rows) sum += r[1] as number;
      },
      { chunkRows: 10_000 },
    );
    expect(sizes).toEqual([10_000, 10_000, 5_000]);
    expect(out.rowCount).toBe(25_000);
    expect(sum).toBe(25_000 * 25_001);
    expect(
      logged(/DECLARE __playground_reader NO SCROLL CURSOR FOR SELECT g AS id/),
    ).not.toBeNull();
  });

  it("reads rows as typed columns through binary COPY: every supported type, NULLs, the cursor read's values", async () => {
    const admin = await pgs.admin();
    try {
      await admin.query(`CREATE TABLE typed_values (
        k int, s smallint, i int, b bigint, o oid, r real, d double precision, n numeric(30, 10),
        f boolean, t text, v varchar(10), c char(5), dt date, ts timestamp, tz timestamptz,
        tm time, tt timetz, iv interval, u uuid, by bytea)`);
      await admin.query(`INSERT INTO typed_values VALUES
        (1, -7, 2000000000, 9007199254740993, 4000000000, 0.1, 1e300,
         12345678901234567890.0123456789, true, E'é☃ tab\\tand\\nnewline', 'short', 'ab',
         '2024-02-29', '2024-01-02 03:04:05.123456', '2024-01-02 03:04:05+02', '23:59:59.5',
         '10:00:00+03', '1 day 02:03:04', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '\\x00ff'),
        (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
         NULL, NULL, NULL, NULL, NULL),
        (3, 32767, -1, -1, 0, 'NaN', '-Infinity', 'NaN', false, '', '', '', 'infinity',
         '-infinity', 'infinity', '00:00', '00:00+00', '-3 months', NULL, '\\x')`);
      await admin.query(`GRANT SELECT ON typed_values TO ${pgs.user}`);
    } finally {
      await admin.end();
    }
    const integ = h.instance.integrations.postgres('pg');
    const sql = 'SELECT * FROM typed_values ORDER BY k';
    const viaCursor: unknown[][] = [];
    await integ.readRows(sql, (rows) => void viaCursor.push(...rows), { timeoutMs: 30_000 });
    const from = pgs.log().length;
    const viaCopy: unknown[][] = [];
    const kinds = new Set<string>();
    await integ.readBatches(
      sql,
      async (batch) => {
        for (let i = 0; i < batch.n; i++) {
          viaCopy.push(
            batch.columns.map((c) => {
              kinds.add(c.kind);
              if (c.kind === 'text' || c.kind === 'json') return c.values[i];
              if (c.nulls?.[i]) return null;
              if (c.kind === 'boolean') return c.values[i] === 1;
              if (c.kind === 'bigint') {
                const x = c.values[i];
                return Number.isSafeInteger(Number(x)) ? Number(x) : String(x);
              }
              return c.values[i];
            }),
          );
        }
      },
      { timeoutMs: 30_000 },
    );
    expect(pgs.log().slice(from)).toMatch(/COPY \(SELECT .* TO STDOUT \(FORMAT binary\)/s);
    expect([...kinds].sort()).toEqual(['bigint', 'boolean', 'number', 'text']);
    expect(viaCopy).toEqual(viaCursor);
    expect(viaCopy[0].slice(0, 12)).toEqual([
      1,
      -7,
      2000000000,
      '9007199254740993',
      4000000000,
      0.1,
      1e300,
      12345678901234567000,
      true,
      'é☃ tab\tand\nnewline',
      'short',
      'ab   ',
    ]);
    expect(viaCopy[1].slice(1).every((v) => v === null)).toBe(true);
    // NaN and infinities have no JSON shape: NULL, as every other answer makes them.
    expect(viaCopy[2].slice(5, 8)).toEqual([null, null, null]);

    // Through SQL: a join fetches the table into DuckDB this way and gets PostgreSQL's values.
    await h.sql('CREATE TABLE mindsdb.typed_keys AS SELECT * FROM (VALUES (1), (2), (3)) t(k)');
    const joined = await h.sql(
      'SELECT t.k, t.b, t.r, t.n, t.t, t.c, t.tz FROM pg.typed_values AS t JOIN mindsdb.typed_keys AS x ON t.k = x.k ORDER BY t.k',
    );
    const pushed = await h.sql('SELECT k, b, r, n, t, c, tz FROM pg.typed_values ORDER BY k');
    expect(joined.data).toEqual(pushed.data);
  });

  it('falls back to the cursor read for types the binary read leaves to pg (json, arrays)', async () => {
    const from = pgs.log().length;
    const rows: unknown[][] = [];
    const out = await h.instance.integrations.postgres('pg').readBatches(
      `SELECT 1 AS k, '{"a": [1, 2]}'::jsonb AS j, ARRAY[1, 2] AS a`,
      async (batch) => {
        for (let i = 0; i < batch.n; i++)
          rows.push(batch.columns.map((c) => (c.kind === 'json' ? c.values[i] : c.kind)));
      },
      { timeoutMs: 30_000 },
    );
    expect(out.rowCount).toBe(1);
    expect(rows).toEqual([[1, { a: [1, 2] }, [1, 2]]]);
    expect(pgs.log().slice(from)).toMatch(
      /DECLARE __playground_reader NO SCROLL CURSOR FOR SELECT 1 AS k/,
    );
  });

  it('a binary read that stops early (an error while handling a batch) leaves the connection usable', async () => {
    const integ = h.instance.integrations.postgres('pg');
    let batches = 0;
    await expect(
      integ.readBatches(
        'SELECT g, g * 0.5 AS half FROM generate_series(1, 2000000) AS g',
        async () => {
          batches++;
          throw badInput('the consumer failed');
        },
        { timeoutMs: 30_000, chunkRows: 1_000 },
      ),
    ).rejects.toThrow(/the consumer failed/);
    expect(batches).toBe(1);
    // Every pooled connection still answers (none is stuck in the cancelled COPY).
    const answers = await Promise.all(
      [1, 2, 3, 4, 5].map((x) => h.instance.integrations.query('pg', `SELECT ${x} AS x`)),
    );
    expect(answers.map((r) => r.rows[0][0])).toEqual([1, 2, 3, 4, 5]);
  });

  it("a reader's own error (not a service error) leaves both reads as it is, not as a connection failure", async () => {
    const integ = h.instance.integrations.postgres('pg');
    // As DuckDB throws while loading a batch: a plain Error.
    const fail = async () => {
      throw new Error('Conversion Error: the batch does not fit');
    };
    const binary = integ.readBatches('SELECT g FROM generate_series(1, 5000) AS g', fail, {
      timeoutMs: 30_000,
      chunkRows: 1_000,
    });
    await expect(binary).rejects.toThrow(/^Conversion Error: the batch does not fit$/);
    // json has no binary decoder here: the cursor read.
    const cursor = integ.readBatches(`SELECT '{"a":1}'::json AS j`, fail, { timeoutMs: 30_000 });
    await expect(cursor).rejects.toThrow(/^Conversion Error: the batch does not fit$/);
    expect((await h.instance.integrations.query('pg', 'SELECT 8 AS x')).rows).toEqual([[8]]);
  });

  it('a binary read waiting on PostgreSQL longer than the statement timeout is cancelled', async () => {
    await expect(
      h.instance.integrations
        .postgres('pg')
        .readBatches('SELECT 1 AS x FROM pg_sleep(30)', async () => undefined, { timeoutMs: 300 }),
    ).rejects.toThrow(/sent no rows for longer than the statement timeout \(300 ms\)/);
    expect((await h.instance.integrations.query('pg', 'SELECT 7 AS x')).rows).toEqual([[7]]);
  });

  it('trains a model from a native PostgreSQL query and batch-predicts by joining the PostgreSQL table', async () => {
    const created = await h.sql(
      'CREATE MODEL mindsdb.pg_rentals FROM pg (SELECT sqft, location, number_of_rooms, neighborhood, days_on_market, rental_price FROM home_rentals) PREDICT rental_price',
    );
    expect(created.type).toBe('table');
    let status = '';
    for (let i = 0; i < 600 && status !== 'complete'; i++) {
      const r = await h.sql("SELECT status, error FROM mindsdb.models WHERE name = 'pg_rentals'");
      status = r.data[0][0];
      if (status === 'error') throw new Error(`training failed: ${r.data[0][1]}`);
      if (status !== 'complete') await pollPause(h);
    }
    expect(status).toBe('complete');
    // The training rows came through the cursor, not a whole-result query.
    expect(
      logged(/DECLARE __playground_reader NO SCROLL CURSOR FOR SELECT sqft, location/),
    ).not.toBeNull();
    const info = await h.sql('DESCRIBE mindsdb.pg_rentals.info');
    const acc = info.data[0][info.column_names.indexOf('accuracies')];
    expect((typeof acc === 'string' ? JSON.parse(acc) : acc).r2_score).toBeGreaterThan(0.9);
    const j = await h.sql(
      'SELECT t.rental_price AS real, m.rental_price AS predicted FROM pg.home_rentals AS t JOIN mindsdb.pg_rentals AS m LIMIT 200',
    );
    expect(j.data).toHaveLength(200);
    const meanAbsRel =
      j.data.reduce((a: number, [real, pred]: number[]) => a + Math.abs(pred - real) / real, 0) /
      200;
    expect(meanAbsRel).toBeLessThan(0.1);
  });

  it('scores a table whose values the model casts (numbers stored as text, numeric, real) as it scores the typed table', async () => {
    const admin = await pgs.admin();
    try {
      await admin.query(`CREATE TABLE rentals_cast AS SELECT sqft::text AS sqft,
        location::varchar(20) AS location, number_of_rooms::numeric(6, 1) AS number_of_rooms,
        neighborhood, days_on_market::real AS days_on_market FROM home_rentals`);
      await admin.query(`GRANT SELECT ON rentals_cast TO ${pgs.user}`);
    } finally {
      await admin.end();
    }
    const select = (t: string) =>
      `SELECT t.sqft, t.location, m.rental_price AS predicted FROM pg.${t} AS t JOIN mindsdb.pg_rentals AS m`;
    const from = pgs.log().length;
    const saved = await h.sql(`CREATE TABLE pg.rentals_cast_scored (${select('rentals_cast')})`);
    expect(saved).toMatchObject({ type: 'ok', affected_rows: 5037 });
    expect(pgs.log().slice(from)).toMatch(
      /COPY \(SELECT .*::float8.* TO STDOUT \(FORMAT binary\)/s,
    );
    const typed = await h.sql(select('home_rentals'));
    const back = await h.sql('SELECT * FROM pg (SELECT * FROM rentals_cast_scored)');
    expect(back.data).toHaveLength(5037);
    // Same rows, same order, same predictions (sqft as PostgreSQL's text of the integer).
    expect(back.data.map((r: unknown[]) => r[2])).toEqual(typed.data.map((r: unknown[]) => r[2]));
    expect(back.data.map((r: unknown[]) => r[0])).toEqual(
      typed.data.map((r: unknown[]) => String(r[0])),
    );
  });

  it('answers jsonlines requests on PostgreSQL tables too', async () => {
    const res = await fetch(`${h.url}/api/sql/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'SELECT sqft FROM pg.home_rentals ORDER BY sqft LIMIT 3',
        response_format: 'jsonlines',
      }),
    });
    const lines = (await res.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ type: 'table', column_names: ['sqft'] });
    // MindsDB's jsonlines: after the header, every line is a bare array of rows.
    const rows = lines.slice(1).flat();
    expect(rows).toEqual(
      (await h.sql('SELECT sqft FROM example_db.demo_data.home_rentals ORDER BY sqft LIMIT 3'))
        .data,
    );
  });

  it('says what to do when a database name is used as a table', async () => {
    const r = await h.sql('SELECT * FROM pg');
    expect(r).toMatchObject({ type: 'error', error_code: 3 });
    expect(r.error_message).toMatch(/'pg' is a database; name one of its tables/);
  });
});

describe('lifecycle', () => {
  it('keeps the integration across a restart and reconnects on first use', async () => {
    await h.close({ keepData: true });
    h = await startHarness(trainingCache(), dataDir);
    expect((await h.sql('SHOW FULL DATABASES')).data).toContainEqual(['pg', 'data', 'postgres']);
    expect((await h.sql('SELECT count(*) FROM pg.home_rentals')).data).toEqual([[5037]]);
  });

  it('drops the integration; IF EXISTS tolerates a missing one; built-in databases stay', async () => {
    expect(await h.sql('DROP DATABASE pg')).toMatchObject({ type: 'ok' });
    expect((await h.sql('SHOW DATABASES')).data.flat()).not.toContain('pg');
    const again = await h.sql('DROP DATABASE pg');
    expect(again).toMatchObject({ type: 'error', error_code: 2 });
    expect(again.error_message).toBe(`Database 'pg' does not exist`);
    expect(await h.sql('DROP DATABASE IF EXISTS pg')).toMatchObject({ type: 'ok' });
    const builtin = await h.sql('DROP DATABASE example_db');
    expect(builtin).toMatchObject({ type: 'error', error_code: 3 });
    const gone = await h.sql('SELECT * FROM pg.home_rentals');
    expect(gone.type).toBe('error');
  });
});
