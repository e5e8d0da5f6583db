// Seasonal ARIMA(p,d,q)(P,D,Q)m with an automatic order search, after Hyndman & Khandakar's
// auto.arima (2008): differences chosen by tests (KPSS for d, seasonal strength for D), then a
// stepwise search over p, q <= 3, P, Q <= 1 and the constant by AICc. Parameters are estimated by
// conditional sum of squares (Levenberg-Marquardt), in the partial-autocorrelation
// parametrisation that keeps every AR polynomial stationary and every MA polynomial invertible
// (Jones 1980, as statsmodels' enforce_stationarity), then refined by exact maximum likelihood,
// whose AICc ranks the orders; with a season longer than 12 (hourly, weekly) the conditional fits'
// AICc ranks them and only the chosen order is refined (auto.arima's approximation). All models of
// a search are scored on the same rows (one conditioning start), so their AICc compare like for
// like.
//
// A forecast differences the rows it reads, recovers the innovations by running the ARMA
// recursion over them (the MA part forgets its zero start, being invertible), continues the
// recursion with zero future innovations and integrates back.

import {
  type Innovations,
  armaLikelihood,
  armaPredict,
  innovationCoefficients,
} from './arma-likelihood';
import { levenbergMarquardt } from './optimize';
import { firstDifferences, seasonalStrength } from './season';

export interface ArimaOrder {
  p: number;
  d: number;
  q: number;
  P: number;
  D: number;
  Q: number;
  /** Seasonal period (1: no seasonal part). */
  m: number;
  /** A mean of the differenced series (a drift when d + D = 1). */
  constant: boolean;
  /**
   * A linear trend in the differenced series' mean (d + D = 1: a drift that grows or shrinks
   * steadily, statsmodels' SARIMAX trend 't'; the level bends like a parabola).
   */
  trend?: boolean;
}

/** A fitted model (JSON; what the artifact keeps per group). Coefficients in the usual signs. */
export interface ArimaFit extends ArimaOrder {
  /** phi_1..phi_p of (1 - phi_1 B - ...), Phi of (1 - Phi_1 B^m - ...). */
  ar: number[];
  sar: number[];
  /** theta_1..theta_q of (1 + theta_1 B + ...), Theta of (1 + Theta_1 B^m + ...). */
  ma: number[];
  sma: number[];
  mean: number;
  /**
   * With `trend`: the mean's change per row, the mean being `mean` at the fit's last row; and
   * where that row is in time (`tEnd`, `step`: its timestamp and the mean step), so that a forecast
   * from a later origin continues the trend from there.
   */
  slope?: number;
  tEnd?: number;
  step?: number;
  sigma2: number;
  aicc: number;
  /**
   * A level shift found in the fit's rows (levelShift): the model was fitted to the rows with
   * those before the shift moved by `size` to the level after it, and forecasts do the same.
   */
  shift?: LevelShift;
}

/**
 * A level shift: from the row `back` rows before a fit's last row on, the series is `size` higher
 * (lower when negative) than the model continued from before it; `tau`, its test statistic;
 * `tEnd` and `step`, the fit's last row in time and the mean step (a forecast from a later origin
 * finds the shift's row from its own last row's time).
 */
interface LevelShift {
  back: number;
  size: number;
  tau: number;
  tEnd?: number;
  step?: number;
}

export function arimaName(o: ArimaOrder): string {
  const s = o.m > 1 && o.P + o.D + o.Q > 0 ? `(${o.P},${o.D},${o.Q})${o.m}` : '';
  const c = o.constant ? (o.d + o.D === 1 ? ' with drift' : ' with mean') : '';
  const t = o.trend ? (o.constant ? ' and drift trend' : ' with drift trend') : '';
  return `ARIMA(${o.p},${o.d},${o.q})${s}${c}${t}`;
}

const MAX_P_ = 3;
const MAX_Q_ = 3;
const MAX_SP = 1;
const MAX_SQ = 1;
/**
 * Largest partial autocorrelation of the AR and MA polynomials: roots stay a little off the unit
 * circle (auto.arima refuses models whose roots come within 1 % of it), where forecasts of a
 * differenced series would run away.
 */
const PACF_MAX = 0.98;
/** Models a stepwise search fits at most. */
const MAX_MODELS = 40;
/**
 * A season longer than this is searched by the conditional fits alone, only the chosen order
 * refined by maximum likelihood (auto.arima's `approximation`, which it takes when
 * `frequency(x) > 12`): the exact likelihood's innovations cost O(q^2) per row until their steady
 * state, and a seasonal MA at period 24 or 52 makes q 25 or 53 (an hourly training spent 31.6 CPU-s,
 * 24.6 with this; a weekly one 21.7, 11.4). auto.arima also approximates beyond 150 rows; that is not
 * taken: past the steady state a long series costs little more per row here (daily sets trained in
 * the same CPU), and on the 1,000 daily series of the speed bench (200 rows) it chose orders that
 * erred more (validation MASE 0.739 -> 0.760) and trained slower (16.1 -> 18.4 CPU-s).
 */
