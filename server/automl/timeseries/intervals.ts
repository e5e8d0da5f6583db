// The conformal maths of forecast intervals: the weighted conformal quantile and age weights
// (calibration.ts calibrates with them at training), the residual sketch an artifact keeps, and
// the recalibration on outcomes observed since training (recalibrate.ts runs it per forecast).

/**
 * The conformal quantile of weighted scores (Barber et al., "Conformal prediction beyond
 * exchangeability", 2023): the smallest score whose cumulative weight reaches `level` of the total
 * weight plus the forecast's own (1), so a few scores give a wider interval than many, as with
 * the unweighted ceil((n + 1) * level)-th score it reduces to when every weight is 1. With too
 * little weight for the level it is the largest score.
 */
export function weightedConformalQuantile(
  scores: readonly number[],
  weights: readonly number[],
  level: number,
): number {
  return weightedConformalQuantiles(scores, weights, [level])[0];
}

/**
 * weightedConformalQuantile at each of `levels`, from one sort of the scores (the sketch a model
 * keeps asks for 64 levels of every step's residuals: a sort per level took 12 s of the 75 s a
 * 1,000-group set trained in).
 */
export function weightedConformalQuantiles(
  scores: readonly number[],
  weights: readonly number[],
  levels: readonly number[],
): number[] {
  const n = scores.length;
  if (n === 0) return levels.map(() => Infinity);
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => scores[a] - scores[b]);
  let total = 1;
  for (const w of weights) total += w;
  // Cumulative weight in score order: non-decreasing, so each level's first index that reaches
  // its share is found by bisection.
  const cum = new Float64Array(n);
  let acc = 0;
  for (let j = 0; j < n; j++) cum[j] = acc += weights[order[j]];
  return levels.map((level) => {
    const need = level * total - 1e-9;
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cum[mid] >= need) hi = mid;
      else lo = mid + 1;
    }
    return scores[order[Math.min(lo, n - 1)]];
  });
}

/**
 * The residual quantile level a band at nominal `level` takes, from the trained pairs (nominal,
 * quantile): linear between the nearest trained levels; beyond them, the nearest one's shift
 * scaled by the miss rate, (1 - level) / (1 - nearest); the level itself without pairs.
 */
export function quantileLevelOf(
  pairs: readonly { level: number; quantile: number }[] | undefined,
  level: number,
): number {
  if (!pairs || pairs.length === 0) return level;
  const sorted = [...pairs].sort((a, b) => a.level - b.level);
  const at = sorted.find((p) => Math.abs(p.level - level) < 1e-9);
  if (at) return at.quantile;
  const hi = sorted.findIndex((p) => p.level > level);
  if (hi > 0) {
    const a = sorted[hi - 1];
    const b = sorted[hi];
    const t = (level - a.level) / (b.level - a.level);
    return a.quantile + t * (b.quantile - a.quantile);
  }
  const near = hi === 0 ? sorted[0] : sorted[sorted.length - 1];
  const shift = ((near.quantile - near.level) * (1 - level)) / (1 - near.level);
  return Math.min(1, Math.max(0, level + shift));
}

/** Weight of a residual `age` validation periods old (Infinity: all weigh 1). */
export const ageWeight = (age: number, halfLife: number): number =>
  halfLife === Infinity || age <= 0 ? 1 : 2 ** (-age / halfLife);

/** Most points a step's residual sketch keeps (fewer for long horizons: the artifact's size). */
const SKETCH_POINTS = 64;
const SKETCH_BUDGET = 40_000;

/**
 * The calibration residuals as the artifact keeps them for recalibrating at forecast time: per
 * step, K weighted quantiles (at (j + 0.5) / K) of the residuals under their age weights, and the
 * total weight. A later forecast ages every one of them by the same time, which multiplies all
 * their weights by one factor, so K points of weight total / K stand for them all.
 */
