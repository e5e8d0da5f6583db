// Encoders: turn raw column cells into the two numeric views the models need. Trees get one
// small-integer "bin" per feature (quantile bins for numbers, codes for categories), linear models
// get standardized numbers plus one-hot indicators. Everything is fitted once on training rows
// and stored as plain JSON so a saved model encodes prediction inputs exactly as in training.

import { AutoMLError } from './errors';
import { Rng } from './prng';
import {
  type ColumnProfile,
  type ValueKind,
  categoryKey,
  isMissing,
  isMissingToken,
  parseDatetime,
  parseNumber,
} from './types';

/** Bins per tree feature including the missing bin; fits a Uint8 so the binned matrix is 1 byte/cell. */
export const MAX_BINS = 255;
/** Value bins for numbers: MAX_BINS minus the missing bin. */
const MAX_VALUE_BINS = MAX_BINS - 1;
/** Kept categories: MAX_BINS minus the 'other/unseen' and 'missing' codes. */
export const MAX_CATEGORIES = MAX_BINS - 2;
/** One-hot width per categorical for the linear model, and the total linear width budget. */
const MAX_ONE_HOT = 50;
const MAX_LINEAR_DIMS = 400;
/** Values used to place quantile bin edges; more adds time, not accuracy. */
const BIN_SAMPLE = 200_000;

export interface NumericStats {
  /** Ascending bin edges: bin(v) = first i with v <= thresholds[i], else thresholds.length. */
  thresholds: number[];
  mean: number;
  std: number;
  min: number;
  max: number;
  hasMissing: boolean;
}

export interface NumericEncoder {
  kind: 'numeric';
  column: string;
  type: 'integer' | 'float';
  stats: NumericStats;
}
export interface CategoricalEncoder {
  kind: 'categorical';
  column: string;
  type: 'categorical' | 'binary';
  valueKind: ValueKind;
  /** Kept category keys, most frequent first; code = index. Others map to `keys.length`. */
  keys: string[];
  /** The first `nOneHot` codes get a one-hot column in the linear model. */
  nOneHot: number;
}
export interface DatetimeEncoder {
  kind: 'datetime';
  column: string;
  parts: NumericStats[]; // DATETIME_PARTS order
}
export interface TextEncoder {
  kind: 'text';
  column: string;
  parts: NumericStats[]; // TEXT_PARTS order
}
export type ColumnEncoder = NumericEncoder | CategoricalEncoder | DatetimeEncoder | TextEncoder;

export const DATETIME_PARTS = ['year', 'month', 'day', 'dayofweek', 'hour', 'epoch_days'] as const;
export const TEXT_PARTS = ['length', 'words'] as const;

/** Human-readable encoder name for DESCRIBE ... features. */
export function encoderName(e: ColumnEncoder): string {
  switch (e.kind) {
    case 'numeric':
      return 'NumericEncoder(quantile-bins, standardize)';
    case 'categorical':
      return e.type === 'binary'
        ? 'BinaryEncoder(codes, one-hot)'
        : 'CategoricalEncoder(codes, one-hot)';
    case 'datetime':
      return 'DatetimeEncoder(' + DATETIME_PARTS.join(', ') + ')';
    case 'text':
      return 'TextEncoder(' + TEXT_PARTS.join(', ') + ')';
  }
}

// ---------------------------------------------------------------------------------------------
// Parsing raw cells into numeric streams / category codes
// ---------------------------------------------------------------------------------------------

/**
 * Numbers of a column, NaN for missing. In strict mode (prediction inputs) a value that is neither
 * missing nor a number is a user error naming the column and row; in training such rare values
 * (<= 1 % by type inference) are treated as missing.
 */
export function parseNumericColumn(
  values: ArrayLike<unknown>,
  n: number,
  strict: boolean,
  column: string,
): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (typeof v === 'number') {
      out[i] = Number.isFinite(v) ? v : NaN;
      continue;
    }
    if (isMissing(v)) {
      out[i] = NaN;
      continue;
    }
    const x = parseNumber(v);
    if (Number.isNaN(x) && strict && !isMissingToken(v)) {
      throw new AutoMLError(
        `column '${column}' in row ${i}: cannot convert ${describeValue(v)} to a number`,
        { column, row: i },
      );
    }
    out[i] = x;
  }
  return out;
}

