// Quantile binning of numbers for the GBM: at most 254 value bins plus a missing bin, so a binned
// cell fits one byte.

import type { Rng } from '../prng';

/** Bins per tree feature including the missing bin; fits a Uint8 so the binned matrix is 1 byte/cell. */
export const MAX_BINS = 255;
/** Value bins for numbers: MAX_BINS minus the missing bin. */
const MAX_VALUE_BINS = MAX_BINS - 1;
/**
 * Values used to place quantile bin edges (a seeded sample beyond): 254 quantiles of 50k values
 * are within ~0.2 % of the exact ones, and sorting 200k values per column cost a large table
 * ~0.1 s of its training.
 */
const BIN_SAMPLE = 50_000;

/**
 * Bin edges for the GBM: every distinct value gets its own bin when there are at most 254 of
 * them (exact splits, as for rooms/age/days_on_market), otherwise edges at quantiles so each bin
 * holds about the same number of rows. Edges are midpoints between neighbouring distinct values so
 * equal values never straddle an edge.
 */
export function fitBinThresholds(values: Float64Array, rng: Rng): number[] {
  let xs: Float64Array;
  let m = 0;
  for (let i = 0; i < values.length; i++) if (!Number.isNaN(values[i])) m++;
  if (m > BIN_SAMPLE) {
    // A seeded uniform subsample (a partial Fisher-Yates shuffle: BIN_SAMPLE draws, not m).
    const all = new Float64Array(m);
    let k = 0;
    for (let i = 0; i < values.length; i++) if (!Number.isNaN(values[i])) all[k++] = values[i];
    for (let i = 0; i < BIN_SAMPLE; i++) {
      const j = i + rng.int(m - i);
      const t = all[i];
      all[i] = all[j];
      all[j] = t;
    }
    xs = all.slice(0, BIN_SAMPLE);
  } else {
    xs = new Float64Array(m);
    let k = 0;
    for (let i = 0; i < values.length; i++) if (!Number.isNaN(values[i])) xs[k++] = values[i];
  }
  xs.sort();
  const distinct: number[] = [];
  for (let i = 0; i < xs.length; i++) if (i === 0 || xs[i] !== xs[i - 1]) distinct.push(xs[i]);
  const thr: number[] = [];
  if (distinct.length <= MAX_VALUE_BINS) {
    for (let i = 0; i + 1 < distinct.length; i++) thr.push(midpoint(distinct[i], distinct[i + 1]));
    return thr;
  }
  // Quantile edges snapped to the gap after the quantile value; duplicates collapse.
  let di = 0;
  for (let j = 1; j < MAX_VALUE_BINS; j++) {
    const v = xs[Math.min(xs.length - 1, Math.floor((j * xs.length) / MAX_VALUE_BINS))];
    while (di < distinct.length && distinct[di] < v) di++;
    // distinct[di] === v; the edge goes between v and the next distinct value.
    if (di + 1 >= distinct.length) break;
    const t = midpoint(distinct[di], distinct[di + 1]);
    if (thr.length === 0 || t > thr[thr.length - 1]) thr.push(t);
  }
  return thr;
}

function midpoint(a: number, b: number): number {
  const m = a + (b - a) / 2;
  return m < b ? m : a;
}

/** Bin of a number: first edge >= v (binary search), NaN -> the missing bin. */
export function binOf(thr: Float64Array, v: number): number {
  if (Number.isNaN(v)) return thr.length + 1;
  return binIndex(thr, thr.length, v);
}

/**
 * The first i < m with v <= thr[i], else m (v not NaN): a binary search whose halving step is a
 * select, not a branch. Which half a value falls in is a coin flip, so the branching search
 * mispredicted about every other step; binning a 100k-row table's columns took twice as long.
 */
export function binIndex(thr: Float64Array, m: number, v: number): number {
  if (m === 0) return 0;
  let base = 0;
  let len = m;
  while (len > 1) {
    const half = len >>> 1;
    base = thr[base + half - 1] < v ? base + half : base;
    len -= half;
  }
  return thr[base] < v ? base + 1 : base;
}
