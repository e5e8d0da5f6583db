// How clearly one candidate's forecasts beat another's on the same origins: the paired test that
// selection.ts (ties, a series' own evidence) and candidates.ts (a GBM not worth refitting) share.
// And the evidence from outside the validation that a set's series are random walks (walkVerdict:
// their first differences white noise around zero), which selection.ts forecasts by naive unless
// a candidate beats it clearly.

/**
 * Errors closer than this (a mean paired difference in origin scales, the errors' unit, or two
 * MASEs) are floating-point rounding, not evidence: on a series some candidates continue exactly
 * (a straight line, a pure season) their errors are 1e-16 of the level, up to 1e-11 of a scale
 * (the scale has 1e-4 of the level in it), and a line's group left drift (1e-16) for ARIMA (0)
 * "by infinitely many standard errors", or its set took ARIMA, whose MASE 0 was below drift's
 * 2e-12 by more than the 1 % tie.
 */
export const RESOLUTION = 1e-9;

/**
 * How clearly candidate c beats d on a series' origins: the mean paired difference of their
 * per-origin errors over its standard error (overlapping windows counted as `windows`
 * independent ones); -Infinity-safe: NaN when they share no origin.
 */
export function advantage(
  a: Float64Array,
  b: Float64Array,
  idx: number[],
  windows: number,
): number {
  let n = 0;
  let sum = 0;
  let sq = 0;
  for (const i of idx) {
    const d = b[i] - a[i];
    if (!Number.isFinite(d)) continue;
    n++;
    sum += d;
    sq += d * d;
  }
  if (n < 2) return NaN;
  const mean = sum / n;
  if (!(Math.abs(mean) > RESOLUTION)) return 0;
  const sd = Math.sqrt(Math.max(0, sq / n - mean * mean) * (n / (n - 1)));
  const se = sd / Math.sqrt(Math.max(1, Math.min(n, windows)));
  return se > 0 ? mean / se : mean > 0 ? Infinity : 0;
}

/**
 * A series' first differences tested for what a random walk's are, white noise around zero:
 * Ljung-Box's Q at lag 1 (the short-memory structure a forecast gains most from: an MA(1) or
 * AR(1) in the differences), over lags 1 .. min(10, n / 5) (Hyndman & Athanasopoulos' residual
 * check) and over the seasonal lags m and 2m within n / 5; and the mean difference over its
 * standard error (drift). Null when the series has fewer than WALK_MIN_DIFFERENCES differences:
 * too few for the test to tell a walk from the models that forecast it better.
 */
interface Differences {
  /** Differences tested. */
  n: number;
  /** Ljung-Box statistics: lag 1, lags 1 .. min(10, n / 5), the seasonal lags (0: none). */
  q1: number;
  q: number;
  lags: number;
  qSeason: number;
  seasonLags: number;
  /** Mean difference over its standard error. */
  t: number;
}

/** Differences per series below which the whiteness test is not applied (see walkVerdict). */
const WALK_MIN_DIFFERENCES = 40;
/**
 * Differences over a set's series below which walkVerdict says nothing: the test finds an AR(1)
 * of 0.2 in the differences (a forecast's gain over naive) 8 times in 10 from 250 differences, 4
 * from 100 (docs/forecasting.md, "Session 17 (arima)"). Global temperature's first 96-102 years
 * test white (p 0.09-0.13, lag-1 and lag-2 autocorrelations -0.17 to -0.27) and naive forecast
 * them worse than the GBM validation favoured.
 */
const WALK_MIN_POOLED = 250;

/** Spread of a series' differences, relative to its largest value, below which they are constant
 * (rounding: a line of slope 0.1 has differences 0.1 +- 1e-17 per unit of level). */
const CONSTANT_DIFFERENCES = 1e-9;

/**
 * A series' differences' tests; null when it is too short, 'constant' when it is constant (no walk:
 * it says nothing about the set's). A straight line's differences are constant and not zero:
 * white, and infinite evidence of drift (t = +-Infinity), not a driftless walk's t of 0.
 */
