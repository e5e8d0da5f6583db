/**
 * What the effects tab draws, from an EffectsReport (contract/monitoring.ts): a curve's points
 * for the chart (the average and a readable sample of ICE lines), the y range they need, the
 * curve as a table and its effect in one sentence. Pure, so every figure is tested here.
 */
import type { EffectCurve, EffectsReport } from '../../../../../contract';

/** ICE lines drawn at most: more turn into a grey mass. */
const MAX_ICE_LINES = 20;

const isProbability = (task: EffectsReport['task']) => task === 'binary' || task === 'multiclass';

/** A value of the output: a percentage for probabilities, else three significant digits. */
export function formatOutput(v: number, task: EffectsReport['task']): string {
  if (!Number.isFinite(v)) return '—';
  if (isProbability(task)) return `${(v * 100).toFixed(1)}%`;
  const abs = Math.abs(v);
  if (abs >= 1000 || abs === 0) return Math.round(v).toLocaleString('en-US');
  return Number(v.toPrecision(3)).toLocaleString('en-US', { maximumFractionDigits: 10 });
}

/** A grid value as a label ("1,250", "great", "true", "missing"). */
export function gridLabel(v: EffectCurve['grid'][number]): string {
  if (v === null) return 'missing';
  if (typeof v === 'number') {
    return Math.abs(v) >= 1000 || Number.isInteger(v)
      ? Math.round(v).toLocaleString('en-US')
      : Number(v.toPrecision(3)).toLocaleString('en-US', { maximumFractionDigits: 10 });
  }
  return String(v);
}

/** Indices of at most `k` lines spread evenly over `n` (the first and the last included). */
export function spreadPick(n: number, k: number): number[] {
  if (n <= k) return Array.from({ length: n }, (_, i) => i);
  if (k <= 1) return [0];
  return Array.from({ length: k }, (_, i) => Math.round((i * (n - 1)) / (k - 1)));
}

export interface CurvePoint {
  /** Numbers: the grid value (a numeric axis); categories: its label. */
  x: number | string;
  label: string;
  average: number;
  rows: number;
  /** `ice0`, `ice1`, ...: the sampled rows' predictions at this value. */
  [ice: `ice${number}`]: number;
}

/** The chart's points and the ICE keys drawn. */
export function curvePoints(
  curve: EffectCurve,
  maxIce = MAX_ICE_LINES,
): { points: CurvePoint[]; iceKeys: `ice${number}`[] } {
  const picked = spreadPick(curve.ice.length, maxIce);
  const iceKeys = picked.map((_, j) => `ice${j}` as const);
  const points = curve.grid.map((g, i) => {
    const p: CurvePoint = {
      x: curve.kind === 'number' && typeof g === 'number' ? g : gridLabel(g),
      label: gridLabel(g),
      average: curve.average[i],
      rows: curve.distribution[i]?.count ?? 0,
    };
    picked.forEach((row, j) => {
      p[`ice${j}`] = curve.ice[row][i];
    });
    return p;
  });
  return { points, iceKeys };
}

/** The y range of what is drawn (average and the drawn ICE lines), padded by 5%. */
export function yRange(
  points: readonly CurvePoint[],
  iceKeys: readonly string[],
): [number, number] {
  const ys = points.flatMap((p) => [p.average, ...iceKeys.map((k) => p[k as `ice${number}`])]);
  const finite = ys.filter((y) => Number.isFinite(y));
  if (finite.length === 0) return [0, 1];
  const lo = Math.min(...finite);
  const hi = Math.max(...finite);
  const pad = hi > lo ? (hi - lo) * 0.05 : Math.abs(hi) * 0.05 || 1;
  return [lo - pad, hi + pad];
}

/**
 * The effect in one sentence: "Across its range, sqft moves the average rental_price from 1,820
 * (at 450) to 3,950 (at 1,550)."
 */
export function effectSentence(
  curve: EffectCurve,
  report: Pick<EffectsReport, 'output' | 'task'>,
): string {
  if (curve.average.length === 0) return `${curve.column} has no values to vary.`;
  let lo = 0;
  let hi = 0;
  curve.average.forEach((v, i) => {
    if (v < curve.average[lo]) lo = i;
    if (v > curve.average[hi]) hi = i;
  });
  const fmt = (v: number) => formatOutput(v, report.task);
  if (curve.range === 0 || lo === hi) {
    return `${curve.column} does not move the average ${report.output} (${fmt(curve.average[0])} at every value).`;
  }
  const [from, to] = lo < hi ? [lo, hi] : [hi, lo];
  const what = curve.kind === 'number' ? 'Across its range' : 'Across its categories';
  const unit = isProbability(report.task) ? ' percentage points' : '';
  const range = isProbability(report.task) ? (curve.range * 100).toFixed(1) : fmt(curve.range);
  return `${what}, ${curve.column} moves the average ${report.output} from ${fmt(curve.average[from])} (at ${gridLabel(curve.grid[from])}) to ${fmt(curve.average[to])} (at ${gridLabel(curve.grid[to])}): a spread of ${range}${unit}.`;
}
