// Objectives of the GBM: starting scores, gradients / hessians and the validation loss for
// squared error, binary log-loss and softmax cross-entropy.

import type { GBMTarget } from './model';

export function initialScores(t: GBMTarget, rows: Int32Array): Float64Array {
  const base = new Float64Array(t.K);
  let wsum = 0;
  if (t.objective === 'regression') {
    let s = 0;
    for (const r of rows) {
      const w = t.weight ? t.weight[r] : 1;
      s += w * t.y[r];
      wsum += w;
    }
    base[0] = wsum > 0 ? s / wsum : 0;
  } else if (t.objective === 'binary') {
    let s = 0;
    for (const r of rows) {
      const w = t.weight ? t.weight[r] : 1;
      s += w * t.y[r];
      wsum += w;
    }
    const p = Math.min(1 - 1e-6, Math.max(1e-6, s / wsum));
    base[0] = Math.log(p / (1 - p));
  } else {
    const c = new Float64Array(t.K);
    for (const r of rows) {
      const w = t.weight ? t.weight[r] : 1;
      c[t.y[r]] += w;
      wsum += w;
    }
    for (let k = 0; k < t.K; k++) base[k] = Math.log(Math.max(1e-6, c[k] / wsum));
  }
  return base;
}

export function computeGradients(
  t: GBMTarget,
  rows: Int32Array,
  raw: Float64Array,
  g: Float64Array[],
  h: Float64Array[],
): void {
  const K = t.K;
  const y = t.y;
  const wt = t.weight;
  if (t.objective === 'regression') {
    const g0 = g[0];
    const h0 = h[0];
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      const w = wt ? wt[r] : 1;
      g0[r] = w * (raw[r] - y[r]);
      h0[r] = w;
    }
  } else if (t.objective === 'binary') {
    const g0 = g[0];
    const h0 = h[0];
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      const w = wt ? wt[r] : 1;
      const p = 1 / (1 + Math.exp(-raw[r]));
      g0[r] = w * (p - y[r]);
      h0[r] = Math.max(w * p * (1 - p), 1e-16);
    }
  } else {
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      const w = wt ? wt[r] : 1;
      const o = r * K;
      let mx = -Infinity;
      for (let k = 0; k < K; k++) if (raw[o + k] > mx) mx = raw[o + k];
      let z = 0;
      for (let k = 0; k < K; k++) z += Math.exp(raw[o + k] - mx);
      const yk = y[r];
      for (let k = 0; k < K; k++) {
        const p = Math.exp(raw[o + k] - mx) / z;
        // Per class arrays, or one interleaved array (vector leaves: g[0][r * K + k]).
        if (g.length === K) {
          g[k][r] = w * (p - (k === yk ? 1 : 0));
          h[k][r] = Math.max(w * p * (1 - p), 1e-16);
        } else {
          g[0][o + k] = w * (p - (k === yk ? 1 : 0));
          h[0][o + k] = Math.max(w * p * (1 - p), 1e-16);
        }
      }
    }
  }
}

/** Weighted mean loss on `rows`: squared error, logloss or cross-entropy. */
export function lossOf(t: GBMTarget, rows: ArrayLike<number>, raw: Float64Array): number {
  const K = t.K;
  let s = 0;
  let wsum = 0;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    const w = t.weight ? t.weight[r] : 1;
    wsum += w;
    if (t.objective === 'regression') {
      const d = raw[r] - t.y[r];
      s += w * d * d;
    } else if (t.objective === 'binary') {
      const z = raw[r];
      // log(1 + exp(-z)) for y = 1, log(1 + exp(z)) for y = 0, computed stably.
      const m = t.y[r] === 1 ? -z : z;
      s += w * (m > 0 ? m + Math.log1p(Math.exp(-m)) : Math.log1p(Math.exp(m)));
    } else {
      const o = r * K;
      let mx = -Infinity;
      for (let k = 0; k < K; k++) if (raw[o + k] > mx) mx = raw[o + k];
      let z = 0;
      for (let k = 0; k < K; k++) z += Math.exp(raw[o + k] - mx);
      s += w * (Math.log(z) + mx - raw[o + t.y[r]]);
    }
  }
  return wsum > 0 ? s / wsum : 0;
}
