// The linear part of a GBM candidate: ridge regression (linear/linear.ts) on the trend features,
// fitted first; the trees then model what it leaves. Trees cannot predict beyond the targets they
// saw, so a series whose growth speeds up (CO2) was forecast too low at long steps; the linear
// part carries such trends forward.

import { fromBase64, toBase64 } from '../base64';
import { fitRidge } from '../linear/linear';
import type { LinearRows } from '../data/layout';
import type { FeatureLayout } from './features';

/** Standardized inputs are clipped so one extreme window cannot dominate a forecast. */
const Z_CLIP = 8;

export interface LinearPart {
  /** Features used (the history ones; calendar parts and group codes are left to the trees). */
  feats: Int32Array;
  mean: Float64Array;
  std: Float64Array;
  /** Per feature: value weight, missing-indicator weight; then the intercept. */
  w: Float64Array;
}

/**
 * The features that carry a trend forward: the window's slope, the drift over the lookback and
 * last season's change over the same steps. Three weights vary little between fits; with every
 * lag and statistic the ridge chased noise (stocks, daily temperatures got worse in the bench).
 */
function linearFeatures(layout: FeatureLayout): Int32Array {
  const o = layout.stepOffset;
  return Int32Array.from([o - 2, o + 1, o + 3]);
}

function design(
  X: Float64Array,
  rows: Int32Array,
  F: number,
  lp: Omit<LinearPart, 'w'>,
): LinearRows {
  const m = lp.feats.length;
  const slots = 2 * m;
  const n = rows.length;
  const idx = new Int32Array(n * slots);
  const val = new Float64Array(n * slots);
  for (let i = 0; i < n; i++) {
    const o = i * slots;
    const r = rows[i] * F;
    for (let j = 0; j < m; j++) {
      const v = X[r + lp.feats[j]];
      idx[o + 2 * j] = 2 * j;
      idx[o + 2 * j + 1] = 2 * j + 1;
      if (v === v) val[o + 2 * j] = standardize(v, lp.mean[j], lp.std[j]);
      else val[o + 2 * j + 1] = 1;
    }
  }
  return { n, slots, idx, val };
}

function standardize(v: number, mean: number, std: number): number {
  if (std === 0) return 0;
  const z = (v - mean) / std;
  return z > Z_CLIP ? Z_CLIP : z < -Z_CLIP ? -Z_CLIP : z;
}

/** Ridge fit of y on the history features of rows `rows` of the n x F feature matrix X. */
export function fitLinearPart(
  X: Float64Array,
  F: number,
  rows: Int32Array,
  y: Float64Array,
  layout: FeatureLayout,
): LinearPart {
  const feats = linearFeatures(layout);
  const m = feats.length;
  const mean = new Float64Array(m);
  const std = new Float64Array(m);
  for (let j = 0; j < m; j++) {
    let s = 0;
    let ss = 0;
    let c = 0;
    for (const r of rows) {
      const v = X[r * F + feats[j]];
      if (v !== v) continue;
      s += v;
      ss += v * v;
      c++;
    }
    mean[j] = c ? s / c : 0;
    std[j] = c ? Math.sqrt(Math.max(0, ss / c - mean[j] * mean[j])) : 0;
  }
  const lp = { feats, mean, std };
  const D = design(X, rows, F, lp);
  // fitRidge indexes y and the design rows by position: y is given per position of `rows`.
  const yr = Float64Array.from(rows, (r) => y[r]);
  const model = fitRidge(
    D,
    Int32Array.from({ length: rows.length }, (_, i) => i),
    yr,
    null,
    2 * m,
  );
  return { ...lp, w: model.w };
}

/** Adds the linear part's prediction of rows 0..n-1 of X to out. */
export function addLinear(
  lp: LinearPart,
  X: Float64Array,
  n: number,
  F: number,
  out: Float64Array,
): void {
  const m = lp.feats.length;
  const w = lp.w;
  const b = w[2 * m];
  for (let i = 0; i < n; i++) {
    let s = b;
    const r = i * F;
    for (let j = 0; j < m; j++) {
      const v = X[r + lp.feats[j]];
      s += v === v ? w[2 * j] * standardize(v, lp.mean[j], lp.std[j]) : w[2 * j + 1];
    }
    out[i] += s;
  }
}

export interface SerializedLinearPart {
  feats: number[];
  mean: string;
  std: string;
  w: string;
}

export function serializeLinearPart(lp: LinearPart): SerializedLinearPart {
  return {
    feats: Array.from(lp.feats),
    mean: toBase64(lp.mean),
    std: toBase64(lp.std),
    w: toBase64(lp.w),
  };
}

export function deserializeLinearPart(s: SerializedLinearPart): LinearPart {
  const f64 = (x: string) => fromBase64(x, (b) => new Float64Array(b));
  return { feats: Int32Array.from(s.feats), mean: f64(s.mean), std: f64(s.std), w: f64(s.w) };
}
