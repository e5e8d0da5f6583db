// Feature effects across all rows: partial dependence (the average prediction as one input is
// set to each value of a grid, every other input left as it is in each row) with individual
// conditional expectation lines (the same for single rows), computed in batch: the sampled frame
// is repeated once per grid point with the input set to that point, and the copies are scored
// together (one predict call per 50k rows, so 20 points x 1k rows is one call). Classifiers
// average the probability of one class.

import type { CellValue, Prediction, Predictor } from '../api';
import { AutoMLError } from '../errors';
import { categoryKey, isMissing, parseNumber } from '../data/column-types';

/** Columns of sampled rows (each `n` cells), keyed by the model's input names. */
export interface EffectFrame {
  columns: Record<string, ArrayLike<CellValue>>;
  n: number;
}

export interface EffectOptions {
  column: string;
  kind: 'number' | 'category';
  /** Grid values; default: the frame's distinct values when few, else an even grid over its 5th-95th percentile. */
  grid?: readonly (number | string | boolean)[];
  /** Grid points when the grid is made here (default 20). */
  points?: number;
  /** ICE lines drawn (evenly spaced rows of the frame; default 30). */
  iceRows?: number;
  /** Classifiers: the class (as its label's string) whose probability is averaged. */
  classLabel?: string;
}

export interface EffectResult {
  grid: (number | string | boolean)[];
  average: number[];
  ice: number[][];
  /** Rows of the frame at (numbers: nearest to) each grid value. */
  distribution: { label: string; count: number }[];
}

const DEFAULT_GRID_POINTS = 20;
const DEFAULT_ICE_ROWS = 30;
/** Rows scored per predict call (grid points x frame rows), so memory stays bounded. */
const BATCH_ROWS = 50_000;

/** `q`-quantile of sorted values (linear interpolation, numpy's default). */
function quantile(sorted: Float64Array, q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/** The finite numbers of a column, sorted. */
function sortedNumbers(cells: ArrayLike<CellValue>): Float64Array {
  const out: number[] = [];
  for (let i = 0; i < cells.length; i++) {
    const x = parseNumber(cells[i]);
    if (Number.isFinite(x)) out.push(x);
  }
  return Float64Array.from(out).sort();
}

/**
 * A grid for a numeric input: its distinct values when there are at most `points` of them,
 * otherwise `points` evenly spaced values between the 5th and 95th percentiles (scikit-learn's
 * partial_dependence grid), whole numbers for integer columns.
 */
export function numericGrid(cells: ArrayLike<CellValue>, points = DEFAULT_GRID_POINTS): number[] {
  const v = sortedNumbers(cells);
  if (v.length === 0) return [];
  const distinct: number[] = [];
  for (const x of v)
    if (distinct.length === 0 || x !== distinct[distinct.length - 1]) distinct.push(x);
  if (distinct.length <= points) return distinct;
  const lo = quantile(v, 0.05);
  const hi = quantile(v, 0.95);
  const integer = distinct.every((x) => Number.isInteger(x));
  const grid: number[] = [];
  for (let i = 0; i < points; i++) {
    let g = points === 1 ? lo : lo + ((hi - lo) * i) / (points - 1);
    if (integer) g = Math.round(g);
    if (grid.length === 0 || g > grid[grid.length - 1]) grid.push(g);
  }
  return grid;
}

/** A grid for a categorical input: its values by frequency in the frame (ties by value), at most `points`. */
export function categoryGrid(
  cells: ArrayLike<CellValue>,
  points = DEFAULT_GRID_POINTS,
): CellValue[] {
  const counts = new Map<string, { value: CellValue; n: number }>();
  for (let i = 0; i < cells.length; i++) {
    const v = cells[i];
    if (isMissing(v)) continue;
    const k = categoryKey(v, 'string')!;
    const e = counts.get(k);
    if (e) e.n++;
    else counts.set(k, { value: v, n: 1 });
  }
  return [...counts.entries()]
    .sort((a, b) => b[1].n - a[1].n || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, points)
    .map(([, e]) => e.value);
}

/** How a prediction becomes the number averaged: the value, or the chosen class's probability. */
function outputOf(p: Predictor, classLabel: string | undefined): (x: Prediction) => number {
  if (p.description.task === 'regression') return (x) => Number(x.value);
  const classes = (p.description.classes ?? []).map(String);
  if (classLabel === undefined || !classes.includes(classLabel)) {
    throw new AutoMLError(
      `choose the class whose probability to average: one of ${classes.map((c) => `'${c}'`).join(', ')}`,
    );
  }
  return (x) => x.probabilities?.[classLabel] ?? 0;
}

function predictAll(p: Predictor, columns: Record<string, ArrayLike<CellValue>>, n: number) {
  if (p.predictColumns) return p.predictColumns(columns as Record<string, CellValue[]>, n);
  const names = Object.keys(columns);
  const rows: Record<string, CellValue>[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const o: Record<string, CellValue> = {};
    for (const c of names) o[c] = columns[c][i];
    rows[i] = o;
  }
  return p.predict(rows);
}

/** The rows drawn as ICE lines: `k` evenly spaced positions of the frame. */
function iceRowsOf(n: number, k: number): number[] {
  if (k >= n) return Array.from({ length: n }, (_, i) => i);
  return Array.from({ length: k }, (_, j) => Math.floor(((j + 0.5) * n) / k));
}

const labelOf = (v: number | string | boolean) =>
  typeof v === 'number' ? String(Number(v.toPrecision(6))) : String(v);

/** Frame rows at each grid value: nearest grid point for numbers, the same category otherwise. */
function distribution(
  cells: ArrayLike<CellValue>,
  grid: (number | string | boolean)[],
  kind: 'number' | 'category',
): { label: string; count: number }[] {
  const counts = new Array<number>(grid.length).fill(0);
  if (kind === 'number') {
    const g = grid as number[];
    for (let i = 0; i < cells.length; i++) {
      const x = parseNumber(cells[i]);
      if (!Number.isFinite(x) || g.length === 0) continue;
      let lo = 0;
      let hi = g.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if ((g[mid] + g[mid + 1]) / 2 < x) lo = mid + 1;
        else hi = mid;
      }
      counts[lo]++;
    }
  } else {
    const index = new Map(grid.map((v, j) => [categoryKey(v, 'string'), j]));
    for (let i = 0; i < cells.length; i++) {
      const j = index.get(categoryKey(cells[i], 'string'));
      if (j !== undefined) counts[j]++;
    }
  }
  return grid.map((v, j) => ({ label: labelOf(v), count: counts[j] }));
}