const APPROX_PERIOD = 12;
/** Seasonal strength above which the series is differenced seasonally (auto.arima's). */
const SEASONAL_STRENGTH = 0.64;
/**
 * A season longer than APPROX_PERIOD is also tested on its last RECENT_SEASONS seasons. A weekly
 * season of 52 rows drifts against the year by a week every 5.6 years (a year is 52.18 weeks),
 * and every missing week shifts it by one more: measured over decades the 52-row pattern is
 * smeared (Mauna Loa's weekly CO2, 2,200 rows from 1958 with gaps: strength 0.60, under the
 * threshold, so no seasonal difference and ARIMA(3,1,3)(1,0,1)52 MASE 0.706 at 4 origins), while
 * over the last five years, where the phase moves by less than a week, it is 0.97 (with the
 * seasonal difference 0.483). The seasonal difference reads one season back, so the recent
 * seasons are what it relies on.
 */
const RECENT_SEASONS = 5;

/** Partial autocorrelations (|r| < 1) -> the coefficients of a stationary AR polynomial. */
export function pacfToAr(r: ArrayLike<number>): number[] {
  const p = r.length;
  let phi: number[] = [];
  for (let k = 0; k < p; k++) {
    const next = new Array<number>(k + 1);
    next[k] = r[k];
    for (let j = 0; j < k; j++) next[j] = phi[j] - r[k] * phi[k - 1 - j];
    phi = next;
  }
  return phi;
}

/** A lag polynomial's non-zero lags and their coefficients (in the recursion's sign). */
interface Poly {
  lag: Int32Array;
  c: Float64Array;
}

/** The lags (1 .. p) x (1, B^m, .., B^Pm) can reach, each once, ascending. */
function polyLags(p: number, P: number, m: number): Int32Array {
  const set = new Set<number>();
  for (let j = 0; j <= P; j++) for (let i = 0; i <= p; i++) if (i + j * m > 0) set.add(i + j * m);
  return Int32Array.from([...set].sort((a, b) => a - b));
}

/**
 * The recursion's coefficients of a product of a regular and a seasonal polynomial, into `out`
 * (whose lags come from polyLags): `sign` -1 for AR, (1 - sum a_i B^i)(1 - sum A_j B^jm), whose
 * recursion reads sum c_k x_{t-k}; +1 for MA, (1 + sum b_i B^i)(1 + sum B_j B^jm).
 */
function fillPoly(
  reg: ArrayLike<number>,
  sea: ArrayLike<number>,
  m: number,
  sign: 1 | -1,
  out: Poly,
  dense: Float64Array,
): void {
  dense.fill(0);
  // Polynomial coefficients with c0 = 1: regular g_i = sign * reg_i, seasonal G_j = sign * sea_j.
  for (let j = 0; j <= sea.length; j++) {
    const gj = j === 0 ? 1 : sign * sea[j - 1];
    for (let i = 0; i <= reg.length; i++) {
      const gi = i === 0 ? 1 : sign * reg[i - 1];
      const l = i + j * m;
      if (l > 0) dense[l] += gi * gj;
    }
  }
  // Recursion sign: AR moves the polynomial's terms to the right-hand side (-), MA keeps them.
  for (let k = 0; k < out.lag.length; k++) out.c[k] = sign * dense[out.lag[k]];
}

function makePoly(p: number, P: number, m: number): Poly {
  const lag = polyLags(p, P, m);
  return { lag, c: new Float64Array(lag.length) };
}

function polyOf(reg: number[], sea: number[], m: number, sign: 1 | -1): Poly {
  const poly = makePoly(reg.length, sea.length, m);
  fillPoly(reg, sea, m, sign, poly, new Float64Array(reg.length + sea.length * m + 1));
  return poly;
}

/** w = (1 - B)^d (1 - B^m)^D x[start .. end]. */
function difference(
  x: ArrayLike<number>,
  start: number,
  end: number,
  d: number,
  D: number,
  m: number,
): Float64Array {
  let w = Float64Array.from({ length: end - start + 1 }, (_, i) => x[start + i]);
  for (let k = 0; k < D; k++) {
    const next = new Float64Array(Math.max(0, w.length - m));
    for (let i = m; i < w.length; i++) next[i - m] = w[i] - w[i - m];
    w = next;
  }
  for (let k = 0; k < d; k++) {
    const next = new Float64Array(Math.max(0, w.length - 1));
    for (let i = 1; i < w.length; i++) next[i - 1] = w[i] - w[i - 1];
    w = next;
  }
  return w;
}

/**
 * Innovations e[t] of the ARMA recursion over w (mean removed), from zeros before the first row
 * with all its AR lags; writes them into `e` and returns the sum of squares from row `from` on.
 */
