/**
 * What-if sweeps: N values of one numeric input across a range (or every known category of a
 * categorical one), the batch of rows that keeps the other inputs fixed, and the chart series
 * (prediction with its interval band, or class probabilities for classifiers) from the one batch
 * response.
 */
import type { PredictionView, FormField } from '../inputs';

export const DEFAULT_SWEEP_STEPS = 50;
export const MAX_SWEEP_STEPS = 500;
/** A categorical sweep sends one row per known category, up to this many. */
const MAX_SWEEP_CATEGORIES = 100;

/** Whether an input is swept along a numeric range or through its known categories. */
export type SweepKind = 'range' | 'categories';

export function sweepKind(field: FormField): SweepKind | null {
  if (field.kind === 'number') return 'range';
  if (field.kind === 'choice' && field.options.length > 0) return 'categories';
  return null;
}

/** The inputs a what-if can sweep, most important first (ties keep the form's order). */
export function sweepableFields(fields: readonly FormField[]): FormField[] {
  return fields
    .filter((f) => sweepKind(f) !== null)
    .map((f, i) => ({ f, i }))
    .sort((a, b) => (b.f.importance ?? 0) - (a.f.importance ?? 0) || a.i - b.i)
    .map(({ f }) => f);
}

/** The categories swept for an input (its known values, bounded). */
export function sweepCategories(field: FormField): SweepValue[] {
  return field.options.slice(0, MAX_SWEEP_CATEGORIES);
}

/** Evenly spaced values from min to max; integers are rounded and repeats dropped. */
export function sweepValues(min: number, max: number, steps: number, integer: boolean): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [];
  const n = Math.max(2, Math.min(MAX_SWEEP_STEPS, Math.floor(steps)));
  const lo = Math.min(min, max);
  const hi = Math.max(min, max);
  if (lo === hi) return [lo];
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    let v = lo + ((hi - lo) * i) / (n - 1);
    v = integer ? Math.round(v) : Number(v.toPrecision(12));
    if (out.length === 0 || out[out.length - 1] !== v) out.push(v);
  }
  return out;
}

/** A swept value: a number along a range, or one category. */
export type SweepValue = number | string | boolean;

export function buildSweepRows(
  base: Record<string, unknown>,
  column: string,
  values: readonly SweepValue[],
): Record<string, unknown>[] {
  return values.map((v) => ({ ...base, [column]: v }));
}

export interface SweepPoint {
  x: SweepValue;
  /** The value as the chart's category axis shows it. */
  label: string;
  prediction: number | null;
  band: [number, number] | null;
  /** `p_<class>` -> probability (classifiers). */
  [key: `p_${string}`]: number;
}

export function sweepSeries(
  values: readonly SweepValue[],
  views: readonly PredictionView[],
): { points: SweepPoint[]; classes: string[] } {
  const classes = new Set<string>();
  const points = values.map((x, i) => {
    const v = views[i];
    const p: SweepPoint = {
      x,
      label: String(x),
      prediction: typeof v?.prediction === 'number' ? v.prediction : null,
      band: v && v.lower !== null && v.upper !== null ? [v.lower, v.upper] : null,
    };
    for (const [c, prob] of Object.entries(v?.probabilities ?? {})) {
      classes.add(c);
      p[`p_${c}`] = prob;
    }
    return p;
  });
  return { points, classes: [...classes].sort() };
}

/** A default range when the training data's min/max are unknown: around the current value. */
export function fallbackRange(current: number | undefined): [number, number] {
  if (current === undefined || !Number.isFinite(current)) return [0, 100];
  if (current === 0) return [-1, 1];
  const span = Math.abs(current) * 0.5;
  return [current - span, current + span];
}
