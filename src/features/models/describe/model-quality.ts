/**
 * How good a model is, in plain words and the target's own units: the describe endpoint's
 * `metrics` turned into headline sentences beside the baseline (mean / majority class), the
 * confusion matrix with row shares, calibration bins and residuals for the charts.
 */
import type { ClassificationMetrics, ModelMetrics, RegressionMetrics } from '../../../../contract';
import { formatNumber, formatPercent, formatRounded, niceDomain } from '../shared';

/** A class label as text (labels may be numbers or booleans). */
export function classText(v: unknown): string {
  return v === null || v === undefined ? 'null' : String(v);
}

export interface Headline {
  /** Stable key, e.g. "mae". */
  key: string;
  /** The metric's name, e.g. "Mean absolute error (MAE)". */
  name: string;
  /** The value as shown: "12.3", "86%". */
  value: string;
  /** The plain-language reading: "Typically off by 12.3". */
  title: string;
  /** One sentence with the baseline to compare with. */
  detail: string;
}

/** "75× smaller" / "2.5× smaller"; null when the model is not better than the baseline. */
function timesBetter(model: number, baseline: number): string | null {
  if (!(model > 0) || !(baseline > model)) return null;
  const f = baseline / model;
  return `${f >= 10 ? Math.round(f) : f.toFixed(1)}×`;
}

export function regressionHeadlines(
  r: RegressionMetrics,
  target: string,
  validationRows?: number,
): Headline[] {
  const avg =
    typeof r.baseline.value === 'number'
      ? `the average (${formatRounded(r.baseline.value)})`
      : 'the average';
  const rows = validationRows
    ? ` on ${validationRows.toLocaleString('en-US')} rows it did not train on`
    : '';
  const better = timesBetter(r.mae, r.baseline.mae);
  const explained =
    r.r2 >= 0
      ? `Explains ${explainedShare(r.r2)} of the variation in ${target}`
      : `Worse than always predicting the average`;
  return [
    {
      key: 'mae',
      name: 'Mean absolute error (MAE)',
      value: formatNumber(r.mae),
      title: `Typically off by ${formatRounded(r.mae)}`,
      detail:
        `In ${target}’s own units${rows}. Predicting ${avg} for every row would be off by ` +
        `${formatRounded(r.baseline.mae)}${better ? `: the model’s error is ${better} smaller` : ''}.`,
    },
    {
      key: 'rmse',
      name: 'Root mean squared error (RMSE)',
      value: formatNumber(r.rmse),
      title: `RMSE ${formatRounded(r.rmse)}`,
      detail:
        `Like the MAE in ${target}’s units, but big misses count more: far above the MAE when a ` +
        `few predictions miss badly. Predicting the average: ${formatRounded(r.baseline.rmse)}.`,
    },
    {
      key: 'r2',
      name: 'R² score',
      value: String(Number(r.r2.toPrecision(5))),
      title: explained,
      detail: `1 is perfect; always predicting the average scores ${formatRounded(Math.abs(r.baseline.r2) < 0.005 ? 0 : r.baseline.r2)}.`,
    },
  ];
}

export function classificationHeadlines(
  c: ClassificationMetrics,
  validationRows?: number,
): Headline[] {
  const majority = `“${classText(c.baseline.class)}”`;
  const rows = validationRows
    ? ` on ${validationRows.toLocaleString('en-US')} rows it did not train on`
    : '';
  return [
    {
      key: 'accuracy',
      name: 'Accuracy',
      value: formatPercent(c.accuracy),
      title: `Right ${formatPercent(c.accuracy)} of the time`,
      detail:
        `Share of correct predictions${rows}. Always answering ${majority} would be right ` +
        `${formatPercent(c.baseline.accuracy)}.` +
        // A model tuned for balanced accuracy may be no more accurate overall than the majority
        // answer: say why, before a stakeholder concludes it is useless.
        (c.accuracy - c.baseline.accuracy < 0.01 &&
        c.balanced_accuracy > c.baseline.balanced_accuracy + 0.05
          ? ` It is no better overall because it is tuned to find the rarer ${c.classes.length > 2 ? 'classes' : 'class'} too (balanced accuracy).`
          : ''),
    },
    {
      key: 'balanced_accuracy',
      name: 'Balanced accuracy',
      value: formatPercent(c.balanced_accuracy),
      title: `Finds ${formatPercent(c.balanced_accuracy)} of each class on average`,
      detail:
        `The average of each class’s hit rate (recall), so a rare class counts as much as a ` +
        `common one. Always answering ${majority} scores ${formatPercent(c.baseline.balanced_accuracy)}.`,
    },
  ];
}

export function qualityHeadlines(m: ModelMetrics): Headline[] {
  if (m.regression) return regressionHeadlines(m.regression, m.target, m.rows.validation);
  if (m.classification) return classificationHeadlines(m.classification, m.rows.validation);
  return [];
}

