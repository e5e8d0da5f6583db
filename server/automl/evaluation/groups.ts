// For whom a model works: metrics per group of any column (accuracy, true- and false-positive
// rate, selection rate for a classifier's positive class; MAE and bias for a regression), each
// group's ratio to the best-off group, the four-fifths rule on selection rates, and a warning for
// groups too small to judge.

import type { Grouping } from './segments';

/** Groups with fewer rows than this, or fewer than MIN_CLASS_ROWS of a class, are not judged. */
const MIN_GROUP_ROWS = 30;
const MIN_CLASS_ROWS = 5;
/** The four-fifths rule: a selection rate below 80 % of the highest group's suggests adverse impact. */
export const FOUR_FIFTHS = 0.8;

export interface ClassGroup {
  label: string;
  where: string;
  rows: number;
  /** Actual positives in the group. */
  positives: number;
  accuracy: number;
  /** Recall of the positive class; NaN without positives. */
  tpr: number;
  /** Share of negatives flagged; NaN without negatives. */
  fpr: number;
  /** Share of the group predicted positive. */
  selectionRate: number;
  /** selectionRate / the highest group's (the disparate impact ratio). */
  selectionRatio: number;
  tprRatio: number;
  /** Too small to judge: the reason, else null. */
  small: string | null;
}

export interface RegressionGroup {
  label: string;
  where: string;
  rows: number;
  mae: number;
  /** Mean of predicted - actual: positive over-predicts. */
  bias: number;
  /** The lowest group MAE / this group's (1 for the best-served group). */
  maeRatio: number;
  small: string | null;
}

function ratio(x: number, best: number): number {
  return best > 0 && Number.isFinite(x) ? x / best : NaN;
}

/**
 * Classifier metrics per group. `actualPos[i]` / `predPos[i]`: 1 when row i is actually / is
 * predicted the positive class.
 */
export function classGroups(
  g: Grouping,
  actualPos: ArrayLike<number>,
  predPos: ArrayLike<number>,
): ClassGroup[] {
  const G = g.segments.length;
  const c = {
    rows: new Float64Array(G),
    tp: new Float64Array(G),
    fp: new Float64Array(G),
    tn: new Float64Array(G),
    fn: new Float64Array(G),
  };
  for (let i = 0; i < g.of.length; i++) {
    const k = g.of[i];
    if (k < 0) continue;
    c.rows[k]++;
    if (actualPos[i]) (predPos[i] ? c.tp : c.fn)[k]++;
    else (predPos[i] ? c.fp : c.tn)[k]++;
  }
  const groups = g.segments.map((s, k) => {
    const P = c.tp[k] + c.fn[k];
    const N = c.fp[k] + c.tn[k];
    const rows = c.rows[k];
    const small =
      rows < MIN_GROUP_ROWS
        ? `only ${rows} rows (fewer than ${MIN_GROUP_ROWS})`
        : P < MIN_CLASS_ROWS
          ? `only ${P} actual positives (fewer than ${MIN_CLASS_ROWS})`
          : N < MIN_CLASS_ROWS
            ? `only ${N} actual negatives (fewer than ${MIN_CLASS_ROWS})`
            : null;
    return {
      label: s.label,
      where: s.where,
      rows,
      positives: P,
      accuracy: rows > 0 ? (c.tp[k] + c.tn[k]) / rows : NaN,
      tpr: P > 0 ? c.tp[k] / P : NaN,
      fpr: N > 0 ? c.fp[k] / N : NaN,
      selectionRate: rows > 0 ? (c.tp[k] + c.fp[k]) / rows : NaN,
      selectionRatio: NaN,
      tprRatio: NaN,
      small,
    };
  });
  // Ratios against the best-off group among those large enough to judge.
  const judged = groups.filter((x) => !x.small && x.rows > 0);
  const maxSel = Math.max(0, ...judged.map((x) => x.selectionRate));
  const maxTpr = Math.max(0, ...judged.filter((x) => Number.isFinite(x.tpr)).map((x) => x.tpr));
  for (const x of groups) {
    x.selectionRatio = ratio(x.selectionRate, maxSel);
    x.tprRatio = ratio(x.tpr, maxTpr);
  }
  return groups;
}

export function regressionGroups(
  g: Grouping,
  actual: ArrayLike<number>,
  predicted: ArrayLike<number>,
): RegressionGroup[] {
  const G = g.segments.length;
  const rows = new Float64Array(G);
  const abs = new Float64Array(G);
  const diff = new Float64Array(G);
  for (let i = 0; i < g.of.length; i++) {
    const k = g.of[i];
    if (k < 0 || !Number.isFinite(actual[i])) continue;
    rows[k]++;
    abs[k] += Math.abs(predicted[i] - actual[i]);
    diff[k] += predicted[i] - actual[i];
  }
  const groups = g.segments.map((s, k) => ({
    label: s.label,
    where: s.where,
    rows: rows[k],
    mae: rows[k] > 0 ? abs[k] / rows[k] : NaN,
    bias: rows[k] > 0 ? diff[k] / rows[k] : NaN,
    maeRatio: NaN,
    small: rows[k] < MIN_GROUP_ROWS ? `only ${rows[k]} rows (fewer than ${MIN_GROUP_ROWS})` : null,
  }));
  const judged = groups.filter((x) => !x.small && x.rows > 0);
  const best = Math.min(Infinity, ...judged.map((x) => x.mae));
  for (const x of groups) x.maeRatio = x.mae > 0 && Number.isFinite(best) ? best / x.mae : NaN;
  return groups;
}
