/**
 * What SQL may do to the instance and to other clients (issue 12, classes 3, 5, 6 and 7): the
 * file sandbox on the default configuration, integration secrets at rest, connection state that
 * must not travel between requests, instance-wide state (macros named like built-ins, settings,
 * logging, secrets), the system databases, and concurrent changes of the database list.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exposureProblem, loadConfig } from '../../config';
import { guardCopy, scanSql } from '../../engine/guard';
import { startHarness, tempDataDir, type Harness } from '../../test/harness';
import { trainingCache } from '../../test/training-cache';

let h: Harness;
beforeAll(async () => {
  h = await startHarness(trainingCache());
});
afterAll(async () => {
  await h.close();
});

/** Runs each statement and expects an error (of `code` when given) for every one. */
const allFail = async (queries: string[], code?: number) => {
  for (const q of queries) {
    const r = await h.sql(q);
    expect(r.type, q).toBe('error');
    if (code !== undefined) expect(r.error_code, `${q}: ${r.error_message}`).toBe(code);
  }
};

const refused = async (query: string, re: RegExp, code = 10) => {
  const r = await h.sql(query);
  expect(r.type, query).toBe('error');
  expect(r.error_code, `${query}: ${r.error_message}`).toBe(code);
  expect(r.error_message, query).toMatch(re);
};

