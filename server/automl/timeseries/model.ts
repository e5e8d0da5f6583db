// Running a candidate over a batch of forecast origins: the validation origins while training and
// each group's last row when forecasting go through this one code path, so the validation scores
// and intervals measure exactly what a forecast does. Direct: one GBM row per (origin, step).
// Recursive: the one-step GBM applied step by step, each prediction appended to the history the
// next step's features read. Local (statistical) models: each origin's group model filtered over
// the rows before the origin. A per-series choice runs each group's own candidate.

import { binOf } from '../data/binning';
import { type CompiledTree, compileTrees, predictRawCompiled } from '../gbm/compile';
import type { GBMModel } from '../gbm/model';
import { predictRaw } from '../gbm/predict';
import {
  type BaselineName,
  type FeatureLayout,
  baselineForecast,
  originScale,
  scaleFloor,
  spanScale,
  writeOriginFeatures,
  writeStepFeatures,
} from './features';
import { stepTime, writeCalendar } from './frequency';
import { type LinearPart, addLinear } from './linear';
import { type LocalFit, type LocalName, localForecast } from './stat/local';
import type { CandidateName, FeatureSpec, Frequency } from './types';

/** Rows from which compiling the trees to JS pays for itself (see gbm/compile.ts). */
const COMPILE_MIN_ROWS = 2000;

/**
 * Forecast origins. Origin i's history (at most `packRows(spec)` rows, at least `window`) sits at
 * buf[i * stride ...] with len[i] rows; the recursive candidate appends its predictions after it.
 * times[i * H + k - 1] is the timestamp of step k; groups[i * G ...] the group feature codes;
 * slot[i] the origin's series among the per-series models (-1: none); last[i] the time of its
 * last history row (NaN without one).
 */
export interface Origins {
  n: number;
  H: number;
  stride: number;
  buf: Float64Array;
  len: Int32Array;
  times: Float64Array;
  groups: Int32Array;
  slot: Int32Array;
  last: Float64Array;
}

/** Rows of history packed per origin: the features' lookback, or the local models' when longer. */
export function packRows(spec: FeatureSpec): number {
  return Math.max(spec.lookback, spec.statLookback ?? 0);
}

/**
 * The scale of an origin, the unit of its errors and interval half-widths: the mean absolute step
 * over its last `spec.scaleRows` rows (the features' window in artifacts from before that field),
 * plus a tiny share of the level so that a flat stretch does not divide by zero.
 */
function intervalScale(
  buf: ArrayLike<number>,
  start: number,
  end: number,
  spec: FeatureSpec,
): number {
  if (spec.scaleRows === undefined) return originScale(buf, end, spec.window);
  return spanScale(buf, Math.max(start, end - spec.scaleRows + 1), end);
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

/** A local model per series (by origin slot); a null fit forecasts seasonal-naive. */
export interface LocalCandidate {
  name: LocalName;
  fits: (LocalFit | null)[];
}

export type Candidate =
  | { name: BaselineName }
  | { name: 'gbm_direct' | 'gbm_recursive'; part: GbmPart }
  | LocalCandidate
  /** The mean of its members' forecasts (each origin's finite ones). */
  | { name: 'combination'; members: LocalCandidate[] }
  /** The same mean over any candidates (those validation could not tell apart). */
  | { name: 'ensemble'; members: Candidate[] }
  /**
   * Each series its own candidate: members[choice[slot]], members[fallback] for origins without
   * a slot (or a slot beyond `choice`).
   */
  | { name: 'per_series'; choice: Int32Array; members: Candidate[]; fallback: number };

export function isGbm(name: CandidateName): name is 'gbm_direct' | 'gbm_recursive' {
  return name === 'gbm_direct' || name === 'gbm_recursive';
}

export function isLocal(name: string): name is LocalName {
  return name === 'ets' || name === 'theta' || name === 'arima' || name === 'tsb';
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
  const { n, stride, buf, len } = o;
  const pred = new Float64Array(n * o.H);
  const scale = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    scale[i] = intervalScale(buf, i * stride, i * stride + len[i] - 1, spec);
  }
  predictInto(c, spec, layout, o, pred);
  return { pred, scale };
}

