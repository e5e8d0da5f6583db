// Whether promised prediction intervals hold where it matters: achieved coverage and mean width
// overall, per decile of the predicted value and per segment of any column, against the promised
// level, and the held-out rows that fell outside (the farthest first).

export interface CoverageCell {
  label: string;
  rows: number;
  /** Share of rows whose actual value lies inside [lower, upper]. */
  coverage: number;
  meanWidth: number;
  /** Rows above the interval and below it. */
  above: number;
  below: number;
}

export interface IntervalRows {
  actual: ArrayLike<number>;
  predicted: ArrayLike<number>;
  lower: ArrayLike<number>;
  upper: ArrayLike<number>;
}

/** Coverage and width of rows grouped by `of` (row -> group index; -1 leaves a row out). */
export function coverageBy(
  r: IntervalRows,
  of: ArrayLike<number>,
  labels: string[],
): CoverageCell[] {
  const G = labels.length;
  const rows = new Float64Array(G);
  const inside = new Float64Array(G);
  const width = new Float64Array(G);
  const above = new Float64Array(G);
  const below = new Float64Array(G);
  for (let i = 0; i < r.actual.length; i++) {
    const g = of[i];
    if (g < 0 || !Number.isFinite(r.actual[i])) continue;
    rows[g]++;
    width[g] += r.upper[i] - r.lower[i];
    if (r.actual[i] > r.upper[i]) above[g]++;
    else if (r.actual[i] < r.lower[i]) below[g]++;
    else inside[g]++;
  }
  return labels.map((label, g) => ({
    label,
    rows: rows[g],
    coverage: rows[g] > 0 ? inside[g] / rows[g] : NaN,
    meanWidth: rows[g] > 0 ? width[g] / rows[g] : NaN,
    above: above[g],
    below: below[g],
  }));
}

/** Each row's decile of the predicted value (0..9; fewer groups on fewer than 10 rows). */
export function predictedDeciles(predicted: ArrayLike<number>): {
  of: Int32Array;
  labels: string[];
} {
  const n = predicted.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => predicted[a] - predicted[b]);
  const D = Math.min(10, n);
  const of = new Int32Array(n);
  const bounds: { lo: number; hi: number }[] = [];
  for (let d = 0; d < D; d++) {
    const s = Math.floor((d * n) / D);
    const e = Math.floor(((d + 1) * n) / D);
    for (let j = s; j < e; j++) of[order[j]] = d;
    bounds.push({ lo: predicted[order[s]], hi: predicted[order[e - 1]] });
  }
  const fmt = (x: number) => String(Number(x.toPrecision(4)));
  return { of, labels: bounds.map((b, d) => `${d + 1}: ${fmt(b.lo)} to ${fmt(b.hi)}`) };
}

/** Rows outside their interval, the farthest (in interval widths) first, at most `max`. */
export function rowsOutside(r: IntervalRows, max: number): number[] {
  const out: { i: number; far: number }[] = [];
  for (let i = 0; i < r.actual.length; i++) {
    const a = r.actual[i];
    const w = Math.max(r.upper[i] - r.lower[i], Number.EPSILON);
    if (a > r.upper[i]) out.push({ i, far: (a - r.upper[i]) / w });
    else if (a < r.lower[i]) out.push({ i, far: (r.lower[i] - a) / w });
  }
  return out
    .sort((x, y) => y.far - x.far || x.i - y.i)
    .slice(0, max)
    .map((x) => x.i);
}