describe('class 3: the host file system on the default configuration (auth off)', () => {
  const permission = /Permission Error|may (only|not) write|COPY \.\.\. TO/;

  it('refuses reading and writing host files outside DATA_DIR/uploads and DATA_DIR/exports', async () => {
    const d = h.dataDir;
    for (const q of [
      "SELECT * FROM read_csv('/etc/passwd')",
      "SELECT * FROM read_text('/etc/hostname')",
      "SELECT * FROM '/etc/passwd.csv'",
      "SELECT * FROM glob('/etc/*')",
      "COPY (SELECT 1) TO '/tmp/escape.csv'",
      `SELECT * FROM read_text('${d}/catalog.json')`,
      `SELECT * FROM read_text('${d}/exports/../catalog.json')`,
      `SELECT * FROM read_blob('${d}/keys/secrets.key')`,
      `SELECT * FROM read_text('${d}/sessions/revoked.json')`,
      `SELECT * FROM read_text('${d}/models/models.json')`,
      `SELECT * FROM glob('${d}/*')`,
      `COPY (SELECT 1 AS a) TO '${d}/catalog.json'`,
      // projects/ is open to DuckDB so a running instance can attach a new project's file
      // (engine/duckdb.ts); SQL can never write there.
      `COPY (SELECT 1 AS a) TO '${d}/projects/planted.duckdb'`,
      `COPY (SELECT 1 AS a) TO '${d}/models/models.json'`,
    ]) {
      const r = await h.sql(q);
      expect(r.type, q).toBe('error');
      expect(r.error_code, `${q}: ${r.error_message}`).toBe(10);
      expect(r.error_message).toMatch(permission);
    }
  });

  it('never lets COPY write over a database file, whatever the spelling', async () => {
    const d = h.dataDir;
    await h.sql('CREATE TABLE mindsdb.two AS SELECT 1 AS a, 2 AS b');
    for (const target of [
      `${d}/mindsdb.duckdb`,
      `${d}/mindsdb.duckdb.wal`,
      `${d}/example_db.duckdb`,
      `${d}/exports/../files.duckdb.wal`,
      `${d}//./example_db.duckdb.wal.checkpoint`,
    ]) {
      for (const q of [
        `COPY mindsdb.two TO '${target}' (FORMAT csv, USE_TMP_FILE false)`,
        `COPY (SELECT 'x' AS a) TO '${target}'`,
        `EXPLAIN ANALYZE COPY mindsdb.two TO '${target}'`,
        `COPY /* ) */ (SELECT ')' AS a) TO '${target}'`,
      ]) {
        const r = await h.sql(q);
        expect(r.type, q).toBe('error');
        expect(r.error_code, `${q}: ${r.error_message}`).toBe(10);
      }
    }
    await refused(`COPY mindsdb.two TO ('${d}/exports/' || 'x.csv')`, /quoted string/);
    await refused(
      `COPY mindsdb.two TO '${d}/exports/p' (FORMAT csv, PARTITION_BY (a), FILENAME_PATTERN '../../../mindsdb')`,
      /FILENAME_PATTERN must be a plain name/,
    );
    expect((await h.sql('SELECT count(*) FROM example_db.demo_data.home_rentals')).data).toEqual([
      [5037],
    ]);
  });

  it('reads and writes files under DATA_DIR/exports and DATA_DIR/uploads', async () => {
    const file = path.join(h.dataDir, 'exports', 'rentals.csv');
    const w = await h.sql(
      `COPY (SELECT location, count(*) AS n FROM example_db.demo_data.home_rentals GROUP BY 1 ORDER BY 1) TO '${file}'`,
    );
    expect(w).toMatchObject({ type: 'ok', affected_rows: 3 });
    fs.copyFileSync(file, path.join(h.dataDir, 'uploads', 'copy.csv'));
    const r = await h.sql(
      `SELECT sum(n) FROM read_csv('${path.join(h.dataDir, 'uploads', 'copy.csv')}')`,
    );
    expect(r.data).toEqual([[5037]]);
  });

  it('opens named host folders with ALLOW_HOST_FILES, and refuses one that holds DATA_DIR', async () => {
    const outside = tempDataDir();
    fs.writeFileSync(path.join(outside, 'x.csv'), 'a\n41\n');
    const open = await startHarness({ ...trainingCache(), ALLOW_HOST_FILES: [outside] });
    expect((await open.sql(`SELECT a + 1 FROM read_csv('${outside}/x.csv')`)).data).toEqual([[42]]);
    expect((await open.sql("SELECT * FROM read_text('/etc/hostname')")).error_code).toBe(10);
    await open.close();
    fs.rmSync(outside, { recursive: true, force: true });
    expect(
      exposureProblem(loadConfig({ DATA_DIR: '/srv/x/data', ALLOW_HOST_FILES: '/srv' })),
    ).toMatch(/holds DATA_DIR/);
    expect(() => loadConfig({ ALLOW_HOST_FILES: 'relative/dir' })).toThrow(/absolute path/);
    expect(loadConfig({ ALLOW_HOST_FILES: '1' }).ALLOW_HOST_FILES).toBe('all');
  });

  it('stores integration parameters encrypted and brings an old plain catalog up to date', async () => {
    const dir = tempDataDir();
    const legacy = {
      version: 1,
      projects: [{ name: 'mindsdb', created_at: '2026-01-01T00:00:00.000Z' }],
      integrations: [
        {
          name: 'pg_old',
          engine: 'postgres',
          parameters: {
            host: '127.0.0.1',
            port: 1,
            user: 'u',
            password: 'hunter2-very-secret',
            database: 'd',
            schema: 'public',
          },
          created_at: '2026-01-01T00:00:00.000Z',
        },
      ],
    };
    fs.writeFileSync(path.join(dir, 'catalog.json'), JSON.stringify(legacy));
    fs.chmodSync(dir, 0o755);
    let a = await startHarness(trainingCache(), dir);
    const text = fs.readFileSync(path.join(dir, 'catalog.json'), 'utf8');
    expect(text).not.toContain('hunter2');
    expect(text).toContain('pg_old');
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(dir, 'catalog.json')).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.join(dir, 'keys', 'secrets.key')).mode & 0o777).toBe(0o600);
    // Still usable: the parameters open again (the port is closed, so the error names it).
    const q = await a.sql('SELECT * FROM pg_old.t');
    expect(q.error_message).toMatch(/127\.0\.0\.1:1/);
    expect(q.error_message).not.toContain('hunter2');
    await a.close({ keepData: true });
    // Restarted with an AUTH_SECRET: the key file still opens them, the next write re-seals.
    a = await startHarness({ ...trainingCache(), AUTH_SECRET: 'another-secret-of-length' }, dir);
    expect((await a.sql('SELECT * FROM pg_old.t')).error_message).toMatch(/127\.0\.0\.1:1/);
    await a.close({ keepData: true });
    // Without the key file nothing opens them: a clear message, the instance still starts.
    fs.rmSync(path.join(dir, 'keys'), { recursive: true });
    a = await startHarness(trainingCache(), dir);
    const lost = await a.sql('SELECT * FROM pg_old.t');
    expect(lost.error_message).toMatch(/cannot be decrypted: its key file .* is missing/);
    await a.close();
  });
});