function innovations(
  w: Float64Array,
  mean: number,
  ar: Poly,
  ma: Poly,
  from: number,
  e: Float64Array,
): number {
  const n = w.length;
  const pa = ar.lag.length;
  const qa = ma.lag.length;
  const maxAr = pa ? ar.lag[pa - 1] : 0;
  let sse = 0;
  for (let t = 0; t < n; t++) {
    if (t < maxAr) {
      e[t] = 0;
      continue;
    }
    let v = w[t] - mean;
    for (let i = 0; i < pa; i++) v -= ar.c[i] * (w[t - ar.lag[i]] - mean);
    for (let j = 0; j < qa; j++) {
      const l = ma.lag[j];
      if (t - l >= 0) v -= ma.c[j] * e[t - l];
    }
    e[t] = v;
    if (t >= from) sse += v * v;
  }
  return sse;
}

/** The coefficients a fit's unconstrained parameters stand for. */
function decode(
  o: ArimaOrder,
  u: ArrayLike<number>,
): Omit<ArimaFit, keyof ArimaOrder | 'sigma2' | 'aicc' | 'tEnd' | 'step'> & { slope: number } {
  let k = 0;
  const take = (n: number) => {
    const r: number[] = [];
    for (let i = 0; i < n; i++) r.push(PACF_MAX * Math.tanh(u[k++]));
    return r;
  };
  const ar = pacfToAr(take(o.p));
  const ma = pacfToAr(take(o.q)).map((v) => -v);
  const sar = pacfToAr(take(o.P));
  const sma = pacfToAr(take(o.Q)).map((v) => -v);
  const mean = o.constant ? u[k++] : 0;
  const slope = o.trend ? u[k++] : 0;
  return { ar, ma, sar, sma, mean, slope };
}

/** A fit and its unconstrained parameters (the start of a refinement). */
interface OrderFit {
  fit: ArimaFit;
  u: Float64Array;
}

/** The pieces both estimators share: parameter decoding, polynomial buffers, the mean's scale. */
function setup(o: ArimaOrder, w: Float64Array) {
  let wMean = 0;
  for (let i = 0; i < w.length; i++) wMean += w[i];
  wMean /= Math.max(1, w.length);
  // Scale the mean parameter so that it moves like the others in the solver.
  const sd = Math.sqrt(w.reduce((a, v) => a + (v - wMean) ** 2, 0) / Math.max(1, w.length)) || 1;
  const nPar = o.p + o.q + o.P + o.Q + (o.constant ? 1 : 0) + (o.trend ? 1 : 0);
  const n = w.length;
  const scaled = (u: ArrayLike<number>) => {
    const c = decode(o, u);
    if (o.constant) c.mean *= sd;
    // A unit of the slope's parameter moves the mean by one standard deviation over the rows.
    if (o.trend) c.slope *= sd / Math.max(1, n);
    return c;
  };
  // The differenced rows less their mean (and its trend: `slope` per row, `mean` at the last row).
  const centred = (c: { mean: number; slope: number }, x: Float64Array) => {
    for (let t = 0; t < n; t++) x[t] = w[t] - c.mean - c.slope * (t - (n - 1));
    return x;
  };
  const arPoly = makePoly(o.p, o.P, o.m);
  const maPoly = makePoly(o.q, o.Q, o.m);
  const dense = new Float64Array(Math.max(o.p, o.q) + Math.max(o.P, o.Q) * o.m + 1);
  const fill = (u: ArrayLike<number>) => {
    const c = scaled(u);
    fillPoly(c.ar, c.sar, o.m, -1, arPoly, dense);
    fillPoly(c.ma, c.sma, o.m, 1, maPoly, dense);
    return c;
  };
  return { wMean, sd, nPar, scaled, arPoly, maPoly, fill, centred };
}

/**
 * Fits one order to the differenced series w by conditional least squares, counting innovations
 * from row `from`; null when there are too few rows for it.
 */
function fitOrder(o: ArimaOrder, w: Float64Array, from: number): OrderFit | null {
  const nEff = w.length - from;
  const k = parameters(o);
  if (nEff < k + 3) return null;
  const { wMean, sd, nPar, scaled, arPoly, maPoly, fill, centred } = setup(o, w);
  const u0 = new Float64Array(nPar);
  if (o.constant) u0[nPar - (o.trend ? 2 : 1)] = wMean / sd;
  const e = new Float64Array(w.length);
  const x = new Float64Array(w.length);
  const res = (u: Float64Array, out: Float64Array): number => {
    const c = fill(u);
    const sse = innovations(centred(c, x), 0, arPoly, maPoly, from, e);
    for (let t = from; t < w.length; t++) out[t - from] = e[t];
    return sse;
  };
  const best = levenbergMarquardt(res, u0, nEff, { tol: 1e-4, maxIterations: 40 });
  if (!Number.isFinite(best.f)) return null;
  const c = scaled(best.x);
  const sigma2 = Math.max(best.f, 1e-300) / nEff;
  const aic = nEff * Math.log(sigma2) + 2 * k;
  const aicc = aic + (2 * k * (k + 1)) / Math.max(1, nEff - k - 1);
  return { fit: { ...o, ...c, sigma2, aicc }, u: best.x };
}