function describeValue(v: unknown): string {
  if (typeof v === 'string') return `'${v.length > 40 ? v.slice(0, 40) + '...' : v}'`;
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

/** Epoch milliseconds per row, NaN for missing; strict mode rejects non-dates. */
function parseDatetimeColumn(
  values: ArrayLike<unknown>,
  n: number,
  strict: boolean,
  column: string,
): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (isMissing(v)) {
      out[i] = NaN;
      continue;
    }
    const t = parseDatetime(v);
    if (Number.isNaN(t) && strict) {
      throw new AutoMLError(
        `column '${column}' in row ${i}: cannot convert ${describeValue(v)} to a date/time (expected ISO format like 2024-01-31 or 2024-01-31 12:00:00)`,
        { column, row: i },
      );
    }
    out[i] = t;
  }
  return out;
}

/** Days since 1970-01-01 -> civil date (proleptic Gregorian), without allocating a Date. */
function civilFromDays(days: number, out: Int32Array): void {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  out[0] = yoe + era * 400 + (m <= 2 ? 1 : 0);
  out[1] = m;
  out[2] = d;
}

function datetimeParts(ms: Float64Array, n: number): Float64Array[] {
  const parts = DATETIME_PARTS.map(() => new Float64Array(n));
  const ymd = new Int32Array(3);
  for (let i = 0; i < n; i++) {
    const t = ms[i];
    if (Number.isNaN(t)) {
      for (const p of parts) p[i] = NaN;
      continue;
    }
    const days = Math.floor(t / 86_400_000);
    civilFromDays(days, ymd);
    parts[0][i] = ymd[0];
    parts[1][i] = ymd[1];
    parts[2][i] = ymd[2];
    parts[3][i] = (((days + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday; 0 = Sunday
    parts[4][i] = (t - days * 86_400_000) / 3_600_000;
    parts[5][i] = t / 86_400_000;
  }
  return parts;
}

function textParts(values: ArrayLike<unknown>, n: number): Float64Array[] {
  const len = new Float64Array(n);
  const words = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (isMissing(v)) {
      len[i] = NaN;
      words[i] = NaN;
      continue;
    }
    const s = typeof v === 'string' ? v : String(v);
    len[i] = s.length;
    let w = 0;
    let inWord = false;
    for (let j = 0; j < s.length; j++) {
      const c = s.charCodeAt(j);
      const sp = c === 32 || c === 9 || c === 10 || c === 13;
      if (!sp && !inWord) w++;
      inWord = !sp;
    }
    words[i] = w;
  }
  return [len, words];
}

// ---------------------------------------------------------------------------------------------
// Fitting
// ---------------------------------------------------------------------------------------------

/**
 * Bin edges for the GBM: every distinct value gets its own bin when there are at most 254 of
 * them (exact splits, as for rooms/age/days_on_market), otherwise edges at quantiles so each bin
 * holds about the same number of rows. Edges are midpoints between neighbouring distinct values so
 * equal values never straddle an edge.
 */
export function fitBinThresholds(values: Float64Array, rng: Rng): number[] {
  let xs: Float64Array;
  let m = 0;
  for (let i = 0; i < values.length; i++) if (!Number.isNaN(values[i])) m++;
  if (m > BIN_SAMPLE) {
    // A seeded uniform subsample: quantiles of 200k values are accurate to ~0.2 %.
    const all = new Float64Array(m);
    let k = 0;
    for (let i = 0; i < values.length; i++) if (!Number.isNaN(values[i])) all[k++] = values[i];
    rng.shuffle(all);
    xs = all.slice(0, BIN_SAMPLE);
  } else {
    xs = new Float64Array(m);
    let k = 0;
    for (let i = 0; i < values.length; i++) if (!Number.isNaN(values[i])) xs[k++] = values[i];
  }
  xs.sort();
  const distinct: number[] = [];
  for (let i = 0; i < xs.length; i++) if (i === 0 || xs[i] !== xs[i - 1]) distinct.push(xs[i]);
  const thr: number[] = [];
  if (distinct.length <= MAX_VALUE_BINS) {
    for (let i = 0; i + 1 < distinct.length; i++) thr.push(midpoint(distinct[i], distinct[i + 1]));
    return thr;
  }
  // Quantile edges snapped to the gap after the quantile value; duplicates collapse.
  let di = 0;
  for (let j = 1; j < MAX_VALUE_BINS; j++) {
    const v = xs[Math.min(xs.length - 1, Math.floor((j * xs.length) / MAX_VALUE_BINS))];
    while (di < distinct.length && distinct[di] < v) di++;
    // distinct[di] === v; the edge goes between v and the next distinct value.
    if (di + 1 >= distinct.length) break;
    const t = midpoint(distinct[di], distinct[di + 1]);
    if (thr.length === 0 || t > thr[thr.length - 1]) thr.push(t);
  }
  return thr;
}

function midpoint(a: number, b: number): number {
  const m = a + (b - a) / 2;
  return m < b ? m : a;
}

export function fitNumericStats(values: Float64Array, rng: Rng): NumericStats {
  let n = 0;
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (Number.isNaN(v)) continue;
    n++;
    sum += v;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const mean = n > 0 ? sum / n : 0;
  let ss = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Number.isNaN(v)) ss += (v - mean) * (v - mean);
  }
  const std = n > 1 ? Math.sqrt(ss / n) : 0;
  return {
    thresholds: fitBinThresholds(values, rng),
    mean,
    std: std > 0 ? std : 1,
    min: n > 0 ? min : 0,
    max: n > 0 ? max : 0,
    hasMissing: n < values.length,
  };
}

