/**
 * MindsDB's own statements, parsed by the grammar (syntax/grammar.ts) into what they mean, with
 * the statements written as MindsDB's documentation writes them. DuckDB's SQL is not claimed.
 */
import { describe, expect, it } from 'vitest';
import { parseMindsStatement } from '../syntax/grammar';
import { StatementSource } from '../syntax/source';
import { Tokens } from '../syntax/tokens';
import { ServiceError, withPosition } from '../../errors';

const parse = (sql: string, params?: Record<string, unknown>) =>
  parseMindsStatement(new Tokens(sql), new StatementSource(sql, 0, sql), params);

const fails = (sql: string) => {
  try {
    parse(sql);
  } catch (err) {
    // The position is data; read it as the HTTP edge writes it.
    return err instanceof ServiceError ? withPosition(err.message, err.position) : String(err);
  }
  throw new Error(`expected a syntax error for: ${sql}`);
};

describe('models', () => {
  it('reads the tutorial CREATE MODEL with its FROM query kept as written, offsets included', () => {
    const sql =
      'CREATE MODEL mindsdb.home_rentals_model\nFROM example_db\n  (SELECT * FROM demo_data.home_rentals)\nPREDICT rental_price';
    const s = parse(sql);
    expect(s).toMatchObject({
      kind: 'create-model',
      name: ['mindsdb', 'home_rentals_model'],
      orReplace: false,
      ifNotExists: false,
      source: { db: 'example_db', query: { text: 'SELECT * FROM demo_data.home_rentals' } },
      targets: [{ name: 'rental_price' }],
    });
    const q = (s as { source: { query: { start: number; text: string } } }).source.query;
    expect(sql.slice(q.start, q.start + q.text.length)).toBe(q.text);
  });

  it('reads PREDICTOR, OR REPLACE, IF NOT EXISTS, FROM db.table and nested USING options', () => {
    expect(
      parse(
        "CREATE OR REPLACE PREDICTOR IF NOT EXISTS p.m FROM files.sales PREDICT y USING engine = 'lightwood', tag = 'my model', encoders.location.module = 'OneHotEncoder', dtype_dict = {'a': 'categorical'}",
      ),
    ).toMatchObject({
      kind: 'create-model',
      name: ['p', 'm'],
      orReplace: true,
      ifNotExists: true,
      source: { db: 'files', table: ['sales'] },
      using: {
        engine: 'lightwood',
        tag: 'my model',
        encoders: { location: { module: 'OneHotEncoder' } },
        dtype_dict: { a: 'categorical' },
      },
    });
  });

  it('reads the time-series clauses into options (ORDER BY, GROUP BY, WINDOW, HORIZON)', () => {
    const s = parse(
      'CREATE MODEL mindsdb.house_sales_model FROM example_db (SELECT * FROM demo_data.house_sales) PREDICT ma ORDER BY saledate GROUP BY bedrooms, type WINDOW 8 HORIZON 4',
    );
    expect(s).toMatchObject({
      kind: 'create-model',
      timeSeries: { orderBy: ['saledate'], groupBy: ['bedrooms', 'type'], window: 8, horizon: 4 },
    });
  });

  it('reads PREDICT f1 AS alias, f2 as MindsDB does (targets with aliases)', () => {
    expect(parse('CREATE MODEL m FROM db (SELECT 1) PREDICT f1 AS f1_alias, f2')).toMatchObject({
      targets: [{ name: 'f1', alias: 'f1_alias' }, { name: 'f2' }],
    });
  });

  it('reads RETRAIN, FINETUNE, DROP MODEL and DESCRIBE with versions and attributes', () => {
    expect(parse('RETRAIN mindsdb.home_rentals_model')).toMatchObject({
      kind: 'retrain',
      name: ['mindsdb', 'home_rentals_model'],
    });
    expect(
      parse(
        "RETRAIN MODEL m FROM example_db (SELECT * FROM t) PREDICT y USING tag = 'x', active = false",
      ),
    ).toMatchObject({ kind: 'retrain', target: 'y', using: { tag: 'x', active: false } });
    expect(
      parse('FINETUNE mindsdb.m FROM example_db (SELECT * FROM demo_data.home_rentals LIMIT 10)'),
    ).toMatchObject({ kind: 'finetune', source: { db: 'example_db' } });
    expect(parse('DROP MODEL IF EXISTS mindsdb.m.2')).toEqual({
      kind: 'drop-model',
      name: ['mindsdb', 'm', '2'],
      ifExists: true,
    });
    expect(parse('DROP PREDICTOR m')).toMatchObject({ kind: 'drop-model', ifExists: false });
    expect(parse('DESCRIBE MODEL mindsdb.home_rentals_model.1.model')).toEqual({
      kind: 'describe',
      object: 'MODEL',
      name: ['mindsdb', 'home_rentals_model', '1', 'model'],
    });
    expect(parse('DESCRIBE home_rentals_model.features')).toEqual({
      kind: 'describe',
      object: null,
      name: ['home_rentals_model', 'features'],
    });
    expect(parse('DESCRIBE `p`.`m`.`2`')).toMatchObject({ name: ['p', 'm', '2'] });
    expect(parse('DESCRIBE SELECT 1')).toBeNull();
  });

  it('reads the active version statements of the docs and of the Python SDK', () => {
    expect(parse('SET model_active = home_rentals.1')).toEqual({
      kind: 'set-active',
      name: ['home_rentals', '1'],
    });
    expect(parse('SET active mindsdb.m.`1`')).toEqual({
      kind: 'set-active',
      name: ['mindsdb', 'm', '1'],
    });
    expect(
      parse("UPDATE mindsdb.models_versions SET active = 1 WHERE name = 'm' AND version = 2"),
    ).toMatchObject({
      kind: 'update-versions',
      table: ['mindsdb', 'models_versions'],
      set: { active: 1 },
    });
    expect(
      parse("DELETE FROM mindsdb.models_versions WHERE name = 'm' AND version = 1"),
    ).toMatchObject({
      kind: 'delete-versions',
      where: { text: "name = 'm' AND version = 1" },
    });
    expect(parse('UPDATE files.t SET a = 1')).toBeNull();
    expect(parse('DELETE FROM files.t')).toBeNull();
  });

  it('reads EVALUATE as the docs write it', () => {
    expect(
      parse(
        'EVALUATE r2_score FROM (SELECT t.rental_price AS actual, m.rental_price AS prediction FROM example_db.demo_data.home_rentals AS t JOIN mindsdb.home_rentals_model AS m LIMIT 100) USING n_decimals = 2',
      ),
    ).toMatchObject({ kind: 'evaluate', metric: 'r2_score', using: { n_decimals: 2 } });
  });
});