describe('class 5: one request never changes what another sees', () => {
  it('refuses transaction control, so a stray BEGIN (alone, or before an error) holds nothing', async () => {
    await h.sql('CREATE TABLE mindsdb.acks (i INTEGER)');
    for (const q of [
      'BEGIN',
      'BEGIN TRANSACTION',
      'START TRANSACTION',
      '/* x */ begin',
      'EXPLAIN ANALYZE BEGIN',
      'ABORT',
      'END',
      'COMMIT',
    ]) {
      await refused(q, /Transaction control/);
    }
    const script = await h.sql('BEGIN; INSERT INTO mindsdb.acks VALUES (100); SELECT 1/0');
    expect(script).toMatchObject({ type: 'error', error_code: 10 });
    const writes = await Promise.all(
      Array.from({ length: 8 }, (_, i) => h.sql(`INSERT INTO mindsdb.acks VALUES (${i + 1})`)),
    );
    for (const w of writes) expect(w).toMatchObject({ type: 'ok', affected_rows: 1 });
    const readers = await Promise.all(
      Array.from({ length: 4 }, () => h.sql('SELECT count(*), sum(i) FROM mindsdb.acks')),
    );
    for (const r of readers) expect(r.data).toEqual([[8, 36]]);
  });

  it("keeps a request's temporary macros, tables and settings to that request", async () => {
    const own = await h.sql(
      'CREATE TEMP MACRO plus_one(x) AS x + 1; CREATE TEMP TABLE tmp_x AS SELECT 41 AS v; SELECT plus_one(v) FROM tmp_x',
    );
    expect(own.data).toEqual([[42]]);
    expect((await h.sql('SELECT plus_one(1)')).error_code).toBe(2);
    expect((await h.sql('SELECT * FROM tmp_x')).error_code).toBe(2);
  });

  it('refuses a macro or function named like a built-in, in any catalog, schema, case or quoting', async () => {
    await h.sql('CREATE SCHEMA IF NOT EXISTS mindsdb.s1');
    await allFail(
      [
        'CREATE MACRO round(x, n) AS 0',
        'CREATE OR REPLACE MACRO round(x, n) AS 0',
        'CREATE FUNCTION ROUND(x, n) AS 0',
        'CREATE TEMP MACRO round(x, n) AS 0',
        'CREATE TEMPORARY FUNCTION lower(x) AS 0',
        "CREATE MACRO main.upper(x) AS 'u'",
        `CREATE MACRO mindsdb.main."Upper"(x) AS 'u'`,
        `CREATE MACRO "mindsdb"."main"."LOWER"(x) AS 'l'`,
        "CREATE MACRO example_db.main.lower(x) AS 'l'",
        'CREATE MACRO example_db.demo_data.abs(x) AS 0',
        'CREATE MACRO mindsdb.s1.least(a, b) AS 0',
        'CREATE MACRO files.main.range(n) AS TABLE SELECT 7 AS range',
        'CREATE MACRO read_csv(f) AS TABLE SELECT 1 AS a',
        'CREATE MACRO count_star() AS 0',
        '/* c */ CREATE /* c */ MACRO /* c */ sum(x) AS 0',
        'EXPLAIN ANALYZE CREATE MACRO round(x, n) AS 0',
      ],
      10,
    );
    // Every client still gets the built-ins, whatever its current database.
    for (const db of ['mindsdb', 'example_db', 'files']) {
      const r = await h.sql(
        "SELECT round(3.14159, 2), upper('a'), lower('A'), abs(-1), (SELECT count(*) FROM range(3))",
        { context: { db } },
      );
      expect(r.data, db).toEqual([[3.14, 'A', 'a', 1, 3]]);
    }
    // A macro of its own name is fine.
    expect((await h.sql('CREATE MACRO mindsdb.main.twice(x) AS 2 * x')).type).toBe('ok');
    expect((await h.sql('SELECT mindsdb.main.twice(21)')).data).toEqual([[42]]);
  });

  it('drops macros shadowing built-ins that an older version let in, at the next start', async () => {
    const dir = tempDataDir();
    let a = await startHarness(trainingCache(), dir);
    // The way an older version let it in: straight to the engine.
    await a.instance.catalog.engine.exec('CREATE MACRO mindsdb.main.round(x, n) AS 0');
    await a.close({ keepData: true });
    a = await startHarness(trainingCache(), dir);
    expect((await a.sql('SELECT round(3.14159, 2)')).data).toEqual([[3.14]]);
    await a.close();
  });

  it('refuses what changes the engine for everyone: settings, logging, the parser, secrets, extensions', async () => {
    for (const [q, re] of [
      ['SET threads = 1', /SET\/RESET/],
      ['SET GLOBAL memory_limit = 1', /SET\/RESET/],
      ['RESET threads', /SET\/RESET/],
      ['EXPLAIN ANALYZE SET threads = 1', /SET\/RESET/],
      ['SET VARIABLE x = 1', /SET/],
      ['PRAGMA enable_profiling', /PRAGMA/],
      ['CALL enable_logging()', /enable_logging\(\) is not allowed/],
      ['SELECT * FROM enable_logging()', /enable_logging/],
      ['CALL /* x */ "ENABLE_LOGGING" ()', /not allowed/],
      ['CALL truncate_duckdb_logs()', /not allowed/],
      ['CALL disable_peg_parser()', /not allowed/],
      ["CALL enable_profiling(format := 'json')", /not allowed/],
      ['FORCE CHECKPOINT', /FORCE CHECKPOINT/],
      ['CALL force_checkpoint()', /not allowed/],
      ["SELECT * FROM query('SELECT 1')", /query\(\) is not allowed/],
      ["SELECT * FROM query_table('mindsdb.acks')", /not allowed/],
      ["SELECT * FROM json_execute_serialized_sql('{}')", /not allowed/],
      ["CREATE SECRET s (TYPE http, BEARER_TOKEN 'x')", /CREATE SECRET/],
      ["CREATE PERSISTENT SECRET s (TYPE http, BEARER_TOKEN 'x')", /CREATE SECRET/],
      ["CREATE OR REPLACE TEMPORARY SECRET s (TYPE http, BEARER_TOKEN 'x')", /CREATE SECRET/],
      ['INSTALL httpfs', /INSTALL and LOAD/],
      ['LOAD json', /INSTALL and LOAD/],
      ["ATTACH ':memory:' AS mem", /ATTACH is not allowed/],
      ['PREPARE p AS SELECT 1', /PREPARE/],
    ] as const) {
      await refused(q, re);
    }
    // Names only matter as calls in code, not inside strings, comments or as column names.
    const fine = await h.sql(
      "SELECT 'CALL enable_logging()' AS query, $$ query('x') $$ AS s -- enable_logging()",
    );
    expect(fine.data).toEqual([['CALL enable_logging()', " query('x') "]]);
  });
});