/** Parameters of an order, the innovation variance included (AICc's k). */
function parameters(o: ArimaOrder): number {
  return o.p + o.q + o.P + o.Q + (o.constant ? 1 : 0) + (o.trend ? 1 : 0) + 1;
}

/** Dense lags 1..L of a polynomial's recursion coefficients. */
function densePoly(poly: Poly): Float64Array {
  const L = poly.lag.length ? poly.lag[poly.lag.length - 1] : 0;
  const out = new Float64Array(L);
  for (let i = 0; i < poly.lag.length; i++) out[poly.lag[i] - 1] = poly.c[i];
  return out;
}

/**
 * Refines a fit to maximum likelihood (exact, by the innovations algorithm: see
 * arma-likelihood.ts) from its parameters `u0`; AICc from that likelihood over every differenced
 * row. Null when the likelihood cannot be evaluated.
 */
function fitOrderML(o: ArimaOrder, w: Float64Array, u0: Float64Array): ArimaFit | null {
  const n = w.length;
  const k = parameters(o);
  if (n < k + 3) return null;
  const { scaled, arPoly, maPoly, fill, centred } = setup(o, w);
  const x = new Float64Array(n);
  const res = (u: Float64Array, out: Float64Array): number => {
    const c = fill(u);
    centred(c, x);
    const r = armaLikelihood(x, densePoly(arPoly), densePoly(maPoly), out);
    if (!r) return Infinity;
    let ss = 0;
    for (let t = 0; t < n; t++) ss += out[t] * out[t];
    return ss;
  };
  const best = levenbergMarquardt(res, u0, n, { tol: 1e-6, maxIterations: 40 });
  if (!Number.isFinite(best.f)) return null;
  const c = fill(best.x);
  centred(c, x);
  const r = armaLikelihood(x, densePoly(arPoly), densePoly(maPoly));
  if (!r) return null;
  const aicc = r.m2ll + 2 * k + (2 * k * (k + 1)) / Math.max(1, n - k - 1);
  return { ...o, ...scaled(best.x), sigma2: r.S / n, aicc };
}

/** How the search treats a series: its differences and whether it has seasonal terms. */
export interface ArimaPlan {
  d: number;
  D: number;
  m: number;
}

/**
 * Differences by test: D by seasonal strength (m > 1, three seasons; a long season's also over its
 * last RECENT_SEASONS), then d by KPSS.
 */
export function arimaPlan(y: ArrayLike<number>, start: number, end: number, m: number): ArimaPlan {
  const n = end - start + 1;
  const seasonal = m > 1 && n >= 3 * m + 3;
  const recent = m > APPROX_PERIOD && n > RECENT_SEASONS * m;
  const strength = !seasonal
    ? 0
    : Math.max(
        seasonalStrength(y, start, end, m),
        recent ? seasonalStrength(y, end - RECENT_SEASONS * m + 1, end, m) : 0,
      );
  const D = strength > SEASONAL_STRENGTH ? 1 : 0;
  const sd = difference(y, start, end, 0, D, m);
  const d = firstDifferences(sd, sd.length);
  return { d, D, m: seasonal ? m : 1 };
}

/**
 * The order with the lowest AICc by a stepwise search (auto.arima's): start from
 * (2,2)(1,1), (0,0)(0,0), (1,0)(1,0), (0,1)(0,1), then move one of p, q, P, Q by one (or p and q
 * together) and toggle the constant, and with d + D = 1 the drift's trend, while AICc improves.
 * `orders`, when given, are the only ones tried (a search done on similar series), ranked by their
 * conditional fits and the best refined by maximum likelihood. `times` (the rows' timestamps)
 * place a drift trend's last row in time for forecasts from later origins. Null when no order can
 * be fitted.
 */
export function fitArima(
  y: ArrayLike<number>,
  start: number,
  end: number,
  m: number,
  opts: ArimaOptions = {},
): ArimaFit | null {
  const fit = searchArima(y, start, end, m, opts);
  if (!fit || opts.shifts !== true) return fit;
  const shift = levelShift(fit, y, start, end);
  if (!shift) return fit;
  // The rows before the shift moved to the level after it. The shift is kept when the fit's own
  // order on them gains more AICc than its two parameters (size and row) cost; the model is then
  // searched again on them, its differences tested again (a stationary series with a shift looks
  // integrated to KPSS) unless they were given with exact orders.
  const n = end - start + 1;
  const moved = Float64Array.from({ length: n }, (_, i) =>
    i < n - 1 - shift.back ? y[start + i] + shift.size : y[start + i],
  );
  const times = opts.times && Array.from({ length: n }, (_, i) => Number(opts.times![start + i]));
  const { d, D } = fit;
  const same = searchArima(moved, 0, n - 1, m, {
    ...opts,
    plan: { d, D, m: fit.m },
    orders: [fit],
    times,
  });
  if (!same || same.aicc + SHIFT_AICC > fit.aicc) return fit;
  const again = opts.keepPlan
    ? same
    : (searchArima(moved, 0, n - 1, m, { ...opts, plan: undefined, times }) ?? same);
  const t = opts.times;
  const tEnd = t ? Number(t[end]) : NaN;
  const step = t && end > start ? (Number(t[end]) - Number(t[start])) / (end - start) : NaN;
  const placed = Number.isFinite(tEnd) && step > 0 ? { tEnd, step } : {};
  return { ...again, shift: { ...shift, ...placed } };
}

