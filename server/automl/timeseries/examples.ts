// Training and validation examples of a forecaster: the time-ordered split, origins (series, row),
// examples (origin, step) and their feature rows, reading only the history a forecast would see.

import { Rng } from '../prng';
import { type FeatureLayout, scaleFloor, writeOriginFeatures, writeStepFeatures } from './features';
import { writeCalendar } from './frequency';
import type { Series } from './series';
import type { FeatureSpec } from './types';

/** Training examples per GBM (a seeded uniform sample beyond): bounds time and memory. */
const DIRECT_MAX_EXAMPLES = 240_000;
const RECURSIVE_MAX_EXAMPLES = 200_000;

/** Calendar parts of every timestamp of a series (n x parts). */
export function calendarRows(t: Float64Array, spec: FeatureSpec): Float64Array {
  const C = spec.calendar.length;
  const out = new Float64Array(t.length * C);
  if (C > 0) for (let i = 0; i < t.length; i++) writeCalendar(t[i], spec.calendar, out, i * C);
  return out;
}

/**
 * The time-ordered split: `cut[g]` is the first row of series g whose target is validation-only.
 * One global timestamp splits every series (the last `fraction` of all rows in time), so no
 * training target is later than the validation period of any other series; if that leaves no
 * training or no validation examples (very uneven series), each series is split at its own last
 * `fraction` instead. Training examples have targets before the cut; validation origins sit at or
 * after cut - 1 and forecast targets from the cut on.
 */
export function timeSplit(series: Series[], W: number, fraction: number): Int32Array {
  const all: number[] = [];
  for (const s of series) if (s.t.length >= W + 1) for (const x of s.t) all.push(x);
  all.sort((a, b) => a - b);
  const tCut = all[Math.min(all.length - 1, Math.floor((1 - fraction) * all.length))];
  const cut = new Int32Array(series.length);
  let nTrain = 0;
  let nVal = 0;
  series.forEach((s, g) => {
    let lo = 0;
    let hi = s.t.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (s.t[mid] < tCut) lo = mid + 1;
      else hi = mid;
    }
    cut[g] = lo;
    nTrain += Math.max(0, lo - W);
    nVal += Math.max(0, s.t.length - Math.max(W, lo));
  });
  if (nTrain > 0 && nVal > 0) return cut;
  series.forEach((s, g) => {
    const n = s.t.length;
    cut[g] = Math.max(W + 1, n - Math.max(1, Math.round(fraction * n)));
  });
  return cut;
}

/**
 * Origins [series, row] from row max(W - 1, from(series)) to the second last (every one with a
 * full window and a next row), a seeded sample of `cap` beyond that, in order.
 */
export function originsFrom(
  series: Series[],
  from: (g: number) => number,
  W: number,
  cap: number,
  seed: number,
): [number, number][] {
  return originsBetween(
    series,
    (g) => Math.max(W - 1, from(g)),
    (g) => series[g].t.length - 2,
    cap,
    seed,
  );
}

/** Origins [series, row] from row from(series) to row to(series), a seeded sample of `cap` beyond. */
export function originsBetween(
  series: Series[],
  from: (g: number) => number,
  to: (g: number) => number,
  cap: number,
  seed: number,
): [number, number][] {
  const out: [number, number][] = [];
  series.forEach((s, g) => {
    const last = Math.min(to(g), s.t.length - 2);
    for (let t = Math.max(0, from(g)); t <= last; t++) out.push([g, t]);
  });
  if (out.length <= cap) return out;
  const rng = new Rng(seed ^ 0x7a11d);
  const keep = new Uint8Array(out.length);
  let left = cap;
  // Selection sampling (Knuth's algorithm S): exactly the cap, in order.
  for (let i = 0; i < out.length && left > 0; i++) {
    if (rng.next() * (out.length - i) < left) {
      keep[i] = 1;
      left--;
    }
  }
  return out.filter((_, i) => keep[i]);
}

/** Examples as parallel arrays, grouped by origin: series, origin row, step. */
export interface Examples {
  n: number;
  g: Int32Array;
  t: Int32Array;
  k: Int32Array;
  /** Training examples: per series, the last row before its cut (what the floor may read). */
  last?: Int32Array;
}

/**
 * Training examples (series g, origin t, step k): the origin has a full window (t >= W - 1) and
 * the target row t + k is before the series' cut, so no training example reads or predicts a row
 * of the validation period. A seeded uniform sample beyond the cap.
 */
