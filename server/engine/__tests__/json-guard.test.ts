/**
 * Issue 22, item 2(a): DuckDB's recursing JSON functions never see input nested deeper than
 * JSON_MAX_DEPTH. `SELECT json_structure(repeat('[', 100000) || repeat(']', 100000))` ended the
 * process with SIGSEGV (DuckDB 1.5.6); now it is a clear error and the instance keeps serving.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../test/harness';
import { guardJsonCalls, jsonDepth, JsonDepthMeter } from '../json-guard';

const DEEP = `repeat('[', 100000) || repeat(']', 100000)`;

describe('jsonDepth and JsonDepthMeter', () => {
  it('count arrays and objects, not brackets inside strings', () => {
    expect(jsonDepth('[]')).toBe(1);
    expect(jsonDepth('{"a": [1, {"b": [2]}]}')).toBe(4);
    expect(jsonDepth('["[[[[", "\\"[[["]')).toBe(1);
    expect(jsonDepth('1')).toBe(0);
    const m = new JsonDepthMeter();
    // A string and an escape split across chunks.
    for (const part of ['[{"a": "[[\\', '"[[", "b": [[', '1]]}]']) m.push(Buffer.from(part));
    expect(m.max).toBe(4);
  });
});

describe('guardJsonCalls', () => {
  it('wraps the input of json_structure however it is spelled', () => {
    for (const call of [
      'json_structure',
      'JSON_STRUCTURE',
      '"json_structure"',
      'main.json_structure',
      'json_group_structure',
    ]) {
      const g = guardJsonCalls(`SELECT ${call}(x + 1) FROM t`, 100)!;
      expect(g.sql).toBe(`SELECT ${call}(json_depth_guard((x + 1)::JSON::VARCHAR)::JSON) FROM t`);
    }
    expect(guardJsonCalls(`SELECT 'json_structure(x)' /* json_structure(y) */`, 100)).toBeNull();
  });

  it('maps offsets in the guarded text back to the statement as written', () => {
    const sql = 'SELECT json_structure(a), b FROM t';
    const g = guardJsonCalls(sql, 100)!;
    expect(g.toOriginal(g.sql.indexOf(', b'))).toBe(sql.indexOf(', b'));
    expect(g.toOriginal(g.sql.indexOf('FROM'))).toBe(sql.indexOf('FROM'));
    expect(g.toOriginal(0)).toBe(0);
  });

  it('refuses a json_transform structure that is deep or not a literal', () => {
    expect(() => guardJsonCalls(`SELECT json_transform(j, '[[["INTEGER"]]]') FROM t`, 2)).toThrow(
      /nested 3 levels deep; the limit is 2/,
    );
    expect(() => guardJsonCalls(`SELECT from_json(j, ${DEEP})`, 100)).toThrow(/string literal/);
    expect(guardJsonCalls(`SELECT json_transform(j, '{"a": "INTEGER"}') FROM t`, 100)).toBeNull();
  });
});

describe('deep JSON in SQL over HTTP', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('refuses json_structure on deeply nested input instead of crashing the engine', async () => {
    const r = await h.sql(`SELECT json_structure(${DEEP}) AS s`);
    expect(r.type).toBe('error');
    expect(r.error_message).toMatch(
      /nested 100000 levels deep; the limit is 100 \(JSON_MAX_DEPTH\)/,
    );
    const group = await h.sql(`SELECT json_group_structure(j) FROM (SELECT (${DEEP})::JSON AS j)`);
    expect(group.type).toBe('error');
    expect(group.error_message).toMatch(/limit is 100/);
    const transform = await h.sql(`SELECT json_transform('1', ${DEEP})`);
    expect(transform.type).toBe('error');
    expect(transform.error_message).toMatch(/string literal/);
    // Still serving, and ordinary JSON still works.
    const ok = await h.sql(
      `SELECT json_structure('{"a": [1, 2]}') AS s, json_group_structure(j) AS g FROM (SELECT '{"b": 1}'::JSON AS j)`,
    );
    expect(ok.data).toEqual([['{"a":["UBIGINT"]}', '{"b":"UBIGINT"}']]);
  });

  it('points errors inside a guarded statement at what the user wrote', async () => {
    const r = await h.sql(`SELECT json_structure('{"a": 1}'), nope FROM range(1)`);
    expect(r.type).toBe('error');
    expect(r.error_message).toMatch(/nope.*\(line 1, column 36\)/);
  });
});
