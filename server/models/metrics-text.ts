/**
 * A model's validation metrics in plain sentences, beside the baseline, for people who do not
 * read `r2_score`: SQL DESCRIBE shows them (a grid cell), and so does the model card.
 */
import type { ModelMetrics, ModelWarning } from '../automl/index';

type Label = string | number | boolean;

/** A number for a sentence: thousands grouped, 3 significant digits below 1000. */
export function fmtNumber(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (Math.abs(x) >= 1000) return Math.round(x).toLocaleString('en-US');
  if (x === 0) return '0';
  return String(Number(x.toPrecision(3)));
}

/** R² with 4 decimals, more when 4 would round a near-perfect fit up to 1. */
export function fmtR2(r2: number): string {
  const s = r2.toFixed(4);
  return s === '1.0000' && r2 < 1 ? String(Number(r2.toFixed(6))) : s;
}

/** A small score to `digits` decimals, never "-0.00" for a tiny negative one. */
export function fmtSmall(x: number, digits = 2): string {
  const s = x.toFixed(digits);
  return Number(s) === 0 ? (0).toFixed(digits) : s;
}

/** A share as a percentage: 0.7812 -> 78.1%. */
export const fmtShare = (x: number) => `${(x * 100).toFixed(1)}%`;

/** Accuracy metrics in words ("R²"), never their keys; an unknown key at least loses its underscores. */
const METRIC_WORDS: Record<string, string> = {
  r2_score: 'R²',
  balanced_accuracy_score: 'balanced accuracy',
  accuracy_score: 'accuracy',
  f1_score: 'F1 score',
  mean_absolute_error: 'mean absolute error',
  bounded_ts_accuracy: 'forecast accuracy (0.5 = as good as repeating last season)',
  mase: 'error vs repeating last season (×)',
};

export const metricWords = (key: string): string => METRIC_WORDS[key] ?? key.replace(/_/g, ' ');

const quoteLabel = (l: Label) => `'${String(l)}'`;
const rowsText = (n: number) => `${n.toLocaleString('en-US')} validation row${n === 1 ? '' : 's'}`;

/** How much smaller the model's error is than the baseline's, as a phrase. */
function reduction(model: number, baseline: number): string {
  if (!(baseline > 0)) return '';
  const r = 1 - model / baseline;
  if (r <= 0) return ', no better than the baseline';
  return `, ${Math.round(r * 100)}% smaller than the baseline's`;
}

/** The metrics as sentences, most important first. Empty for null (older models). */
export function metricsSentences(m: ModelMetrics | null | undefined): string[] {
  if (!m) return [];
  const how =
    m.validation === 'cross-fitted' ? ' (each row judged by a model that did not train on it)' : '';
  const out: string[] = [];
  const r = m.regression;
  if (r) {
    out.push(
      `R² ${fmtR2(r.r2)} on ${rowsText(m.rows.validation)}${how}; always predicting the average ${m.target} (${fmtNumber(r.baseline.value)}) scores ${fmtSmall(r.baseline.r2)}.`,
      `Typical error: ${fmtNumber(r.mae)} (mean absolute error, in ${m.target}'s units), RMSE ${fmtNumber(r.rmse)}` +
        `; the average alone would be off by ${fmtNumber(r.baseline.mae)} (RMSE ${fmtNumber(r.baseline.rmse)})${reduction(r.mae, r.baseline.mae)}.`,
    );
  }
  const c = m.classification;
  if (m.threshold) {
    out.push(
      `Decides with a saved threshold: predicts ${quoteLabel(m.threshold.positive)} when its probability is at least ${m.threshold.value}; the figures below are under that rule.`,
    );
  }
  if (c) {
    out.push(
      `Balanced accuracy ${fmtShare(c.balanced_accuracy)} and accuracy ${fmtShare(c.accuracy)} on ${rowsText(m.rows.validation)}${how}; ` +
        `always answering ${quoteLabel(c.baseline.class)} (the most frequent class) scores ${fmtShare(c.baseline.balanced_accuracy)} and ${fmtShare(c.baseline.accuracy)}.`,
    );
    const per = c.per_class
      .filter((p) => p.support > 0)
      .map(
        (p) =>
          `${quoteLabel(p.class)}: ${p.recall === null ? '-' : fmtShare(p.recall)} of its ${p.support.toLocaleString('en-US')} rows found, ` +
          `${p.precision === null ? 'never predicted' : `${fmtShare(p.precision)} of its predictions right`}`,
      );
    if (per.length > 0) out.push(`Per class: ${per.join('; ')}.`);
    const gap = calibrationGap(c.calibration);
    if (gap !== null) {
      out.push(
        `Confidence is ${gap < 0.05 ? 'well calibrated' : gap < 0.1 ? 'roughly calibrated' : 'poorly calibrated'}: ` +
          `the reported confidence and the share of right answers differ by ${fmtShare(gap)} on average.`,
      );
    }
  }
  return out;
}

/** Row-weighted mean |confidence - observed| over the calibration bins (null when empty). */
function calibrationGap(bins: { confidence: number; observed: number; count: number }[]) {
  const n = bins.reduce((s, b) => s + b.count, 0);
  if (n === 0) return null;
  return bins.reduce((s, b) => s + b.count * Math.abs(b.confidence - b.observed), 0) / n;
}

/** Warnings as lines: `dominant_input (initial_price): ...`. */
export function warningLines(ws: ModelWarning[]): string[] {
  return ws.map((w) => `${w.kind}${w.column ? ` (${w.column})` : ''}: ${w.message}`);
}
