/**
 * The threshold view's live state, computed in the browser from the held-out counts the server
 * sends (contract/threshold.ts does the arithmetic the server also uses): the confusion matrix
 * and rates at the dragged threshold in O(1), the profit curve and its best threshold once per
 * payoff change, and the points the ROC / precision-recall / gains charts draw.
 */
import type { ThresholdView } from '../../../../../contract/evaluation';
import {
  bestThreshold,
  cumulate,
  type Cumulative,
  type Payoff,
  pointAt,
  profitCurve,
  stepOf,
  type ThresholdPoint,
} from '../../../../../contract/threshold';

export type { Payoff };

export interface ThresholdModel {
  cum: Cumulative;
  /** Everything at `threshold` (snapped to the 0.001 grid). */
  at(threshold: number, payoff?: Payoff | null): ThresholdPoint;
}

export function thresholdModel(view: Pick<ThresholdView, 'table'>): ThresholdModel {
  const cum = cumulate(view.table);
  return { cum, at: (t, payoff) => pointAt(cum, stepOf(cum, t), payoff) };
}

/** Profit of every threshold in 0.01 steps (what the chart draws) and the exact best one. */
export function profitPoints(m: ThresholdModel, payoff: Payoff) {
  const curve = profitCurve(m.cum, payoff).filter((_, k) => k % 10 === 0);
  return { curve, best: bestThreshold(m.cum, payoff) };
}

/** ROC points with the diagonal a random ranking follows. */
export const rocPoints = (v: ThresholdView) => v.roc.fpr.map((x, i) => ({ x, y: v.roc.tpr[i] }));

/** Precision against recall, and the precision of flagging everyone (the positives' share). */
export function prPoints(v: ThresholdView) {
  const m = thresholdModel(v);
  const base = m.cum.P + m.cum.N > 0 ? m.cum.P / (m.cum.P + m.cum.N) : 0;
  return { points: v.pr.recall.map((x, i) => ({ x, y: v.pr.precision[i] })), base };
}

/** Cumulative gains from (0, 0), with the random line's value at each share. */
export const gainsPoints = (v: ThresholdView) => [
  { share: 0, gain: 0, random: 0, lift: null as number | null },
  ...v.gains.map((g) => ({ share: g.share, gain: g.gain, random: g.share, lift: g.lift })),
];

/** A payoff typed by the user: each of the four values a number (empty: 0), else null. */
export function parsePayoff(text: Record<keyof Payoff, string>): Payoff | null {
  const out: Partial<Payoff> = {};
  for (const k of ['tp', 'fp', 'tn', 'fn'] as const) {
    const s = text[k].trim().replace(/[\s,]/g, '');
    const v = s === '' ? 0 : Number(s);
    if (!Number.isFinite(v)) return null;
    out[k] = v;
  }
  return out as Payoff;
}

/** The four outcomes in the user's words: "a churner flagged", ... from the class labels. */
export function outcomeNames(positive: string, negative: string) {
  return {
    tp: `${positive} caught (predicted ${positive}, was ${positive})`,
    fp: `False alarm (predicted ${positive}, was ${negative})`,
    tn: `${negative} left alone (predicted ${negative}, was ${negative})`,
    fn: `${positive} missed (predicted ${negative}, was ${positive})`,
  };
}

/** The payoff matrix as typed (numbers still text), with the names and currency in the user's words. */
export interface PayoffText {
  tp: string;
  fp: string;
  tn: string;
  fn: string;
  currency: string;
  positiveName: string;
  negativeName: string;
}
