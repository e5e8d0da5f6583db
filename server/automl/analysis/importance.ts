// Permutation column importance (Lightwood's "GlobalFeatureImportance"-style analysis): how much
// the validation score drops when one INPUT column's values are shuffled across rows. It measures
// what the chosen model actually uses, works for every model type, and groups all features derived
// from one column (e.g. the six datetime parts) so users see columns, not encoder internals.

import type { Encoded } from '../data/encoded';
import type { LinearRows } from '../data/layout';
import { predictRaw } from '../gbm/predict';
import { predictLinearRows } from '../linear/linear';
import { type Rng, permutation } from '../prng';
import type { ScoreModel, ScoreShape } from '../predict/score';
import { type ClassCalibration, classProbabilities } from './conformal';
import { r2Score } from './metrics';

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

/**
 * Permutation importance on `rows`. Regression scores with r2; classification with the negative
 * calibrated log-loss, because balanced accuracy is a step function that leaves weak-but-real
 * columns at exactly 0 on a few hundred validation rows.
 */
export function columnImportances(opts: {
  shape: ScoreShape;
  model: ScoreModel;
  enc: Encoded;
  /** Positions in the encoded data, and their targets (standardized values or class codes). */
  rows: Int32Array;
  yRows: Float64Array;
  /** Classifiers: the calibration the log-loss is computed with. */
  cal: ClassCalibration | null;
  rng: Rng;
}): number[] {
  const { model, enc, rows, yRows, cal, rng } = opts;
  const { task, K, nClasses } = opts.shape;
  const nR = rows.length;
  const F = enc.binned.F;
  const groups = enc.layout.encoderFeatures;
  const bins = enc.binned.bins;
  const vb = new Uint8Array(nR * F);
  for (let i = 0; i < nR; i++) vb.set(bins.subarray(rows[i] * F, rows[i] * F + F), i * F);
  // Linear slots of each feature (same order as linearRows()).
  const L: LinearRows = enc.linear ?? {
    n: 0,
    slots: 0,
    idx: new Int32Array(0),
    val: new Float64Array(0),
  };
  const featSlot: number[] = [];
  const featWidth: number[] = [];
  let s0 = 0;
  for (const f of enc.layout.features) {
    featSlot.push(s0);
    const w = f.isCat ? 1 : f.linMissDim >= 0 ? 2 : 1;
    featWidth.push(w);
    s0 += w;
  }
  const S = L.slots;
  const lIdx = new Int32Array(nR * S);
  const lVal = new Float64Array(nR * S);
  const copyLinear = (i: number, src: number, f: number): void => {
    for (let s = featSlot[f], e = s + featWidth[f]; s < e; s++) {
      lIdx[i * S + s] = L.idx[src * S + s];
      lVal[i * S + s] = L.val[src * S + s];
    }
  };
  if (model.linear) {
    for (let i = 0; i < nR; i++) for (let f = 0; f < F; f++) copyLinear(i, rows[i], f);
  }
  const lin: LinearRows = { n: nR, slots: S, idx: lIdx, val: lVal };
  const all = Int32Array.from({ length: nR }, (_, i) => i);
  const raw = new Float64Array(nR * K);
  const tmp = new Float64Array(nR * K);
  const probs = new Float64Array(nClasses);
  // Fewer rows need more shuffles for a stable estimate; 2 suffice from ~500 rows on.
  const repeats = nR < 200 ? 5 : nR < 500 ? 3 : 2;
  // (Compiled trees do not help here: each pass is too short for V8 to optimise fresh functions.)
  const score = (c: number, perm: Int32Array | null): number => {
    const feats = c >= 0 ? groups[c] : [];
    if (perm) {
      for (const f of feats) {
        for (let i = 0; i < nR; i++) {
          const src = rows[perm[i]];
          vb[i * F + f] = bins[src * F + f];
          if (model.linear) copyLinear(i, src, f);
        }
      }
    }
    raw.fill(0);
    if (model.gbm) predictRaw(model.gbm, vb, F, nR, raw);
    if (model.linear) {
      predictLinearRows(model.linear, lin, all, tmp);
      for (let j = 0; j < raw.length; j++) raw[j] += tmp[j];
    }
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
    if (perm) {
      for (const f of feats) {
        for (let i = 0; i < nR; i++) {
          vb[i * F + f] = bins[rows[i] * F + f];
          if (model.linear) copyLinear(i, rows[i], f);
        }
      }
    }
    return result;
  };
  return permutationImportance(groups.length, nR, score, rng, repeats);
}
