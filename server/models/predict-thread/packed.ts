/**
 * A column of JSON values as it crosses between the instance's thread and the prediction thread:
 * numbers as a Float64Array (NaN for null), booleans as an Int8Array (-1 for null), a column of
 * few distinct values as codes into them, anything else as it is. Typed arrays move (their buffer
 * is transferred): structured cloning an array copies and re-allocates every cell, which cost
 * more than predicting them (the 10-class 64-input model's 10k-row reply).
 */
import type { JsonValue } from '../../engine/values';

export type PackedColumn =
  | { t: 'f64'; v: Float64Array }
  | { t: 'bool'; v: Int8Array }
  | { t: 'codes'; v: Uint16Array; of: JsonValue[] }
  | { t: 'cells'; v: JsonValue[] };

/** Distinct values a column may have to go as codes (an eighth of its cells, at most 4,096). */
const MAX_CODES = 4096;
/** Longer strings are not looked up (an `_explain` text per row: hashing them cost more). */
const MAX_CODE_LENGTH = 64;

/**
 * A copy of a Float64Array whose buffer is pushed to `transfer` (the caller's array stays usable:
 * a view of a request's column shares its buffer with the other columns' views).
 */
export function movedCopy(col: Float64Array, transfer: ArrayBuffer[]): Float64Array {
  const v = col.slice();
  transfer.push(v.buffer);
  return v;
}

/** Packs a column; the buffers to transfer are pushed to `transfer`. */
export function packColumn(
  col: readonly JsonValue[] | Float64Array,
  transfer: ArrayBuffer[],
): PackedColumn {
  // Numbers in every row already (an HTTP body's column): its own copy moves.
  if (col instanceof Float64Array) return { t: 'f64', v: movedCopy(col, transfer) };
  const n = col.length;
  let numbers = true;
  let booleans = true;
  for (let i = 0; i < n && (numbers || booleans); i++) {
    const x = col[i];
    if (x === null) continue;
    // NaN is no JSON value, but would come back as null: such a column goes as cells.
    if (typeof x !== 'number' || x !== x) numbers = false;
    if (typeof x !== 'boolean') booleans = false;
  }
  if (numbers) {
    const v = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const x = col[i];
      v[i] = x === null ? NaN : (x as number);
    }
    transfer.push(v.buffer);
    return { t: 'f64', v };
  }
  if (booleans) {
    const v = new Int8Array(n);
    for (let i = 0; i < n; i++) v[i] = col[i] === null ? -1 : col[i] ? 1 : 0;
    transfer.push(v.buffer);
    return { t: 'bool', v };
  }
  const limit = Math.min(MAX_CODES, n >>> 3);
  const index = new Map<JsonValue, number>();
  const of: JsonValue[] = [];
  const v = new Uint16Array(n);
  for (let i = 0; i < n; i++) {
    const x = col[i];
    // Only scalars compare by value (and a Map takes -0 for 0): such a column goes as cells.
    if (
      (x !== null && typeof x === 'object') ||
      Object.is(x, -0) ||
      (typeof x === 'string' && x.length > MAX_CODE_LENGTH)
    )
      return { t: 'cells', v: col as JsonValue[] };
    let c = index.get(x);
    if (c === undefined) {
      if (of.length >= limit) return { t: 'cells', v: col as JsonValue[] };
      c = of.length;
      of.push(x);
      index.set(x, c);
    }
    v[i] = c;
  }
  transfer.push(v.buffer);
  return { t: 'codes', v, of };
}

/** The column a packed one was made from, cell for cell. */
export function unpackColumn(p: PackedColumn): JsonValue[] {
  switch (p.t) {
    case 'cells':
      return p.v;
    case 'f64': {
      const { v } = p;
      let nulls = false;
      for (let i = 0; i < v.length && !nulls; i++) nulls = v[i] !== v[i];
      // Without nulls, an array of unboxed doubles.
      if (!nulls) return Array.from(v);
      const out = new Array<JsonValue>(v.length);
      for (let i = 0; i < v.length; i++) out[i] = v[i] === v[i] ? v[i] : null;
      return out;
    }
    case 'bool': {
      const { v } = p;
      const out = new Array<JsonValue>(v.length);
      for (let i = 0; i < v.length; i++) out[i] = v[i] < 0 ? null : v[i] === 1;
      return out;
    }
    case 'codes': {
      const { v, of } = p;
      const out = new Array<JsonValue>(v.length);
      for (let i = 0; i < v.length; i++) out[i] = of[v[i]];
      return out;
    }
  }
}
