// Row index helpers shared by the pipeline and the analysis.

import { Rng, permutation } from './prng';

/**
 * At most `max` of `rows`: a seeded sample (kept in the original order) beyond that, else `rows`
 * itself. Uses its own RNG stream so small tables draw exactly the numbers they always did.
 */
export function capRows(rows: Int32Array, max: number, seed: number): Int32Array {
  if (rows.length <= max) return rows;
  const keep = new Uint8Array(rows.length);
  const p = permutation(rows.length, new Rng(seed));
  for (let i = 0; i < max; i++) keep[p[i]] = 1;
  const out = new Int32Array(max);
  let j = 0;
  for (let i = 0; i < rows.length; i++) if (keep[i]) out[j++] = rows[i];
  return out;
}

/** 0..n-1. */
export function allRows(n: number): Int32Array {
  return Int32Array.from({ length: n }, (_, i) => i);
}

/** The arrays one after the other, in a new array made by `make` (Int32Array, Float64Array). */
export function concatArrays<T extends Int32Array | Float64Array>(
  arrays: T[],
  make: new (n: number) => T,
): T {
  const out = new make(arrays.reduce((s, a) => s + a.length, 0));
  let o = 0;
  for (const a of arrays) {
    out.set(a, o);
    o += a.length;
  }
  return out;
}