/**
 * Category keys by descending frequency (ties by key, for determinism), capped at 253 so a column
 * with 100k distinct values costs 255 bins, not 100k. The rest share the 'other' code with values
 * unseen in training.
 */
export function fitCategories(values: ArrayLike<unknown>, kind: ValueKind): string[] {
  const counts = new Map<string, number>();
  for (let i = 0; i < values.length; i++) {
    const k = categoryKey(values[i], kind);
    if (k !== null) counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const keys = [...counts.keys()];
  keys.sort((a, b) => counts.get(b)! - counts.get(a)! || (a < b ? -1 : a > b ? 1 : 0));
  return keys.slice(0, MAX_CATEGORIES);
}

/** Fits one encoder per input column on the given (training) values. */
export function fitEncoders(
  profiles: ColumnProfile[],
  columns: ArrayLike<unknown>[],
  rng: Rng,
): ColumnEncoder[] {
  const encs: ColumnEncoder[] = profiles.map((p, j): ColumnEncoder => {
    const vals = columns[j];
    const n = vals.length;
    switch (p.type) {
      case 'integer':
      case 'float':
        return {
          kind: 'numeric',
          column: p.name,
          type: p.type,
          stats: fitNumericStats(parseNumericColumn(vals, n, false, p.name), rng),
        };
      case 'binary':
      case 'categorical':
        return {
          kind: 'categorical',
          column: p.name,
          type: p.type,
          valueKind: p.valueKind,
          keys: fitCategories(vals, p.valueKind),
          nOneHot: 0,
        };
      case 'datetime':
        return {
          kind: 'datetime',
          column: p.name,
          parts: datetimeParts(parseDatetimeColumn(vals, n, false, p.name), n).map((x) =>
            fitNumericStats(x, rng),
          ),
        };
      case 'text':
        return {
          kind: 'text',
          column: p.name,
          parts: textParts(vals, n).map((x) => fitNumericStats(x, rng)),
        };
      default:
        throw new Error(`no encoder for type ${p.type}`);
    }
  });
  // Share the linear width budget: the widest categoricals shrink first.
  const cats = encs.filter((e): e is CategoricalEncoder => e.kind === 'categorical');
  let cap = MAX_ONE_HOT;
  const numericDims = encs.reduce(
    (s, e) => s + (e.kind === 'categorical' ? 0 : 2 * (e.kind === 'numeric' ? 1 : e.parts.length)),
    0,
  );
  const budget = Math.max(0, MAX_LINEAR_DIMS - numericDims);
  while (cap > 1 && cats.reduce((s, c) => s + Math.min(cap, c.keys.length), 0) > budget) cap--;
  for (const c of cats) c.nOneHot = Math.min(cap, c.keys.length);
  return encs;
}

// ---------------------------------------------------------------------------------------------
// Layout: encoders -> tree features and linear dimensions
// ---------------------------------------------------------------------------------------------

export interface TreeFeature {
  encoder: number;
  isCat: boolean;
  /** Bins including the trailing 'missing' bin (and, for categoricals, the 'other' code before it). */
  nBins: number;
  stats: NumericStats | null;
  thresholds: Float64Array | null;
  nCats: number;
  /** Linear dimension of this feature (first one-hot column for categoricals). */
  linDim: number;
  /** Linear dimension of the missing indicator, or -1. */
  linMissDim: number;
  nOneHot: number;
}

export interface Layout {
  features: TreeFeature[];
  /** Tree features of each encoder (input column), for per-column permutation importance. */
  encoderFeatures: number[][];
  /** Linear width (without intercept). */
  linDims: number;
}

export function buildLayout(encs: ColumnEncoder[]): Layout {
  const features: TreeFeature[] = [];
  const encoderFeatures: number[][] = [];
  let dim = 0;
  const addNumeric = (e: number, s: NumericStats): void => {
    features.push({
      encoder: e,
      isCat: false,
      nBins: s.thresholds.length + 2,
      stats: s,
      thresholds: Float64Array.from(s.thresholds),
      nCats: 0,
      linDim: dim++,
      linMissDim: s.hasMissing ? dim++ : -1,
      nOneHot: 0,
    });
  };
  encs.forEach((enc, e) => {
    const start = features.length;
    if (enc.kind === 'numeric') addNumeric(e, enc.stats);
    else if (enc.kind === 'datetime' || enc.kind === 'text')
      for (const p of enc.parts) addNumeric(e, p);
    else {
      features.push({
        encoder: e,
        isCat: true,
        nBins: enc.keys.length + 2,
        stats: null,
        thresholds: null,
        nCats: enc.keys.length,
        linDim: dim,
        linMissDim: -1,
        nOneHot: enc.nOneHot,
      });
      dim += enc.nOneHot;
    }
    const idx: number[] = [];
    for (let f = start; f < features.length; f++) idx.push(f);
    encoderFeatures.push(idx);
  });
  return { features, encoderFeatures, linDims: dim };
}

/**
 * One stream per tree feature: Float64Array of numbers (NaN = missing) or Int32Array of category
 * codes (nCats = other/unseen, nCats + 1 = missing).
 */
export type Stream = Float64Array | Int32Array;

/**
 * Parses raw per-column cells (`columns[e]` for encoder e; undefined = column not supplied) into
 * feature streams. Strict mode is for prediction inputs: uncastable numbers/dates throw.
 */
export function parseStreams(
  encs: ColumnEncoder[],
  columns: (ArrayLike<unknown> | undefined)[],
  n: number,
  strict: boolean,
): Stream[] {
  const streams: Stream[] = [];
  const none = { length: n } as ArrayLike<unknown>;
  encs.forEach((enc, e) => {
    const vals = columns[e] ?? none;
    switch (enc.kind) {
      case 'numeric':
        streams.push(parseNumericColumn(vals, n, strict, enc.column));
        break;
      case 'categorical':
        streams.push(encodeCategories(enc, vals, n));
        break;
      case 'datetime':
        streams.push(...datetimeParts(parseDatetimeColumn(vals, n, strict, enc.column), n));
        break;
      case 'text':
        streams.push(...textParts(vals, n));
        break;
    }
  });
  return streams;
}

/** Category codes; keys come from a Map built once per call (not per row). */
export function encodeCategories(
  enc: CategoricalEncoder,
  values: ArrayLike<unknown>,
  n: number,
): Int32Array {
  const map = categoryIndex(enc);
  const other = enc.keys.length;
  const missing = other + 1;
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const v = values[i];
    // Fast path for the common string case avoids the key canonicalisation work.
    if (typeof v === 'string' && enc.valueKind === 'string') {
      const s =
        v.length > 0 && v.charCodeAt(0) > 32 && v.charCodeAt(v.length - 1) > 32 ? v : v.trim();
      if (s === '') out[i] = missing;
      else out[i] = map.get(s) ?? other;
      continue;
    }
    const k = categoryKey(v, enc.valueKind);
    out[i] = k === null ? missing : (map.get(k) ?? other);
  }
  return out;
}

