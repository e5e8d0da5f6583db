/**
 * The shared bins of a drift comparison: fitted on the reference (the training sample), applied
 * to both sides. Numbers get quantile bins (edges are reference values, so a column with a few
 * distinct values gets one bin per value) and a missing bin; categories get the most frequent
 * reference categories, "other known" (the rest of what training saw), "new" (never seen in
 * training) and missing. Binning here is for rows in memory (the reference sample, rows read from
 * an integration); `./sql.ts` writes the same bins as SQL for DuckDB, and a test checks they agree.
 */
import { categoryKey } from '../../automl/index';

export type ValueKind = 'number' | 'boolean' | 'string';

export interface NumericBins {
  kind: 'number';
  column: string;
  /**
   * Ascending; bin(v) = the number of edges < v (so 0..edges.length): bins are (-inf, e0],
   * (e0, e1], ..., (e_last, inf), as DuckDB's histogram(v, edges) counts them. Then missing.
   */
  edges: number[];
  /** The training data's range (values outside it are reported). */
  range: { min: number; max: number } | null;
  /** Every reference value is a whole number (labels then name the values a bin holds). */
  integer: boolean;
}

export interface CategoryBins {
  kind: 'category';
  column: string;
  valueKind: ValueKind;
  /** Category keys with a bin of their own (the reference's most frequent first). */
  shown: string[];
  /** Every key training saw (shown ones included); the rest of these count as "other". */
  known: string[];
}

export type DriftBins = NumericBins | CategoryBins;

/** Quantile bins per numeric column (deciles). */
const NUMERIC_BINS = 10;
/** Categories shown on their own; the rest are pooled. */
const SHOWN_CATEGORIES = 20;

/** Number of count slots of a column's bins (value bins, then other/new for categories, then missing). */
function binCount(b: DriftBins): number {
  return b.kind === 'number' ? b.edges.length + 2 : b.shown.length + 3;
}

/** Index of the missing bin (always the last one). */
export const missingBin = (b: DriftBins) => binCount(b) - 1;
/** Categories: the bins of known-but-pooled and never-seen values. */
export const otherBin = (b: CategoryBins) => b.shown.length;
export const newBin = (b: CategoryBins) => b.shown.length + 1;

/**
 * Edges at the reference's deciles, taken from its own values (the smallest value with at least
 * i/10 of the values at or below it), without duplicates or an edge at the maximum (which would
 * leave the last bin empty). A column with a few distinct values gets one bin per value.
 */
export function numericBins(
  column: string,
  values: ArrayLike<number>,
  range: { min: number; max: number } | null = null,
  bins = NUMERIC_BINS,
): NumericBins {
  const v = Float64Array.from(values).filter((x) => Number.isFinite(x));
  v.sort();
  const edges: number[] = [];
  const n = v.length;
  for (let i = 1; i < bins && n > 0; i++) {
    const e = v[Math.ceil((n * i) / bins) - 1];
    if (e < v[n - 1] && (edges.length === 0 || e > edges[edges.length - 1])) edges.push(e);
  }
  return { kind: 'number', column, edges, range, integer: v.every((x) => Number.isInteger(x)) };
}

/**
 * Category bins: the reference keys by frequency (ties by key), the first SHOWN_CATEGORIES on
 * their own. `known` are the keys training saw; the reference's own keys are added to them.
 */
export function categoryBins(
  column: string,
  valueKind: ValueKind,
  referenceKeys: readonly (string | null)[],
  known: readonly string[],
  shown = SHOWN_CATEGORIES,
): CategoryBins {
  const counts = new Map<string, number>();
  for (const k of referenceKeys) if (k !== null) counts.set(k, (counts.get(k) ?? 0) + 1);
  const keys = [...counts.keys()].sort(
    (a, b) => counts.get(b)! - counts.get(a)! || (a < b ? -1 : a > b ? 1 : 0),
  );
  const all = new Set(known);
  for (const k of keys) all.add(k);
  return { kind: 'category', column, valueKind, shown: keys.slice(0, shown), known: [...all] };
}

/** A cell as a finite number, or NaN (missing, or not a number). */
export function cellNumber(v: unknown): number {
  if (typeof v === 'number') return Number.isFinite(v) ? v : NaN;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string') {
    // Plain decimal numbers only, as DuckDB's TRY_CAST(... AS DOUBLE) reads them (not '0x10').
    const s = v.trim();
    if (!PLAIN_NUMBER.test(s)) return NaN;
    const x = Number(s);
    return Number.isFinite(x) ? x : NaN;
  }
  return NaN;
}

