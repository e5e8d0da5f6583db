import { describe, expect, it } from 'vitest';
import { isBlankSql, offsetAt, positionAt, splitStatements, statementAtCursor } from './split';

const sqls = (text: string) => splitStatements(text).map((s) => s.sql);

describe('splitStatements', () => {
  it('splits at top-level semicolons and trims each statement', () => {
    expect(sqls('SELECT 1;  SELECT 2 ;\nSELECT 3')).toEqual(['SELECT 1', 'SELECT 2', 'SELECT 3']);
  });

  it('keeps semicolons inside strings, quoted identifiers and comments', () => {
    const text = `SELECT 'a;b', "c;d", \`e;f\` -- g;h
FROM t /* i;j */; SELECT $$k;l$$, $tag$m;n$tag$`;
    expect(sqls(text)).toEqual([
      `SELECT 'a;b', "c;d", \`e;f\` -- g;h\nFROM t /* i;j */`,
      'SELECT $$k;l$$, $tag$m;n$tag$',
    ]);
  });

  it('handles doubled quotes as escapes', () => {
    expect(sqls('SELECT \'it\'\'s;\'; SELECT "a"";"')).toEqual([
      "SELECT 'it''s;'",
      'SELECT "a"";"',
    ]);
  });

  it('drops blank and comment-only segments', () => {
    expect(sqls(';;  -- only a comment\n; /* block */ ;SELECT 1;;')).toEqual(['SELECT 1']);
  });

  it('reports the offsets of each statement in the script', () => {
    const text = '  SELECT 1;\nSELECT 2';
    const [a, b] = splitStatements(text);
    expect(text.slice(a.start, a.end)).toBe('SELECT 1');
    expect(a.start).toBe(2);
    expect(text.slice(b.start, b.end)).toBe('SELECT 2');
  });

  it('flags an unterminated string and keeps the rest of the script in that statement', () => {
    const [s, ...rest] = splitStatements("SELECT 'abc; SELECT 2");
    expect(rest).toEqual([]);
    expect(s.unterminated).toBe('string');
    expect(s.sql).toBe("SELECT 'abc; SELECT 2");
  });

  it('flags an unterminated block comment', () => {
    expect(splitStatements('SELECT 1 /* open').at(0)?.unterminated).toBe('comment');
  });

  // No wall-clock bound (a busy machine must not fail it): a scanner that went back over the text
  // per statement would need ~10^10 steps here and never finish within the generous timeout.
  it(
    'splits 1 MB of SQL into its 40,000 statements, quoted semicolons kept',
    { timeout: 60_000 },
    () => {
      const big = "SELECT 1 AS a, 'x;y' AS b;\n".repeat(40_000);
      const parts = splitStatements(big);
      expect(parts).toHaveLength(40_000);
      expect(parts[39_999]?.sql).toBe("SELECT 1 AS a, 'x;y' AS b");
    },
  );
});

describe('statementAtCursor', () => {
  const text = 'SELECT 1;\nSELECT 2;\n\n-- note\nSELECT 3';

  it('returns the statement containing the cursor', () => {
    expect(statementAtCursor(text, text.indexOf('2'))?.sql).toBe('SELECT 2');
    expect(statementAtCursor(text, text.indexOf('3'))?.sql).toBe('-- note\nSELECT 3');
  });

  it('treats a cursor right after a semicolon as on the statement it ends', () => {
    expect(statementAtCursor(text, text.indexOf(';') + 1)?.sql).toBe('SELECT 1');
    expect(statementAtCursor('SELECT 1;  ', 11)?.sql).toBe('SELECT 1');
  });

  it('picks the statement at the start of a line even after a semicolon line', () => {
    expect(statementAtCursor(text, text.indexOf('SELECT 2'))?.sql).toBe('SELECT 2');
  });

  it('falls back to the nearest statement from blank trailing lines', () => {
    expect(statementAtCursor('SELECT 1;\n\n\n', 12)?.sql).toBe('SELECT 1');
    expect(statementAtCursor('\n\nSELECT 9', 0)?.sql).toBe('SELECT 9');
  });

  it('returns undefined for an empty or comment-only script', () => {
    expect(statementAtCursor('', 0)).toBeUndefined();
    expect(statementAtCursor('-- just a comment\n/* and another */', 5)).toBeUndefined();
    expect(isBlankSql('  -- c\n ')).toBe(true);
    expect(isBlankSql('SELECT 1')).toBe(false);
  });
});

describe('offsetAt / positionAt', () => {
  const text = 'ab\ncde\nf';
  it('convert between 1-based line/column and offsets', () => {
    expect(offsetAt(text, 2, 2)).toBe(4);
    expect(positionAt(text, 4)).toEqual({ line: 2, column: 2 });
    expect(offsetAt(text, 9, 1)).toBe(text.length);
    expect(offsetAt(text, 1, 99)).toBe(2);
  });
});