describe('databases, projects, engines, views', () => {
  it('reads CREATE DATABASE with MindsDB spellings of ENGINE and PARAMETERS', () => {
    expect(
      parse(
        `CREATE DATABASE pg WITH ENGINE = 'postgres', PARAMETERS = {"host": "h", "port": 5432, "ssl":true, 'user': 'u',}`,
      ),
    ).toEqual({
      kind: 'create-database',
      name: ['pg'],
      ifNotExists: false,
      orReplace: false,
      engine: 'postgres',
      parameters: { host: 'h', port: 5432, ssl: true, user: 'u' },
    });
    expect(parse("CREATE DATABASE p ENGINE = 'mindsdb'")).toMatchObject({ engine: 'mindsdb' });
    expect(parse('CREATE PROJECT IF NOT EXISTS p')).toEqual({
      kind: 'create-project',
      name: ['p'],
      ifNotExists: true,
    });
    expect(parse('DROP DATABASE IF EXISTS pg')).toMatchObject({
      kind: 'drop-database',
      ifExists: true,
    });
    expect(parse('DROP SCHEMA s CASCADE')).toBeNull();
  });

  it('reads the view forms: AS (query), (query), FROM db (query), ALTER VIEW, DROP VIEW', () => {
    expect(parse('CREATE VIEW mindsdb.v AS (SELECT * FROM t)')).toMatchObject({
      kind: 'create-view',
      name: ['mindsdb', 'v'],
      alter: false,
      query: { text: 'SELECT * FROM t' },
    });
    expect(parse('CREATE VIEW p.v (SELECT 1)')).toMatchObject({ query: { text: 'SELECT 1' } });
    expect(
      parse('CREATE VIEW v FROM example_db (SELECT * FROM demo_data.home_rentals)'),
    ).toMatchObject({
      fromDb: 'example_db',
      query: { text: 'SELECT * FROM demo_data.home_rentals' },
    });
    expect(parse('CREATE OR REPLACE VIEW v AS SELECT 1 UNION SELECT 2')).toMatchObject({
      orReplace: true,
      query: { text: 'SELECT 1 UNION SELECT 2' },
    });
    expect(parse('ALTER VIEW v (SELECT 2)')).toMatchObject({ kind: 'create-view', alter: true });
    expect(parse('DROP VIEW IF EXISTS a, p.b')).toEqual({
      kind: 'drop-view',
      names: [['a'], ['p', 'b']],
      ifExists: true,
    });
  });

  it('reads CREATE ML_ENGINE and SHOW with FULL, FROM, LIKE and WHERE', () => {
    expect(parse("CREATE ML_ENGINE my_engine FROM lightwood USING api_key = 'k'")).toEqual({
      kind: 'create-ml-engine',
      name: ['my_engine'],
      handler: 'lightwood',
      ifNotExists: false,
      using: { api_key: 'k' },
    });
    expect(parse("SHOW FULL TABLES FROM example_db LIKE 'home%'")).toMatchObject({
      kind: 'show',
      what: 'TABLES',
      full: true,
      from: ['example_db'],
      filter: { like: 'home%' },
    });
    const where = parse("SHOW DATABASES WHERE type = 'project'");
    expect(where).toMatchObject({
      what: 'DATABASES',
      filter: { where: { text: "type = 'project'" } },
    });
    expect(parse('SHOW SESSION VARIABLES')).toMatchObject({ what: 'SESSION VARIABLES' });
    expect(parse('SHOW CHARACTER SET')).toMatchObject({ what: 'CHARACTER SET' });
  });
});

