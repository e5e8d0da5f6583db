// Target encoding of high-cardinality categoricals: the trees' codes keep the 253 most frequent
// categories (one byte per cell); the rest would share the 'other' code. Each category also gets
// the smoothed mean of the target over its rows as a number (one per class for multiclass), so a
// rarer category still says what it knows. Training rows get it out of fold (their own target is
// never in their value).

import { fromBase64, toBase64 } from '../base64';
import { type Rng, permutation } from '../prng';
import { type ValueKind, categoryKey } from './column-types';

/** Categories kept with a value (the most frequent; the others get the prior). */
const MAX_ENCODED_LEVELS = 20_000;
/** Categories seen fewer times than this get the prior (a value from 1 row is its target). */
const MIN_LEVEL_ROWS = 2;
/** Prior weight: a category with m rows is half its own mean, half the overall mean. */
const SMOOTHING = 10;
const FOLDS = 5;

/** As stored in a categorical encoder. */
export interface TargetEncoding {
  keys: string[];
  /** keys.length x K smoothed means (base64 Float64). */
  values: string;
  prior: number[];
  K: number;
}

/**
 * Fits the encoding of one column from `targets` (n x K: standardized values, 0/1 or one-hot
 * classes) and returns it with the out-of-fold values of the n training rows (one array per k).
 */
export function fitTargetEncoding(opts: {
  values: ArrayLike<unknown>;
  kind: ValueKind;
  targets: Float64Array;
  K: number;
  rng: Rng;
}): { encoding: TargetEncoding; oof: Float64Array[] } {
  const { values, kind, targets, K, rng } = opts;
  const n = values.length;
  const keyOf = Array.from({ length: n }, (_, i) => categoryKey(values[i], kind));
  const prior = new Float64Array(K);
  for (let i = 0; i < n; i++) for (let k = 0; k < K; k++) prior[k] += targets[i * K + k];
  for (let k = 0; k < K; k++) prior[k] /= Math.max(1, n);
  // Sums per category and fold.
  const fold = new Int32Array(n);
  const perm = permutation(n, rng);
  for (let i = 0; i < n; i++) fold[perm[i]] = i % FOLDS;
  const stats = new Map<string, { count: Float64Array; sum: Float64Array }>();
  for (let i = 0; i < n; i++) {
    const key = keyOf[i];
    if (key === null) continue;
    let s = stats.get(key);
    if (!s) stats.set(key, (s = { count: new Float64Array(FOLDS), sum: new Float64Array(FOLDS * K) }));
    s.count[fold[i]]++;
    for (let k = 0; k < K; k++) s.sum[fold[i] * K + k] += targets[i * K + k];
  }
  const smooth = (sum: number, count: number, k: number) =>
    (sum + SMOOTHING * prior[k]) / (count + SMOOTHING);
  const oof = Array.from({ length: K }, () => new Float64Array(n));
  for (let i = 0; i < n; i++) {
    const key = keyOf[i];
    const s = key === null ? undefined : stats.get(key);
    for (let k = 0; k < K; k++) {
      if (!s) {
        oof[k][i] = prior[k];
        continue;
      }
      let count = 0;
      let sum = 0;
      for (let f = 0; f < FOLDS; f++) {
        if (f === fold[i]) continue;
        count += s.count[f];
        sum += s.sum[f * K + k];
      }
      oof[k][i] = smooth(sum, count, k);
    }
  }
  const total = (s: { count: Float64Array }) => s.count.reduce((a, b) => a + b, 0);
  const kept = [...stats.entries()]
    .filter(([, s]) => total(s) >= MIN_LEVEL_ROWS)
    .sort((a, b) => total(b[1]) - total(a[1]) || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, MAX_ENCODED_LEVELS);
  const vals = new Float64Array(kept.length * K);
  kept.forEach(([, s], j) => {
    const count = total(s);
    for (let k = 0; k < K; k++) {
      let sum = 0;
      for (let f = 0; f < FOLDS; f++) sum += s.sum[f * K + k];
      vals[j * K + k] = smooth(sum, count, k);
    }
  });
  return {
    encoding: { keys: kept.map(([k]) => k), values: toBase64(vals), prior: Array.from(prior), K },
    oof,
  };
}

const lookups = new WeakMap<TargetEncoding, { index: Map<string, number>; values: Float64Array }>();

/** One stream per k of the encoded values of raw cells (unknown or missing: the prior). */
export function targetEncodingStreams(
  te: TargetEncoding,
  values: ArrayLike<unknown>,
  kind: ValueKind,
  n: number,
): Float64Array[] {
  let l = lookups.get(te);
  if (!l) {
    l = {
      index: new Map(te.keys.map((k, j) => [k, j])),
      values: fromBase64(te.values, (b) => new Float64Array(b)),
    };
    lookups.set(te, l);
  }
  const K = te.K;
  const out = Array.from({ length: K }, () => new Float64Array(n));
  for (let i = 0; i < n; i++) {
    const key = categoryKey(values[i], kind);
    const j = key === null ? undefined : l.index.get(key);
    for (let k = 0; k < K; k++) out[k][i] = j === undefined ? te.prior[k] : l.values[j * K + k];
  }
  return out;
}