/** fitArima's options. */
export interface ArimaOptions {
  plan?: ArimaPlan;
  orders?: ArimaOrder[];
  maxP?: number;
  maxQ?: number;
  drift?: 'auto' | 'always';
  /** Whether a drift trend may be tried (d + D = 1); default true. */
  trend?: boolean;
  times?: ArrayLike<number>;
  /**
   * Search by the conditional fits' AICc and refine only the chosen order by maximum likelihood
   * (auto.arima's `approximation`); default: with a season longer than APPROX_PERIOD.
   */
  approximation?: boolean;
  /**
   * Whether a level shift is looked for (levelShift); default false: the engine does not (it
   * lost on three of the 13 bench sets, docs/forecasting.md, "Session 20 (arima)"), the bench of
   * simulated breaks counts what it finds.
   */
  shifts?: boolean;
  /** With a level shift: keep `plan` (an exact order's differences) rather than test them again. */
  keepPlan?: boolean;
}

/** fitArima without the level shift. */
function searchArima(
  y: ArrayLike<number>,
  start: number,
  end: number,
  m: number,
  opts: ArimaOptions,
): ArimaFit | null {
  const MAX_P = opts.maxP ?? MAX_P_;
  const MAX_Q = opts.maxQ ?? MAX_Q_;
  const plan = opts.plan ?? arimaPlan(y, start, end, m);
  const { d, D } = plan;
  const mm = plan.m;
  const w = difference(y, start, end, d, D, mm);
  const seasonal = mm > 1;
  // One conditioning start for every order the search may try (or the given orders' longest).
  const from = opts.orders
    ? Math.max(0, ...opts.orders.map((o) => o.p + (seasonal ? o.P * mm : 0)))
    : MAX_P + (seasonal ? MAX_SP * mm : 0);
  const allowConstant = d + D <= 1;
  // Only without a seasonal part: chosen by AICc on seasonal series (a weekly or yearly change
  // that grows steadily), the drift trend made ARIMA err more on the bench's daily airports,
  // monthly unemployment and quarterly US macro series; on yearly series it made it err less
  // (global temperature, Grunfeld, Nile; docs/forecasting.md).
  const allowTrend = d + D === 1 && !seasonal && opts.trend !== false;
  const approximate = opts.approximation ?? (seasonal && mm > APPROX_PERIOD);
  const tried = new Map<string, ArimaFit | null>();
  const starts = new Map<ArimaFit, Float64Array>();
  // A drift trend's fit carries where its last row is in time; others carry no slope.
  const placed = (f: ArimaFit | null): ArimaFit | null => {
    if (!f) return null;
    if (!f.trend) {
      const { slope: _, trend: __, ...rest } = f;
      return rest;
    }
    const t = opts.times;
    const tEnd = t ? Number(t[end]) : NaN;
    const step = t && end > start ? (Number(t[end]) - Number(t[start])) / (end - start) : NaN;
    return Number.isFinite(tEnd) && step > 0 ? { ...f, tEnd, step } : f;
  };
  // Each order: conditional least squares for a start, then maximum likelihood (its AICc ranks).
  const fit = (o: ArimaOrder): ArimaFit | null => {
    const key = `${o.p},${o.q},${o.P},${o.Q},${o.constant},${o.trend === true}`;
    if (!tried.has(key)) {
      const css = fitOrder(o, w, from);
      const f = css && !approximate ? (fitOrderML(css.fit, w, css.u) ?? css.fit) : css?.fit;
      const p = placed(f ?? null);
      if (approximate && css && p) starts.set(p, css.u);
      tried.set(key, p);
    }
    return tried.get(key)!;
  };
  const order = (
    p: number,
    q: number,
    P: number,
    Q: number,
    constant: boolean,
    trend = false,
  ): ArimaOrder => ({
    p,
    d,
    q,
    P: seasonal ? P : 0,
    D,
    Q: seasonal ? Q : 0,
    m: mm,
    constant: allowConstant && constant,
    ...(allowTrend && trend ? { trend: true } : {}),
  });
  let best: ArimaFit | null = null;
  const consider = (o: ArimaOrder) => {
    if (o.p < 0 || o.q < 0 || o.P < 0 || o.Q < 0) return false;
    if (o.p > MAX_P || o.q > MAX_Q || o.P > MAX_SP || o.Q > MAX_SQ) return false;
    if (tried.size >= MAX_MODELS) return false;
    const f = fit(o);
    if (f && (!best || f.aicc < best.aicc - 1e-9)) {
      best = f;
      return true;
    }
    return false;
  };
  if (opts.orders) {
    // Orders found on other series (a large set's sample) are ranked by their conditional fits'
    // AICc and only the best is refined by maximum likelihood, as auto.arima's `approximation`
    // does for long series: the refit of 900 series outside a 100-series sample spent two thirds
    // of its time on the exact likelihoods of orders it then dropped.
    let first: OrderFit | null = null;
    for (const o of opts.orders) {
      const css = fitOrder(
        {
          ...o,
          d,
          D,
          m: mm,
          constant: allowConstant && o.constant,
          trend: allowTrend && o.trend === true,
          P: seasonal ? o.P : 0,
          Q: seasonal ? o.Q : 0,
        },
        w,
        from,
      );
      if (css && (!first || css.fit.aicc < first.fit.aicc - 1e-9)) first = css;
    }
    return placed(first && (fitOrderML(first.fit, w, first.u) ?? first.fit));
  }
  const c = d + D <= 1;
  for (const o of [
    order(2, 2, 1, 1, c),
    order(0, 0, 0, 0, c),
    order(1, 0, 1, 0, c),
    order(0, 1, 0, 1, c),
    ...(c && opts.drift !== 'always' ? [order(0, 0, 0, 0, false)] : []),
    // With a drift trend too (statsmodels' SARIMAX trend 't' found (1,1,1) with it on every
    // origin of the bench's global temperature, where a search that only toggles it at the end
    // stopped at (1,1,3) without it on half of them).
    ...(allowTrend ? [order(1, 1, 0, 0, c, true), order(0, 0, 0, 0, c, true)] : []),
  ]) {
    consider(o);
  }
  for (let improved = true; improved && best;) {
    improved = false;
    const b: ArimaFit = best;
    const moves: [number, number, number, number][] = [
      [1, 0, 0, 0],
      [-1, 0, 0, 0],
      [0, 1, 0, 0],
      [0, -1, 0, 0],
      [1, 1, 0, 0],
      [-1, -1, 0, 0],
      [0, 0, 1, 0],
      [0, 0, -1, 0],
      [0, 0, 0, 1],
      [0, 0, 0, -1],
      [0, 0, 1, 1],
      [0, 0, -1, -1],
    ];
    for (const [dp, dq, dP, dQ] of moves) {
      if (consider(order(b.p + dp, b.q + dq, b.P + dP, b.Q + dQ, b.constant, b.trend))) {
        improved = true;
        break;
      }
    }
    if (
      !improved &&
      allowConstant &&
      opts.drift !== 'always' &&
      consider(order(b.p, b.q, b.P, b.Q, !b.constant, b.trend))
    ) {
      improved = true;
    }
    // The drift's trend (statsmodels' SARIMAX trend 't'): a drift that grows or shrinks steadily.
    if (!improved && allowTrend && consider(order(b.p, b.q, b.P, b.Q, b.constant, !b.trend))) {
      improved = true;
    }
  }
  // The approximation's choice, refined by maximum likelihood (its conditional fit if that fails).
  const chosen: ArimaFit | null = best;
  if (!approximate || !chosen) return chosen;
  return placed(fitOrderML(chosen, w, starts.get(chosen)!)) ?? chosen;
}