const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** A cell's category key as the model keys it (null when missing). */
export const cellKey = (v: unknown, kind: ValueKind): string | null => categoryKey(v, kind);

/** The number of edges < x (the first edge >= x): the bin of x. */
function numericIndex(edges: readonly number[], x: number): number {
  let lo = 0;
  let hi = edges.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (edges[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** What counting a column gives: its bins' counts, and what else a drift report says of it. */
export interface BinnedColumn {
  counts: number[];
  /** Numbers: non-missing values below / above the training range. */
  below: number;
  above: number;
  /** Numbers: sum of the non-missing values (for the mean). */
  sum: number;
  /** Categories: never-seen keys and their counts (at most MAX_NEW_TRACKED distinct keys). */
  newValues: Map<string, number>;
}

const MAX_NEW_TRACKED = 1000;

export function emptyBinned(b: DriftBins): BinnedColumn {
  return {
    counts: new Array<number>(binCount(b)).fill(0),
    below: 0,
    above: 0,
    sum: 0,
    newValues: new Map(),
  };
}

/** Adds cells to a column's counts (call once per chunk: rows from an integration stream in). */
export function addCells(b: DriftBins, cells: ArrayLike<unknown>, into: BinnedColumn): void {
  const miss = missingBin(b);
  if (b.kind === 'number') {
    for (let i = 0; i < cells.length; i++) {
      const x = cellNumber(cells[i]);
      if (Number.isNaN(x)) {
        into.counts[miss]++;
        continue;
      }
      into.counts[numericIndex(b.edges, x)]++;
      into.sum += x;
      if (b.range && x < b.range.min) into.below++;
      if (b.range && x > b.range.max) into.above++;
    }
    return;
  }
  const index = new Map(b.shown.map((k, i) => [k, i]));
  const known = new Set(b.known);
  for (let i = 0; i < cells.length; i++) {
    const k = cellKey(cells[i], b.valueKind);
    if (k === null) into.counts[miss]++;
    else if (index.has(k)) into.counts[index.get(k)!]++;
    else if (known.has(k)) into.counts[otherBin(b)]++;
    else {
      into.counts[newBin(b)]++;
      const seen = into.newValues.get(k);
      if (seen !== undefined) into.newValues.set(k, seen + 1);
      else if (into.newValues.size < MAX_NEW_TRACKED) into.newValues.set(k, 1);
    }
  }
}

/** Counts of cells over a column's bins. */
export function binCells(b: DriftBins, cells: ArrayLike<unknown>): BinnedColumn {
  const out = emptyBinned(b);
  addCells(b, cells, out);
  return out;
}

const fmt = (x: number) => (Number.isInteger(x) ? String(x) : String(Number(x.toPrecision(4))));

/**
 * One label per count slot: `≤ 500`, `500 – 800` (above 500, up to 800), `> 1200`, a category,
 * other, new, missing.
 */
export function binLabels(b: DriftBins): string[] {
  if (b.kind === 'category') return [...b.shown, 'other', 'new', 'missing'];
  const values = Array.from({ length: b.edges.length + 1 }, (_, i) => numericRangeLabel(b, i, i));
  return [...values, 'missing'];
}

/** The label of value bins a..z of a numeric column (a contiguous range of them). */
export function numericRangeLabel(b: NumericBins, a: number, z: number): string {
  const e = b.edges;
  const lo = a === 0 ? null : e[a - 1];
  const hi = z >= e.length ? null : e[z];
  if (lo === null && hi === null) return 'all values';
  if (b.integer && e.every((x) => Number.isInteger(x))) {
    // (lo, hi] holds the whole numbers lo + 1 .. hi.
    if (lo === null) return `≤ ${fmt(hi!)}`;
    if (hi === null) return `≥ ${fmt(lo + 1)}`;
    return lo + 1 === hi ? fmt(hi) : `${fmt(lo + 1)} – ${fmt(hi)}`;
  }
  if (lo === null) return `≤ ${fmt(hi!)}`;
  if (hi === null) return `> ${fmt(lo)}`;
  return `${fmt(lo)} – ${fmt(hi)}`;
}
