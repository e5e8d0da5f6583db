// The Theta method (Assimakopoulos & Nikolopoulos 2000) in the form of Hyndman & Billah (2003),
// as the M3/M4 benchmarks and statsmodels' ThetaModel run it: test the series for seasonality at
// its period, deseasonalise it by classical decomposition (multiplicative for positive data), fit
// simple exponential smoothing (level starting at the first value, alpha by least squares) and a
// straight line, forecast SES plus half the line's slope,
//   x(T+h) = SES(T) + b0 / 2 * (h - 1 + 1 / alpha - (1 - alpha)^T / alpha),
// and reseasonalise. With theta = 2 the trend is extrapolated at half its slope: the damping
// that made Theta win the M3 competition. The seasonal indices, slope and SES level are
// recomputed over the rows a forecast reads; alpha and the season decision are the fit's.

import { indexSlope, seasonalIndices, seasonalTest } from './season';

/** A fitted Theta model (JSON; what the artifact keeps per group). */
export interface ThetaFit {
  alpha: number;
  /** Seasonal period; 1 when the test found no season. */
  m: number;
  /** How the season is removed (when m > 1). */
  multiplicative: boolean;
  /**
   * Fitted on rows too few for the seasonal test (under three seasons) of a series with a period:
   * the forecasting refit on all its rows tests the season again (local.ts refitForm), as ETS's
   * `seasonless` fit chooses its season again, so that a short series of a panel whose validation
   * rows hold two seasons is not forecast without its season.
   */
  untested?: true;
}

/** The weight of the trend line's slope, (theta - 1) / theta with theta = 2. */
const TREND_WEIGHT = 0.5;

/** Deseasonalised copy of y[start .. end] and the indices used (null: none). */
function deseasonalise(
  fit: Pick<ThetaFit, 'm' | 'multiplicative'>,
  y: ArrayLike<number>,
  start: number,
  end: number,
): { x: Float64Array; idx: Float64Array | null; mult: boolean } {
  const n = end - start + 1;
  const x = new Float64Array(n);
  for (let i = 0; i < n; i++) x[i] = y[start + i];
  if (fit.m <= 1) return { x, idx: null, mult: false };
  let mult = fit.multiplicative;
  let idx = seasonalIndices(y, start, end, fit.m, mult);
  if (idx && mult && idx.some((v) => !(v > 0))) {
    mult = false;
    idx = seasonalIndices(y, start, end, fit.m, false);
  }
  if (!idx) return { x, idx: null, mult: false };
  for (let i = 0; i < n; i++) x[i] = mult ? x[i] / idx[i % fit.m] : x[i] - idx[i % fit.m];
  return { x, idx, mult };
}

/** Sum of squared one-step SES errors over x with the level starting at x[0]. */
function sesSse(x: Float64Array, alpha: number): number {
  let l = x[0];
  let sse = 0;
  for (let i = 1; i < x.length; i++) {
    const e = x[i] - l;
    sse += e * e;
    l += alpha * e;
  }
  return sse;
}

/** Golden-section search for alpha in [1e-4, 1] (SSE is unimodal in alpha for most series). */
function bestAlpha(x: Float64Array): number {
  let lo = 1e-4;
  let hi = 1;
  const g = (Math.sqrt(5) - 1) / 2;
  let a = hi - g * (hi - lo);
  let b = lo + g * (hi - lo);
  let fa = sesSse(x, a);
  let fb = sesSse(x, b);
  for (let it = 0; it < 40 && hi - lo > 1e-5; it++) {
    if (fa <= fb) {
      hi = b;
      b = a;
      fb = fa;
      a = hi - g * (hi - lo);
      fa = sesSse(x, a);
    } else {
      lo = a;
      a = b;
      fa = fb;
      b = lo + g * (hi - lo);
      fb = sesSse(x, b);
    }
  }
  // The upper bound itself, which golden section never evaluates: a straight line's (or a random
  // walk's) SSE falls all the way to alpha = 1, where the search stopped at 1 - 1e-5 and a line's
  // forecast came 1e-5 of a step short of its half slope.
  const f1 = sesSse(x, 1);
  return f1 <= Math.min(fa, fb) ? 1 : fa <= fb ? a : b;
}

/**
 * Fits Theta to y[start .. end] (period m; the season is kept only if the test finds it, unless
 * `season` gives the decision made on other rows of the series).
 */
export function fitTheta(
  y: ArrayLike<number>,
  start: number,
  end: number,
  m: number,
  season?: { m: number; multiplicative: boolean },
): ThetaFit | null {
  const n = end - start + 1;
  if (n < 3) return null;
  let positive = true;
  for (let i = start; i <= end; i++) if (!(y[i] > 0)) positive = false;
  const period = season ? season.m : m > 1 && seasonalTest(y, start, end, m) ? m : 1;
  const spec = { m: period, multiplicative: season ? season.multiplicative && positive : positive };
  const { x, mult } = deseasonalise(spec, y, start, end);
  const fit: ThetaFit = { alpha: bestAlpha(x), m: period, multiplicative: period > 1 && mult };
  return !season && m > 1 && n < 3 * m ? { ...fit, untested: true } : fit;
}

/** Forecasts steps 1..H after y[end] from y[start .. end] into out[o ...]. */
export function thetaForecast(
  fit: ThetaFit,
  y: ArrayLike<number>,
  start: number,
  end: number,
  H: number,
  out: Float64Array,
  o: number,
): void {
  const { x, idx, mult } = deseasonalise(fit, y, start, end);
  const n = x.length;
  const a = fit.alpha;
  let l = x[0];
  for (let i = 1; i < n; i++) l += a * (x[i] - l);
  const b0 = indexSlope(x);
  const tail = (1 - (1 - a) ** n) / a;
  for (let h = 1; h <= H; h++) {
    let v = l + TREND_WEIGHT * b0 * (h - 1 + tail);
    if (idx) {
      const s = idx[(n + h - 1) % fit.m];
      v = mult ? v * s : v + s;
    }
    out[o + h - 1] = Number.isFinite(v) ? v : y[end];
  }
}
