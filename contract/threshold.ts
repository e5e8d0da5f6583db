/**
 * A binary decision's threshold, from held-out counts per probability step (the server's
 * `ThresholdTable`): the confusion matrix, precision, recall and the share flagged at any
 * threshold on the grid, and with a payoff matrix the profit of each threshold and the best one.
 * Shared by the playground (redrawn while a presenter drags: O(1) per threshold once the
 * cumulative counts are built) and the server (the card, SQL's DESCRIBE m.threshold).
 */

export interface ThresholdCounts {
  /** Grid steps: thresholds 0, 1/steps, ..., 1. */
  steps: number;
  /** Rows whose positive-class probability p has floor(p x steps) = i. */
  positives: number[];
  negatives: number[];
}

/** The value of each outcome, in the user's currency per row (costs negative). */
export interface Payoff {
  tp: number;
  fp: number;
  tn: number;
  fn: number;
}

export interface ThresholdPoint {
  threshold: number;
  tp: number;
  fp: number;
  tn: number;
  fn: number;
  /** Of the flagged rows, the share actually positive (null when none is flagged). */
  precision: number | null;
  /** Of the positives, the share flagged. */
  recall: number | null;
  /** Of the negatives, the share flagged. */
  fpr: number | null;
  /** Share of all rows flagged. */
  flagged: number;
  accuracy: number | null;
  /** Sum of the payoff over the held-out rows (null without a payoff). */
  profit: number | null;
}

/** Counts at or above each step: the rows flagged at threshold k / steps. */
export interface Cumulative {
  steps: number;
  pos: Float64Array;
  neg: Float64Array;
  P: number;
  N: number;
}

export function cumulate(t: ThresholdCounts): Cumulative {
  const pos = new Float64Array(t.steps + 2);
  const neg = new Float64Array(t.steps + 2);
  for (let k = t.steps; k >= 0; k--) {
    pos[k] = pos[k + 1] + (t.positives[k] ?? 0);
    neg[k] = neg[k + 1] + (t.negatives[k] ?? 0);
  }
  return { steps: t.steps, pos, neg, P: pos[0], N: neg[0] };
}

/** The grid step nearest a threshold in [0, 1]. */
export function stepOf(c: Cumulative, threshold: number): number {
  return Math.min(c.steps, Math.max(0, Math.round(threshold * c.steps)));
}

const share = (a: number, b: number) => (b > 0 ? a / b : null);

/** Everything at threshold k / steps (rows with p >= threshold are flagged positive). */
export function pointAt(c: Cumulative, k: number, payoff?: Payoff | null): ThresholdPoint {
  const tp = c.pos[k];
  const fp = c.neg[k];
  const fn = c.P - tp;
  const tn = c.N - fp;
  const n = c.P + c.N;
  return {
    threshold: k / c.steps,
    tp,
    fp,
    tn,
    fn,
    precision: share(tp, tp + fp),
    recall: share(tp, c.P),
    fpr: share(fp, c.N),
    flagged: n > 0 ? (tp + fp) / n : 0,
    accuracy: share(tp + tn, n),
    profit: payoff ? tp * payoff.tp + fp * payoff.fp + tn * payoff.tn + fn * payoff.fn : null,
  };
}

/** The profit of every threshold on the grid (threshold ascending). */
export function profitCurve(
  c: Cumulative,
  payoff: Payoff,
): { threshold: number; profit: number }[] {
  const out: { threshold: number; profit: number }[] = [];
  for (let k = 0; k <= c.steps; k++)
    out.push({ threshold: k / c.steps, profit: pointAt(c, k, payoff).profit! });
  return out;
}

/**
 * The threshold with the highest profit; among equal profits the one nearest 0.5 (a plateau of
 * thresholds that flag the same rows is reported by its most neutral point).
 */
export function bestThreshold(c: Cumulative, payoff: Payoff): ThresholdPoint {
  let best = pointAt(c, 0, payoff);
  for (let k = 1; k <= c.steps; k++) {
    const p = pointAt(c, k, payoff);
    const better =
      p.profit! > best.profit! + 1e-9 ||
      (Math.abs(p.profit! - best.profit!) <= 1e-9 &&
        Math.abs(p.threshold - 0.5) < Math.abs(best.threshold - 0.5));
    if (better) best = p;
  }
  return best;
}
