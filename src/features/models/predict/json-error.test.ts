import { describe, expect, it } from 'vitest';
import { jsonErrorRange } from './json-error';

function parseError(text: string): string {
  try {
    JSON.parse(text);
  } catch (e) {
    return `Invalid JSON: ${(e as Error).message}`;
  }
  throw new Error('valid JSON');
}

describe('jsonErrorRange', () => {
  it('marks the character V8 names by its position, on its line', () => {
    const text = '[\n  {"sqft": 500 "x": 1}\n]';
    const r = jsonErrorRange(text, parseError(text));
    expect(r).toEqual({ startLine: 2, startColumn: 16, endLine: 2, endColumn: 17 });
  });

  it('marks the last character when the text ends too early', () => {
    const text = '[{"sqft": 500,\n';
    const r = jsonErrorRange(text, parseError(text));
    expect(r).toEqual({ startLine: 1, startColumn: 14, endLine: 1, endColumn: 15 });
  });

  it('marks the whole text when it is valid JSON of the wrong shape', () => {
    expect(jsonErrorRange('{\n  "a": 1\n}', 'The body must be a JSON array')).toEqual({
      startLine: 1,
      startColumn: 1,
      endLine: 3,
      endColumn: 2,
    });
  });

  it('copes with messages without a position and with empty text', () => {
    expect(jsonErrorRange('{', 'Invalid JSON: nope')).toEqual({
      startLine: 1,
      startColumn: 1,
      endLine: 1,
      endColumn: 2,
    });
    expect(jsonErrorRange('', 'Invalid JSON: Unexpected end of JSON input')).toEqual({
      startLine: 1,
      startColumn: 1,
      endLine: 1,
      endColumn: 1,
    });
  });
});
