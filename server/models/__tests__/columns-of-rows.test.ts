/**
 * Rows as columns: a batch whose rows all have the same keys in the same order is read by a
 * generated function; any other batch by the walk key by key. Both answer what the rows say:
 * columns in the order keys first appear, null where a row lacks a key, the same errors.
 */
import { describe, expect, it } from 'vitest';
import { columnsOfRows } from '../predict/batch';

/** The columns as the rows define them (the reference). */
function reference(rows: Record<string, unknown>[]): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = Object.create(null);
  rows.forEach((r, i) => {
    for (const k of Object.keys(r)) {
      out[k] ??= new Array<unknown>(rows.length).fill(null);
      out[k][i] = r[k];
    }
  });
  return out;
}

const same = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ b: i, a: `t${i % 3}`, '10': i % 2 === 0, 'x y': null }));

describe('columnsOfRows', () => {
  const shapes: [string, Record<string, unknown>[]][] = [
    ['one shape (generated)', same(100)],
    [
      'one shape, parsed from JSON',
      JSON.parse(JSON.stringify(same(100))) as Record<string, unknown>[],
    ],
    ['a row with its keys in another order', [...same(50), { a: 'z', b: 1, '10': true, 'x y': 2 }]],
    ['a row without a key', [...same(50), { b: 1, a: 'z', '10': false }]],
    ['a row with one more key', [...same(50), { b: 1, a: 'z', '10': false, 'x y': 3, c: 9 }]],
    ['a `__proto__` key', JSON.parse(JSON.stringify(same(40)).replaceAll('"x y"', '"__proto__"'))],
    ['few rows', same(5)],
  ];
  for (const [what, rows] of shapes) {
    it(`${what}: the columns the rows say`, () => {
      const got = columnsOfRows(rows);
      const want = reference(rows);
      expect(Object.keys(got)).toEqual(Object.keys(want));
      for (const k of Object.keys(want)) expect(got[k]).toEqual(want[k]);
      expect(Object.getPrototypeOf(got)).toBeNull();
    });
  }

  it('names the first row that is not an object, whatever the batch', () => {
    const rows: unknown[] = [...same(60)];
    rows[41] = [1, 2];
    expect(() => columnsOfRows(rows)).toThrow('Row 42 is not an object of column values');
    rows[41] = null;
    expect(() => columnsOfRows(rows)).toThrow('Row 42 is not an object of column values');
  });
});