/**
 * Partial dependence and ICE lines of one input over a frame: every grid value scored on every
 * frame row, with the input set to that value.
 */
export function partialDependence(
  predictor: Predictor,
  frame: EffectFrame,
  opts: EffectOptions,
): EffectResult {
  const { column, kind } = opts;
  const cells = frame.columns[column];
  if (!cells) throw new AutoMLError(`the frame has no column '${column}'`);
  const points = opts.points ?? DEFAULT_GRID_POINTS;
  const grid = (opts.grid ??
    (kind === 'number' ? numericGrid(cells, points) : categoryGrid(cells, points))) as (
    number | string | boolean
  )[];
  const output = outputOf(predictor, opts.classLabel);
  const n = frame.n;
  const iceAt = iceRowsOf(n, opts.iceRows ?? DEFAULT_ICE_ROWS);
  const ice = iceAt.map(() => new Array<number>(grid.length));
  const average = new Array<number>(grid.length).fill(NaN);
  // Grid points are stacked into batches of about BATCH_ROWS rows: the frame repeated once per
  // point, the input set to that point in its copy. One predict call scores a whole batch.
  const perBatch = Math.max(1, Math.floor(BATCH_ROWS / Math.max(1, n)));
  const names = Object.keys(frame.columns);
  for (let g0 = 0; g0 < grid.length && n > 0; g0 += perBatch) {
    const points = grid.slice(g0, g0 + perBatch);
    const m = points.length * n;
    const columns: Record<string, CellValue[]> = {};
    for (const c of names) {
      const out = new Array<CellValue>(m);
      const src = frame.columns[c];
      points.forEach((g, k) => {
        if (c === column) out.fill(g, k * n, (k + 1) * n);
        else for (let i = 0; i < n; i++) out[k * n + i] = src[i];
      });
      columns[c] = out;
    }
    const preds = predictAll(predictor, columns, m);
    points.forEach((_, k) => {
      let s = 0;
      for (let i = 0; i < n; i++) s += output(preds[k * n + i]);
      average[g0 + k] = s / n;
      iceAt.forEach((row, r) => (ice[r][g0 + k] = output(preds[k * n + row])));
    });
  }
  return { grid, average, ice, distribution: distribution(cells, grid, kind) };
}