/** A fit's dense ARMA coefficients and innovations coefficients, computed once per fit. */
const exactCache = new WeakMap<
  ArimaFit,
  { phi: Float64Array; theta: Float64Array; inn: Innovations | null }
>();

function exactOf(fit: ArimaFit, rows: number) {
  let c = exactCache.get(fit);
  if (!c) {
    const phi = densePoly(polyOf(fit.ar, fit.sar, fit.m, -1));
    const theta = densePoly(polyOf(fit.ma, fit.sma, fit.m, 1));
    c = { phi, theta, inn: null };
    exactCache.set(fit, c);
  }
  if (!c.inn || c.inn.n < rows) {
    // Room for longer windows than this one, so that origins of one series share it.
    c.inn = innovationCoefficients(c.phi, c.theta, Math.max(rows, 2 * (c.inn?.n ?? 0)));
  }
  return c;
}

/**
 * Forecasts steps 1..H after y[end] from y[start .. end] into out[o ...]: difference, predict the
 * differenced series exactly from its rows (the innovations algorithm: right even near a unit MA
 * root, where a recursion started from zero innovations never forgets its start), integrate.
 * Too few rows for the differences and the ARMA orders forecast the last value.
 */
export function arimaForecast(
  fit: ArimaFit,
  y: ArrayLike<number>,
  start: number,
  end: number,
  H: number,
  out: Float64Array,
  o: number,
  lastTime = NaN,
): void {
  const sh = fit.shift;
  if (sh) {
    // The shift's first row, found from the fit's last row (by time when the origin is later).
    const after =
      sh.step && sh.tEnd !== undefined && Number.isFinite(lastTime)
        ? Math.round((lastTime - sh.tEnd) / sh.step)
        : 0;
    const at = end - after - sh.back;
    if (at > start) {
      // The rows before it moved to the level after it, as the model was fitted; steps still
      // before it (an origin before the shift) moved back.
      const L = end - start + 1;
      const moved = Float64Array.from({ length: L }, (_, i) =>
        start + i < at ? y[start + i] + sh.size : y[start + i],
      );
      let plain = unshifted.get(fit);
      if (!plain) unshifted.set(fit, (plain = { ...fit, shift: undefined }));
      arimaForecast(plain, moved, 0, L - 1, H, out, o, lastTime);
      for (let k = 1; k <= H; k++) if (end + k < at) out[o + k - 1] -= sh.size;
      return;
    }
  }
  const { d, D, m } = fit;
  const w = difference(y, start, end, d, D, m);
  const n = w.length;
  const exact = exactOf(fit, n + H);
  if (!exact.inn || n <= exact.inn.m) {
    for (let k = 0; k < H; k++) out[o + k] = y[end];
    return;
  }
  // The mean of the differenced rows: `mean`, plus with a drift trend `slope` per row from the
  // fit's last row (the origin's rows after it: from the timestamps; none known, the same row).
  const slope = fit.trend ? (fit.slope ?? 0) : 0;
  const after =
    slope !== 0 && fit.step && Number.isFinite(lastTime)
      ? Math.round((lastTime - fit.tEnd!) / fit.step)
      : 0;
  const meanAt = (t: number) => fit.mean + slope * (after + t - (n - 1));
  const x = new Float64Array(n);
  for (let t = 0; t < n; t++) x[t] = w[t] - meanAt(t);
  const z = new Float64Array(H);
  armaPredict(exact.inn, exact.phi, x, n, H, z);
  // Integrate: y_t = w_t + sum delta_i y_{t-i}, D(B) = (1 - B)^d (1 - B^m)^D = 1 - sum delta_i B^i.
  const delta = differencePolynomial(d, D, m);
  const L = end - start + 1;
  const yy = new Float64Array(L + H);
  for (let i = 0; i < L; i++) yy[i] = y[start + i];
  for (let h = 0; h < H; h++) {
    const t = L + h;
    let v = z[h] + meanAt(n + h);
    for (let i = 1; i < delta.length; i++) if (delta[i] !== 0) v += delta[i] * yy[t - i];
    yy[t] = v;
    out[o + h] = Number.isFinite(v) ? v : y[end];
  }
}

