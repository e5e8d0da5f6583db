// How clearly one candidate's forecasts beat another's on the same origins: the paired test that
// selection.ts (ties, a series' own evidence) and candidates.ts (a GBM not worth refitting) share.
// And the evidence from outside the validation that a set's series are random walks (walkVerdict:
// a unit root, and first differences white noise around zero), which selection.ts forecasts by
// naive unless a candidate beats it clearly.

import { detrended } from './stat/season';

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
 * A series tested for what a random walk is: a unit root (Dickey-Fuller with a constant and a
 * trend does not reject it) and first differences that are white noise around zero (Ljung-Box's Q
 * at lag 1, the short-memory structure a forecast gains most from: an MA(1) or AR(1) in the
 * differences; over lags 1 .. min(10, n / 5), Hyndman & Athanasopoulos' residual check; over the
 * seasonal lags m and 2m within n / 5; and the mean difference over its standard error, drift).
 * Null when the series has fewer than WALK_MIN_DIFFERENCES differences.
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
  /** The p-value of Dickey-Fuller's tau with a constant and a trend (dickeyFuller). */
  unitRootP: number;
}

/** Differences per series below which the tests are not applied (see walkVerdict). */
const WALK_MIN_DIFFERENCES = 40;

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
    return { n, q1: 0, q: 0, lags, qSeason: 0, seasonLags: seasonal.length, t, unitRootP: 1 };
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
  const unitRootP = unitRootTail(dickeyFuller(y, d));
  return { n, q1: term(1), q, lags, qSeason, seasonLags: seasonal.length, t, unitRootP };
}

/**
 * Dickey and Fuller's tau with a constant and a linear trend: the t-statistic of gamma in
 * d[i] = a + b i + gamma y[i] + e (d the series' first differences), the regression's centred
 * least squares by Frisch-Waugh (y and d net of their lines on the row index). No lagged
 * differences: the series it decides on have white differences by Ljung-Box. A random walk with
 * or without a drift gives tau its null distribution whatever its level and scale; a series
 * stationary around a line (a trend plus noise that reverts, global temperature's first century)
 * gives a large negative tau, whose differences look white at 100 rows.
 */
function dickeyFuller(y: ArrayLike<number>, d: Float64Array): number {
  const n = d.length;
  // The lagged levels y[0 .. n-1] and the differences, each net of its line on the row index.
  const ry = detrended(Float64Array.from({ length: n }, (_, i) => y[i]));
  const rd = detrended(d);
  let syy = 0;
  let syd = 0;
  let sdd = 0;
  for (let i = 0; i < n; i++) {
    syy += ry[i] * ry[i];
    syd += ry[i] * rd[i];
    sdd += rd[i] * rd[i];
  }
  if (!(syy > 0) || n <= 3) return NaN;
  const gamma = syd / syy;
  const s2 = Math.max(0, sdd - gamma * syd) / (n - 3);
  return gamma / Math.sqrt(s2 / syy);
}

/**
 * P(tau < x) under a unit root for Dickey-Fuller's tau with a constant and a trend: MacKinnon's
 * (1994) response surface, as statsmodels' mackinnonp(x, 'ct') (global temperature's first 96
 * years: tau -4.715, p 0.00066 in both); asymptotic: on walks of 60-250 rows 1.2-1.5 % fall
 * under 1 % (20,000 of each).
 */
function unitRootTail(tau: number): number {
  if (!Number.isFinite(tau)) return 1;
  if (tau > 0.7) return 1;
  if (tau < -16.18) return 0;
  const c = tau <= -2.89 ? [3.2512, 1.6047, 0.049588] : [2.5261, 0.61654, -0.37956, -0.060285];
  let z = 0;
  for (let k = c.length - 1; k >= 0; k--) z = z * tau + c[k];
  return 1 - normalTail(z);
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
  /** Fisher's combination of the series' Dickey-Fuller p-values (a unit root's). */
  unitRootP: number;
  /** Series and differences tested. */
  series: number;
  n: number;
  /**
   * Per series given (walkSeries): its own tests, and whether it is a walk when the set is not
   * (null: too short for the tests, or constant); set only when the pooled kind is not 'naive'
   * and some series pass their own tests (long enough to count or not) and others do not.
   */
  own?: (SeriesWalk | null)[];
}

