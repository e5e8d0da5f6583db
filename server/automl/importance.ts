// Permutation column importance (Lightwood's "GlobalFeatureImportance"-style analysis): how much
// the validation score drops when one INPUT column's values are shuffled across rows. It measures
// what the chosen model actually uses, works for every model type, and groups all features derived
// from one column (e.g. the six datetime parts) so users see columns, not encoder internals.

import { Rng, permutation } from './prng';

/**
 * `score(column, perm)` returns the validation score with column `column` permuted by `perm`
 * (perm === null: unpermuted). Returns one importance per column, normalised to SUM to 1 (so
 * values read as shares of the total effect); a column whose shuffling never hurts gets 0, and if
 * no column matters every importance is 0. `repeats` shuffles are averaged to reduce noise.
 */
export function permutationImportance(
  nColumns: number,
  nRows: number,
  score: (column: number, perm: Int32Array | null) => number,
  rng: Rng,
  repeats: number,
): number[] {
  const baseline = score(-1, null);
  const drops = new Array<number>(nColumns).fill(0);
  if (nRows < 2) return drops;
  for (let c = 0; c < nColumns; c++) {
    let s = 0;
    for (let rep = 0; rep < repeats; rep++) s += baseline - score(c, permutation(nRows, rng));
    drops[c] = Math.max(0, s / repeats);
  }
  const total = drops.reduce((a, b) => a + b, 0);
  return total > 0 ? drops.map((d) => round4(d / total)) : drops;
}

function round4(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}
