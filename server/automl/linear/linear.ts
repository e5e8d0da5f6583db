// Linear baseline candidates: ridge regression and L2 logistic regression (one-vs-rest for
// multiclass) on standardized numbers + one-hot categories. They win on small, nearly linear data
// where trees are noisy, and they give model selection an honest reference point.

import type { SerializedLinear } from '../api';
import { fromBase64, toBase64 } from '../base64';
import type { LinearRows } from '../data/layout';

export interface LinearModel {
  kind: 'ridge' | 'logistic';
  /** Input width without the intercept. */
  d: number;
  /** Scores per row (1 for regression/binary, classes for multiclass). */
  K: number;
  /** K blocks of d weights followed by the intercept. */
  w: Float64Array;
}

/** In-place Cholesky solve of (A) x = b for symmetric positive definite A (n x n, row-major). */
export function choleskySolve(A: Float64Array, b: Float64Array, n: number): Float64Array {
  const L = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let s = A[i * n + j];
      for (let k = 0; k < j; k++) s -= L[i * n + k] * L[j * n + k];
      if (i === j) {
        // Jitter keeps a rank-deficient system (duplicate/constant one-hot columns) solvable.
        L[i * n + i] = Math.sqrt(Math.max(s, 1e-10));
      } else {
        L[i * n + j] = s / L[j * n + j];
      }
    }
  }
  const x = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = b[i];
    for (let k = 0; k < i; k++) s -= L[i * n + k] * x[k];
    x[i] = s / L[i * n + i];
  }
  for (let i = n - 1; i >= 0; i--) {
    let s = x[i];
    for (let k = i + 1; k < n; k++) s -= L[k * n + i] * x[k];
    x[i] = s / L[i * n + i];
  }
  return x;
}

/**
 * Accumulates A = sum_i c_i x_i x_i^T over the selected rows using the fixed-width sparse rows
 * (O(rows x slots^2), independent of the one-hot width), plus lambda on the non-intercept diagonal.
 */
function gram(
  X: LinearRows,
  rows: Int32Array,
  d: number,
  coef: (r: number) => number,
  lambda: number,
): Float64Array {
  const D = d + 1;
  const A = new Float64Array(D * D);
  const S = X.slots;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    const c = coef(r);
    if (c === 0) continue;
    const o = r * S;
    // Symmetric: each pair of slots once (slots with a value have distinct dimensions).
    for (let a = 0; a < S; a++) {
      const va = X.val[o + a];
      if (va === 0) continue;
      const ia = X.idx[o + a];
      const cva = c * va;
      A[ia * D + ia] += cva * va;
      for (let b = a + 1; b < S; b++) {
        const vb = X.val[o + b];
        if (vb === 0) continue;
        const ib = X.idx[o + b];
        const v = cva * vb;
        A[ia * D + ib] += v;
        A[ib * D + ia] += v;
      }
      A[ia * D + d] += cva;
      A[d * D + ia] += cva;
    }
    A[d * D + d] += c;
  }
  for (let j = 0; j < d; j++) A[j * D + j] += lambda;
  return A;
}

function dot(X: LinearRows, r: number, w: Float64Array, off: number, d: number): number {
  const S = X.slots;
  const o = r * S;
  let s = w[off + d];
  for (let a = 0; a < S; a++) s += X.val[o + a] * w[off + X.idx[o + a]];
  return s;
}

/** Ridge regression by the normal equations (the width is capped at ~400 by the encoders). */
export function fitRidge(
  X: LinearRows,
  rows: Int32Array,
  y: Float64Array,
  weight: Float64Array | null,
  d: number,
  lambda = 1,
): LinearModel {
  const D = d + 1;
  const A = gram(X, rows, d, (r) => (weight ? weight[r] : 1), lambda);
  const b = new Float64Array(D);
  const S = X.slots;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    const c = (weight ? weight[r] : 1) * y[r];
    const o = r * S;
    for (let a = 0; a < S; a++) b[X.idx[o + a]] += c * X.val[o + a];
    b[d] += c;
  }
  return { kind: 'ridge', d, K: 1, w: choleskySolve(A, b, D) };
}

/**
 * Newton steps of the logistic fit, and the relative loss improvement that ends it early: the
 * model is a candidate and a blend partner, so the fourth significant digit of its loss does not
 * matter, and each step costs a full Gram matrix (rows x slots^2).
 */
const MAX_NEWTON_STEPS = 10;
const NEWTON_TOLERANCE = 1e-6;

/**
 * L2-regularised logistic regression by Newton's method (IRLS) with step halving, one model per
 * class for multiclass (one-vs-rest). `y` holds class indices; K = 2 fits a single logit.
 * `init`: weights to start from (a fit on most of the same rows: the refit converges in a step or
 * two instead of up to MAX_NEWTON_STEPS).
 */
