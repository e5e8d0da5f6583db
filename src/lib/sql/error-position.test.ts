import { describe, expect, it } from 'vitest';
import { markerRange, toScriptPosition } from './error-position';

describe('toScriptPosition', () => {
  it('maps a statement-relative position into the script', () => {
    const script = 'SELECT 1;\n\n  SELECT *\nFROM nope';
    const start = script.indexOf('SELECT *');
    const sql = 'SELECT *\nFROM nope';
    expect(toScriptPosition(script, start, sql, { line: 2, column: 6 })).toEqual({
      line: 4,
      column: 6,
    });
    expect(toScriptPosition(script, start, sql, { line: 1, column: 1 })).toEqual({
      line: 3,
      column: 3,
    });
  });
});

describe('markerRange', () => {
  it('underlines the word at the position', () => {
    expect(markerRange('SELECT * FROM nope x', { line: 1, column: 15 })).toEqual({
      startLine: 1,
      startColumn: 15,
      endLine: 1,
      endColumn: 19,
    });
  });
  it('underlines at least one character', () => {
    expect(markerRange('SELECT (', { line: 1, column: 8 })).toMatchObject({ endColumn: 9 });
  });
});