function predictInto(
  c: Candidate,
  spec: FeatureSpec,
  layout: FeatureLayout,
  o: Origins,
  pred: Float64Array,
): void {
  const { n, H, stride, buf, len } = o;
  if (c.name === 'gbm_direct') runDirect(c.part, spec, layout, o, pred);
  else if (c.name === 'gbm_recursive') runRecursive(c.part, spec, layout, o, pred);
  else if (c.name === 'per_series') runPerSeries(c, spec, layout, o, pred);
  else if (c.name === 'combination' || c.name === 'ensemble') {
    const sum = new Float64Array(n * H);
    const count = new Float64Array(n * H);
    const part = new Float64Array(n * H);
    for (const m of c.members) {
      predictInto(m, spec, layout, o, part);
      for (let j = 0; j < n * H; j++) {
        if (Number.isFinite(part[j])) {
          sum[j] += part[j];
          count[j]++;
        }
      }
    }
    for (let j = 0; j < n * H; j++) pred[j] = count[j] > 0 ? sum[j] / count[j] : NaN;
  } else if (isLocal(c.name)) {
    const fits = (c as LocalCandidate).fits;
    for (let i = 0; i < n; i++) {
      const start = i * stride;
      const end = start + len[i] - 1;
      const fit = o.slot[i] >= 0 ? fits[o.slot[i]] : null;
      const steps = o.times.subarray(i * H, i * H + H);
      if (fit) localForecast(fit, buf, start, end, H, pred, i * H, o.last[i], steps);
      else {
        for (let k = 1; k <= H; k++)
          pred[i * H + k - 1] = baselineForecast('seasonal_naive', buf, start, end, k, spec);
      }
    }
  } else {
    const name = c.name;
    for (let i = 0; i < n; i++) {
      const start = i * stride;
      const end = start + len[i] - 1;
      for (let k = 1; k <= H; k++)
        pred[i * H + k - 1] = baselineForecast(name, buf, start, end, k, spec);
    }
  }
}

/** Runs each member on the origins whose series chose it (packed apart), then scatters back. */
function runPerSeries(
  c: Extract<Candidate, { name: 'per_series' }>,
  spec: FeatureSpec,
  layout: FeatureLayout,
  o: Origins,
  pred: Float64Array,
): void {
  const { n, H } = o;
  const member = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const s = o.slot[i];
    const m = s >= 0 && s < c.choice.length ? c.choice[s] : -1;
    member[i] = m >= 0 ? m : c.fallback;
  }
  c.members.forEach((m, j) => {
    const idx: number[] = [];
    for (let i = 0; i < n; i++) if (member[i] === j) idx.push(i);
    if (idx.length === 0) return;
    const sub = idx.length === n ? o : subsetOrigins(o, idx);
    const part = new Float64Array(idx.length * H);
    predictInto(m, spec, layout, sub, part);
    idx.forEach((i, r) => pred.set(part.subarray(r * H, r * H + H), i * H));
  });
}

/** The origins at `idx`, packed alike. */
function subsetOrigins(o: Origins, idx: number[]): Origins {
  const { H, stride } = o;
  const G = o.groups.length / Math.max(1, o.n);
  const n = idx.length;
  const buf = new Float64Array(n * stride);
  const len = new Int32Array(n);
  const times = new Float64Array(n * H);
  const groups = new Int32Array(n * G);
  const slot = new Int32Array(n);
  const last = new Float64Array(n);
  idx.forEach((i, r) => {
    buf.set(o.buf.subarray(i * stride, i * stride + o.len[i]), r * stride);
    len[r] = o.len[i];
    times.set(o.times.subarray(i * H, i * H + H), r * H);
    groups.set(o.groups.subarray(i * G, i * G + G), r * G);
    slot[r] = o.slot[i];
    last[r] = o.last[i];
  });
  return { n, H, stride, buf, len, times, groups, slot, last };
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
    // The features read the last `lookback` rows, however many more the origin packs.
    const from = Math.max(start, end - spec.lookback + 1);
    const row0 = i * H * F;
    scales[i] = writeOriginFeatures(buf, end, spec, X, row0, scaleFloor(buf, start, end, spec));
    bases[i] = buf[end];
    for (let k = 1; k <= H; k++) {
      const r = row0 + (k - 1) * F;
      if (k > 1) X.copyWithin(r, row0, row0 + layout.stepOffset);
      writeCalendar(times[i * H + k - 1], spec.calendar, cal, 0);
      writeStepFeatures(buf, from, end, k, scales[i], spec, layout, cal, 0, groups, i * G, X, r);
    }
  }
  const z = scoreRows(part, X, n * H, layout);
  const bounds = historyBounds(o);
  for (let i = 0; i < n; i++)
    for (let k = 0; k < H; k++)
      pred[i * H + k] = plausible(bases[i] + scales[i] * z[i * H + k], bounds, i);
}

