// Ranking curves of a score against a yes/no truth: ROC (with its AUC). Ties are one point, as
// scikit-learn's roc_curve makes them, so the values match its (tests pin them).

/** Rows sorted by score, highest first, and the cumulative counts at each distinct score. */
interface Ranked {
  /** Distinct scores, highest first. */
  thresholds: Float64Array;
  /** Positives / negatives (weighted) with a score >= thresholds[i]. */
  tps: Float64Array;
  fps: Float64Array;
}

function rank(scores: ArrayLike<number>, positive: ArrayLike<number>): Ranked {
  const n = scores.length;
  const order = Array.from({ length: n }, (_, i) => i)
    .filter((i) => Number.isFinite(scores[i]))
    .sort((a, b) => scores[b] - scores[a]);
  const thresholds: number[] = [];
  const tps: number[] = [];
  const fps: number[] = [];
  let tp = 0;
  let fp = 0;
  for (let j = 0; j < order.length; j++) {
    const i = order[j];
    if (positive[i]) tp++;
    else fp++;
    // A point where the next row has a different score (the last of a run of ties).
    if (j === order.length - 1 || scores[order[j + 1]] !== scores[i]) {
      thresholds.push(scores[i]);
      tps.push(tp);
      fps.push(fp);
    }
  }
  return {
    thresholds: Float64Array.from(thresholds),
    tps: Float64Array.from(tps),
    fps: Float64Array.from(fps),
  };
}

export interface RocCurve {
  /** False-positive rate, true-positive rate and the threshold of each point (first: +Infinity). */
  fpr: number[];
  tpr: number[];
  thresholds: number[];
  /** Area under the curve (trapezoids; NaN when one of the classes is absent). */
  auc: number;
}

/**
 * The ROC curve of `scores` (higher = more likely positive) against `positive` (1/0). Points on a
 * straight segment are dropped (scikit-learn's drop_intermediate), the area is exact.
 */
export function rocCurve(scores: ArrayLike<number>, positive: ArrayLike<number>): RocCurve {
  const r = rank(scores, positive);
  const P = r.tps.length ? r.tps[r.tps.length - 1] : 0;
  const N = r.fps.length ? r.fps[r.fps.length - 1] : 0;
  const fps = [0, ...r.fps];
  const tps = [0, ...r.tps];
  const thr = [Infinity, ...r.thresholds];
  let auc = 0;
  for (let i = 1; i < fps.length; i++) auc += ((fps[i] - fps[i - 1]) * (tps[i] + tps[i - 1])) / 2;
  auc = P > 0 && N > 0 ? auc / (P * N) : NaN;
  // Keep the ends and every point where the slope changes.
  const keep: number[] = [];
  for (let i = 0; i < fps.length; i++) {
    const end = i === 0 || i === fps.length - 1;
    if (
      end ||
      fps[i - 1] - 2 * fps[i] + fps[i + 1] !== 0 ||
      tps[i - 1] - 2 * tps[i] + tps[i + 1] !== 0
    )
      keep.push(i);
  }
  return {
    fpr: keep.map((i) => (N > 0 ? fps[i] / N : NaN)),
    tpr: keep.map((i) => (P > 0 ? tps[i] / P : NaN)),
    thresholds: keep.map((i) => thr[i]),
    auc,
  };
}