/** One series' own walk evidence (walkSeries). */
export interface SeriesWalk {
  /** A walk by its own tests, with the differences (OWN_MIN_DIFFERENCES) for them to count. */
  walk: boolean;
  /** A walk by its own tests, but too short for them to set the set's choice aside. */
  short: boolean;
  whiteP: number;
  driftP: number;
  unitRootP: number;
  n: number;
}

/**
 * Significance levels of walkVerdict's tests: whiteness; drift and the unit root. The drift
 * test's and the unit root's are the stricter: a walk either wrongly rejects is left to the
 * validation, which alone picks naive on about 4-6 in 10 (docs/forecasting.md, "Session 17
 * (arima)", "Session 18 (arima)"). At 1 % Dickey-Fuller keeps 99 % of walks and still rejects
 * global temperature's first century (p 0.0007-0.0009) and, on 3 series of 120 rows, a line plus
 * an AR(1) of 0.8 on 99 % of draws; at 5 % it cost the walks of 3 x 120 rows 6 of 100 naive
 * choices for no set's gain.
 */
const WALK_ALPHA = 0.05;
const DRIFT_ALPHA = 0.01;
const UNIT_ROOT_ALPHA = 0.01;

/**
 * Whether a set's series are random walks, from their rows alone (before any validation): the
 * Ljung-Box statistics of their differences summed over the series (a chi-square with the lags
 * summed), the squared drift statistics summed (a chi-square with one degree per series), and
 * the series' Dickey-Fuller p-values combined by Fisher's method (-2 sum log p, a chi-square with
 * two degrees per series; Maddala & Wu's panel unit-root test). Constant series are left out:
 * they are no walks, and every candidate forecasts them. Null when some series is too short for
 * the tests (differenceTests) or every series is constant.
 *
 * The whiteness test alone cannot tell a walk from a series stationary around a line at 60-250
 * differences: global temperature's first 96-102 years test white (p 0.09-0.13), and naive
 * forecasts them worse than the validation's choice; it was applied from 250 differences only
 * (session 17). Dickey-Fuller rejects their unit root at p 0.001 (docs/forecasting.md, "Session
 * 18 (arima)").
 */
export function walkVerdict(ys: ArrayLike<number>[], period: number): WalkVerdict | null {
  if (ys.length === 0) return null;
  const tests = ys.map((y) => differenceTests(y, period));
  const pooled = pooledVerdict(tests);
  if (pooled?.kind === 'naive' || ys.length < 2) return pooled;
  const own = walkSeries(tests);
  return own ? { ...(pooled ?? noVerdict), own } : pooled;
}

/** The set's verdict when some series are too short for it: none, only the series' own. */
const noVerdict: WalkVerdict = {
  kind: null,
  whiteP: NaN,
  driftP: NaN,
  unitRootP: NaN,
  series: 0,
  n: 0,
};

/** Whiteness of differences: Ljung-Box at lag 1 (one degree per series), over lags 1 ..
 * min(10, n / 5) and at the seasonal lags, Bonferroni's bound over the three. */
function whiteness(
  q: { q1: number; q: number; lags: number; qSeason: number; seasonLags: number },
  series: number,
): number {
  const p = [chiSquareTail(q.q1, series), chiSquareTail(q.q, q.lags)];
  if (q.seasonLags > 0) p.push(chiSquareTail(q.qSeason, q.seasonLags));
  return Math.min(1, p.length * Math.min(...p));
}

