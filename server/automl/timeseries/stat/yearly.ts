// The yearly season of a daily series for the statistical candidates, whose own season is the
// week (ETS, Theta and ARIMA cannot carry a 365-day season: an ARIMA of that period has no
// usable likelihood, an ETS would need 365 states): Fourier terms of the time of year fitted by
// least squares beside a linear trend, subtracted before the weekly model is fitted and added
// back to its forecast (dynamic harmonic regression in two steps). Detected, not assumed: at
// least two years of history, and the terms explain a clear share of what the trend leaves.

import { choleskySolve } from '../../linear/linear';

/** A mean year, in ms (times are epoch ms, UTC). */
export const YEAR_MS = 365.2425 * 864e5;
/** History a yearly season is detected on (two full years: one year cannot tell season from trend). */
const MIN_YEARS = 2;
/** Harmonics tried (1: a sine wave over the year; more: sharper seasons), chosen by AICc. */
const MAX_HARMONICS = 4;
/** Share of the variance the trend leaves that the terms must explain to be used. */
const MIN_STRENGTH = 0.1;

/** Fourier terms of the time of year: value(t) = sum_k a_k sin(2 pi k t / year) + b_k cos(...). */
export interface YearlyTerms {
  /** [a_1, b_1, ..., a_K, b_K]. */
  coef: number[];
  /** The series' step in ms (a history row's time is the last row's minus whole steps). */
  step: number;
}

/** The yearly component at epoch-ms time t (0 for a NaN time). */
export function yearlyAt(terms: YearlyTerms, t: number): number {
  if (!Number.isFinite(t)) return 0;
  const phase = (2 * Math.PI * t) / YEAR_MS;
  let v = 0;
  for (let k = 0; k < terms.coef.length / 2; k++) {
    v +=
      terms.coef[2 * k] * Math.sin((k + 1) * phase) +
      terms.coef[2 * k + 1] * Math.cos((k + 1) * phase);
  }
  return v;
}

/** Least squares of y[start .. end] on an intercept, a trend and K harmonics: coefficients, RSS. */
function regress(
  y: ArrayLike<number>,
  t: ArrayLike<number>,
  start: number,
  end: number,
  K: number,
): { beta: Float64Array; rss: number } {
  const p = 2 + 2 * K;
  const A = new Float64Array(p * p);
  const b = new Float64Array(p);
  const x = new Float64Array(p);
  const t0 = t[start];
  const row = (i: number) => {
    x[0] = 1;
    x[1] = (t[i] - t0) / YEAR_MS;
    const phase = (2 * Math.PI * t[i]) / YEAR_MS;
    for (let k = 0; k < K; k++) {
      x[2 + 2 * k] = Math.sin((k + 1) * phase);
      x[3 + 2 * k] = Math.cos((k + 1) * phase);
    }
  };
  for (let i = start; i <= end; i++) {
    row(i);
    for (let r = 0; r < p; r++) {
      b[r] += x[r] * y[i];
      for (let c = 0; c < p; c++) A[r * p + c] += x[r] * x[c];
    }
  }
  const beta = choleskySolve(A, b, p);
  let rss = 0;
  for (let i = start; i <= end; i++) {
    row(i);
    let f = 0;
    for (let r = 0; r < p; r++) f += x[r] * beta[r];
    rss += (y[i] - f) ** 2;
  }
  return { beta, rss };
}

/**
 * The yearly season of y[start .. end] (times t, epoch ms, one row per `step`), or null: fewer
 * than two years, or harmonics that explain less than MIN_STRENGTH of the variance the trend
 * leaves. `force` fits the terms whenever a year of history allows (refitting a form that had
 * them on fewer rows).
 */
export function fitYearly(
  y: ArrayLike<number>,
  t: ArrayLike<number>,
  start: number,
  end: number,
  step: number,
  force = false,
): YearlyTerms | null {
  const n = end - start + 1;
  const span = t[end] - t[start];
  if (!(span >= (force ? 1 : MIN_YEARS) * YEAR_MS) || n < 2 * (2 + 2 * MAX_HARMONICS)) return null;
  const base = regress(y, t, start, end, 0).rss;
  if (!(base > 0)) return null;
  let best: { K: number; beta: Float64Array; rss: number; aicc: number } | null = null;
  for (let K = 1; K <= MAX_HARMONICS; K++) {
    const { beta, rss } = regress(y, t, start, end, K);
    const k = 3 + 2 * K;
    const aicc =
      n * Math.log(Math.max(rss, 1e-300) / n) + 2 * k + (2 * k * (k + 1)) / Math.max(1, n - k - 1);
    if (!best || aicc < best.aicc) best = { K, beta, rss, aicc };
  }
  if (!best || (!force && 1 - best.rss / base < MIN_STRENGTH)) return null;
  return { coef: Array.from(best.beta.subarray(2)), step };
}

/** y[start .. end] without the yearly component (a new array, index 0 = row start). */
export function withoutYearly(
  terms: YearlyTerms,
  y: ArrayLike<number>,
  start: number,
  end: number,
  lastTime: number,
): Float64Array {
  const out = new Float64Array(end - start + 1);
  for (let i = start; i <= end; i++) {
    out[i - start] = y[i] - yearlyAt(terms, lastTime - (end - i) * terms.step);
  }
  return out;
}
