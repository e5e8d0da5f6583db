import { describe, expect, it } from 'vitest';
import { lineColumn, significant, splitStatements, tokenize } from '../lexer';
import { toDuckDBSql } from '../service';
import { Cursor } from '../cursor';

describe('tokenize', () => {
  it('reads quoted identifiers, strings with doubled quotes, params and casts', () => {
    const t = significant(tokenize('SELECT `a b`, "c""d", \'it\'\'s\', :p, x::INT FROM t'));
    expect(t.map((x) => [x.kind, x.value])).toEqual([
      ['word', 'SELECT'],
      ['ident', 'a b'],
      ['punct', ','],
      ['ident', 'c"d'],
      ['punct', ','],
      ['string', "it's"],
      ['punct', ','],
      ['param', 'p'],
      ['punct', ','],
      ['word', 'x'],
      ['punct', '::'],
      ['word', 'INT'],
      ['word', 'FROM'],
      ['word', 't'],
    ]);
  });

  it('flags unterminated strings, identifiers and block comments', () => {
    expect(tokenize("SELECT 'abc").at(-1)).toMatchObject({ kind: 'string', unterminated: true });
    expect(tokenize('SELECT `abc').at(-1)).toMatchObject({ kind: 'ident', unterminated: true });
    expect(tokenize('SELECT /* x').at(-1)).toMatchObject({ kind: 'comment', unterminated: true });
  });

  it('keeps a version number after a dot as a number token', () => {
    const t = significant(tokenize('m.2'));
    expect(t.map((x) => x.text)).toEqual(['m', '.2']);
  });
});

describe('splitStatements', () => {
  it('splits on top-level semicolons only, with offsets into the script', () => {
    const src = 'SELECT \';\' AS a; -- c;\nSELECT "x;y" FROM t /* ; */;\n\n  ;SELECT 3';
    const s = splitStatements(src);
    expect(s.map((x) => x.text)).toEqual([
      "SELECT ';' AS a",
      '-- c;\nSELECT "x;y" FROM t /* ; */',
      'SELECT 3',
    ]);
    for (const x of s) expect(src.slice(x.start, x.end)).toBe(x.text);
  });

  it('drops statements that are only comments or whitespace', () => {
    expect(splitStatements('-- a\n/* b */ ;  ; ')).toEqual([]);
  });
});

describe('lineColumn', () => {
  it('maps offsets to 1-based line and column', () => {
    expect(lineColumn('ab\ncd', 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
  });
});

describe('toDuckDBSql', () => {
  it('turns backticks into double quotes and :params into $params, preserving length', () => {
    const src = 'SELECT `a`, :p FROM `t` WHERE x::INT = 1';
    const out = toDuckDBSql(tokenize(src), src, { p: 1 });
    expect(out).toBe('SELECT "a", $p FROM "t" WHERE x::INT = 1');
    expect(out).toHaveLength(src.length);
  });
});

describe('Cursor', () => {
  const cur = (s: string) => new Cursor(significant(tokenize(s)), s);
  it('reads dotted names with mixed quoting and versions', () => {
    expect(cur('`p`.`m`.`2`').dottedName()).toEqual(['p', 'm', '2']);
    expect(cur('p.m.2').dottedName()).toEqual(['p', 'm', '2']);
    expect(cur('"p".m . 3').dottedName()).toEqual(['p', 'm', '3']);
  });
  it('reads literals, treating double-quoted text as a string value', () => {
    const c = cur(`'a' "b" -3 1.5 TRUE NULL`);
    expect([c.literal(), c.literal(), c.literal(), c.literal(), c.literal(), c.literal()]).toEqual([
      'a',
      'b',
      -3,
      1.5,
      true,
      null,
    ]);
  });
  it('returns the source inside balanced parentheses', () => {
    const c = cur('(SELECT (1) FROM t) PREDICT y');
    expect(c.parenthesized()).toBe('SELECT (1) FROM t');
    expect(c.isWord('PREDICT')).toBe(true);
  });
  it('fails with where it stopped', () => {
    expect(() => cur('CREATE x').expectWord('CREATE', 'MODEL')).toThrow(
      "Syntax error: expected CREATE MODEL near 'CREATE'",
    );
  });
});
