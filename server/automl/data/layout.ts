// The layout of encoded inputs: encoders -> tree features (one binned byte each) and linear
// dimensions, and the columnar streams, binned matrix and sparse linear rows built from raw cells.

import type { CategoricalEncoder, ColumnEncoder, NumericStats } from './encoders';
import { binIndex } from './binning';
import { categoryKey } from './column-types';
import { datetimeParts, parseDatetimeColumn, parseNumericColumn, textParts } from './parse';
import { targetEncodingStreams } from './target-encoding';
import { stackStreams } from './text';

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
  /** Numbers with few levels (an integer scale): the levels, one-hot in the linear model too. */
  levels: Float64Array | null;
  /** Linear dimension of the first level's indicator, or -1. */
  linLevelDim: number;
}

/** Linear slots of a tree feature in every row: value, missing indicator, level indicator. */
export function slotWidth(f: TreeFeature): number {
  return f.isCat ? 1 : 1 + (f.linMissDim >= 0 ? 1 : 0) + (f.levels ? 1 : 0);
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
  const addNumeric = (e: number, s: NumericStats, levels?: number[]): void => {
    const linDim = dim++;
    const linMissDim = s.hasMissing ? dim++ : -1;
    const linLevelDim = levels ? dim : -1;
    if (levels) dim += levels.length;
    features.push({
      encoder: e,
      isCat: false,
      nBins: s.thresholds.length + 2,
      stats: s,
      thresholds: Float64Array.from(s.thresholds),
      nCats: 0,
      linDim,
      linMissDim,
      nOneHot: 0,
      levels: levels ? Float64Array.from(levels) : null,
      linLevelDim,
    });
  };
  encs.forEach((enc, e) => {
    const start = features.length;
    if (enc.kind === 'numeric') addNumeric(e, enc.stats, enc.levels);
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
        levels: null,
        linLevelDim: -1,
      });
      dim += enc.nOneHot;
      for (const p of enc.teParts ?? []) addNumeric(e, p);
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
  /**
   * Training: the target-fitted streams of encoder e (text scores, target encodings) computed
   * out of fold, instead of from the cells.
   */
  fitted?: (Float64Array[] | undefined)[],
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
        if (enc.targetEncoding) {
          streams.push(
            ...(fitted?.[e] ?? targetEncodingStreams(enc.targetEncoding, vals, enc.valueKind, n)),
          );
        }
        break;
      case 'datetime':
        streams.push(...datetimeParts(parseDatetimeColumn(vals, n, strict, enc.column), n));
        break;
      case 'text':
        streams.push(...textParts(vals, n));
        if (enc.stack) streams.push(...(fitted?.[e] ?? stackStreams(enc.stack, vals, n)));
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

/**
 * Row-major binned matrix (n x F bytes) for the GBM; with `stride` > F, each row has room for
 * extra columns after the features (left 0).
 */
export function binStreams(
  layout: Layout,
  streams: Stream[],
  n: number,
  stride = layout.features.length,
): Uint8Array {
  const F = stride;
  const out = new Uint8Array(n * F);
  for (let f = 0; f < layout.features.length; f++) {
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
        out[i * F + f] = v !== v ? missBin : binIndex(thr, m, v);
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
const Z_CLIP = 8;

export function linearRows(layout: Layout, streams: Stream[], n: number): LinearRows {
  let slots = 0;
  for (const f of layout.features) slots += slotWidth(f);
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
        const lv = feat.levels;
        if (lv) {
          // The level's indicator (an unseen value or a missing one: none, dim 0 with value 0).
          const q = o + (feat.linMissDim >= 0 ? 2 : 1);
          for (let j = 0; j < lv.length; j++) {
            if (lv[j] === v) {
              idx[q] = feat.linLevelDim + j;
              val[q] = 1;
              break;
            }
          }
        }
      }
      s0 += slotWidth(feat);
    }
  });
  return { n, slots, idx, val };
}
