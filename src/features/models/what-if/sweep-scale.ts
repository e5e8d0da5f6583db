/**
 * Keeps a what-if chart honest: a y-axis that includes the interval band and never zooms in so far
 * that a tiny change looks dramatic, and a sentence with the size of the change in the target's
 * units and as a share of the prediction (or in percentage points for class probabilities).
 */
import { formatRounded, niceStep } from '../shared';
import type { SweepPoint } from './sweep';

export interface SweepScale {
  /** Largest minus smallest prediction (regression) or largest probability swing (classifiers). */
  change: number;
  /** The change as a share of the typical prediction (regression; null when that is 0). */
  share: number | null;
  /** The y-axis domain (null: probabilities, always 0 – 100%). */
  domain: [number, number] | null;
  /** E.g. "Changes the predicted rental_price by at most 12.3 (0.4%) across this range." */
  text: string;
}

/** The axis never spans less than this share of the typical prediction. */
const MIN_SPAN_SHARE = 0.2;

/** [lo, hi] widened to at least `minSpan` around its middle, padded and rounded outward. */
export function honestDomain(lo: number, hi: number, minSpan: number): [number, number] {
  let a = lo;
  let b = hi;
  const want = Math.max(minSpan, (b - a) * 1.1, Number.EPSILON * 1e3);
  if (b - a < want) {
    const mid = (a + b) / 2;
    a = mid - want / 2;
    b = mid + want / 2;
  }
  const step = niceStep(b - a);
  // Do not push a positive-only quantity below zero just for padding.
  const floor = lo >= 0 ? 0 : -Infinity;
  return [Math.max(floor, Math.floor(a / step) * step), Math.ceil(b / step) * step];
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const pct = (share: number) => {
  const p = share * 100;
  return `${p < 0.1 ? p.toPrecision(1) : p < 10 ? p.toFixed(1) : Math.round(p)}%`;
};

export function sweepScale(
  points: readonly SweepPoint[],
  classes: readonly string[],
  { target, over }: { target: string; over: 'range' | 'categories' },
): SweepScale {
  const where = over === 'range' ? 'across this range' : 'across these categories';
  if (classes.length > 0) {
    // The largest swing; between equal swings (both classes of a binary model) the rarer class,
    // usually the event the model is about (churn, default, fraud).
    let best = { cls: classes[0], change: -1, mean: Infinity };
    for (const c of classes) {
      const ps = points.map((p) => p[`p_${c}`]).filter((v): v is number => typeof v === 'number');
      if (ps.length === 0) continue;
      const change = Math.max(...ps) - Math.min(...ps);
      const mean = ps.reduce((s, v) => s + v, 0) / ps.length;
      const tie = Math.abs(change - best.change) <= 1e-9;
      if ((!tie && change > best.change) || (tie && mean < best.mean))
        best = { cls: c, change, mean };
    }
    best.change = Math.max(0, best.change);
    const pp = best.change * 100;
    const text =
      pp < 0.05
        ? `The class probabilities do not change ${where}.`
        : `Changes P(${best.cls}) by at most ${pp < 10 ? pp.toFixed(1) : Math.round(pp)} percentage points ${where}.`;
    return { change: best.change, share: null, domain: null, text };
  }

  const preds = points.map((p) => p.prediction).filter((v): v is number => v !== null);
  if (preds.length === 0) return { change: 0, share: null, domain: null, text: '' };
  const lo = Math.min(...preds);
  const hi = Math.max(...preds);
  const change = hi - lo;
  const typical = preds.reduce((s, v) => s + Math.abs(v), 0) / preds.length;
  const share = typical > 0 ? change / typical : null;
  const bands = points.map((p) => p.band).filter((b): b is [number, number] => b !== null);
  const bandLo = Math.min(lo, ...bands.map((b) => b[0]));
  const bandHi = Math.max(hi, ...bands.map((b) => b[1]));
  const domain = honestDomain(bandLo, bandHi, typical * MIN_SPAN_SHARE);

  let text: string;
  if (change <= 1e-9 * Math.max(1, typical)) {
    text = `The predicted ${target} does not change ${where}.`;
  } else {
    text = `Changes the predicted ${target} by at most ${formatRounded(change)}${share === null ? '' : ` (${pct(share)})`} ${where}`;
    if (bands.length > 0) {
      const width = median(bands.map((b) => b[1] - b[0]));
      text +=
        change < width
          ? `: less than the uncertainty of one prediction (its interval is about ${formatRounded(width)} wide).`
          : `; the interval around each prediction is about ${formatRounded(width)} wide.`;
    } else {
      text += '.';
    }
  }
  return { change, share, domain, text };
}
