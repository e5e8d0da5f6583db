/**
 * Columns packed for the prediction thread come back cell for cell: numbers (-0 kept), booleans,
 * labels as codes, nulls among each; what cannot be packed faithfully (NaN, -0 among labels,
 * objects, long texts) goes as it is.
 */
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../engine/values';
import { packColumn, unpackColumn } from '../predict-thread/packed';

const n = 200;
const cases: [string, JsonValue[], string][] = [
  ['numbers', Array.from({ length: n }, (_, i) => (i === 3 ? -0 : i / 7)), 'f64'],
  ['numbers and nulls', Array.from({ length: n }, (_, i) => (i % 5 ? i * 1e-9 : null)), 'f64'],
  ['booleans and nulls', Array.from({ length: n }, (_, i) => (i % 3 ? i % 2 === 0 : null)), 'bool'],
  [
    'labels and nulls',
    Array.from({ length: n }, (_, i) => (i % 4 ? ['a', 'b', 1, true][i % 3] : null)),
    'codes',
  ],
  ['NaN', Array.from({ length: n }, (_, i) => (i === 9 ? NaN : i)), 'cells'],
  [
    '-0 among labels',
    Array.from({ length: n }, (_, i) => (i === 9 ? -0 : i % 2 ? 'x' : 0)),
    'cells',
  ],
  ['objects', Array.from({ length: n }, (_, i) => (i % 2 ? { i } : 'x')), 'cells'],
  ['long texts', Array.from({ length: n }, (_, i) => `${'x'.repeat(70)}${i % 3}`), 'cells'],
  ['distinct texts', Array.from({ length: n }, (_, i) => `row ${i}`), 'cells'],
];

describe('packed columns', () => {
  for (const [name, col, kind] of cases) {
    it(`${name}: ${kind}, the same cells back`, () => {
      const transfer: ArrayBuffer[] = [];
      const packed = packColumn(col, transfer);
      expect(packed.t).toBe(kind);
      expect(transfer.length).toBe(kind === 'cells' ? 0 : 1);
      const back = unpackColumn(structuredClone(packed));
      expect(back).toEqual(col);
      // -0 stays -0 (toEqual tells them apart), NaN stays NaN.
      back.forEach((x, i) => typeof x !== 'object' && expect(Object.is(x, col[i])).toBe(true));
    });
  }

  it('a Float64Array (an HTTP body column): its own copy moves, the same numbers back', () => {
    const body = new Float64Array(Array.from({ length: n }, (_, i) => (i === 3 ? -0 : i * 1.5)));
    const view = body.subarray(10, 110);
    const transfer: ArrayBuffer[] = [];
    const packed = packColumn(view, transfer);
    expect(packed.t).toBe('f64');
    expect(transfer).toHaveLength(1);
    // The request's own buffer is not the one moved: the body still reads after the transfer.
    expect(transfer[0]).not.toBe(body.buffer);
    const back = unpackColumn(structuredClone(packed, { transfer }));
    expect(back).toEqual(Array.from(view));
    expect(body[10]).toBe(15);
  });
});