describe('saving query results', () => {
  it('reads the MindsDB and DuckDB forms of CREATE TABLE with a query, not a column list', () => {
    expect(parse('CREATE TABLE files.p (SELECT * FROM t JOIN m)')).toMatchObject({
      kind: 'create-table',
      name: ['files', 'p'],
      query: { text: 'SELECT * FROM t JOIN m' },
    });
    expect(parse('CREATE OR REPLACE TABLE x AS SELECT 1')).toMatchObject({
      orReplace: true,
      query: { text: 'SELECT 1' },
    });
    expect(parse('CREATE TABLE t (a INT, b VARCHAR)')).toBeNull();
    // MySQL's bare form, which the Python SDK sends.
    expect(parse('CREATE OR REPLACE TABLE files.s  SELECT * FROM db (select 1)')).toMatchObject({
      query: { text: 'SELECT * FROM db (select 1)' },
    });
  });

  it('reads INSERT INTO with a query or VALUES, and leaves DuckDB forms alone', () => {
    expect(parse('INSERT INTO db.t (SELECT * FROM a)')).toMatchObject({
      kind: 'insert',
      name: ['db', 't'],
      query: { text: 'SELECT * FROM a' },
    });
    expect(parse('INSERT INTO t (a, b) VALUES (1, 2)')).toMatchObject({
      columns: ['a', 'b'],
      query: { text: 'VALUES (1, 2)' },
    });
    expect(parse('INSERT INTO t VALUES (1) RETURNING *')).toBeNull();
    expect(parse('INSERT OR REPLACE INTO t VALUES (1)')).toBeNull();
  });
});

