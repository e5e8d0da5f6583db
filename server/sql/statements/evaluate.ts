/**
 * `EVALUATE <metric> FROM (SELECT ... AS actual, ... AS prediction FROM ...)`: MindsDB's
 * scikit-learn metrics over a query's two columns. `USING n_decimals = k` rounds (3 by default).
 */
import type { JsonValue } from '../../engine/values';
import { badInput } from '../../errors';
import type { UsingValue } from '../syntax/statement';

type Metric = (actual: JsonValue[], predicted: JsonValue[]) => number;

const nums = (xs: JsonValue[], what: string): number[] =>
  xs.map((x, i) => {
    const v = typeof x === 'number' ? x : Number(x);
    if (!Number.isFinite(v))
      throw badInput(`Row ${i + 1}: ${what} ${JSON.stringify(x)} is not a number`);
    return v;
  });

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

function regression(f: (a: number[], p: number[]) => number): Metric {
  return (a, p) => f(nums(a, 'actual'), nums(p, 'prediction'));
}

const labels = (a: JsonValue[], p: JsonValue[]) => {
  const key = (v: JsonValue) => JSON.stringify(v);
  return { a: a.map(key), p: p.map(key), classes: [...new Set([...a.map(key), ...p.map(key)])] };
};

function perClass(a: string[], p: string[], c: string) {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (let i = 0; i < a.length; i++) {
    if (p[i] === c && a[i] === c) tp++;
    else if (p[i] === c) fp++;
    else if (a[i] === c) fn++;
  }
  const precision = tp + fp === 0 ? 0 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 0 : tp / (tp + fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1, support: tp + fn };
}

/** Macro average over the classes present in the truth (scikit-learn's multiclass default). */
function macro(field: 'precision' | 'recall' | 'f1'): Metric {
  return (actual, predicted) => {
    const { a, p } = labels(actual, predicted);
    const present = [...new Set(a)];
    return mean(present.map((c) => perClass(a, p, c)[field]));
  };
}

const METRICS: Record<string, Metric> = {
  r2_score: regression((a, p) => {
    const m = mean(a);
    const ssTot = a.reduce((s, y) => s + (y - m) ** 2, 0);
    const ssRes = a.reduce((s, y, i) => s + (y - p[i]) ** 2, 0);
    return ssTot === 0 ? (ssRes === 0 ? 1 : 0) : 1 - ssRes / ssTot;
  }),
  mean_absolute_error: regression((a, p) => mean(a.map((y, i) => Math.abs(y - p[i])))),
  mean_squared_error: regression((a, p) => mean(a.map((y, i) => (y - p[i]) ** 2))),
  root_mean_squared_error: regression((a, p) => Math.sqrt(mean(a.map((y, i) => (y - p[i]) ** 2)))),
  mean_absolute_percentage_error: regression((a, p) =>
    mean(a.map((y, i) => Math.abs(y - p[i]) / Math.max(Math.abs(y), Number.EPSILON))),
  ),
  accuracy_score: (actual, predicted) => {
    const { a, p } = labels(actual, predicted);
    return a.filter((x, i) => x === p[i]).length / a.length;
  },
  balanced_accuracy_score: macro('recall'),
  recall_score: macro('recall'),
  precision_score: macro('precision'),
  f1_score: macro('f1'),
};

export function evaluateMetric(
  metric: string,
  columns: string[],
  rows: JsonValue[][],
  using: Record<string, UsingValue>,
): number {
  const f = METRICS[metric.toLowerCase()];
  if (!f) {
    throw badInput(
      `Metric '${metric}' is not supported by this instance; the metrics are: ${Object.keys(METRICS).join(', ')}`,
    );
  }
  const ai = columns.findIndex((c) => c.toLowerCase() === 'actual');
  const pi = columns.findIndex((c) => c.toLowerCase() === 'prediction');
  for (const [i, name] of [
    [ai, 'actual'],
    [pi, 'prediction'],
  ] as const) {
    if (i < 0)
      throw badInput(
        `\`${name}\` column was not provided: name the columns ... AS actual, ... AS prediction`,
      );
    if (rows.some((r) => r[i] === null))
      throw badInput(`There are missing values in the \`${name}\` column`);
  }
  if (rows.length === 0) throw badInput('EVALUATE needs at least one row');
  const value = f(
    rows.map((r) => r[ai]),
    rows.map((r) => r[pi]),
  );
  const decimals = using.n_decimals === undefined ? 3 : Number(using.n_decimals);
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 15) {
    throw badInput(`USING n_decimals must be an integer between 0 and 15`);
  }
  return Number(value.toFixed(decimals));
}
