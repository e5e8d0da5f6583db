// The held-out scores of a binary decision as counts per threshold step: how many positive and
// negative rows have a positive-class probability in each step. From it the confusion matrix at
// any threshold on the grid is two sums (contract/threshold.ts does them, in the browser while a
// presenter drags and on the server for the card), so 50k rows travel as 2 x 1001 numbers.

/** Threshold steps: 0.000, 0.001, ..., 1.000. */
const THRESHOLD_STEPS = 1000;

export interface ThresholdTable {
  steps: number;
  /** positives[i]: positive rows whose probability p has floor(p x steps) = i (i = 0..steps). */
  positives: number[];
  negatives: number[];
}

/** The step of a probability: rows with step >= k are flagged at threshold k / steps. */
function thresholdStep(p: number, steps = THRESHOLD_STEPS): number {
  // The epsilon keeps 0.37 in step 370 although 0.37 * 1000 is 369.99999999999994.
  return Math.min(steps, Math.max(0, Math.floor(p * steps + 1e-9)));
}

export function thresholdTable(
  p: ArrayLike<number>,
  positive: ArrayLike<number>,
  steps = THRESHOLD_STEPS,
): ThresholdTable {
  const positives = new Array<number>(steps + 1).fill(0);
  const negatives = new Array<number>(steps + 1).fill(0);
  for (let i = 0; i < p.length; i++) {
    if (!Number.isFinite(p[i])) continue;
    const k = thresholdStep(p[i], steps);
    if (positive[i]) positives[k]++;
    else negatives[k]++;
  }
  return { steps, positives, negatives };
}