const indexCache = new WeakMap<CategoricalEncoder, Map<string, number>>();
function categoryIndex(enc: CategoricalEncoder): Map<string, number> {
  let m = indexCache.get(enc);
  if (!m) {
    m = new Map(enc.keys.map((k, i) => [k, i]));
    indexCache.set(enc, m);
  }
  return m;
}

/** Bin of a number: first edge >= v (binary search), NaN -> the missing bin. */
export function binOf(thr: Float64Array, v: number): number {
  if (Number.isNaN(v)) return thr.length + 1;
  let lo = 0;
  let hi = thr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (v <= thr[mid]) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Row-major binned matrix (n x F bytes) for the GBM. */
export function binStreams(layout: Layout, streams: Stream[], n: number): Uint8Array {
  const F = layout.features.length;
  const out = new Uint8Array(n * F);
  for (let f = 0; f < F; f++) {
    const feat = layout.features[f];
    const s = streams[f];
    if (feat.isCat) {
      for (let i = 0; i < n; i++) out[i * F + f] = s[i];
    } else {
      const thr = feat.thresholds!;
      const missBin = thr.length + 1;
      const m = thr.length;
      for (let i = 0; i < n; i++) {
        const v = s[i];
        let b: number;
        if (v !== v) b = missBin;
        else {
          let lo = 0;
          let hi = m;
          while (lo < hi) {
            const mid = (lo + hi) >>> 1;
            if (v <= thr[mid]) hi = mid;
            else lo = mid + 1;
          }
          b = lo;
        }
        out[i * F + f] = b;
      }
    }
  }
  return out;
}

/**
 * Sparse linear rows: every row has the same number of slots (one per numeric feature, one per
 * missing indicator, one per categorical), so the design matrix is two flat arrays, not n objects.
 * A categorical code without a one-hot column uses dim 0 with value 0.
 */
export interface LinearRows {
  n: number;
  slots: number;
  idx: Int32Array;
  val: Float64Array;
}

/** Standardized values are clipped so one extreme input cannot dominate a linear prediction. */
export const Z_CLIP = 8;

export function linearRows(layout: Layout, streams: Stream[], n: number): LinearRows {
  let slots = 0;
  for (const f of layout.features) slots += f.isCat ? 1 : f.linMissDim >= 0 ? 2 : 1;
  const idx = new Int32Array(n * slots);
  const val = new Float64Array(n * slots);
  let s0 = 0;
  layout.features.forEach((feat, f) => {
    const s = streams[f];
    if (feat.isCat) {
      for (let i = 0; i < n; i++) {
        const c = s[i];
        const o = i * slots + s0;
        if (c < feat.nOneHot) {
          idx[o] = feat.linDim + c;
          val[o] = 1;
        }
      }
      s0 += 1;
    } else {
      const st = feat.stats!;
      for (let i = 0; i < n; i++) {
        const v = s[i];
        const o = i * slots + s0;
        idx[o] = feat.linDim;
        if (v === v) {
          let z = (v - st.mean) / st.std;
          if (z > Z_CLIP) z = Z_CLIP;
          else if (z < -Z_CLIP) z = -Z_CLIP;
          val[o] = z;
        }
        if (feat.linMissDim >= 0) {
          idx[o + 1] = feat.linMissDim;
          val[o + 1] = v === v ? 0 : 1;
        }
      }
      s0 += feat.linMissDim >= 0 ? 2 : 1;
    }
  });
  return { n, slots, idx, val };
}