interface ConfusionCell {
  predicted: string;
  count: number;
  /** Share of the actual class's rows (the row). */
  share: number;
  correct: boolean;
}

interface ConfusionRow {
  actual: string;
  total: number;
  cells: ConfusionCell[];
}

export interface ConfusionTable {
  classes: string[];
  rows: ConfusionRow[];
  total: number;
  correct: number;
}

/** The confusion matrix (rows = actual, columns = predicted) with each cell's share of its row. */
export function confusionTable(
  classes: readonly unknown[],
  confusion: readonly number[][],
): ConfusionTable {
  const names = classes.map(classText);
  let total = 0;
  let correct = 0;
  const rows = names.map((actual, i) => {
    const counts = names.map((_, j) => confusion[i]?.[j] ?? 0);
    const rowTotal = counts.reduce((a, b) => a + b, 0);
    total += rowTotal;
    correct += counts[i] ?? 0;
    return {
      actual,
      total: rowTotal,
      cells: counts.map((count, j) => ({
        predicted: names[j],
        count,
        share: rowTotal > 0 ? count / rowTotal : 0,
        correct: i === j,
      })),
    };
  });
  return { classes: names, rows, total, correct };
}

/** "274 of 374 (73.3%)" */
export function countOf(count: number, total: number): string {
  return `${count.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} (${formatPercent(total > 0 ? count / total : null)})`;
}

export interface CalibrationSummary {
  /** Row-weighted mean of (confidence - observed): > 0 overconfident. */
  bias: number;
  /** Row-weighted mean |confidence - observed|. */
  meanGap: number;
  text: string;
}

export function calibrationSummary(
  bins: ClassificationMetrics['calibration'],
): CalibrationSummary | null {
  const used = bins.filter((b) => b.count > 0);
  const n = used.reduce((s, b) => s + b.count, 0);
  if (n === 0) return null;
  const bias = used.reduce((s, b) => s + b.count * (b.confidence - b.observed), 0) / n;
  const meanGap = used.reduce((s, b) => s + b.count * Math.abs(b.confidence - b.observed), 0) / n;
  const pts = (x: number) => `${(x * 100).toFixed(x * 100 < 10 ? 1 : 0)} percentage points`;
  const biggest = [...used].sort((a, b) => b.count - a.count)[0];
  const example =
    `When it reports about ${formatPercent(biggest.confidence, 0)} confidence it is right ` +
    `${formatPercent(biggest.observed, 0)} of the time`;
  const verdict =
    meanGap <= 0.05
      ? `Its confidence can be taken at face value: on average within ${pts(meanGap)} of how often it is right.`
      : bias > 0
        ? `It is overconfident by ${pts(bias)} on average: treat its confidence as an upper bound.`
        : `It is underconfident by ${pts(-bias)} on average: it is right more often than it says.`;
  return {
    bias,
    meanGap,
    text: `${example} (${biggest.count.toLocaleString('en-US')} rows). ${verdict}`,
  };
}

export interface ResidualPoint {
  actual: number;
  predicted: number;
  /** actual - predicted: positive when the model predicted too low. */
  residual: number;
}

export function residualPoints(sample: RegressionMetrics['sample']): ResidualPoint[] {
  const n = Math.min(sample.actual.length, sample.predicted.length);
  const out: ResidualPoint[] = [];
  for (let i = 0; i < n; i++) {
    const actual = sample.actual[i];
    const predicted = sample.predicted[i];
    if (Number.isFinite(actual) && Number.isFinite(predicted))
      out.push({ actual, predicted, residual: actual - predicted });
  }
  return out;
}

/** One square domain for predicted-vs-actual (both axes alike, so the diagonal is 45°). */
export function squareDomain(points: readonly ResidualPoint[]): [number, number] {
  if (points.length === 0) return [0, 1];
  let lo = Infinity;
  let hi = -Infinity;
  for (const p of points) {
    lo = Math.min(lo, p.actual, p.predicted);
    hi = Math.max(hi, p.actual, p.predicted);
  }
  const pad = (hi - lo) * 0.02 || Math.abs(hi) * 0.1 || 1;
  return niceDomain(lo - pad, hi + pad, 10);
}

/** A symmetric, round domain around zero for residuals. */
export function residualDomain(points: readonly ResidualPoint[]): [number, number] {
  const m = Math.max(1e-9, ...points.map((p) => Math.abs(p.residual)));
  const [, hi] = niceDomain(0, m * 1.05, 3);
  return [-hi, hi];
}

/** "Explains 99.99% of the variation": never rounds a near-perfect fit up to 100%. */
export function explainedShare(r2: number): string {
  const p = Math.min(1, r2) * 100;
  if (p >= 99.9 && p < 100) return `${(Math.floor(p * 100) / 100).toFixed(2)}%`;
  return formatPercent(Math.min(1, r2));
}
