// Running a candidate over a batch of forecast origins: the validation origins while training and
// each group's last row when forecasting go through this one code path, so the validation scores
// and intervals measure exactly what a forecast does. Direct: one GBM row per (origin, step).
// Recursive: the one-step GBM applied step by step, each prediction appended to the history the
// next step's features read.

import { binOf } from '../data/binning';
import { type CompiledTree, compileTrees, predictRawCompiled } from '../gbm/compile';
import type { GBMModel } from '../gbm/model';
import { predictRaw } from '../gbm/predict';
import {
  type BaselineName,
  type FeatureLayout,
  baselineForecast,
  originScale,
  writeOriginFeatures,
  writeStepFeatures,
} from './features';
import { stepTime, writeCalendar } from './frequency';
import { type LinearPart, addLinear } from './linear';
import type { CandidateName, FeatureSpec, Frequency } from './types';

/** Rows from which compiling the trees to JS pays for itself (see gbm/compile.ts). */
const COMPILE_MIN_ROWS = 2000;

/**
 * Forecast origins. Origin i's history (at most `lookback` rows, at least `window`) sits at
 * buf[i * stride ...] with len[i] rows; the recursive candidate appends its predictions after it.
 * times[i * H + k - 1] is the timestamp of step k; groups[i * G ...] the group feature codes.
 */
export interface Origins {
  n: number;
  H: number;
  stride: number;
  buf: Float64Array;
  len: Int32Array;
  times: Float64Array;
  groups: Int32Array;
}

/** A trained GBM with what it needs to score feature rows. */
export interface GbmPart {
  gbm: GBMModel;
  /** Bin edges per numeric feature, null for categorical ones. */
  thresholds: (Float64Array | null)[];
  zScale: { mean: number; std: number };
  /** Ridge on the history features, added to the trees' score (null: trees only). */
  linear: LinearPart | null;
  /** Trees compiled to JS (null: not yet; false: unavailable in this runtime). */
  compiled?: CompiledTree[] | false | null;
}

export type Candidate =
  { name: BaselineName } | { name: 'gbm_direct' | 'gbm_recursive'; part: GbmPart };

export function isGbm(name: CandidateName): name is 'gbm_direct' | 'gbm_recursive' {
  return name === 'gbm_direct' || name === 'gbm_recursive';
}

/** Row-major binned matrix of feature rows (numeric: first edge >= value, NaN: missing bin). */
export function binRows(
  X: Float64Array,
  n: number,
  layout: FeatureLayout,
  thresholds: (Float64Array | null)[],
): Uint8Array {
  const F = layout.F;
  const out = new Uint8Array(n * F);
  for (let f = 0; f < F; f++) {
    const thr = thresholds[f];
    if (!thr) {
      const missing = layout.nCats[f] + 1;
      for (let i = 0; i < n; i++) {
        const v = X[i * F + f];
        out[i * F + f] = v === v ? v : missing;
      }
      continue;
    }
    for (let i = 0; i < n; i++) out[i * F + f] = binOf(thr, X[i * F + f]);
  }
  return out;
}

/** The GBM's (y[t+k] - y[t]) / scale for n feature rows. */
function scoreRows(part: GbmPart, X: Float64Array, n: number, layout: FeatureLayout): Float64Array {
  const bins = binRows(X, n, layout, part.thresholds);
  const raw = new Float64Array(n);
  if (part.compiled === undefined) part.compiled = null;
  if (part.compiled === null && n >= COMPILE_MIN_ROWS) {
    try {
      part.compiled = compileTrees(part.gbm);
    } catch {
      part.compiled = false;
    }
  }
  if (part.compiled) predictRawCompiled(part.gbm, part.compiled, bins, layout.F, n, raw);
  else predictRaw(part.gbm, bins, layout.F, n, raw);
  if (part.linear) addLinear(part.linear, X, n, layout.F, raw);
  const { mean, std } = part.zScale;
  for (let i = 0; i < n; i++) raw[i] = mean + std * raw[i];
  return raw;
}

export interface RunResult {
  /** n x H forecasts. */
  pred: Float64Array;
  /** Each origin's scale (interval half-widths are multiples of it). */
  scale: Float64Array;
}

