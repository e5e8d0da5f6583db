// Features of one forecast origin (the last known row t of a series) and one step k ahead, and the
// baselines. Every value is read from y[start .. t] only, where start >= t - lookback + 1: a
// training example sees exactly what a forecast from the last `lookback` rows sees, and nothing
// after its origin. Values are made scale-free per origin, so one pooled model serves series of any
// level: (y[i] - y[t]) / scale, scale = mean |y[i] - y[i-1]| over the window (+ a tiny share of the
// level, so a flat window does not divide by zero). The model predicts (y[t+k] - y[t]) / scale.

import type { FeatureSpec } from './types';

/** Most recent lags used as features; the rest of a long window is summarised by its statistics. */
export const MAX_LAGS = 24;
/** Share of the window's mean |level| added to the scale (a flat window must not divide by zero). */
const LEVEL_EPS = 1e-4;

export interface FeatureLayout {
  F: number;
  names: string[];
  /** Categorical features (group codes): 1. */
  isCat: Uint8Array;
  /** Categories of each categorical feature (codes 0..n-1, n = unseen, n + 1 = missing). */
  nCats: Int32Array;
  /** First feature of the step part (step, drift, seasonal, calendar, groups). */
  stepOffset: number;
  /** First group feature; `groupColumns[i]` is the GROUP BY column index of group feature i. */
  groupOffset: number;
  groupColumns: number[];
}

export function featureLayout(spec: FeatureSpec): FeatureLayout {
  const names: string[] = [];
  for (let j = 1; j <= spec.lags; j++) names.push(`lag_${j}`);
  names.push(
    'window_mean',
    'window_std',
    'window_min',
    'window_max',
    'window_slope',
    'level_ratio',
  );
  const stepOffset = names.length;
  names.push('step', 'drift', 'seasonal_naive', 'seasonal_change');
  for (const p of spec.calendar) names.push(`calendar_${p}`);
  const groupOffset = names.length;
  const groupColumns: number[] = [];
  spec.groupCats.forEach((cats, g) => {
    if (cats) {
      names.push(`group_${g}`);
      groupColumns.push(g);
    }
  });
  const F = names.length;
  const isCat = new Uint8Array(F);
  const nCats = new Int32Array(F);
  groupColumns.forEach((g, i) => {
    isCat[groupOffset + i] = 1;
    nCats[groupOffset + i] = spec.groupCats[g]!.length;
  });
  return { F, names, isCat, nCats, stepOffset, groupOffset, groupColumns };
}

/** Group feature codes of a group key: its category index, or the 'unseen' code. */
export function groupCodes(key: string, spec: FeatureSpec, layout: FeatureLayout): Int32Array {
  const parts = key.split('\u0001');
  return Int32Array.from(layout.groupColumns, (c) => {
    const cats = spec.groupCats[c]!;
    const i = cats.indexOf(parts[c]);
    return i >= 0 ? i : cats.length;
  });
}

/** Mean |y[i] - y[i-1]| over y[s .. end], plus a tiny share of its mean |level| (never zero). */
export function spanScale(y: ArrayLike<number>, s: number, end: number): number {
  let mad = 0;
  let abs = 0;
  for (let i = s; i <= end; i++) {
    abs += Math.abs(y[i]);
    if (i > s) mad += Math.abs(y[i] - y[i - 1]);
  }
  const n = end - s + 1;
  return (n > 1 ? mad / (n - 1) : 0) + (LEVEL_EPS * abs) / n + 1e-12;
}

/** The scale of the window ending at `end` (see the module comment). */
export function originScale(y: ArrayLike<number>, end: number, window: number): number {
  return spanScale(y, end - window + 1, end);
}

/**
 * The least scale an origin's features may take: spec.scaleFloor times the mean step over its
 * last spec.scaleRows rows (from `start` on), 0 in artifacts without the field. After a quiet
 * window the window's own scale is a few units and the next spike, divided by it, is a change of
 * 1e5 "scales": the floor keeps the unit near the series' long-run one, as global models' mean
 * scaling has a minimum (GluonTS' MeanScaler), so no target or forecast multiplies a tiny unit.
 */
export function scaleFloor(
  y: ArrayLike<number>,
  start: number,
  end: number,
  spec: FeatureSpec,
): number {
  if (!spec.scaleFloor || spec.scaleRows === undefined) return 0;
  const rows = spec.scaleFloorRows ?? spec.scaleRows;
  return spec.scaleFloor * spanScale(y, Math.max(start, end - rows + 1), end);
}

