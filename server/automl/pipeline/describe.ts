// The human-readable parts of an artifact: DESCRIBE's summary string, encoder names, and the input
// types, categories and numeric ranges shown for each input column.

import type { ModelDescription, ModelMetrics, Task } from '../api';
import type { Analysis } from '../analysis/analyze';
import { type BaseType, type ColumnProfile, keyToLabel } from '../data/column-types';
import type { ColumnEncoder } from '../data/encoders';
import { countLeaves } from '../gbm/predict';
import type { ScoreModel } from '../predict/score';

export function summaryString(
  encs: ColumnEncoder[],
  model: ScoreModel,
  task: Task,
  level: number,
  adaptive = false,
): string {
  const kinds = new Set(encs.map((e) => e.kind));
  const parts: string[] = [];
  if (kinds.has('numeric')) parts.push('num:quantile-bins');
  if (kinds.has('categorical')) parts.push('cat:codes');
  if (encs.some((e) => e.kind === 'categorical' && e.targetEncoding)) parts.push('cat:target-mean');
  if (kinds.has('datetime')) parts.push('datetime:parts');
  if (kinds.has('text'))
    parts.push(encs.some((e) => e.kind === 'text' && e.stack) ? 'text:tf-idf-ridge' : 'text:stats');
  const stages = ['TypeInference', `Encoders(${parts.join(', ')})`];
  if (model.linear) {
    stages.push(`Linear(${model.linear.kind}, ${model.linear.d} dims)`);
  }
  if (model.gbm) {
    const c = countLeaves(model.gbm);
    stages.push(`GBM(${c.trees} trees, ${c.maxLeaves} leaves)`);
  }
  stages.push(task === 'regression' ? `Conformal(${level})` : `Calibration+Conformal(${level})`);
  if (adaptive) stages.push('AdaptiveWidth(GBM on |error|)');
  stages.push('PermutationImportance');
  return stages.join(' --> ');
}

/** x rounded to d decimals; non-finite numbers become 0 (JSON has no NaN). */
export function round(x: number, d = 6): number {
  const f = 10 ** d;
  return Number.isFinite(x) ? Math.round(x * f) / f : 0;
}

export function targetEncoderName(task: Task, nClasses: number): string {
  return task === 'regression' ? 'NumericTarget(standardize)' : `LabelEncoder(${nClasses} classes)`;
}

export function describeInputs(encs: ColumnEncoder[], profiles: ColumnProfile[]) {
  const inputTypes: Record<string, BaseType> = {};
  const categories: Record<string, (string | number | boolean)[]> = {};
  const numericRanges: Record<string, { min: number; max: number }> = {};
  encs.forEach((e, j) => {
    inputTypes[e.column] = profiles[j].type as BaseType;
    if (e.kind === 'categorical') {
      // Most frequent first (the UI shows the common choices), numbers in numeric order.
      const labels = e.keys.slice(0, 100).map((k) => keyToLabel(k, e.valueKind));
      if (e.valueKind === 'number') (labels as number[]).sort((a, b) => a - b);
      categories[e.column] = labels;
    } else if (e.kind === 'numeric') {
      numericRanges[e.column] = { min: e.stats.min, max: e.stats.max };
    }
  });
  return { inputTypes, categories, numericRanges };
}

/** Labels of the primary metric (DESCRIBE's accuracies key) for people. */
const METRIC_LABELS: Record<string, string> = {
  r2_score: 'R²',
  balanced_accuracy_score: 'Balanced accuracy',
};

/** The metrics block of a description from the analysis' report (see analysis/report.ts). */
export function modelMetrics(o: {
  description: ModelDescription;
  report: Analysis['report'];
  trainRows: number;
}): ModelMetrics {
  const d = o.description;
  const [name, value] = Object.entries(d.accuracies)[0] ?? ['', 0];
  return {
    task: d.task,
    target: d.target,
    rows: { train: o.trainRows, validation: o.report.rows },
    validation: d.validation ?? 'split',
    primary: { name, label: METRIC_LABELS[name] ?? name, value },
    ...(o.report.regression ? { regression: o.report.regression } : {}),
    ...(o.report.classification ? { classification: o.report.classification } : {}),
  };
}

/** Training rows per class (codes index `labels`). */
export function classCounts(
  y: ArrayLike<number>,
  labels: (string | number | boolean)[],
): { label: string | number | boolean; count: number }[] {
  const counts = new Array<number>(labels.length).fill(0);
  for (let i = 0; i < y.length; i++) counts[y[i]]++;
  return labels.map((label, c) => ({ label, count: counts[c] }));
}