/** Forecasts steps 1..H from every origin with candidate `c`. */
export function runCandidate(
  c: Candidate,
  spec: FeatureSpec,
  layout: FeatureLayout,
  o: Origins,
): RunResult {
  const { n, H, stride, buf, len } = o;
  const pred = new Float64Array(n * H);
  const scale = new Float64Array(n);
  for (let i = 0; i < n; i++) scale[i] = originScale(buf, i * stride + len[i] - 1, spec.window);
  if (c.name === 'gbm_direct') runDirect(c.part, spec, layout, o, pred);
  else if (c.name === 'gbm_recursive') runRecursive(c.part, spec, layout, o, pred);
  else {
    for (let i = 0; i < n; i++) {
      const start = i * stride;
      const end = start + len[i] - 1;
      for (let k = 1; k <= H; k++)
        pred[i * H + k - 1] = baselineForecast(c.name, buf, start, end, k, spec);
    }
  }
  return { pred, scale };
}

function runDirect(
  part: GbmPart,
  spec: FeatureSpec,
  layout: FeatureLayout,
  o: Origins,
  pred: Float64Array,
): void {
  const { n, H, stride, buf, len, times, groups } = o;
  const F = layout.F;
  const G = layout.groupColumns.length;
  const X = new Float64Array(n * H * F);
  const cal = new Float64Array(spec.calendar.length);
  const bases = new Float64Array(n);
  const scales = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const start = i * stride;
    const end = start + len[i] - 1;
    const row0 = i * H * F;
    scales[i] = writeOriginFeatures(buf, end, spec, X, row0);
    bases[i] = buf[end];
    for (let k = 1; k <= H; k++) {
      const r = row0 + (k - 1) * F;
      if (k > 1) X.copyWithin(r, row0, row0 + layout.stepOffset);
      writeCalendar(times[i * H + k - 1], spec.calendar, cal, 0);
      writeStepFeatures(buf, start, end, k, scales[i], spec, layout, cal, 0, groups, i * G, X, r);
    }
  }
  const z = scoreRows(part, X, n * H, layout);
  for (let i = 0; i < n; i++)
    for (let k = 0; k < H; k++) pred[i * H + k] = bases[i] + scales[i] * z[i * H + k];
}

function runRecursive(
  part: GbmPart,
  spec: FeatureSpec,
  layout: FeatureLayout,
  o: Origins,
  pred: Float64Array,
): void {
  const { n, H, stride, buf, len, times, groups } = o;
  const F = layout.F;
  const G = layout.groupColumns.length;
  const X = new Float64Array(n * F);
  const cal = new Float64Array(spec.calendar.length);
  const bases = new Float64Array(n);
  const scales = new Float64Array(n);
  // Predictions are appended to a copy: the origins' buffers stay as the caller gave them.
  const work = Float64Array.from(buf);
  for (let k = 1; k <= H; k++) {
    for (let i = 0; i < n; i++) {
      const start = i * stride;
      const end = start + len[i] - 1 + (k - 1);
      const r = i * F;
      scales[i] = writeOriginFeatures(work, end, spec, X, r);
      bases[i] = work[end];
      writeCalendar(times[i * H + k - 1], spec.calendar, cal, 0);
      const from = Math.max(start, end - spec.lookback + 1);
      writeStepFeatures(work, from, end, 1, scales[i], spec, layout, cal, 0, groups, i * G, X, r);
    }
    const z = scoreRows(part, X, n, layout);
    for (let i = 0; i < n; i++) {
      const v = bases[i] + scales[i] * z[i];
      work[i * stride + len[i] + k - 1] = v;
      pred[i * H + k - 1] = v;
    }
  }
}

/** One origin to build: the series values and times, the origin row, its frequency and group codes. */
export interface OriginSource {
  y: Float64Array;
  t: Float64Array;
  end: number;
  freq: Frequency | null;
  codes: ArrayLike<number>;
}

/**
 * Packs origins: the last `lookback` rows up to each origin, and the timestamps of steps 1..H
 * (the series' own where it has them, else stepped at its frequency from its last row; NaN
 * without a frequency).
 */
export function packOrigins(src: OriginSource[], spec: FeatureSpec, H: number, G: number): Origins {
  const n = src.length;
  const stride = spec.lookback + H;
  const buf = new Float64Array(n * stride);
  const len = new Int32Array(n);
  const times = new Float64Array(n * H);
  const groups = new Int32Array(n * G);
  for (let i = 0; i < n; i++) {
    const s = src[i];
    const from = Math.max(0, s.end - spec.lookback + 1);
    len[i] = s.end - from + 1;
    buf.set(s.y.subarray(from, s.end + 1), i * stride);
    const last = s.t.length - 1;
    for (let k = 1; k <= H; k++) {
      const j = s.end + k;
      times[i * H + k - 1] =
        j <= last ? s.t[j] : s.freq ? stepTime(s.t[last], s.freq, j - last) : NaN;
    }
    for (let g = 0; g < G; g++) groups[i * G + g] = s.codes[g];
  }
  return { n, H, stride, buf, len, times, groups };
}
