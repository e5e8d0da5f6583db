// Permutation column importance (Lightwood's "GlobalFeatureImportance"-style analysis): how much
// the validation score drops when one INPUT column's values are shuffled across rows. It measures
// what the chosen model actually uses, works for every model type, and groups all features derived
// from one column (e.g. the six datetime parts) so users see columns, not encoder internals.

import type { Encoded } from '../data/encoded';
import { type Rng, permutation } from '../prng';
import type { ScoreShape } from '../predict/score';
import { type ClassCalibration, classProbabilities } from './conformal';
import { r2Score } from './metrics';
import { type BlockPart, BlockScorer, type RowBlock } from './row-block';

/**
 * `score(column, perm)` returns the validation score with column `column` permuted by `perm`
 * (perm === null: unpermuted). Returns one importance per column, normalised to SUM to 1 (so
 * values read as shares of the total effect); a column whose shuffling never hurts gets 0, and if
 * no column matters every importance is 0. `repeats` shuffles are averaged to reduce noise.
 */
function permutationImportance(
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

/**
 * Permutation importance on the rows of `block`, each part scored with its own model. Regression
 * scores with r2; classification with the negative calibrated log-loss, because balanced accuracy
 * is a step function that leaves weak-but-real columns at exactly 0 on a few hundred rows.
 */
export function columnImportances(opts: {
  shape: ScoreShape;
  block: RowBlock;
  parts: BlockPart[];
  enc: Encoded;
  /** Targets of the block rows (standardized values or class codes). */
  yRows: Float64Array;
  /** Classifiers: the calibration the log-loss is computed with. */
  cal: ClassCalibration | null;
  rng: Rng;
}): number[] {
  const { block, parts, enc, yRows, cal, rng } = opts;
  const { task, K, nClasses } = opts.shape;
  const nR = block.n;
  const groups = enc.layout.encoderFeatures;
  const raw = new Float64Array(nR * K);
  const probs = new Float64Array(nClasses);
  const src = new Int32Array(nR);
  // Fewer rows need more shuffles for a stable estimate; 2 suffice from ~500 rows on.
  const repeats = nR < 200 ? 5 : nR < 500 ? 3 : 2;
  const scorer = new BlockScorer(block, parts, K);
  const score = (c: number, perm: Int32Array | null): number => {
    const feats = c >= 0 ? groups[c] : [];
    if (perm) {
      for (let i = 0; i < nR; i++) src[i] = block.rows[perm[i]];
      for (const f of feats) block.copyFeature(f, src);
    }
    scorer.score(perm ? feats : [], raw);
    let result: number;
    if (task === 'regression') result = r2Score(yRows, raw);
    else {
      let ll = 0;
      for (let i = 0; i < nR; i++) {
        classProbabilities(raw, i * K, K, cal!, probs);
        ll += Math.log(Math.max(probs[yRows[i]], 1e-15));
      }
      result = ll / Math.max(1, nR);
    }
    if (perm) for (const f of feats) block.restoreFeature(f);
    return result;
  };
  return permutationImportance(groups.length, nR, score, rng, repeats);
}