/**
 * Per origin, the range a GBM forecast may take: the packed history's [lo - r, hi + r], r = hi - lo
 * (|hi|, at least 1, for a flat history), the range statsmodels' peers are held to
 * (bench/statsmodels_peer.py, a "runaway forecast" beyond it). A GBM predicts a change over the
 * window's scale; after a window of near-zeros that scale is tiny and the change it learnt from
 * such windows (a spike after quiet years: 1e5 scales) comes out as millions, which the recursion
 * then reads back as history and compounds (1e45 deaths from a volcano in five years).
 */
function historyBounds(o: Origins): Float64Array {
  const out = new Float64Array(2 * o.n);
  for (let i = 0; i < o.n; i++) {
    let lo = Infinity;
    let hi = -Infinity;
    for (let j = i * o.stride, e = j + o.len[i]; j < e; j++) {
      const v = o.buf[j];
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    const r = hi > lo ? hi - lo : Math.max(Math.abs(hi), 1);
    out[2 * i] = lo - r;
    out[2 * i + 1] = hi + r;
  }
  return out;
}

/** v within origin i's bounds (historyBounds); a history without a finite value bounds nothing. */
function plausible(v: number, bounds: Float64Array, i: number): number {
  const lo = bounds[2 * i];
  const hi = bounds[2 * i + 1];
  if (!(hi >= lo)) return v;
  return v < lo ? lo : v > hi ? hi : v;
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
  const bounds = historyBounds(o);
  for (let k = 1; k <= H; k++) {
    for (let i = 0; i < n; i++) {
      const start = i * stride;
      const end = start + len[i] - 1 + (k - 1);
      const r = i * F;
      const floor = scaleFloor(work, start, end, spec);
      scales[i] = writeOriginFeatures(work, end, spec, X, r, floor);
      bases[i] = work[end];
      writeCalendar(times[i * H + k - 1], spec.calendar, cal, 0);
      const from = Math.max(start, end - spec.lookback + 1);
      writeStepFeatures(work, from, end, 1, scales[i], spec, layout, cal, 0, groups, i * G, X, r);
    }
    const z = scoreRows(part, X, n, layout);
    for (let i = 0; i < n; i++) {
      const v = plausible(bases[i] + scales[i] * z[i], bounds, i);
      work[i * stride + len[i] + k - 1] = v;
      pred[i * H + k - 1] = v;
    }
  }
}

/**
 * One origin to build: the series values and times, the origin row, its frequency, group codes
 * and slot (its series among the per-series models; -1 or absent: none).
 */
export interface OriginSource {
  y: Float64Array;
  t: Float64Array;
  end: number;
  freq: Frequency | null;
  codes: ArrayLike<number>;
  slot?: number;
}

/**
 * Packs origins: the last `lookback` rows up to each origin, and the timestamps of steps 1..H
 * (the series' own where it has them, else stepped at its frequency from its last row; NaN
 * without a frequency).
 */
export function packOrigins(src: OriginSource[], spec: FeatureSpec, H: number, G: number): Origins {
  const n = src.length;
  const rows = packRows(spec);
  const stride = rows + H;
  const buf = new Float64Array(n * stride);
  const len = new Int32Array(n);
  const times = new Float64Array(n * H);
  const groups = new Int32Array(n * G);
  const slot = new Int32Array(n);
  const last = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const s = src[i];
    slot[i] = s.slot ?? -1;
    last[i] = s.t[s.end] ?? NaN;
    const from = Math.max(0, s.end - rows + 1);
    len[i] = s.end - from + 1;
    buf.set(s.y.subarray(from, s.end + 1), i * stride);
    const final = s.t.length - 1;
    for (let k = 1; k <= H; k++) {
      const j = s.end + k;
      times[i * H + k - 1] =
        j <= final ? s.t[j] : s.freq ? stepTime(s.t[final], s.freq, j - final) : NaN;
    }
    for (let g = 0; g < G; g++) groups[i * G + g] = s.codes[g];
  }
  return { n, H, stride, buf, len, times, groups, slot, last };
}