export function trainingExamples(
  series: Series[],
  cut: Int32Array,
  W: number,
  H: number,
  rng: Rng,
  strategy: 'direct' | 'recursive',
  maxExamples = strategy === 'direct' ? DIRECT_MAX_EXAMPLES : RECURSIVE_MAX_EXAMPLES,
): Examples {
  let total = 0;
  series.forEach((_, g) => {
    for (let t = W - 1; t <= cut[g] - 2; t++) total += Math.min(H, cut[g] - 1 - t);
  });
  const p = Math.min(1, maxExamples / Math.max(1, total));
  const g: number[] = [];
  const t: number[] = [];
  const k: number[] = [];
  series.forEach((_, s) => {
    for (let o = W - 1; o <= cut[s] - 2; o++) {
      const kMax = Math.min(H, cut[s] - 1 - o);
      for (let j = 1; j <= kMax; j++) {
        if (p < 1 && rng.next() >= p) continue;
        g.push(s);
        t.push(o);
        k.push(j);
      }
    }
  });
  const last = Int32Array.from(series, (_, s) => cut[s] - 1);
  return { n: g.length, g: Int32Array.from(g), t: Int32Array.from(t), k: Int32Array.from(k), last };
}

/** Examples of validation origins: steps 1..H while the series has the target row. */
export function examplesOfOrigins(
  series: Series[],
  origins: [number, number][],
  H: number,
): Examples {
  const g: number[] = [];
  const t: number[] = [];
  const k: number[] = [];
  for (const [s, o] of origins) {
    const kMax = Math.min(H, series[s].t.length - 1 - o);
    for (let j = 1; j <= kMax; j++) {
      g.push(s);
      t.push(o);
      k.push(j);
    }
  }
  return { n: g.length, g: Int32Array.from(g), t: Int32Array.from(t), k: Int32Array.from(k) };
}

export interface ExampleContext {
  series: Series[];
  spec: FeatureSpec;
  layout: FeatureLayout;
  /** Calendar rows per series (see calendarRows). */
  cal: Float64Array[];
  codes: Int32Array[];
}

/**
 * Feature rows (n x F) and targets z = (y[t+k] - y[t]) / scale of examples. Reads each series
 * only from max(0, t - lookback + 1) to t, like a forecast from the last `lookback` rows; the
 * origin part is computed once per origin.
 */
export function exampleFeatures(
  ctx: ExampleContext,
  ex: Examples,
): { X: Float64Array; z: Float64Array } {
  const { series, spec, layout, cal, codes } = ctx;
  const F = layout.F;
  const C = spec.calendar.length;
  const X = new Float64Array(ex.n * F);
  const z = new Float64Array(ex.n);
  let lastG = -1;
  let lastT = -1;
  let originRow = -1;
  let scale = 1;
  for (let i = 0; i < ex.n; i++) {
    const g = ex.g[i];
    const t = ex.t[i];
    const k = ex.k[i];
    const y = series[g].y;
    const r = i * F;
    if (g !== lastG || t !== lastT) {
      scale = writeOriginFeatures(
        y,
        t,
        ctx.spec,
        X,
        r,
        scaleFloor(y, 0, floorEnd(ctx.spec, ex, g, t), ctx.spec),
      );
      originRow = r;
      lastG = g;
      lastT = t;
    } else {
      X.copyWithin(r, originRow, originRow + layout.stepOffset);
    }
    const start = Math.max(0, t - spec.lookback + 1);
    writeStepFeatures(y, start, t, k, scale, spec, layout, cal[g], (t + k) * C, codes[g], 0, X, r);
    // A window of zeros has no scale (1e-12, the floor): a forecast from it is y[t] whatever the
    // trees say, and its target, a demand over 1e-12, taught them changes of 1e13 that came out
    // elsewhere as forecasts of 1e8 mm of rain a day. Such an example counts as no change.
    z[i] = scale > 1e-12 ? (y[t + k] - y[t]) / scale : 0;
  }
  return { X, z };
}

/**
 * The last row a training example's scale floor reads (FeatureSpec.scaleFloorRows): its origin, or
 * for an origin with fewer than scaleRows rows of history the series' first scaleRows rows before
 * the cut. An early example after a few quiet rows otherwise had a unit of a few counts and its
 * spike targets taught the GBM changes of 1e4 units (a forecast always has its rows up to
 * statLookback). Older artifacts, validation examples: the origin.
 */
function floorEnd(spec: FeatureSpec, ex: Examples, g: number, t: number): number {
  if (!spec.scaleFloorRows || !ex.last || spec.scaleRows === undefined) return t;
  return Math.max(t, Math.min(ex.last[g], spec.scaleRows - 1));
}