export function fitLogistic(
  X: LinearRows,
  rows: Int32Array,
  y: Float64Array,
  nClasses: number,
  weight: Float64Array | null,
  d: number,
  lambda = 1,
  init?: Float64Array,
): LinearModel {
  const D = d + 1;
  const K = logisticScores(nClasses);
  const w = new Float64Array(K * D);
  for (let k = 0; k < K; k++)
    w.set(fitLogisticScore(k, X, rows, y, nClasses, weight, d, lambda, init), k * D);
  return { kind: 'logistic', d, K, w };
}

/** Scores (one-vs-rest logits) of a logistic model: 1 for two classes. */
export function logisticScores(nClasses: number): number {
  return nClasses === 2 ? 1 : nClasses;
}

/**
 * The weights of score k of fitLogistic (class k against the rest, or class 1 of two): each is
 * fitted on its own, so the scores may be fitted on different threads.
 */
export function fitLogisticScore(
  k: number,
  ...[X, rows, y, nClasses, weight, d, lambda = 1, init]: Parameters<typeof fitLogistic>
): Float64Array {
  const D = d + 1;
  const K = logisticScores(nClasses);
  const cls = nClasses === 2 ? 1 : k;
  const start = init && init.length === K * D ? init.subarray(k * D, k * D + D) : undefined;
  return fitBinaryLogistic(X, rows, y, cls, weight, d, lambda, start);
}

function fitBinaryLogistic(
  X: LinearRows,
  rows: Int32Array,
  y: Float64Array,
  cls: number,
  weight: Float64Array | null,
  d: number,
  lambda: number,
  init?: Float64Array,
): Float64Array {
  const D = d + 1;
  const S = X.slots;
  let w = new Float64Array(D);
  if (init) w.set(init);
  else {
    let pos = 0;
    let tot = 0;
    for (const r of rows) {
      const c = weight ? weight[r] : 1;
      tot += c;
      if (y[r] === cls) pos += c;
    }
    const p0 = Math.min(1 - 1e-6, Math.max(1e-6, pos / Math.max(tot, 1e-12)));
    w[d] = Math.log(p0 / (1 - p0));
  }
  const z = new Float64Array(X.n);
  const loss = (ww: Float64Array): number => {
    let s = 0;
    for (const r of rows) {
      const t = dot(X, r, ww, 0, d);
      const m = y[r] === cls ? -t : t;
      s +=
        (weight ? weight[r] : 1) * (m > 0 ? m + Math.log1p(Math.exp(-m)) : Math.log1p(Math.exp(m)));
    }
    for (let j = 0; j < d; j++) s += 0.5 * lambda * ww[j] * ww[j];
    return s;
  };
  let cur = loss(w);
  for (let iter = 0; iter < MAX_NEWTON_STEPS; iter++) {
    const grad = new Float64Array(D);
    for (const r of rows) {
      const t = dot(X, r, w, 0, d);
      const p = 1 / (1 + Math.exp(-t));
      z[r] = p;
      const c = (weight ? weight[r] : 1) * (p - (y[r] === cls ? 1 : 0));
      const o = r * S;
      for (let a = 0; a < S; a++) grad[X.idx[o + a]] += c * X.val[o + a];
      grad[d] += c;
    }
    for (let j = 0; j < d; j++) grad[j] += lambda * w[j];
    const A = gram(
      X,
      rows,
      d,
      (r) => Math.max((weight ? weight[r] : 1) * z[r] * (1 - z[r]), 1e-10),
      lambda,
    );
    const step = choleskySolve(A, grad, D);
    let t = 1;
    let next = w;
    let nextLoss = cur;
    for (let half = 0; half < 20; half++) {
      next = new Float64Array(D);
      for (let j = 0; j < D; j++) next[j] = w[j] - t * step[j];
      nextLoss = loss(next);
      if (nextLoss <= cur) break;
      t /= 2;
    }
    if (nextLoss > cur) break;
    let maxStep = 0;
    for (let j = 0; j < D; j++) maxStep = Math.max(maxStep, Math.abs(t * step[j]));
    w = next;
    const improved = cur - nextLoss;
    cur = nextLoss;
    if (maxStep < 1e-6 || improved < NEWTON_TOLERANCE * Math.max(1, cur)) break;
  }
  return w;
}

/** Raw scores (prediction of ridge, logits of logistic) for the selected rows at out[r * K + k]. */
export function predictLinearRows(
  m: LinearModel,
  X: LinearRows,
  rows: ArrayLike<number>,
  out: Float64Array,
): void {
  const D = m.d + 1;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    for (let k = 0; k < m.K; k++) out[r * m.K + k] = dot(X, r, m.w, k * D, m.d);
  }
}

export function serializeLinear(m: LinearModel): SerializedLinear {
  return { kind: m.kind, d: m.d, K: m.K, w: toBase64(m.w) };
}

export function deserializeLinear(s: SerializedLinear): LinearModel {
  return { kind: s.kind, d: s.d, K: s.K, w: fromBase64(s.w, (b) => new Float64Array(b)) };
}
