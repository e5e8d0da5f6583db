import { describe, expect, it } from 'vitest';
import { codeWords, isReadOnlyScript, isReadOnlyStatement } from './read-only';

describe('isReadOnlyStatement', () => {
  it('lets queries, SHOW, DESCRIBE and model predictions run', () => {
    for (const sql of [
      'SELECT * FROM example_db.demo_data.home_rentals LIMIT 10',
      "select rental_price from mindsdb.m where sqft = 900 and location = 'good'",
      'WITH t AS (SELECT 1 AS x) SELECT x FROM t',
      'SHOW FULL DATABASES',
      'DESCRIBE mindsdb.home_rentals_model',
      '-- a comment first\nSELECT 1',
      'SELECT \'DROP TABLE x; INSERT INTO y\' AS text, "update" FROM t',
      'SELECT $$ DELETE $$ AS quoted',
    ]) {
      expect(isReadOnlyStatement(sql), sql).toBe(true);
    }
  });

  it('asks before anything that writes or changes the instance, wherever it hides', () => {
    for (const sql of [
      'CREATE MODEL mindsdb.m FROM db (SELECT 1) PREDICT y',
      'DROP MODEL mindsdb.m',
      'RETRAIN mindsdb.m',
      'INSERT INTO files.t SELECT 1',
      'UPDATE models_versions SET active = true',
      'WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x',
      'WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d',
      'EXPLAIN ANALYZE DELETE FROM t',
      "COPY (SELECT 1) TO 'out.csv'",
      "ATTACH 'x.db' AS x",
      'SET threads = 1',
      'USE example_db',
      'PRAGMA version',
      'SELECT 1; DROP TABLE t',
      'CALL dbgen(sf = 1)',
      '/* SELECT */ DROP TABLE t',
      'SELECT replace(name, 1, 2) FROM t',
      'something_unknown',
      '',
    ]) {
      expect(isReadOnlyStatement(sql), sql).toBe(false);
    }
  });
});

describe('isReadOnlyScript', () => {
  it('needs every statement to read', () => {
    expect(isReadOnlyScript('SELECT 1; SHOW TABLES;')).toBe(true);
    expect(isReadOnlyScript('SELECT 1; DROP TABLE t;')).toBe(false);
    expect(isReadOnlyScript('-- nothing')).toBe(false);
  });
});

describe('codeWords', () => {
  it('skips strings, quoted names, comments and dollar quotes', () => {
    expect(
      codeWords("SELECT 'a''DROP' , `x``y`, /* CREATE */ z -- INSERT\n FROM $t$ SET $t$"),
    ).toEqual(['SELECT', 'Z', 'FROM']);
  });
});