function differenceTests(y: ArrayLike<number>, period: number): Differences | 'constant' | null {
  const n = y.length - 1;
  if (!(n >= WALK_MIN_DIFFERENCES)) return null;
  const d = new Float64Array(n);
  let mean = 0;
  let scale = 0;
  for (let i = 0; i < n; i++) {
    mean += d[i] = y[i + 1] - y[i];
    scale = Math.max(scale, Math.abs(y[i]));
  }
  mean /= n;
  if (!Number.isFinite(mean)) return null;
  let c0 = 0;
  for (let i = 0; i < n; i++) c0 += (d[i] - mean) ** 2;
  const maxLag = Math.floor(n / 5);
  const lags = Math.min(10, maxLag);
  const seasonal = period > 1 ? [period, 2 * period].filter((k) => k <= maxLag) : [];
  const sd = Math.sqrt(c0 / (n - 1));
  const tol = CONSTANT_DIFFERENCES * Math.max(scale, Math.abs(y[n]));
  if (sd <= tol) {
    if (Math.abs(mean) <= tol) return 'constant';
    const t = Math.sign(mean) * Infinity;
    return { n, q1: 0, q: 0, lags, qSeason: 0, seasonLags: seasonal.length, t };
  }
  // Ljung-Box's term at lag k: n (n + 2) r_k^2 / (n - k).
  const term = (k: number) => {
    let c = 0;
    for (let i = k; i < n; i++) c += (d[i] - mean) * (d[i - k] - mean);
    return (n * (n + 2) * (c / c0) ** 2) / (n - k);
  };
  let q = 0;
  for (let k = 1; k <= lags; k++) q += term(k);
  let qSeason = 0;
  for (const k of seasonal) qSeason += term(k);
  const t = mean / (sd / Math.sqrt(n));
  return { n, q1: term(1), q, lags, qSeason, seasonLags: seasonal.length, t };
}

/** P(X > x) for X ~ chi-square(k), by Wilson & Hilferty's cube-root normal approximation. */
function chiSquareTail(x: number, k: number): number {
  if (!(x > 0)) return 1;
  if (k === 1) return 2 * normalTail(Math.sqrt(x));
  if (k === 2) return Math.exp(-x / 2);
  const v = 2 / (9 * k);
  return normalTail(((x / k) ** (1 / 3) - (1 - v)) / Math.sqrt(v));
}

/** P(Z > z) for a standard normal Z (Abramowitz & Stegun 7.1.26, error under 1.5e-7). */
function normalTail(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const poly =
    t *
    (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erfc = poly * Math.exp(-x * x);
  return z >= 0 ? erfc / 2 : 1 - erfc / 2;
}

/** What the differences of a set's validated series say, pooled (walkVerdict). */
export interface WalkVerdict {
  /** 'naive': white and driftless; 'drift': white with a drift; null: not white. */
  kind: 'naive' | 'drift' | null;
  /** The pooled Ljung-Box p-value and the pooled drift test's. */
  whiteP: number;
  driftP: number;
  /** Series and differences tested. */
  series: number;
  n: number;
}

/**
 * Significance levels of walkVerdict's whiteness and drift tests. The drift test's is the
 * stricter: a walk it wrongly finds drifting is left to the validation, which alone picks naive
 * on about 6 in 10 (docs/forecasting.md, "Session 17 (arima)").
 */
const WALK_ALPHA = 0.05;
const DRIFT_ALPHA = 0.01;

/**
 * Whether a set's series are random walks, from their differences alone (before any validation):
 * the Ljung-Box statistics summed over the series (a chi-square with the lags summed), and the
 * squared drift statistics summed (a chi-square with one degree per series). Constant series
 * are left out: they are no walks, and every candidate forecasts them.
 * Null when some series is too short for the test (differenceTests) or the series together have
 * fewer than WALK_MIN_POOLED differences: there the test cannot tell a walk from the models that
 * forecast it better, and the choice is left to the validation.
 */
export function walkVerdict(ys: ArrayLike<number>[], period: number): WalkVerdict | null {
  if (ys.length === 0) return null;
  const sum = { series: 0, q1: 0, q: 0, lags: 0, qSeason: 0, seasonLags: 0, t2: 0, n: 0 };
  for (const y of ys) {
    const d = differenceTests(y, period);
    if (!d) return null;
    if (d === 'constant') continue;
    sum.series++;
    sum.q1 += d.q1;
    sum.q += d.q;
    sum.lags += d.lags;
    sum.qSeason += d.qSeason;
    sum.seasonLags += d.seasonLags;
    sum.t2 += d.t * d.t;
    sum.n += d.n;
  }
  if (sum.n < WALK_MIN_POOLED) return null;
  // Three tests of one hypothesis: Bonferroni's bound keeps their joint level at WALK_ALPHA.
  const p = [chiSquareTail(sum.q1, sum.series), chiSquareTail(sum.q, sum.lags)];
  if (sum.seasonLags > 0) p.push(chiSquareTail(sum.qSeason, sum.seasonLags));
  const whiteP = Math.min(1, p.length * Math.min(...p));
  const driftP = chiSquareTail(sum.t2, sum.series);
  const kind = whiteP < WALK_ALPHA ? null : driftP < DRIFT_ALPHA ? 'drift' : 'naive';
  return { kind, whiteP, driftP, series: sum.series, n: sum.n };
}
