/**
 * Per-row explanations as a waterfall: the model's base value, then each input's push (largest
 * first, the smallest folded into one "other inputs" step), then the explained value, plus the
 * one sentence that says what the numbers mean (the prediction itself for a regression; the
 * predicted class's raw score for a classifier).
 */
import { formatNumber, formatPercent } from '../shared';

/** The explanation fields of `<target>_explain` (contract: base + sum of contributions). */
export interface RowExplanation {
  base_value?: number | null;
  feature_contributions?: Record<string, number | null> | null;
  explained_value?: number | null;
  explained_class?: string | number | boolean | null;
}

type WaterfallKind = 'base' | 'push' | 'others' | 'total';

export interface WaterfallStep {
  key: string;
  kind: WaterfallKind;
  /** "sqft = 917", "3 other inputs", "Average prediction", "Prediction". */
  label: string;
  column: string | null;
  /** How much this step moves the running value (0 for base and total). */
  delta: number;
  /** Running value before and after this step. */
  start: number;
  end: number;
}

export interface Waterfall {
  steps: WaterfallStep[];
  base: number;
  /** The explained value (the prediction, or the predicted class's raw score). */
  total: number;
  /** Does base + sum of contributions reproduce the explained value? (it should, exactly) */
  additive: boolean;
  /** How far off it is when it does not. */
  gap: number;
  /** Inputs folded into the "other inputs" step. */
  folded: string[];
}

const DEFAULT_WATERFALL_INPUTS = 8;

function valueText(v: unknown): string {
  if (v === null || v === undefined || v === '') return 'missing';
  if (typeof v === 'number') return formatNumber(v);
  const s = String(v);
  return s.length > 24 ? `${s.slice(0, 23)}…` : s;
}

/** True when a row's explanation carries contributions the waterfall can draw. */
export function hasContributions(ex: RowExplanation | null | undefined): boolean {
  return (
    !!ex &&
    typeof ex.base_value === 'number' &&
    Number.isFinite(ex.base_value) &&
    !!ex.feature_contributions &&
    typeof ex.feature_contributions === 'object'
  );
}

/**
 * The steps of one row's waterfall. `inputs` gives the row's input values for the labels;
 * `maxInputs` inputs are shown by size of their push, the rest summed in one step.
 */
export function waterfallSteps(
  ex: RowExplanation,
  inputs: Record<string, unknown> = {},
  {
    maxInputs = DEFAULT_WATERFALL_INPUTS,
    baseLabel = 'Average prediction',
    totalLabel = 'Prediction',
  }: { maxInputs?: number; baseLabel?: string; totalLabel?: string } = {},
): Waterfall | null {
  if (!hasContributions(ex)) return null;
  const base = ex.base_value as number;
  const pushes = Object.entries(ex.feature_contributions ?? {})
    .map(([column, v]) => ({ column, delta: typeof v === 'number' && Number.isFinite(v) ? v : 0 }))
    .sort((a, b) => Math.abs(b.delta) - Math.abs(a.delta) || a.column.localeCompare(b.column));
  const sum = pushes.reduce((s, p) => s + p.delta, 0);
  const explained =
    typeof ex.explained_value === 'number' && Number.isFinite(ex.explained_value)
      ? ex.explained_value
      : base + sum;
  const gap = base + sum - explained;
  const additive = Math.abs(gap) <= 1e-6 * Math.max(1, Math.abs(explained));

  // Folding one input into "1 other input" hides a name for nothing: show it instead.
  const keep = pushes.length <= maxInputs + 1 ? pushes.length : Math.max(1, maxInputs);
  const shown = pushes.slice(0, keep);
  const folded = pushes.slice(keep);

  const steps: WaterfallStep[] = [
    { key: 'base', kind: 'base', label: baseLabel, column: null, delta: 0, start: base, end: base },
  ];
  let at = base;
  for (const p of shown) {
    steps.push({
      key: `in:${p.column}`,
      kind: 'push',
      label: `${p.column} = ${valueText(inputs[p.column])}`,
      column: p.column,
      delta: p.delta,
      start: at,
      end: at + p.delta,
    });
    at += p.delta;
  }
  if (folded.length > 0) {
    const delta = folded.reduce((s, p) => s + p.delta, 0);
    steps.push({
      key: 'others',
      kind: 'others',
      label: `${folded.length} other inputs`,
      column: null,
      delta,
      start: at,
      end: at + delta,
    });
  }
  steps.push({
    key: 'total',
    kind: 'total',
    label: totalLabel,
    column: null,
    delta: 0,
    start: explained,
    end: explained,
  });
  return { steps, base, total: explained, additive, gap, folded: folded.map((p) => p.column) };
}