/**
 * Writes the origin part of a feature row (lags and window statistics) at out[o ...] and returns
 * the origin's scale (at least `floor`). The window is y[end - window + 1 .. end]; the caller guarantees it exists.
 */
export function writeOriginFeatures(
  y: ArrayLike<number>,
  end: number,
  spec: FeatureSpec,
  out: Float64Array,
  o: number,
  /** The least scale (scaleFloor); 0: the window's own. */
  floor = 0,
): number {
  const W = spec.window;
  const base = y[end];
  const scale = Math.max(originScale(y, end, W), floor);
  for (let j = 1; j <= spec.lags; j++) out[o + j - 1] = (y[end - j] - base) / scale;
  const s = end - W + 1;
  let sum = 0;
  let sumSq = 0;
  let min = Infinity;
  let max = -Infinity;
  let abs = 0;
  for (let i = s; i <= end; i++) {
    const v = y[i] - base;
    sum += v;
    sumSq += v * v;
    if (v < min) min = v;
    if (v > max) max = v;
    abs += Math.abs(y[i]);
  }
  const mean = sum / W;
  // Least-squares slope over the window (x = 0..W-1).
  let slope = 0;
  if (W > 1) {
    const xm = (W - 1) / 2;
    let sxy = 0;
    let sxx = 0;
    for (let i = s; i <= end; i++) {
      const x = i - s - xm;
      sxy += x * (y[i] - base - mean);
      sxx += x * x;
    }
    slope = sxy / sxx;
  }
  const p = o + spec.lags;
  out[p] = mean / scale;
  out[p + 1] = Math.sqrt(Math.max(0, sumSq / W - mean * mean)) / scale;
  out[p + 2] = min / scale;
  out[p + 3] = max / scale;
  out[p + 4] = slope / scale;
  out[p + 5] = scale / (scale + abs / W);
  return scale;
}

/** Index of the value one or more seasons before step k (the seasonal-naive source), or -1. */
function seasonalIndex(end: number, k: number, period: number, start: number): number {
  if (period <= 1) return -1;
  const i = end + k - period * Math.ceil(k / period);
  return i >= start ? i : -1;
}

/**
 * Writes the step part of a feature row for step k: the step, the drift over the lookback, the
 * seasonal-naive value and last season's change over the same steps, the target timestamp's
 * calendar parts (`cal[c ...]`) and the group codes (`groups[g ...]`).
 */
export function writeStepFeatures(
  y: ArrayLike<number>,
  start: number,
  end: number,
  k: number,
  scale: number,
  spec: FeatureSpec,
  layout: FeatureLayout,
  cal: ArrayLike<number>,
  c: number,
  groups: ArrayLike<number>,
  g: number,
  out: Float64Array,
  o: number,
): void {
  const base = y[end];
  const p = o + layout.stepOffset;
  out[p] = k;
  const s0 = Math.max(start, end - spec.lookback + 1);
  out[p + 1] = end > s0 ? (k * (base - y[s0])) / (end - s0) / scale : 0;
  const si = seasonalIndex(end, k, spec.period, start);
  out[p + 2] = si >= 0 ? (y[si] - base) / scale : NaN;
  // Last season's change over the same steps: y[si] - y[si - k].
  out[p + 3] = si >= 0 && si - k >= start ? (y[si] - y[si - k]) / scale : NaN;
  const nc = spec.calendar.length;
  for (let j = 0; j < nc; j++) out[p + 4 + j] = cal[c + j];
  const go = o + layout.groupOffset;
  for (let j = 0; j < layout.groupColumns.length; j++) out[go + j] = groups[g + j];
}

export type BaselineName = 'seasonal_naive' | 'naive' | 'drift';

/**
 * A baseline forecast for step k from the origin `end` (reading y[start .. end]): naive (the last
 * value), seasonal-naive (the value one season back, naive without a season of history), drift
 * (the last value plus k times the mean step over the lookback, at least one step).
 */
export function baselineForecast(
  name: BaselineName,
  y: ArrayLike<number>,
  start: number,
  end: number,
  k: number,
  spec: FeatureSpec,
): number {
  const base = y[end];
  if (name === 'naive') return base;
  if (name === 'seasonal_naive') {
    const si = seasonalIndex(end, k, spec.period, start);
    return si >= 0 ? y[si] : base;
  }
  // At least the last step (WINDOW 1 without a season: a lookback of one row made drift naive).
  const s0 = Math.max(start, end - Math.max(2, spec.lookback) + 1);
  return end > s0 ? base + (k * (base - y[s0])) / (end - s0) : base;
}
