/**
 * The lexical dialect (MindsDB/MySQL SQL into what DuckDB's parser reads) and the source maps
 * that keep every position pointing into the user's text.
 */
import { describe, expect, it } from 'vitest';
import { toDuckText } from '../syntax/dialect';
import { applyEdits, unchanged } from '../syntax/source';
import { Tokens } from '../syntax/tokens';
import { missingJoinCondition } from '../plan/query';

const duck = (sql: string, params?: Record<string, unknown>, dbs: string[] = []) =>
  toDuckText(new Tokens(sql), { params, isDatabase: (n) => dbs.includes(n.toLowerCase()) });

describe('toDuckText', () => {
  it('double-quotes backtick names, turns :params into $params and MySQL LIMIT a, b into LIMIT b OFFSET a', () => {
    const d = duck('SELECT `a`, :p FROM `t` WHERE x::INT = 1 LIMIT 10, 20', { p: 1 });
    expect(d.rw.text).toBe('SELECT "a", $p FROM "t" WHERE x::INT = 1 LIMIT 20 OFFSET 10');
    expect(d.usesParams).toBe(true);
  });

  it('quotes versions after names, which DuckDB would read as numbers', () => {
    expect(duck('SELECT * FROM mindsdb.m.2 JOIN m.3 AS x').rw.text).toBe(
      'SELECT * FROM mindsdb.m."2" JOIN m."3" AS x',
    );
    expect(duck('SELECT 1.5, t.a FROM t').rw.text).toBe('SELECT 1.5, t.a FROM t');
  });

  it('turns server variables into names the planner answers', () => {
    expect(duck('SELECT @@version_comment, @@session.auto_increment_increment').rw.text).toBe(
      'SELECT "@@version_comment", "@@session.auto_increment_increment"',
    );
  });

  it('cuts native queries out of what DuckDB parses: FROM db (native SQL)', () => {
    const sql =
      'SELECT * FROM pg (SELECT g::int8 FROM generate_series(1, 3) g WHERE x = $$a$$) AS n JOIN t ON TRUE';
    const d = duck(sql, undefined, ['pg']);
    expect(d.rw.text).toBe('SELECT * FROM "__native_0" AS n JOIN t ON TRUE');
    expect(d.natives).toEqual([
      expect.objectContaining({
        placeholder: '__native_0',
        db: 'pg',
        sql: 'SELECT g::int8 FROM generate_series(1, 3) g WHERE x = $$a$$',
      }),
    ]);
    expect(sql.slice(d.natives[0].start).startsWith('SELECT g::int8')).toBe(true);
    // The Python SDK's form: parentheses around the native query.
    const sdk = duck('SELECT m.* FROM (pg (select 1)) AS t JOIN p.m AS m', undefined, ['pg']);
    expect(sdk.rw.text).toBe('SELECT m.* FROM "__native_0" AS t JOIN p.m AS m');
    // A function call or a table function is not a native query.
    expect(duck("SELECT * FROM read_csv('x')", undefined, ['pg']).natives).toEqual([]);
  });

  it('refuses a :parameter without a value', () => {
    expect(() => duck('SELECT :missing', {})).toThrow(
      "Parameter ':missing' has no value in params",
    );
  });

  it('maps every offset of the rewritten text back into what the user wrote', () => {
    const sql = 'SELECT `col` FROM `t` LIMIT 5, 10';
    const d = duck(sql);
    const at = (needle: string) => sql.indexOf(needle);
    expect(d.rw.toSource(d.rw.text.indexOf('FROM'))).toBe(at('FROM'));
    expect(d.rw.toSource(d.rw.text.indexOf('"t"'))).toBe(at('`t`'));
    expect(d.rw.toSource(d.rw.text.indexOf('OFFSET'))).toBe(at('5'));
  });
});

describe('applyEdits', () => {
  it('composes: offsets map through several rounds of rewriting', () => {
    const a = applyEdits(unchanged('SELECT x FROM t'), [{ start: 7, end: 8, text: 'longer_name' }]);
    const b = applyEdits(a, [{ start: 0, end: 0, text: 'EXPLAIN ' }]);
    expect(b.text).toBe('EXPLAIN SELECT longer_name FROM t');
    expect(b.toSource(b.text.indexOf('FROM'))).toBe(9);
    expect(b.toSource(b.text.indexOf('longer_name') + 5)).toBe(7);
  });

  it('refuses overlapping rewrites', () => {
    expect(() =>
      applyEdits(unchanged('abcdef'), [
        { start: 1, end: 4, text: 'x' },
        { start: 3, end: 5, text: 'y' },
      ]),
    ).toThrow(/overlapping/);
  });
});

describe('missingJoinCondition', () => {
  it("finds where MindsDB's JOIN without ON needs a condition for DuckDB", () => {
    const sql = 'SELECT * FROM t AS a JOIN mindsdb.m AS m LIMIT 5';
    expect(missingJoinCondition(sql, sql.indexOf('LIMIT'))).toBe(sql.indexOf(' LIMIT'));
    const end = 'SELECT * FROM t JOIN m';
    expect(missingJoinCondition(end, end.length)).toBe(end.length);
  });

  it('does not touch a real syntax error', () => {
    const sql = 'SELECT * FROM t JOIN m ON a = WHERE';
    expect(missingJoinCondition(sql, sql.indexOf('WHERE'))).toBeNull();
    const cross = 'SELECT * FROM t CROSS JOIN m LIMIT';
    expect(missingJoinCondition(cross, cross.length)).toBeNull();
    expect(missingJoinCondition('SELECT FROM WHERE', 7)).toBeNull();
  });
});