/** One series' p-values: whiteness (Bonferroni over its three Ljung-Box tests), drift, unit root. */
function seriesP(d: Differences): { whiteP: number; driftP: number; unitRootP: number } {
  const whiteP = whiteness(d, 1);
  return { whiteP, driftP: chiSquareTail(d.t * d.t, 1), unitRootP: d.unitRootP };
}

/**
 * Differences a series needs before its own tests set the set's choice aside for it (walkSeries):
 * where the whiteness test finds an autocorrelation of 0.2 in them 8 times in 10 (docs/
 * forecasting.md, "Session 17 (arima)"). Below it, series the tests called walks in the bench's
 * mixed sets (US employment's government payrolls, 95-107 differences; Danish money's rates,
 * 42-50; four stocks, 55-116) were forecast better by the set's validated choice than by naive
 * (US employment +3.5 %, Danish money +1.4 %, stocks +6 % with naive; "Session 19 (arima)"):
 * the set's choice rests on every series' windows, a short series' own tests on its rows alone.
 */
export const OWN_MIN_DIFFERENCES = 250;

/**
 * Which series of a set that is not all walks are walks by their own evidence: each series' own
 * tests at the set's levels (whiteness WALK_ALPHA, drift DRIFT_ALPHA, unit root UNIT_ROOT_ALPHA;
 * a stock's close beside its volume: the volume's unit root is rejected at p 1e-30, the close's
 * is not). No correction for the number of series: each series' call decides its own forecast
 * alone, so its own error rates are the ones that matter; Holm's step-down or a false discovery
 * rate kept more walks (measured on series of 120 rows, before the floor OWN_MIN_DIFFERENCES: in
 * a set of nine walks and one seasonal series, 528 and 524 of 540 against 504) but called more
 * of the series that are not walks walks, which cost them more than the walks gained (an AR(1)
 * of 0.7 beside five walks: 64 and 36 of 300 against 19; docs/forecasting.md, "Session 19
 * (arima)"). Null unless some series are walks and some are not (the short ones included: a
 * group's reason names its own evidence where it differs from the set's).
 */
function walkSeries(tests: (Differences | 'constant' | null)[]): (SeriesWalk | null)[] | null {
  const own = tests.map((d): SeriesWalk | null => {
    if (!d || d === 'constant') return null;
    const p = seriesP(d);
    const passes =
      p.whiteP >= WALK_ALPHA && p.driftP >= DRIFT_ALPHA && p.unitRootP >= UNIT_ROOT_ALPHA;
    const long = d.n >= OWN_MIN_DIFFERENCES;
    return { walk: passes && long, short: passes && !long, ...p, n: d.n };
  });
  const walks = own.filter((o) => o?.walk).length;
  const short = own.filter((o) => o?.short).length;
  const tested = own.filter((o) => o).length;
  return walks + short === 0 || walks + short === tested ? null : own;
}

/** The set's pooled verdict from its series' tests (walkVerdict). */
function pooledVerdict(tests: (Differences | 'constant' | null)[]): WalkVerdict | null {
  const sum = { series: 0, q1: 0, q: 0, lags: 0, qSeason: 0, seasonLags: 0, t2: 0, n: 0, logP: 0 };
  for (const d of tests) {
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
    sum.logP -= 2 * Math.log(Math.max(d.unitRootP, Number.MIN_VALUE));
  }
  if (sum.series === 0) return null;
  // Three tests of one hypothesis: Bonferroni's bound keeps their joint level at WALK_ALPHA.
  const whiteP = whiteness(sum, sum.series);
  const driftP = chiSquareTail(sum.t2, sum.series);
  const unitRootP = chiSquareTail(sum.logP, 2 * sum.series);
  const walk = whiteP >= WALK_ALPHA && unitRootP >= UNIT_ROOT_ALPHA;
  const kind = !walk ? null : driftP < DRIFT_ALPHA ? 'drift' : 'naive';
  return { kind, whiteP, driftP, unitRootP, series: sum.series, n: sum.n };
}