describe('refusals and session statements', () => {
  it('names the MindsDB construct this instance does not have', () => {
    expect(parse('CREATE JOB j (SELECT 1) EVERY hour')).toMatchObject({
      kind: 'refused',
      construct: 'CREATE JOB',
    });
    expect(parse('CREATE KNOWLEDGE BASE kb')).toMatchObject({ construct: 'CREATE KNOWLEDGE BASE' });
    expect(parse('CREATE ANOMALY DETECTION MODEL m')).toMatchObject({
      construct: 'CREATE ANOMALY DETECTION MODEL',
    });
    expect(parse('SHOW JOBS')).toMatchObject({ construct: 'SHOW JOBS' });
  });

  it('accepts the session statements MySQL clients send on connect', () => {
    expect(parse('SET NAMES utf8mb4')).toEqual({ kind: 'set-session', what: 'NAMES' });
    expect(parse('SET @@session.autocommit = 1')).toMatchObject({ kind: 'set-session' });
    expect(parse('SET threads = 4')).toBeNull();
    expect(parse('SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED')).toEqual({
      kind: 'set-session',
      what: 'TRANSACTION',
    });
    expect(parse('SET character_set_results = NULL')).toMatchObject({ kind: 'set-session' });
  });

  it('leaves SET of anything else to DuckDB, whose guard decides (no engine setting slips through)', () => {
    expect(parse('SET GLOBAL memory_limit = 1')).toBeNull();
    expect(parse('SET @@global.memory_limit = 1')).toBeNull();
    expect(parse('SET SESSION threads = 1')).toBeNull();
  });

  it('leaves DuckDB statements to DuckDB', () => {
    for (const sql of [
      'SELECT 1',
      'WITH a AS (SELECT 1) SELECT * FROM a',
      'COPY t TO x',
      'PRAGMA x',
    ]) {
      expect(parse(sql)).toBeNull();
    }
  });

  it('fails with what it expected and where', () => {
    expect(fails('CREATE MODEL m FROM db (SELECT 1')).toMatch(
      /parenthesis opened here is never closed \(line 1, column 24\)/,
    );
    expect(fails('CREATE MODEL m FROM db (SELECT 1) PREDICT')).toMatch(
      /expected a target column at the end/,
    );
    expect(fails('USE a b')).toMatch(
      /unexpected text at the end of USE near 'b' \(line 1, column 7\)/,
    );
  });
});

describe('forms from MindsDB documentation pages (mindsdb-docs.test.ts runs them)', () => {
  it('reads UPDATE t ON keys FROM (query), and leaves other UPDATEs to DuckDB', () => {
    const sql = 'UPDATE files.t ON a, b FROM (SELECT a, b, c FROM x)';
    expect(parse(sql)).toEqual({
      kind: 'update-on',
      name: ['files', 't'],
      keys: ['a', 'b'],
      query: { text: 'SELECT a, b, c FROM x', start: sql.indexOf('SELECT'), end: sql.length - 1 },
    });
    expect(parse("UPDATE files.t SET a = 1 WHERE b = 'x'")).toBeNull();
    expect(fails('UPDATE files.t ON a FROM x')).toMatch(/expected FROM \(SELECT \.\.\.\)/);
  });

  it('reads SHOW ... LIKE ... WHERE with both filters', () => {
    expect(parse("SHOW MODELS FROM mindsdb LIKE '%ai%' WHERE engine = 'openai'")).toMatchObject({
      kind: 'show',
      what: 'MODELS',
      from: ['mindsdb'],
      filter: { like: '%ai%', where: { text: "engine = 'openai'" } },
    });
  });

  it('reads SET SHOW_SECRETS, and refuses from_env() by name', () => {
    expect(parse('SET SHOW_SECRETS = FALSE')).toEqual({
      kind: 'set-session',
      what: 'SHOW_SECRETS',
    });
    expect(parse('SET SHOW_SECRETS = TRUE')).toMatchObject({
      kind: 'refused',
      construct: 'SET SHOW_SECRETS = TRUE',
    });
    expect(parse('SET @v = from_env("MDB_MY_ENV_VAR")')).toMatchObject({
      kind: 'refused',
      construct: 'from_env()',
    });
    expect(parse('SET @v = 1')).toMatchObject({ kind: 'set-session' });
  });

  it('reads CREATE MODEL ... FROM <table> as that table of the current database', () => {
    expect(parse('CREATE MODEL mindsdb.debt_model FROM income_table PREDICT debt')).toMatchObject({
      kind: 'create-model',
      source: { db: null, table: ['income_table'] },
    });
  });
});