describe('class 6: the system databases stay', () => {
  it('cannot be detached, re-attached to :memory: or dropped, in any spelling', async () => {
    for (const q of [
      'DETACH files',
      'DETACH DATABASE example_db',
      'DETACH DATABASE IF EXISTS mindsdb',
      '/* x */ detach "files"',
      "ATTACH ':memory:' AS files",
      "ATTACH OR REPLACE ':memory:' AS example_db",
      "ATTACH IF NOT EXISTS ':memory:' AS information_schema",
      'USE files; DETACH files',
    ]) {
      await refused(q, /not allowed/);
    }
    await allFail([
      'DROP DATABASE files',
      'DROP DATABASE "FILES"',
      'DROP DATABASE IF EXISTS example_db',
      'DROP DATABASE information_schema',
      'DROP DATABASE mindsdb',
      'DROP PROJECT mindsdb',
      'DROP SCHEMA files.main',
      'DROP SCHEMA information_schema',
      'DROP MACRO system.main.round',
      'EXPLAIN ANALYZE DETACH files',
    ]);
    const dbs = (await h.sql('SHOW DATABASES')).data.flat();
    for (const d of ['information_schema', 'mindsdb', 'files', 'example_db'])
      expect(dbs).toContain(d);
    expect((await h.sql('SELECT count(*) FROM example_db.demo_data.home_rentals')).data).toEqual([
      [5037],
    ]);
    expect(
      (
        await h.sql(
          "SELECT count(*) FROM duckdb_databases() WHERE database_name IN ('files', 'example_db', 'mindsdb')",
        )
      ).data,
    ).toEqual([[3]]);
  });
});

