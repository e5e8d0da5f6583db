// Intermittent demand: the method of Teunter, Syntetos & Babai (2011, "TSB"), as R's
// tsintermittent::tsb and Nixtla's statsforecast TSB run it. A series that is zero in most
// periods (rain by day, spare parts by week) is two processes: whether a demand occurs, and how
// large it is when it does. TSB smooths each by simple exponential smoothing,
//   p(t) = p(t-1) + alpha_p * (d(t) - p(t-1)),   d(t) = 1 when y(t) > 0, else 0 (every period)
//   z(t) = z(t-1) + alpha_d * (y(t) - z(t-1))    (only in periods with a demand),
// and forecasts the mean demand per period z * p at every step. Unlike Croston's method (and its
// Syntetos-Boylan-approximated form, SBA), which updates its interval estimate only when a
// demand occurs, the probability decays through a long run of zeros (a dry summer), so the
// forecast follows it down.
//
// Offered only where a series is intermittent as Syntetos & Boylan (2005) classify it: never
// negative, and an average inter-demand interval (periods per demand) above 1.32, i.e. zero in
// more than a quarter of its periods. The point forecast is the median of TSB's forecast
// distribution (0 with probability 1 - p, else a demand of the series' own size distribution
// scaled to z), not its mean z * p: every candidate is scored by absolute error, whose best
// forecast is the median, and on such series that is 0 wherever demand occurs in fewer than half
// of the periods (docs/forecasting.md, session 15: both measured). The smoothing weights are
// chosen per series on a small grid by in-sample error (ALPHAS), as R's tsintermittent optimises
// them; fixed at the literature's 0.1 both hold-out sets with such series erred 0.7 % more.

/** A fitted TSB model (JSON; what the artifact keeps per group). */
export interface TsbFit {
  alphaDemand: number;
  alphaProbability: number;
  /** Demand sizes over their mean: quantiles at 0, 1 / (K - 1), ..., 1 (the fit's rows). */
  sizes: number[];
}

/** Syntetos & Boylan's cut-off on the average inter-demand interval (ADI) for intermittence. */
const ADI_CUTOFF = 1.32;
/** Fewest demands (non-zero periods) a size distribution is taken from. */
const MIN_DEMANDS = 3;
/** Quantiles of the size distribution the fit keeps. */
const SIZE_QUANTILES = 33;
/**
 * The smoothing weights tried for each of p and z (the literature's default 0.1 among them); each
 * series takes the pair with the least in-sample one-step squared error of its mean rate z * p, as
 * R's tsintermittent::tsb optimises them (cost "mse"), on a grid rather than continuously.
 */
const ALPHAS = [0.05, 0.1, 0.2, 0.3];

/**
 * Whether y[start .. end] is intermittent: finite and never negative, at least MIN_DEMANDS
 * demands, and more than ADI_CUTOFF periods per demand.
 */
export function isIntermittent(y: ArrayLike<number>, start: number, end: number): boolean {
  let demands = 0;
  for (let i = start; i <= end; i++) {
    const v = y[i];
    if (!(v >= 0)) return false;
    if (v > 0) demands++;
  }
  return demands >= MIN_DEMANDS && (end - start + 1) / demands > ADI_CUTOFF;
}

/** Fits TSB to y[start .. end] (weights: ALPHAS); null when the series is not intermittent. */
export function fitTsb(y: ArrayLike<number>, start: number, end: number): TsbFit | null {
  if (!isIntermittent(y, start, end)) return null;
  const nz: number[] = [];
  for (let i = start; i <= end; i++) if (y[i] > 0) nz.push(y[i]);
  nz.sort((a, b) => a - b);
  const mean = nz.reduce((a, b) => a + b, 0) / nz.length;
  const sizes = Array.from(
    { length: SIZE_QUANTILES },
    (_, j) => quantileOf(nz, j / (SIZE_QUANTILES - 1)) / mean,
  );
  let best = { alphaDemand: ALPHAS[0], alphaProbability: ALPHAS[0], sizes };
  let bestErr = Infinity;
  for (const a of ALPHAS)
    for (const b of ALPHAS) {
      const f = { alphaDemand: a, alphaProbability: b, sizes };
      const e = inSampleError(f, y, start, end);
      if (e < bestErr) [best, bestErr] = [f, e];
    }
  return best;
}

/** TSB's one-step in-sample squared error of its mean rate z * p over y[start .. end]. */
function inSampleError(fit: TsbFit, y: ArrayLike<number>, start: number, end: number): number {
  return smooth(fit, y, start, end).sse;
}

/**
 * TSB's state after y[start .. end]: the demand probability p and size z, started at the
 * window's share of demand periods and its mean demand, then smoothed through every row.
 */
export function tsbState(
  fit: TsbFit,
  y: ArrayLike<number>,
  start: number,
  end: number,
): { p: number; z: number } {
  const { p, z } = smooth(fit, y, start, end);
  return { p, z };
}

/** tsbState, and the squared errors of the mean rate z * p before each row. */
function smooth(
  fit: TsbFit,
  y: ArrayLike<number>,
  start: number,
  end: number,
): { p: number; z: number; sse: number } {
  let demands = 0;
  let total = 0;
  for (let i = start; i <= end; i++) {
    if (y[i] > 0) {
      demands++;
      total += y[i];
    }
  }
  const n = end - start + 1;
  if (demands === 0) return { p: 0, z: 0, sse: NaN };
  let p = demands / n;
  let z = total / demands;
  let sse = 0;
  for (let i = start; i <= end; i++) {
    const v = y[i];
    sse += (v - z * p) ** 2;
    const d = v > 0 ? 1 : 0;
    p += fit.alphaProbability * (d - p);
    if (d) z += fit.alphaDemand * (v - z);
  }
  return { p, z, sse };
}

/** The q-quantile (0..1) of sorted values, linear between them. */
function quantileOf(s: ArrayLike<number>, q: number): number {
  const at = Math.min(1, Math.max(0, q)) * (s.length - 1);
  const lo = Math.floor(at);
  const hi = Math.min(s.length - 1, lo + 1);
  return s[lo] + (at - lo) * (s[hi] - s[lo]);
}

/**
 * The median of TSB's forecast distribution: 0 with probability 1 - p, else z times a size of
 * the fit's distribution. At most half the mass at 0 (p <= 0.5): 0; else the size quantile that
 * puts half the mass below it, (p - 0.5) / p.
 */
export function tsbMedian(fit: TsbFit, p: number, z: number): number {
  if (!(p > 0.5)) return 0;
  return z * quantileOf(fit.sizes, (p - 0.5) / p);
}

/** Forecasts steps 1..H after y[end] from y[start .. end] into out[o ...] (flat: TSB's median). */
export function tsbForecast(
  fit: TsbFit,
  y: ArrayLike<number>,
  start: number,
  end: number,
  H: number,
  out: Float64Array,
  o: number,
): void {
  const { p, z } = tsbState(fit, y, start, end);
  const v = tsbMedian(fit, p, z);
  for (let k = 0; k < H; k++) out[o + k] = v;
}
