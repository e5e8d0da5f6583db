/**
 * The scanner the server and the playground share (contract/sql-split.ts): where strings,
 * names, comments and statements end, so both sides split a script the same way.
 */
import { describe, expect, it } from 'vitest';
import { scanSegments, scanSql, splitStatements, tokenValue } from '../../../contract/sql-split';

const kinds = (sql: string) =>
  scanSql(sql)
    .filter((t) => t.kind !== 'ws')
    .map((t) => [t.kind, sql.slice(t.start, t.end)]);

describe('scanSql', () => {
  it('reads quoted names, strings with doubled quotes, parameters, variables and casts', () => {
    expect(kinds('SELECT `a b`, "c""d", \'it\'\'s\', :p, @@version_comment, x::INT')).toEqual([
      ['word', 'SELECT'],
      ['quoted', '`a b`'],
      ['op', ','],
      ['quoted', '"c""d"'],
      ['op', ','],
      ['string', "'it''s'"],
      ['op', ','],
      ['param', ':p'],
      ['op', ','],
      ['variable', '@@version_comment'],
      ['op', ','],
      ['word', 'x'],
      ['op', '::'],
      ['word', 'INT'],
    ]);
  });

  it('decodes values: quotes removed, escapes applied', () => {
    const sql = "`a``b` \"c\"\"d\" 'e''f' E'g\\'h' $$i;j$$ :name";
    const values = scanSql(sql)
      .filter((t) => t.kind !== 'ws')
      .map((t) => tokenValue(sql, t));
    expect(values).toEqual(['a`b', 'c"d', "e'f", "g'h", 'i;j', 'name']);
  });

  it('reads a version after a name as a dot and a number, and a fraction as one number', () => {
    expect(kinds('p.m.2 m.2.features 1.5 .5')).toEqual([
      ['word', 'p'],
      ['op', '.'],
      ['word', 'm'],
      ['op', '.'],
      ['number', '2'],
      ['word', 'm'],
      ['op', '.'],
      ['number', '2'],
      ['op', '.'],
      ['word', 'features'],
      ['number', '1.5'],
      ['number', '.5'],
    ]);
  });

  it('flags unterminated strings, names and block comments, running to the end', () => {
    for (const [sql, kind] of [
      ["SELECT 'abc", 'string'],
      ['SELECT `abc', 'quoted'],
      ['SELECT "abc', 'quoted'],
      ['SELECT /* x', 'comment'],
      ['SELECT $$ x', 'string'],
    ] as const) {
      const last = scanSql(sql).at(-1)!;
      expect(last).toMatchObject({ kind, unterminated: true, end: sql.length });
    }
  });
});

describe('scanSegments / splitStatements', () => {
  it('splits on semicolons outside strings, names, dollar quotes and comments, with offsets', () => {
    const src =
      'SELECT \';\' AS a; -- c;\nSELECT "x;y", `p;q`, $$r;s$$ FROM t /* ; */;\n\n  ;SELECT 3';
    const s = splitStatements(src);
    expect(s.map((x) => x.sql)).toEqual([
      "SELECT ';' AS a",
      '-- c;\nSELECT "x;y", `p;q`, $$r;s$$ FROM t /* ; */',
      'SELECT 3',
    ]);
    for (const x of s) expect(src.slice(x.start, x.end)).toBe(x.sql);
  });

  it('keeps blank and comment-only segments in scanSegments and drops them in splitStatements', () => {
    expect(scanSegments('-- a\n/* b */ ;  ; ').map((x) => x.hasCode)).toEqual([
      false,
      false,
      false,
    ]);
    expect(splitStatements('-- a\n/* b */ ;  ; ')).toEqual([]);
  });

  it('reports where an unterminated string starts', () => {
    const [s] = splitStatements("SELECT 1; SELECT 'abc; SELECT 2").slice(1);
    expect(s).toMatchObject({ unterminated: 'string', unterminatedAt: 17 });
  });
});
