// Accuracy functions reported by DESCRIBE (r2_score, balanced_accuracy_score) and used for model
// selection, with the same definitions as scikit-learn so numbers are comparable to Lightwood's.

import type { Task } from '../api';
import { predictedClass } from './conformal';

/** Coefficient of determination: 1 - SS_res / SS_tot. A constant truth gives 1 if predicted exactly, else 0 (sklearn). */
export function r2Score(truth: ArrayLike<number>, pred: ArrayLike<number>): number {
  const n = truth.length;
  if (n === 0) return 0;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += truth[i];
  mean /= n;
  let ssRes = 0;
  let ssTot = 0;
  for (let i = 0; i < n; i++) {
    const d = truth[i] - pred[i];
    ssRes += d * d;
    const e = truth[i] - mean;
    ssTot += e * e;
  }
  if (ssTot === 0) return ssRes === 0 ? 1 : 0;
  return 1 - ssRes / ssTot;
}

export function meanAbsoluteError(truth: ArrayLike<number>, pred: ArrayLike<number>): number {
  const n = truth.length;
  if (n === 0) return 0;
  let s = 0;
  for (let i = 0; i < n; i++) s += Math.abs(truth[i] - pred[i]);
  return s / n;
}

/** Fraction of exact matches between integer class codes. */
export function accuracyScore(truth: ArrayLike<number>, pred: ArrayLike<number>): number {
  const n = truth.length;
  if (n === 0) return 0;
  let ok = 0;
  for (let i = 0; i < n; i++) if (truth[i] === pred[i]) ok++;
  return ok / n;
}

/**
 * Mean per-class recall over the classes present in `truth` (sklearn's balanced_accuracy_score).
 * Used instead of accuracy because churn sets are imbalanced (20-27 % positives): a model that
 * always says "stays" scores 0.5 here, not 0.8.
 */
export function balancedAccuracyScore(
  truth: ArrayLike<number>,
  pred: ArrayLike<number>,
  nClasses?: number,
): number {
  const n = truth.length;
  if (n === 0) return 0;
  let k = nClasses ?? 0;
  if (nClasses === undefined)
    for (let i = 0; i < n; i++) k = Math.max(k, truth[i] + 1, pred[i] + 1);
  const support = new Float64Array(k);
  const hit = new Float64Array(k);
  for (let i = 0; i < n; i++) {
    support[truth[i]]++;
    if (truth[i] === pred[i]) hit[truth[i]]++;
  }
  let sum = 0;
  let present = 0;
  for (let c = 0; c < k; c++) {
    if (support[c] > 0) {
      sum += hit[c] / support[c];
      present++;
    }
  }
  return present === 0 ? 0 : sum / present;
}

/** Task score used for model selection and DESCRIBE accuracies (higher is better). */
export function taskScore(
  task: Task,
  yRows: Float64Array,
  raw: Float64Array,
  K: number,
  nClasses: number,
): number {
  if (task === 'regression') return r2Score(yRows, raw);
  const pred = new Float64Array(yRows.length);
  for (let i = 0; i < yRows.length; i++) pred[i] = predictedClass(raw, i * K, K);
  return balancedAccuracyScore(yRows, pred, nClasses);
}
