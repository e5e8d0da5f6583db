// Encoders: turn raw column cells into the two numeric views the models need. Trees get one
// small-integer "bin" per feature (quantile bins for numbers, codes for categories), linear models
// get standardized numbers plus one-hot indicators. Everything is fitted once on training rows
// and stored as plain JSON so a saved model encodes prediction inputs exactly as in training.

import type { Rng } from '../prng';
import type { TargetEncoding } from './target-encoding';
import { MAX_BINS, fitBinThresholds } from './binning';
import { type ColumnProfile, type ValueKind, categoryKey } from './column-types';
import {
  DATETIME_PARTS,
  TEXT_PARTS,
  datetimeParts,
  parseDatetimeColumn,
  parseNumericColumn,
  textParts,
} from './parse';

/** Kept categories: MAX_BINS minus the 'other/unseen' and 'missing' codes. */
export const MAX_CATEGORIES = MAX_BINS - 2;
/** One-hot width per categorical for the linear model, and the total linear width budget. */
const MAX_ONE_HOT = 50;
const MAX_LINEAR_DIMS = 400;

export interface NumericStats {
  /** Ascending bin edges: bin(v) = first i with v <= thresholds[i], else thresholds.length. */
  thresholds: number[];
  mean: number;
  std: number;
  min: number;
  max: number;
  hasMissing: boolean;
}

interface NumericEncoder {
  kind: 'numeric';
  column: string;
  type: 'integer' | 'float';
  stats: NumericStats;
  /**
   * An integer scale with few levels: its values, which the linear model also reads one-hot (a
   * scale's effect need not be a straight line: churn by number of products). Absent otherwise.
   */
  levels?: number[];
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
  /**
   * More categories than codes: the smoothed target mean of each (data/target-encoding.ts) as
   * numeric features (one per class for multiclass) with their bin statistics. Absent otherwise,
   * as in older models.
   */
  targetEncoding?: TargetEncoding;
  teParts?: NumericStats[];
}
interface DatetimeEncoder {
  kind: 'datetime';
  column: string;
  parts: NumericStats[]; // DATETIME_PARTS order
}
interface TextEncoder {
  kind: 'text';
  column: string;
  /** TEXT_PARTS order, then one per score of `stack`. */
  parts: NumericStats[];
  /** The words as a feature: TF-IDF ridge scores (data/text.ts). Absent in older models. */
  stack?: TextStack;
}

/** A text model as stored: terms, IDF, ridge weights ((terms + 1) x K, base64 Float64). */
export interface TextStack {
  terms: string[];
  idf: number[];
  K: number;
  weights: string;
  lambda: number;
  /** Its out-of-fold score (r2, or balanced accuracy), which decided that it is kept. */
  score: number;
}
export type ColumnEncoder = NumericEncoder | CategoricalEncoder | DatetimeEncoder | TextEncoder;

/** Human-readable encoder name for DESCRIBE ... features. */
export function encoderName(e: ColumnEncoder): string {
  switch (e.kind) {
    case 'numeric':
      return 'NumericEncoder(quantile-bins, standardize)';
    case 'categorical':
      return e.type === 'binary'
        ? 'BinaryEncoder(codes, one-hot)'
        : e.targetEncoding
          ? `CategoricalEncoder(codes of ${e.keys.length}, one-hot, out-of-fold target mean of ${e.targetEncoding.keys.length})`
          : 'CategoricalEncoder(codes, one-hot)';
    case 'datetime':
      return 'DatetimeEncoder(' + DATETIME_PARTS.join(', ') + ')';
    case 'text':
      return e.stack
        ? `TextEncoder(${TEXT_PARTS.join(', ')}, tf-idf ridge score: ${e.stack.terms.length} words and word pairs)`
        : 'TextEncoder(' + TEXT_PARTS.join(', ') + ')';
  }
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
  return categoryCounts(values, kind).keys.slice(0, MAX_CATEGORIES);
}

/** Distinct category keys by descending frequency (ties by key). */
export function categoryCounts(
  values: ArrayLike<unknown>,
  kind: ValueKind,
): { keys: string[]; counts: Map<string, number> } {
  const counts = new Map<string, number>();
  for (let i = 0; i < values.length; i++) {
    const k = categoryKey(values[i], kind);
    if (k !== null) counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const keys = [...counts.keys()];
  keys.sort((a, b) => counts.get(b)! - counts.get(a)! || (a < b ? -1 : a > b ? 1 : 0));
  return { keys, counts };
}

/** Integer scales with at most this many levels also get one-hot indicators (see levels). */
const MAX_SCALE_LEVELS = 10;

/** The distinct values (ascending) when there are at most MAX_SCALE_LEVELS, else null. */
function fewLevels(xs: Float64Array): number[] | null {
  const seen = new Set<number>();
  for (let i = 0; i < xs.length; i++) {
    const v = xs[i];
    if (v !== v) continue;
    seen.add(v);
    if (seen.size > MAX_SCALE_LEVELS) return null;
  }
  return seen.size >= 3 ? [...seen].sort((a, b) => a - b) : null;
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
      case 'float': {
        const xs = parseNumericColumn(vals, n, false, p.name);
        const levels = p.type === 'integer' ? fewLevels(xs) : null;
        return {
          kind: 'numeric',
          column: p.name,
          type: p.type,
          stats: fitNumericStats(xs, rng),
          ...(levels ? { levels } : {}),
        };
      }
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
