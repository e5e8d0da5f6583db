// The human-readable parts of an artifact: DESCRIBE's summary string, encoder names, and the input
// types, categories and numeric ranges shown for each input column.

import type { Task } from '../api';
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
