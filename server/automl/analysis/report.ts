// The metrics DESCRIBE and the model card show a person: errors in the target's units beside a
// model that always predicts the mean, or accuracy, per-class precision/recall, the confusion
// matrix and calibration beside a model that always predicts the majority class. Computed once at
// training time on validation rows (each scored by a model that did not train on it), so they say
// what to expect on new rows of the same kind.

import type { ClassificationReport, RegressionReport } from '../api';
import { allRows, capRows } from '../rows';
import { balancedAccuracyScore, meanAbsoluteError, r2Score } from './metrics';

/** Predicted-vs-actual pairs kept for the scatter plot (a seeded sample beyond this). */
export const REPORT_SAMPLE_ROWS = 500;
/** Equal-width confidence bins of the calibration table. */
export const CALIBRATION_BINS = 10;

type Label = string | number | boolean;

/** x with 6 significant digits (metrics are read by people; JSON has no NaN: 0 instead). */
function sig(x: number, digits = 6): number {
  return Number.isFinite(x) ? Number(x.toPrecision(digits)) : 0;
}

function rmse(truth: ArrayLike<number>, pred: ArrayLike<number>): number {
  const n = truth.length;
  if (n === 0) return 0;
  let s = 0;
  for (let i = 0; i < n; i++) s += (truth[i] - pred[i]) ** 2;
  return Math.sqrt(s / n);
}

export interface RegressionReportInput {
  /** Truth and prediction of each validation row, in the target's units. */
  actual: ArrayLike<number>;
  predicted: ArrayLike<number>;
  /**
   * The baseline's prediction of each row: the mean of the rows its model trained on (per fold
   * when cross-fitted, so the baseline is held to the same out-of-sample standard).
   */
  baseline: ArrayLike<number>;
  /** The training mean, as the baseline is described to people ("always predicts 2410"). */
  baselineValue: number;
  seed: number;
}

export function regressionReport(o: RegressionReportInput): RegressionReport {
  const { actual, predicted, baseline } = o;
  const keep = capRows(allRows(actual.length), REPORT_SAMPLE_ROWS, o.seed ^ 0x5ca7);
  return {
    mae: sig(meanAbsoluteError(actual, predicted)),
    rmse: sig(rmse(actual, predicted)),
    r2: sig(r2Score(actual, predicted)),
    baseline: {
      kind: 'mean',
      value: sig(o.baselineValue),
      mae: sig(meanAbsoluteError(actual, baseline)),
      rmse: sig(rmse(actual, baseline)),
      r2: sig(r2Score(actual, baseline)),
    },
    sample: {
      actual: Array.from(keep, (i) => sig(actual[i])),
      predicted: Array.from(keep, (i) => sig(predicted[i])),
    },
  };
}

export interface ClassificationReportInput {
  /** Class codes (index into `labels`) of the truth and of the prediction of each row. */
  actual: ArrayLike<number>;
  predicted: ArrayLike<number>;
  /** The confidence reported with each prediction (the calibrated probability of its class). */
  confidence: ArrayLike<number>;
  labels: Label[];
  /** Code of the most frequent class of the training rows (the baseline's answer). */
  majority: number;
}

export function classificationReport(o: ClassificationReportInput): ClassificationReport {
  const { actual, predicted, confidence, labels, majority } = o;
  const n = actual.length;
  const C = labels.length;
  const confusion = Array.from({ length: C }, () => new Array<number>(C).fill(0));
  let right = 0;
  for (let i = 0; i < n; i++) {
    confusion[actual[i]][predicted[i]]++;
    if (actual[i] === predicted[i]) right++;
  }
  const perClass = labels.map((label, c) => {
    let predictedAs = 0;
    for (let a = 0; a < C; a++) predictedAs += confusion[a][c];
    const support = confusion[c].reduce((s, v) => s + v, 0);
    const hit = confusion[c][c];
    return {
      class: label,
      precision: predictedAs === 0 ? null : sig(hit / predictedAs),
      recall: support === 0 ? null : sig(hit / support),
      support,
    };
  });
  const constant = new Float64Array(n).fill(majority);
  const bins = Array.from({ length: CALIBRATION_BINS }, () => ({ conf: 0, right: 0, count: 0 }));
  for (let i = 0; i < n; i++) {
    const p = confidence[i];
    const b = bins[Math.min(CALIBRATION_BINS - 1, Math.max(0, Math.floor(p * CALIBRATION_BINS)))];
    b.conf += p;
    b.count++;
    if (actual[i] === predicted[i]) b.right++;
  }
  return {
    accuracy: sig(n === 0 ? 0 : right / n),
    balanced_accuracy: sig(balancedAccuracyScore(actual, predicted, C)),
    baseline: {
      kind: 'majority',
      class: labels[majority],
      accuracy: sig(n === 0 ? 0 : confusion[majority].reduce((s, v) => s + v, 0) / n),
      balanced_accuracy: sig(balancedAccuracyScore(actual, constant, C)),
    },
    classes: labels,
    confusion,
    per_class: perClass,
    calibration: bins
      .filter((b) => b.count > 0)
      .map((b) => ({
        confidence: sig(b.conf / b.count, 4),
        observed: sig(b.right / b.count, 4),
        count: b.count,
      })),
  };
}

/** The most frequent class code (the lowest code on a tie). */
export function majorityClass(y: ArrayLike<number>, nClasses: number): number {
  const counts = new Float64Array(nClasses);
  for (let i = 0; i < y.length; i++) counts[y[i]]++;
  let best = 0;
  for (let c = 1; c < nClasses; c++) if (counts[c] > counts[best]) best = c;
  return best;
}