export type ExplainedTask = 'regression' | 'binary' | 'multiclass';

/** What kind of number the waterfall explains, from the row's explanation and probabilities. */
export function explainedTask(
  ex: RowExplanation,
  probabilities: Record<string, number>,
): ExplainedTask {
  if (ex.explained_class === null || ex.explained_class === undefined) {
    return Object.keys(probabilities).length > 0 ? 'multiclass' : 'regression';
  }
  return Object.keys(probabilities).length === 2 ? 'binary' : 'multiclass';
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/**
 * The one plain sentence above the chart: how to read the bars for this kind of model. A
 * classifier's bars add up to a raw score, not to the probability shown with the prediction, so
 * the sentence connects the two (`probability`: the calibrated probability of the class).
 */
export function waterfallSentence(
  w: Waterfall,
  task: ExplainedTask,
  {
    target,
    explainedClass,
    probability,
  }: { target: string; explainedClass?: unknown; probability?: number },
): string {
  const cls = `“${String(explainedClass ?? '?')}”`;
  // Written as the prediction's headline writes probabilities (one decimal), so they match.
  const pct = (p: number) => `${(p * 100).toFixed(1)}%`;
  const calibrated =
    typeof probability === 'number' && Number.isFinite(probability)
      ? `, which calibration turns into the ${pct(probability)} probability shown above`
      : null;
  if (task === 'regression') {
    return (
      `The model’s average ${target} is ${formatNumber(w.base)}; each bar is how far one input ` +
      `moved this row’s prediction from there, up or down, ending at ${formatNumber(w.total)}.`
    );
  }
  if (task === 'binary') {
    return (
      `The bars add up to the model’s raw score for ${cls}, the predicted class, in log-odds (0 is ` +
      `a toss-up; each +1 multiplies the odds by about 2.7): ${formatNumber(w.total)} here` +
      `${calibrated ?? `, about ${formatPercent(sigmoid(w.total), 0)} before calibration`}.`
    );
  }
  return (
    `The bars add up to the model’s raw score for ${cls}, the predicted class: each class gets ` +
    `such a score, the highest usually wins, and the gaps between them set the probabilities` +
    `${calibrated && probability !== undefined ? ` (${pct(probability)} for ${cls})` : ''}.`
  );
}

/** The axis title: what the numbers along it are. */
export function waterfallAxisLabel(task: ExplainedTask, target: string): string {
  if (task === 'regression') return target;
  return task === 'binary' ? 'log-odds of the predicted class' : 'raw score of the predicted class';
}

/** An accessible summary of the chart, e.g. "starts at 2,410.2; sqft = 917 +380.1; … ends at 2,925.3". */
export function waterfallSummary(w: Waterfall): string {
  const parts = w.steps
    .filter((s) => s.kind === 'push' || s.kind === 'others')
    .map((s) => `${s.label} ${s.delta < 0 ? '−' : '+'}${formatNumber(Math.abs(s.delta))}`);
  return `starts at ${formatNumber(w.base)}; ${parts.join('; ')}; ends at ${formatNumber(w.total)}`;
}