/** A shifted fit without its shift (one object per fit: exactOf caches by it). */
const unshifted = new WeakMap<ArimaFit, ArimaFit>();

/** Fewest rows a fit has before a level shift is looked for in them. */
const SHIFT_MIN_ROWS = 30;
/** Fewest rows after a level shift's first row whose residuals test it. */
const SHIFT_MIN_AFTER = 3;
/**
 * What the residuals after a level shift's own row must carry of it (their statistic): more than
 * noise's 2 (at 3, 48 of 200 AR(1)s with a step of 3-6 sds were found, at 2 121, and no control
 * series more: docs/forecasting.md, session 20).
 */
const SHIFT_AFTER = 2;
/** Rows either side of a level shift's row whose statistic it must exceed. */
const SHIFT_NEAR = 2;
/** What a level shift's two parameters (its size and its row) cost in AICc. */
const SHIFT_AICC = 4;
/** The test statistic's critical value (tsoutliers' for long series, Chen & Liu's 4). */
const SHIFT_CRITICAL = 4;

/**
 * A level shift in the last half of a fit's rows, by Chen & Liu's (1993) test as R's tsoutliers
 * runs it: a step of size w from row T on moves the fit's residuals from T on by w Pi_j (Pi: the
 * model's response to a step, through its differences, its AR and its inverted MA); w is their
 * least-squares estimate and w sqrt(sum Pi_j^2) / sigma its statistic, sigma the residuals' MAD.
 * A row qualifies only where the residuals after the jump's own row carry the step too (their
 * statistic, j >= 1, beyond SHIFT_CRITICAL, of the same sign): the jump alone is as well an
 * outlier or, for a walk, an innovation, whose Pi_j is 0 after it, and no forecast depends on
 * it. The qualifying row with the largest statistic is the shift. Null when none, or with too
 * few rows.
 */
