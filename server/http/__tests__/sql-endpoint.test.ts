import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../test/harness';
import { trainingCache } from '../../test/training-cache';

let h: Harness;
beforeAll(async () => {
  h = await startHarness(trainingCache());
});
afterAll(async () => {
  await h.close();
});

describe('POST /api/sql/query response shapes', () => {
  it('answers a SELECT as a table with column_names, data and context', async () => {
    const r = await h.post('/api/sql/query', {
      query: 'SELECT * FROM example_db.demo_data.home_rentals LIMIT 10',
    });
    expect(r.status).toBe(200);
    expect(r.body.type).toBe('table');
    expect(r.body.column_names).toEqual([
      'number_of_rooms',
      'number_of_bathrooms',
      'sqft',
      'location',
      'days_on_market',
      'initial_price',
      'neighborhood',
      'rental_price',
    ]);
    expect(r.body.data).toHaveLength(10);
    expect(r.body.data[0]).toEqual([0, 1, 484, 'great', 10, 2271, 'south_side', 2271]);
    expect(r.body.context).toEqual({ db: 'mindsdb' });
    expect(r.body.truncated).toBeUndefined();
  });

  it('answers DDL and DML as ok with affected rows, column_names and context present', async () => {
    const create = await h.sql('CREATE TABLE mindsdb.shapes_t AS SELECT * FROM range(3) t(x)');
    expect(create).toMatchObject({ type: 'ok', column_names: [], context: { db: 'mindsdb' } });
    const insert = await h.sql('INSERT INTO mindsdb.shapes_t VALUES (10), (11)');
    expect(insert.affected_rows).toBe(2);
    const sel = await h.sql('SELECT sum(x) AS s FROM mindsdb.shapes_t');
    expect(sel.data).toEqual([[24]]);
  });

  it('answers a syntax error as type error with code 1 and the line and column', async () => {
    const r = await h.post('/api/sql/query', { query: 'SELECT 1,\n  2 FROMM x' });
    expect(r.status).toBe(200);
    expect(r.body.type).toBe('error');
    expect(r.body.error_code).toBe(1);
    expect(r.body.error_message).toMatch(/syntax error at or near "x" \(line 2, column 11\)$/);
    // The same place as data, formatted into the message once.
    expect(r.body.error_position).toEqual({ line: 2, column: 11 });
    expect(r.body.error_message.match(/\(line \d+, column \d+\)/g)).toHaveLength(1);
    expect(r.body.column_names).toEqual([]);
    expect(r.body.context).toEqual({ db: 'mindsdb' });
  });

  it('names a missing table and a missing column with their position', async () => {
    const t = await h.sql('SELECT * FROM no_such_table');
    expect(t.error_code).toBe(2);
    expect(t.error_message).toMatch(/no_such_table does not exist.*\(line 1, column 15\)/);
    expect(t.error_position).toEqual({ line: 1, column: 15 });
    const c = await h.sql('SELECT nope FROM example_db.demo_data.home_rentals');
    expect(c.error_code).toBe(2);
    expect(c.error_message).toMatch(/"nope" not found.*\(line 1, column 8\)/);
    expect(c.error_position).toEqual({ line: 1, column: 8 });
  });

  it('locates errors in the second statement of a script relative to the whole script', async () => {
    const r = await h.sql('SELECT 1;\nSELECT * FROM missing_t');
    expect(r.error_message).toMatch(/\(line 2, column 15\)/);
    expect(r.error_position).toEqual({ line: 2, column: 15 });
  });

  it('sends the position of errors the instance finds itself (its grammar, the planner) as data', async () => {
    const g = await h.sql('CREATE MODEL m FROM db (SELECT 1');
    expect(g.error_code).toBe(1);
    expect(g.error_position).toEqual({ line: 1, column: 24 });
    expect(g.error_message).toMatch(/never closed \(line 1, column 24\)$/);
    const p = await h.sql('SELECT 1;\nUSE a b');
    expect(p.error_position).toEqual({ line: 2, column: 7 });
    // An error about no place has none.
    const n = await h.sql('DROP MODEL mindsdb.no_such_model');
    expect(n.type).toBe('error');
    expect(n.error_position).toBeUndefined();
    expect(n.error_message).not.toMatch(/\(line \d+/);
  });

  it('streams the position with an error document too', async () => {
    const r = await fetch(`${h.url}/api/sql/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'SELECT * FROM\n  nope_t', response_format: 'jsonlines' }),
    });
    const doc = JSON.parse((await r.text()).trim());
    expect(doc).toMatchObject({ type: 'error', error_position: { line: 2, column: 3 } });
    expect(doc.error_message).toMatch(/\(line 2, column 3\)$/);
  });

  it('reports unterminated strings with where they start', async () => {
    const r = await h.sql("SELECT 'abc");
    expect(r.type).toBe('error');
    expect(r.error_code).toBe(1);
    expect(r.error_message).toBe('Unterminated string from here to the end (line 1, column 8)');
    expect(r.error_position).toEqual({ line: 1, column: 8 });
  });

  it('rejects a query that is only comments', async () => {
    const r = await h.post('/api/sql/query', { query: '-- nothing\n/* here */' });
    expect(r.status).toBe(200);
    expect(r.body.type).toBe('error');
    expect(r.body.error_message).toMatch(/no SQL statement/);
  });
});

describe('context and USE', () => {
  it('USE changes the context returned, and the client sends it back', async () => {
    const use = await h.sql('USE example_db');
    expect(use).toMatchObject({ type: 'ok', context: { db: 'example_db' } });
    const q = await h.sql('SELECT count(*) AS n FROM demo_data.home_rentals', {
      context: { db: 'example_db' },
    });
    expect(q.data).toEqual([[5037]]);
    expect(q.context).toEqual({ db: 'example_db' });
  });

  it('keeps no per-client state: without context the default database is mindsdb', async () => {
    await h.sql('USE example_db');
    const q = await h.sql('SELECT current_database() AS db');
    expect(q.data).toEqual([['mindsdb']]);
  });

  it('applies USE inside a script to the statements after it', async () => {
    const q = await h.sql('USE example_db; SELECT count(*) FROM demo_data.customer_churn');
    expect(q.data).toEqual([[10000]]);
    expect(q.context.db).toBe('example_db');
  });

  it('answers an unknown database in context.db or USE with a not-found error listing the databases', async () => {
    const a = await h.sql('SELECT 1', { context: { db: 'nope' } });
    expect(a.type).toBe('error');
    expect(a.error_code).toBe(2);
    expect(a.error_message).toMatch(
      /Database 'nope' does not exist; databases are: information_schema, mindsdb, files, example_db/,
    );
    const b = await h.sql('USE nope');
    expect(b.error_code).toBe(2);
  });
});

describe('parameters', () => {
  it('fills :name placeholders from params with their JSON types', async () => {
    const q = await h.sql('SELECT :n + 1 AS n, :s AS s, :f * 2 AS f, :b AS b, :z AS z', {
      params: { n: 41, s: "it's", f: 1.25, b: true, z: null },
    });
    expect(q.data).toEqual([[42, "it's", 2.5, true, null]]);
  });

  it('uses params safely: a string with SQL in it stays a value', async () => {
    const q = await h.sql(
      'SELECT count(*) FROM example_db.demo_data.home_rentals WHERE location = :loc',
      {
        params: { loc: "good' OR '1'='1" },
      },
    );
    expect(q.data).toEqual([[0]]);
  });

  it('names a placeholder that has no value', async () => {
    const q = await h.sql('SELECT :missing', { params: {} });
    expect(q.error_message).toBe("Parameter ':missing' has no value in params");
  });

  it('leaves DuckDB casts (::) alone', async () => {
    const q = await h.sql("SELECT '5'::INTEGER AS v");
    expect(q.data).toEqual([[5]]);
  });
});

describe('value rules', () => {
  it('turns NULL, NaN and ±Infinity into null', async () => {
    const q = await h.sql(
      "SELECT NULL AS a, 'nan'::DOUBLE AS b, 'inf'::DOUBLE AS c, '-inf'::FLOAT AS d",
    );
    expect(q.data).toEqual([[null, null, null, null]]);
  });

  it('keeps integers exact: beyond 2^53 they become decimal strings', async () => {
    const q = await h.sql(
      'SELECT 9007199254740991::BIGINT AS safe, 9007199254740993::BIGINT AS big, (-9223372036854775808)::BIGINT AS min, 170141183460469231731687303715884105727::HUGEINT AS huge, 18446744073709551615::UBIGINT AS ubig',
    );
    expect(q.data).toEqual([
      [
        9007199254740991,
        '9007199254740993',
        '-9223372036854775808',
        '170141183460469231731687303715884105727',
        '18446744073709551615',
      ],
    ]);
  });

  it('renders DECIMAL as a number and dates and timestamps as text', async () => {
    const q = await h.sql(
      "SELECT 12.34::DECIMAL(10,2) AS dec, DATE '2024-02-29' AS d, TIMESTAMP '2024-02-29 13:14:15' AS ts, TIMESTAMP '2024-02-29 13:14:15.123456' AS tsu, TIME '01:02:03' AS t, TIMESTAMPTZ '2024-01-01 10:00:00+00' AS tz",
    );
    expect(q.data).toEqual([
      [
        12.34,
        '2024-02-29',
        '2024-02-29 13:14:15',
        '2024-02-29 13:14:15.123456',
        '01:02:03',
        '2024-01-01 10:00:00',
      ],
    ]);
  });

  it('renders booleans, lists, structs, maps and JSON as JSON values', async () => {
    const q = await h.sql(
      "SELECT true AS b, [1, NULL, 3] AS l, {'a': 1, 'b': [2.5, 'nan'::DOUBLE]} AS s, MAP {'k': 1} AS m, '{\"x\": [1, 2]}'::JSON AS j, [9007199254740993::BIGINT] AS lb",
    );
    expect(q.data[0].slice(0, 4)).toEqual([
      true,
      [1, null, 3],
      { a: 1, b: [2.5, null] },
      [{ key: 'k', value: 1 }],
    ]);
    expect(JSON.parse(q.data[0][4])).toEqual({ x: [1, 2] });
    expect(q.data[0][5]).toEqual(['9007199254740993']);
  });

  it('treats division by zero as NULL, as MySQL and the real service do (documented)', async () => {
    const q = await h.sql('SELECT 1 / 0 AS a, 1 // 0 AS b, 1 % 0 AS c');
    expect(q.data).toEqual([[null, null, null]]);
  });
});

describe('catalog statements', () => {
  it('lists databases in the real service shape', async () => {
    const plain = await h.sql('SHOW DATABASES');
    expect(plain.column_names).toEqual(['Database']);
    expect(plain.data.map((r: string[]) => r[0])).toEqual([
      'information_schema',
      'mindsdb',
      'files',
      'example_db',
    ]);
    const full = await h.sql('SHOW FULL DATABASES');
    expect(full.column_names).toEqual(['Database', 'TYPE', 'ENGINE']);
    expect(full.data).toContainEqual(['mindsdb', 'project', null]);
    const like = await h.sql("SHOW DATABASES LIKE 'ex%'");
    expect(like.data).toEqual([['example_db']]);
    const where = await h.sql("SHOW FULL DATABASES WHERE type = 'project'");
    expect(where.data).toEqual([['mindsdb', 'project', null]]);
  });

  it('lists tables of a database, with FULL giving their type', async () => {
    const r = await h.sql('SHOW FULL TABLES FROM example_db');
    expect(r.column_names).toEqual(['Tables_in_example_db', 'Table_type']);
    expect(r.data).toContainEqual(['demo_data.home_rentals', 'BASE TABLE']);
    expect(r.data).toHaveLength(8);
    const bt = await h.sql('SHOW TABLES FROM `example_db`');
    expect(bt.data.map((x: string[]) => x[0])).toContain('demo_data.customer_churn');
  });

  it('answers information_schema queries', async () => {
    const r = await h.sql(
      "SELECT column_name, data_type FROM information_schema.columns WHERE table_catalog = 'example_db' AND table_name = 'home_rentals' ORDER BY ordinal_position",
    );
    expect(r.data).toEqual([
      ['number_of_rooms', 'BIGINT'],
      ['number_of_bathrooms', 'BIGINT'],
      ['sqft', 'INTEGER'],
      ['location', 'VARCHAR'],
      ['days_on_market', 'BIGINT'],
      ['initial_price', 'BIGINT'],
      ['neighborhood', 'VARCHAR'],
      ['rental_price', 'DOUBLE'],
    ]);
  });

  it('creates, lists, uses and drops projects', async () => {
    expect(await h.sql('CREATE PROJECT proj_a')).toMatchObject({ type: 'ok' });
    expect((await h.sql('SHOW PROJECTS')).data).toEqual([['mindsdb'], ['proj_a']]);
    const dup = await h.sql('CREATE PROJECT proj_a');
    expect(dup).toMatchObject({
      type: 'error',
      error_code: 7,
      error_message: "Database 'proj_a' already exists",
    });
    expect((await h.sql('CREATE PROJECT IF NOT EXISTS proj_a')).type).toBe('ok');
    await h.sql('CREATE TABLE proj_a.t AS SELECT 1 AS x');
    expect((await h.sql('SELECT x FROM t', { context: { db: 'proj_a' } })).data).toEqual([[1]]);
    expect((await h.sql('DROP PROJECT proj_a')).type).toBe('ok');
    expect((await h.sql('SHOW PROJECTS')).data).toEqual([['mindsdb']]);
    const bad = await h.sql('CREATE PROJECT "a b"');
    expect(bad.error_message).toMatch(/Invalid project name 'a b'/);
  });

  it('accepts backtick identifiers as the MySQL-flavoured clients send them', async () => {
    const r = await h.sql(
      'SELECT `location`, count(*) AS n FROM `example_db`.`demo_data`.`home_rentals` GROUP BY 1 ORDER BY 1',
    );
    expect(r.data).toEqual([
      ['good', 2217],
      ['great', 1094],
      ['poor', 1726],
    ]);
  });
});

describe('demo data', () => {
  it('loads every dataset with its row count', async () => {
    const r = await h.sql(
      `SELECT table_name, estimated_size FROM duckdb_tables() WHERE database_name = 'example_db' ORDER BY 1`,
    );
    expect(r.data).toEqual([
      ['concrete_strength', 1030],
      ['customer_churn', 10000],
      ['diabetes', 755],
      ['diabetes_test', 37],
      ['home_rentals', 5037],
      ['home_rentals_this_month', 1000],
      ['house_sales', 330],
      ['telco_churn', 7043],
    ]);
  });

  it('cleans the decimal-comma sqft values and the blank TotalCharges', async () => {
    const sq = await h.sql(
      "SELECT sqft FROM example_db.demo_data.home_rentals WHERE initial_price IN (2184, 3581) AND days_on_market = 0 AND neighborhood = 'north_berkeley' AND sqft IN (641, 945) ORDER BY 1",
    );
    expect(sq.data).toEqual([[641], [945]]);
    const tc = await h.sql(
      'SELECT count(*) FROM example_db.demo_data.telco_churn WHERE TotalCharges IS NULL',
    );
    expect(tc.data).toEqual([[11]]);
    const type = await h.sql(
      'SELECT typeof(TotalCharges) FROM example_db.demo_data.telco_churn LIMIT 1',
    );
    expect(type.data).toEqual([['DOUBLE']]);
  });
});

describe('envelope errors (HTTP status + SQL envelope; the server keeps serving)', () => {
  const cases: [string, string | unknown, number, RegExp][] = [
    ['a body that is not JSON', '{"query": ', 400, /not valid JSON/],
    ['JSON that is not an object', '[1,2]', 400, /must be a JSON object, got an array/],
    ['JSON null', 'null', 400, /must be a JSON object, got null/],
    ['query missing', { context: {} }, 400, /^query is required$/],
    ['query not a string', { query: 42 }, 400, /^query must be a string$/],
    ['query empty', { query: '   ' }, 400, /^query must not be empty$/],
    ['context not an object', { query: 'SELECT 1', context: 'x' }, 400, /context/],
    [
      'context.db not a string',
      { query: 'SELECT 1', context: { db: 5 } },
      400,
      /context.db must be a string/,
    ],
    ['params not an object', { query: 'SELECT 1', params: [1] }, 400, /params must be an object/],
  ];
  for (const [name, body, status, re] of cases) {
    it(`answers ${name} with ${status}`, async () => {
      const r = await h.post('/api/sql/query', body);
      expect(r.status).toBe(status);
      expect(r.body.type).toBe('error');
      expect(r.body.error_code).toBe(3);
      expect(r.body.error_message).toMatch(re);
      expect(r.body.column_names).toEqual([]);
      expect(r.body.context).toHaveProperty('db');
      expect((await h.sql('SELECT 1 AS ok')).data).toEqual([[1]]);
    });
  }

  it('answers an empty body with 400', async () => {
    const r = await h.post('/api/sql/query', '');
    expect(r.status).toBe(400);
    expect(r.body.error_message).toMatch(/empty/);
  });

  it('answers a 5 MB query with 413 naming the limit', async () => {
    const r = await h.post('/api/sql/query', { query: `SELECT '${'x'.repeat(5 * 1024 * 1024)}'` });
    expect(r.status).toBe(413);
    expect(r.body.error_code).toBe(6);
    expect(r.body.error_message).toMatch(/characters long; the limit is 2000000/);
  });

  it('answers an unsupported content type with 415', async () => {
    const r = await h.post('/api/sql/query', '<q/>', { 'content-type': 'application/xml' });
    expect(r.status).toBe(415);
    expect(r.body.error_message).toMatch(/Content-Type/);
  });

  it('refuses JSON sent with a form or text content type (what a cross-site form can send) with 415', async () => {
    for (const type of ['application/x-www-form-urlencoded', 'text/plain']) {
      const r = await h.post('/api/sql/query', '{"query": "SELECT 2 AS x"}', {
        'content-type': type,
      });
      expect(r.status).toBe(415);
      expect(r.body).toMatchObject({ type: 'error', error_code: 3 });
      expect(r.body.error_message).toMatch(/application\/json/);
    }
  });

  it("answers unknown routes with a 404 in MindsDB's problem shape", async () => {
    const r = await h.get('/api/nope');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({
      title: 'Not Found',
      detail: 'No route GET /api/nope',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}$/),
      error_code: 2,
      error_message: 'No route GET /api/nope',
    });
  });
});

describe('concurrency', () => {
  it('answers 50 queries sent at once, each with its own correct result', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        h.sql(
          `SELECT ${i} AS i, count(*) AS n FROM example_db.demo_data.home_rentals WHERE sqft > ${i * 10}`,
        ),
      ),
    );
    const expected = await Promise.all(
      Array.from(
        { length: 50 },
        async (_, i) =>
          (
            await h.sql(
              `SELECT count(*) FROM example_db.demo_data.home_rentals WHERE sqft > ${i * 10}`,
            )
          ).data[0][0],
      ),
    );
    results.forEach((r, i) => {
      expect(r.type).toBe('table');
      expect(r.data).toEqual([[i, expected[i]]]);
    });
  });
});

describe('status', () => {
  it('reports version, environment and auth', async () => {
    const r = await h.get('/api/status');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      version: expect.any(String),
      environment: 'local',
      auth: { http_auth_enabled: false },
    });
  });
});