describe('class 7: concurrent changes of the database list', () => {
  it('lets exactly one of four concurrent CREATE PROJECT of a name succeed, and records it once', async () => {
    const rs = await Promise.all(
      ['race_p', 'race_p', 'RACE_P', 'race_p'].map((n) => h.sql(`CREATE PROJECT ${n}`)),
    );
    expect(rs.filter((r) => r.type === 'ok')).toHaveLength(1);
    for (const r of rs.filter((x) => x.type !== 'ok')) {
      expect(r).toMatchObject({ type: 'error', error_code: 7 });
    }
    const catalog = JSON.parse(fs.readFileSync(path.join(h.dataDir, 'catalog.json'), 'utf8'));
    expect(
      catalog.projects.filter((p: { name: string }) => p.name.toLowerCase() === 'race_p'),
    ).toHaveLength(1);
    expect(
      (await h.sql('SHOW PROJECTS')).data
        .flat()
        .filter((p: string) => p.toLowerCase() === 'race_p'),
    ).toHaveLength(1);
    // And it works.
    expect((await h.sql('CREATE TABLE race_p.t AS SELECT 1 AS x')).type).toBe('ok');
  });

  it('keeps statements of other clients correct while a project is created', async () => {
    const work = Array.from({ length: 12 }, (_, i) =>
      h.sql(`SELECT count(*) + ${i} FROM example_db.demo_data.home_rentals`),
    );
    const created = h.sql('CREATE PROJECT busy_p');
    const results = await Promise.all(work);
    results.forEach((r, i) => expect(r.data).toEqual([[5037 + i]]));
    expect((await created).type).toBe('ok');
  });

  it("keeps another request's temporary tables while a project is created (DuckDB is never reopened)", async () => {
    // The script's TEMP table must survive a CREATE PROJECT that lands between its statements.
    const script = h.sql(
      'CREATE TEMP TABLE mine AS SELECT range AS i FROM range(1000); ' +
        'SELECT count(*) FROM range(3000000) a, (SELECT 1) b WHERE a.range % 7 = 0; ' +
        'SELECT sum(i) FROM mine',
    );
    const created = await h.sql('CREATE PROJECT during_p');
    expect(created.type).toBe('ok');
    expect((await script).data).toEqual([[499500]]);
    expect((await h.sql('CREATE TABLE during_p.t AS SELECT 1 AS x')).type).toBe('ok');
    expect((await h.sql('SELECT x FROM during_p.t')).data).toEqual([[1]]);
  });

  it('refuses DROP PROJECT of a project that holds views unless cascade is explicit', async () => {
    await h.sql('CREATE PROJECT keep_p');
    await h.sql('CREATE VIEW keep_p.v AS SELECT 1 AS x');
    const r = await h.sql('DROP PROJECT keep_p');
    expect(r).toMatchObject({ type: 'error', error_code: 7 });
    expect(r.error_message).toMatch(/contains: view 'keep_p\.v'/);
    expect((await h.sql('SELECT * FROM keep_p.v')).data).toEqual([[1]]);
    await h.instance.catalog.dropProject('keep_p', false, true);
    expect((await h.sql('SHOW PROJECTS')).data.flat()).not.toContain('keep_p');
  });
});

describe('class 7: a project that holds models', () => {
  it('refuses DROP PROJECT naming the models, and drops them with it only when cascade is explicit', async () => {
    await h.sql('CREATE PROJECT model_p');
    const created = await h.sql(
      'CREATE MODEL model_p.m FROM example_db (SELECT * FROM demo_data.home_rentals LIMIT 300) PREDICT rental_price',
    );
    expect(created.type).not.toBe('error');
    for (let i = 0; i < 600; i++) {
      const s = await h.sql("SELECT status FROM model_p.models WHERE name = 'm'");
      if (s.data?.[0]?.[0] === 'complete') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const r = await h.sql('DROP PROJECT model_p');
    expect(r).toMatchObject({ type: 'error', error_code: 7 });
    expect(r.error_message).toMatch(/can not be deleted, because it contains: model 'model_p\.m'/);
    expect((await h.sql("SELECT status FROM model_p.models WHERE name = 'm'")).data).toEqual([
      ['complete'],
    ]);
    await h.instance.catalog.dropProject('model_p', false, true);
    expect((await h.sql('SHOW PROJECTS')).data.flat()).not.toContain('model_p');
    expect(fs.existsSync(path.join(h.dataDir, 'models', 'model_p'))).toBe(false);
  });
});

describe('the statement scanner and the COPY rules', () => {
  it('sees names through quoting and comments, and not inside literals', () => {
    const names = (s: string) =>
      scanSql(s)
        .filter((t) => t.kind === 'word' || t.kind === 'ident')
        .map((t) => t.value);
    expect(names(`SELECT /* a /* nested */ b */ x, "q""y" FROM t -- z`)).toEqual([
      'SELECT',
      'x',
      'q"y',
      'FROM',
      't',
    ]);
    expect(names(`SELECT 'a''b', E'c\\'d', $$e$$, $t$ f $t$, 1e5x`)).toEqual(['SELECT', 'x']);
  });

  it('allows COPY only into the open folders', () => {
    const rules = { folders: ['/data/exports'], databases: ['/data/mindsdb.duckdb'] };
    expect(() => guardCopy("COPY t TO '/data/exports/a.csv'", rules)).not.toThrow();
    expect(() => guardCopy("COPY t FROM '/anywhere/a.csv'", rules)).not.toThrow();
    expect(() => guardCopy("COPY t TO '/data/a.csv'", rules)).toThrow(/only inside/);
    expect(() => guardCopy("COPY t TO '/data/exports/../mindsdb.duckdb.wal'", rules)).toThrow(
      /database files/,
    );
    expect(() => guardCopy('COPY t TO STDOUT', rules)).toThrow(/quoted string/);
  });
});