export function calibrationSketch(
  residuals: number[][],
  weights: number[][],
  /** Per probability, the half-width per step (default: each step's weighted quantiles). */
  quantiles?: (probs: number[]) => number[][],
): { sketch: number[][]; weight: number[] } {
  const H = residuals.length;
  const K = Math.max(8, Math.min(SKETCH_POINTS, Math.floor(SKETCH_BUDGET / Math.max(1, H))));
  const weight = weights.map((w) => round6(w.reduce((a, b) => a + b, 0)));
  if (quantiles) {
    const probs = Array.from({ length: K }, (_, j) => (j + 0.5) / K);
    const q = quantiles(probs);
    const sketch = Array.from({ length: H }, (_, k) => probs.map((_, j) => round6(q[j][k])));
    return { sketch, weight };
  }
  const sketch: number[][] = [];
  for (let k = 0; k < H; k++) {
    const r = residuals[k];
    const w = weights[k];
    const order = Array.from({ length: r.length }, (_, i) => i).sort((a, b) => r[a] - r[b]);
    const total = weight[k];
    const pts: number[] = [];
    let acc = 0;
    let j = 0;
    for (const i of order) {
      acc += w[i];
      while (j < K && acc >= ((j + 0.5) / K) * total - 1e-12) {
        pts.push(round6(r[i]));
        j++;
      }
    }
    sketch.push(pts);
  }
  return { sketch, weight };
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/**
 * One validation period (the longest series' share `fraction` of its time span, the unit of the
 * calibration ages) and the last training timestamp, in ORDER BY units.
 */
export function trainingSpan(
  series: readonly { t: Float64Array }[],
  fraction: number,
): { span: number; until: number } {
  let span = 0;
  let until = -Infinity;
  for (const s of series) {
    const n = s.t.length;
    if (n === 0) continue;
    span = Math.max(span, (s.t[n - 1] - s.t[0]) * fraction);
    until = Math.max(until, s.t[n - 1]);
  }
  return { span, until };
}

/**
 * Half-widths per step from the calibration sketch (its weight times `decay`, the age the
 * training residuals gained since) together with residuals observed since training, each with its
 * own age weight: the training's weighted conformal quantile over the longer record. A step
 * without new residuals keeps the sketch's quantile. The fan widens with the step, as trained.
 */
export function recalibratedHalfWidths(
  sketch: number[][],
  weight: number[],
  decay: number,
  recent: { residuals: number[][]; weights: number[][] },
  level: number,
): number[] {
  const out: number[] = [];
  let widest = 0;
  for (let k = 0; k < sketch.length; k++) {
    const pts = sketch[k];
    const each = pts.length ? (weight[k] * decay) / pts.length : 0;
    const scores = [...pts, ...recent.residuals[k]];
    const w = [...pts.map(() => each), ...recent.weights[k]];
    if (scores.length > 0) widest = Math.max(widest, weightedConformalQuantile(scores, w, level));
    out.push(widest);
  }
  return out;
}

/**
 * Adaptive conformal inference per step (Gibbs & Candès 2021, in the multiplicative
 * quantile-tracking form of Angelopoulos et al. 2023): a factor on `halfWidths[k]` that starts at
 * 1 and, over the residuals in time order, grows by exp(eta * (1 - alpha)) after each miss and
 * shrinks by exp(-eta * alpha) after each hit. Its expected change is zero when misses come at
 * the target rate alpha; a run of misses widens quickly, a long calm narrows slowly. Returns the
 * widened half-widths, the fan still non-decreasing in the step.
 */
export function trackedHalfWidths(
  halfWidths: readonly number[],
  residuals: readonly (readonly number[])[],
  level: number,
  eta = TRACKING_RATE,
): number[] {
  const alpha = 1 - level;
  const out: number[] = [];
  let widest = 0;
  halfWidths.forEach((hw, k) => {
    let f = 1;
    for (const x of residuals[k] ?? []) f *= Math.exp(eta * ((x > f * hw ? 1 : 0) - alpha));
    widest = Math.max(widest, f * hw);
    out.push(widest);
  });
  return out;
}

/**
 * The tracking's step in log-width: after a miss at 90 % the width grows 9.4 %, after a hit it
 * shrinks 1 %; ten misses in a row widen it 2.5 times. Set a priori, not fitted to any data set:
 * bench/timeseries.ts meets the same 4 of 6 series with half or twice the rate.
 */
export const TRACKING_RATE = 0.1;