function levelShift(
  fit: ArimaFit,
  y: ArrayLike<number>,
  start: number,
  end: number,
): LevelShift | null {
  if (end - start + 1 < SHIFT_MIN_ROWS) return null;
  const { d, D, m } = fit;
  const lagD = d + D * m;
  const w = difference(y, start, end, d, D, m);
  const n = w.length;
  const phi = densePoly(polyOf(fit.ar, fit.sar, m, -1));
  const theta = densePoly(polyOf(fit.ma, fit.sma, m, 1));
  const slope = fit.trend ? (fit.slope ?? 0) : 0;
  // The residuals, from zeros before the first row with all its AR lags.
  const skip = phi.length;
  const x = Float64Array.from(w, (v, t) => v - fit.mean - slope * (t - (n - 1)));
  const e = new Float64Array(n);
  for (let t = skip; t < n; t++) {
    let v = x[t];
    for (let i = 1; i <= phi.length; i++) v -= phi[i - 1] * x[t - i];
    for (let j = 1; j <= theta.length && t - j >= 0; j++) v -= theta[j - 1] * e[t - j];
    e[t] = v;
  }
  const sigma = mad(e.subarray(skip));
  if (!(sigma > 0)) return null;
  // The response Pi to a step at the differenced rows' index 0 (the rows before it at 0).
  const stepRows = Float64Array.from({ length: n + lagD }, (_, i) => (i < lagD ? 0 : 1));
  const u = difference(stepRows, 0, n + lagD - 1, d, D, m);
  const pi = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    let v = u[j];
    for (let i = 1; i <= phi.length && j - i >= 0; i++) v -= phi[i - 1] * u[j - i];
    for (let k = 1; k <= theta.length && j - k >= 0; k++) v -= theta[k - 1] * pi[j - k];
    pi[j] = v;
  }
  // sum Pi_j^2 for j = 1 .. J.
  const cum = new Float64Array(n);
  for (let j = 1; j < n; j++) cum[j] = cum[j - 1] + pi[j] * pi[j];
  const first = Math.max(skip, Math.ceil((end - start + 1) / 2) - lagD);
  const last = n - 1 - SHIFT_MIN_AFTER;
  if (last < first) return null;
  // Per row: the step's size and statistic (Chen & Liu's), and the evidence after the jump's row.
  const size = new Float64Array(last + 1);
  const tau = new Float64Array(last + 1);
  const after = new Float64Array(last + 1);
  for (let T = first; T <= last; T++) {
    const J = n - 1 - T;
    const den = cum[J];
    if (!(den > 1e-12)) continue;
    let num = 0;
    for (let j = 1; j <= J; j++) num += pi[j] * e[T + j];
    after[T] = num / Math.sqrt(den) / sigma;
    size[T] = (num + pi[0] * e[T]) / (den + pi[0] * pi[0]);
    tau[T] = (size[T] * Math.sqrt(den + pi[0] * pi[0])) / sigma;
  }
  // A row qualifies where its statistic is the largest within SHIFT_NEAR rows (the rows just
  // before a jump see it after their own) and the evidence after it passes the critical value
  // with the same sign.
  let best: LevelShift | null = null;
  for (let T = first; T <= last; T++) {
    const a = Math.abs(tau[T]);
    if (
      Math.abs(tau[T]) <= SHIFT_CRITICAL ||
      Math.abs(after[T]) <= SHIFT_AFTER ||
      Math.sign(after[T]) !== Math.sign(size[T])
    )
      continue;
    let peak = true;
    for (let k = Math.max(first, T - SHIFT_NEAR); k <= Math.min(last, T + SHIFT_NEAR); k++) {
      if (Math.abs(tau[k]) > a) peak = false;
    }
    if (peak && (!best || a > Math.abs(best.tau)))
      best = { back: n - 1 - T, size: size[T], tau: tau[T] };
  }
  return best;
}

/** 1.4826 times the median absolute deviation from the median (the normal's sigma). */
function mad(v: ArrayLike<number>): number {
  const a = Float64Array.from(v).sort();
  if (a.length === 0) return NaN;
  const med = (s: Float64Array) =>
    s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  const c = med(a);
  return 1.4826 * med(Float64Array.from(a, (x) => Math.abs(x - c)).sort());
}

/** delta[i] of D(B) = 1 - sum delta_i B^i for (1 - B)^d (1 - B^m)^D. */
function differencePolynomial(d: number, D: number, m: number): Float64Array {
  // Multiply out the polynomial with coefficients c (c[0] = 1), then delta_i = -c[i].
  let c = [1];
  const mul = (f: number[]) => {
    const out = new Array<number>(c.length + f.length - 1).fill(0);
    for (let i = 0; i < c.length; i++) for (let j = 0; j < f.length; j++) out[i + j] += c[i] * f[j];
    c = out;
  };
  for (let k = 0; k < d; k++) mul([1, -1]);
  for (let k = 0; k < D; k++) {
    const f = new Array<number>(m + 1).fill(0);
    f[0] = 1;
    f[m] = -1;
    mul(f);
  }
  return Float64Array.from(c, (v, i) => (i === 0 ? 1 : -v));
}

/**
 * Twice the negative exact log-likelihood (concentrated scale, as the fits' AICc) of
 * y[start .. end] under a model's coefficients: its differences, then the ARMA likelihood of the
 * differenced rows less their mean (no drift trend). NaN when the AR part is not stationary. For
 * comparing estimates, e.g. statsmodels' at the same order (bench/timeseries-peer-orders.ts).
 */
export function arimaM2ll(
  fit: Pick<ArimaFit, 'd' | 'D' | 'm' | 'ar' | 'ma' | 'sar' | 'sma' | 'mean'>,
  y: ArrayLike<number>,
  start: number,
  end: number,
): number {
  const w = difference(y, start, end, fit.d, fit.D, fit.m);
  const x = w.map((v) => v - fit.mean);
  const phi = densePoly(polyOf(fit.ar, fit.sar, fit.m, -1));
  const theta = densePoly(polyOf(fit.ma, fit.sma, fit.m, 1));
  return armaLikelihood(x, phi, theta)?.m2ll ?? NaN;
}
