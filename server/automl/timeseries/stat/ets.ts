// Exponential smoothing in state-space form (ETS; Hyndman, Koehler, Ord & Snyder 2008): additive
// or multiplicative error, no / additive / damped trend, no / additive / multiplicative season.
// The form and its smoothing parameters are chosen per series by AICc; the states start from the
// classical heuristic (seasonal indices of the first seasons, a line through the first
// deseasonalised values) wherever a filter starts, so a forecast from the last rows of a group
// runs exactly the filter its validation ran.
//
// Error type does not change the state updates (an additive-error model and its multiplicative
// twin with the same parameters forecast alike); it changes the likelihood, hence the parameters
// the fit finds and the form AICc picks.

import { type Minimum, logistic, logit, nelderMead } from './optimize';
import { seasonalIndices } from './season';

type EtsTrend = 'N' | 'A' | 'Ad';
type EtsSeason = 'N' | 'A' | 'M';

/** A form: error, trend, season, e.g. { error: 'M', trend: 'Ad', season: 'M' } is ETS(M,Ad,M). */
export interface EtsForm {
  error: 'A' | 'M';
  trend: EtsTrend;
  season: EtsSeason;
}

/** A fitted ETS model (JSON; what the artifact keeps per group). */
export interface EtsFit extends EtsForm {
  /** Seasonal period in steps (1 when the form has no season). */
  m: number;
  alpha: number;
  beta: number;
  gamma: number;
  phi: number;
  aicc: number;
  /**
   * A search of every form on rows too few for a seasonal one, of a series with a season: the
   * forecasting refit on all its rows chooses the season again (these rows are `short` too:
   * local.ts refitForm searches every form), so that 12 quarters of a pure season, validated on
   * their first 9, are not forecast flat; DESCRIBE's reason says which.
   */
  seasonless?: true;
  /**
   * A search of every form on rows fewer than twice the parameters of the series' largest form
   * (damped, seasonal where it has a period): the forecasting refit on all its rows searches every
   * form again (local.ts refitForm), so that a short series of a panel, validated on the few rows
   * the set's common cut leaves it, is not forecast in the form those rows chose.
   */
  short?: true;
}

/** The name statistics books use: 'ETS(M,Ad,M)'. */
export function etsName(f: EtsForm): string {
  return `ETS(${f.error},${f.trend},${f.season})`;
}

/** Rows the heuristic start reads for the level and trend line. */
const INIT_ROWS = 10;
/** Seasons the heuristic seasonal indices are averaged over (at most). */
const INIT_SEASONS = 4;
const PHI_MIN = 0.8;
const PHI_MAX = 0.98;
const P_MIN = 1e-4;

/** Every admissible form for this series (R's restricted set: no additive error with a multiplicative season). */
function etsForms(seasonal: boolean, positive: boolean): EtsForm[] {
  const out: EtsForm[] = [];
  const trends: EtsTrend[] = ['N', 'A', 'Ad'];
  const seasons: EtsSeason[] = seasonal ? (positive ? ['N', 'A', 'M'] : ['N', 'A']) : ['N'];
  for (const error of positive ? (['A', 'M'] as const) : (['A'] as const)) {
    for (const trend of trends) {
      for (const season of seasons) {
        if (error === 'A' && season === 'M') continue;
        out.push({ error, trend, season });
      }
    }
  }
  return out;
}

/** Filter state after the last row, and what the likelihoods need. */
interface Filtered {
  l: number;
  b: number;
  s: Float64Array;
  /** Rows filtered. */
  n: number;
  sse: number;
  sseRel: number;
  sumLogMu: number;
  ok: boolean;
}

/**
 * The heuristic start of the states for y[start .. end] (Hyndman et al. 2008, 2.6.1): seasonal
 * indices from a classical decomposition of the first seasons (the first season's deviations
 * when there are fewer than two), then a line through the first deseasonalised rows (its
 * intercept one step before the first row, its slope) or their mean without a trend.
 */
function initialStates(
  f: EtsForm,
  m: number,
  y: ArrayLike<number>,
  start: number,
  end: number,
): Init {
  const s = new Float64Array(m);
  const n = end - start + 1;
  const mult = f.season === 'M';
  if (f.season !== 'N') {
    const rows = Math.min(n, INIT_SEASONS * m);
    const idx = seasonalIndices(y, start, start + rows - 1, m, mult);
    if (idx) s.set(idx);
    else if (n >= m) {
      let mean = 0;
      for (let j = 0; j < m; j++) mean += y[start + j] / m;
      for (let j = 0; j < m; j++) s[j] = mult ? y[start + j] / mean : y[start + j] - mean;
    } else s.fill(mult ? 1 : 0);
  }
  const k = Math.min(n, Math.max(INIT_ROWS, 2 * m));
  const sa = (i: number) => {
    const v = y[start + i];
    if (f.season === 'N') return v;
    const sj = s[i % m];
    return mult ? v / sj : v - sj;
  };
  if (f.trend === 'N' || k < 2) {
    let mean = 0;
    for (let i = 0; i < k; i++) mean += sa(i);
    return { l: mean / k, b: 0, s };
  }
  // Least squares on t = 1..k: the intercept is the level at t = 0.
  let st = 0;
  let sy = 0;
  let stt = 0;
  let sty = 0;
  for (let i = 0; i < k; i++) {
    const t = i + 1;
    const v = sa(i);
    st += t;
    sy += v;
    stt += t * t;
    sty += t * v;
  }
  const b = (k * sty - st * sy) / (k * stt - st * st);
  return { l: (sy - b * st) / k, b, s };
}

/** The states before the first row a filter reads. */
interface Init {
  l: number;
  b: number;
  s: Float64Array;
}

/** Runs the filter over y[start .. end] from `init` (its seasonal states copied into `s`). */
function filter(
  f: EtsForm,
  m: number,
  alpha: number,
  beta: number,
  gamma: number,
  phi: number,
  y: ArrayLike<number>,
  start: number,
  end: number,
  init: Init,
  s: Float64Array,
): Filtered {
  const season = f.season !== 'N' ? f.season : null;
  const mm = season ? m : 1;
  let l = init.l;
  let b = init.b;
  s.set(init.s);
  const damp = f.trend === 'N' ? 0 : f.trend === 'A' ? 1 : phi;
  const hasTrend = f.trend !== 'N';
  const mult = season === 'M';
  const checkMu = f.error === 'M' || mult;
  let sse = 0;
  let sseRel = 0;
  let sumLogMu = 0;
  let ok = true;
  const n = end - start + 1;
  let j = 0;
  for (let i = 0; i < n; i++) {
    const base = l + damp * b;
    const sj = season ? s[j] : mult ? 1 : 0;
    const mu = mult ? base * sj : base + sj;
    const yi = y[start + i];
    const e = yi - mu;
    if (checkMu) {
      if (!(mu > 0) || (mult && !(base > 0 && sj > 0))) {
        ok = false;
        break;
      }
      const rel = e / mu;
      sseRel += rel * rel;
      sumLogMu += Math.log(mu);
    }
    sse += e * e;
    if (mult) {
      l = base + (alpha * e) / sj;
      if (hasTrend) b = damp * b + (beta * e) / sj;
      s[j] = sj + (gamma * e) / base;
    } else {
      l = base + alpha * e;
      if (hasTrend) b = damp * b + beta * e;
      if (season) s[j] = sj + gamma * e;
    }
    if (!Number.isFinite(l)) {
      ok = false;
      break;
    }
    if (++j === mm) j = 0;
  }
  return { l, b, s, n, sse, sseRel, sumLogMu, ok };
}

/**
 * Whether y has rows enough for form f with a season of m: two full seasons and two rows (the
 * classical decomposition's start), or more rows than R's ets() asks of any form, its parameters
 * as R counts them (2 for the level, 2 for a trend, 1 for damping, m for a season) plus 4. The
 * second is the
 * weaker need from a period of 7 on: a pure weekly pattern of 14 days, or 59 weeks of a weekly
 * series with a yearly pattern, then start their seasonal states from the first season's
 * deviations from its mean and continue the season exactly (before, their seasonal forms were
 * refused below 16 days and 106 weeks and ETS forecast them flat).
 */
function seasonRows(f: EtsForm, m: number, n: number): boolean {
  if (f.season === 'N') return true;
  const trend = f.trend === 'N' ? 0 : f.trend === 'A' ? 2 : 3;
  return n >= 2 * m + 2 || n > 2 + trend + m + 4;
}

/** Parameters estimated (smoothing, damping) and initial states, plus the variance. */
function parameterCount(f: EtsForm, m: number): number {
  const smooth =
    1 + (f.trend !== 'N' ? 1 : 0) + (f.season !== 'N' ? 1 : 0) + (f.trend === 'Ad' ? 1 : 0);
  const states = 1 + (f.trend !== 'N' ? 1 : 0) + (f.season !== 'N' ? m - 1 : 0);
  return smooth + states + 1;
}

/** -2 log-likelihood (up to a constant shared by every form) of a filter run. */
function minus2LogLik(f: EtsForm, r: Filtered): number {
  if (!r.ok) return Infinity;
  const n = r.n;
  if (f.error === 'A') return n * Math.log(Math.max(r.sse, 1e-300) / n);
  return n * Math.log(Math.max(r.sseRel, 1e-300) / n) + 2 * r.sumLogMu;
}

/** Unconstrained u -> (alpha, beta, gamma, phi) inside the usual admissible region. */
function decode(f: EtsForm, u: Float64Array): [number, number, number, number] {
  let p = 0;
  const alpha = P_MIN + (1 - 2 * P_MIN) * logistic(u[p++]);
  const beta = f.trend !== 'N' ? P_MIN + (alpha - P_MIN) * logistic(u[p++]) : 0;
  const gamma = f.season !== 'N' ? P_MIN + (1 - alpha - P_MIN) * logistic(u[p++]) : 0;
  const phi = f.trend === 'Ad' ? PHI_MIN + (PHI_MAX - PHI_MIN) * logistic(u[p]) : 1;
  return [alpha, beta, gamma, phi];
}

/** decode's inverse: the unconstrained point of a fit's parameters (clamped inside the region). */
function encode(f: EtsForm, fit: EtsFit): number[] {
  const inv = (v: number, lo: number, hi: number) =>
    logit(Math.min(1 - 1e-6, Math.max(1e-6, (v - lo) / (hi - lo))));
  const u = [inv(fit.alpha, P_MIN, 1 - P_MIN)];
  if (f.trend !== 'N') u.push(inv(fit.beta, P_MIN, fit.alpha));
  if (f.season !== 'N') u.push(inv(fit.gamma, P_MIN, 1 - fit.alpha));
  if (f.trend === 'Ad') u.push(inv(fit.phi, PHI_MIN, PHI_MAX));
  return u;
}

/**
 * Fits one form to y[start .. end] by maximum likelihood over its smoothing parameters (the
 * states start heuristically); null when it cannot run (too few rows, a multiplicative model
 * meeting a non-positive value).
 */
function fitEtsForm(
  f: EtsForm,
  m: number,
  y: ArrayLike<number>,
  start: number,
  end: number,
  from?: EtsFit,
): EtsFit | null {
  const n = end - start + 1;
  const mm = f.season !== 'N' ? m : 1;
  const k = parameterCount(f, mm);
  if (n < k + 2 || !seasonRows(f, mm, n)) return null;
  const s = new Float64Array(mm);
  const init = initialStates(f, mm, y, start, end);
  const u0 = from ? encode(f, from) : [logit(0.3)];
  if (!from) {
    if (f.trend !== 'N') u0.push(logit(0.1));
    if (f.season !== 'N') u0.push(logit(0.1));
    if (f.trend === 'Ad') u0.push(logit(0.8));
  }
  const objective = (u: Float64Array) => {
    const [a, b, g, p] = decode(f, u);
    return minus2LogLik(f, filter(f, mm, a, b, g, p, y, start, end, init, s));
  };
  const best: Minimum = nelderMead(objective, u0, {
    step: from ? 0.5 : 1,
    tol: 1e-6,
    maxEvals: 120 * u0.length,
  });
  if (!Number.isFinite(best.f)) return null;
  const [alpha, beta, gamma, phi] = decode(f, best.x);
  const aicc = best.f + 2 * k + (2 * k * (k + 1)) / Math.max(1, n - k - 1);
  return { ...f, m: mm, alpha, beta, gamma, phi, aicc };
}

/**
 * The form with the lowest AICc among `forms` (default: every admissible one for the series),
 * fitted to y[start .. end]; null when none can be fitted. A form without a multiplicative season
 * is fitted with additive errors first; its multiplicative-error twin is then fitted from those
 * parameters (the states run alike, so the search starts near; only the likelihood differs).
 */
export function fitEts(
  y: ArrayLike<number>,
  start: number,
  end: number,
  m: number,
  forms?: EtsForm[],
): EtsFit | null {
  let best: EtsFit | null = null;
  for (const fit of etsFits(y, start, end, m, forms)) {
    if (fit.aicc < (best?.aicc ?? Infinity)) best = fit;
  }
  if (!best || forms) return best;
  const n = end - start + 1;
  const seasonal = m > 1 && seasonRows({ error: 'A', trend: 'N', season: 'A' }, m, n);
  const largest = parameterCount({ error: 'A', trend: 'Ad', season: m > 1 ? 'A' : 'N' }, m);
  return {
    ...best,
    ...(m > 1 && !seasonal ? { seasonless: true as const } : {}),
    ...(n < 2 * largest ? { short: true as const } : {}),
  };
}

/** Every form fitEts searches, each at its maximum likelihood, in the order searched. */
export function etsFits(
  y: ArrayLike<number>,
  start: number,
  end: number,
  m: number,
  forms?: EtsForm[],
): EtsFit[] {
  let positive = true;
  for (let i = start; i <= end; i++) if (!(y[i] > 0)) positive = false;
  const n = end - start + 1;
  const seasonal = m > 1 && seasonRows({ error: 'A', trend: 'N', season: 'A' }, m, n);
  const list = (forms ?? etsForms(seasonal, positive)).filter(
    (f) => positive || (f.error === 'A' && f.season !== 'M'),
  );
  const key = (f: EtsForm) => `${f.trend}${f.season}`;
  const wanted = new Set(list.map((f) => `${f.error}${key(f)}`));
  const fits: EtsFit[] = [];
  const done = new Set<string>();
  for (const f of list) {
    if (done.has(key(f))) continue;
    done.add(key(f));
    // Additive errors stand for both error types unless the season is multiplicative.
    const error = f.season === 'M' ? 'M' : wanted.has(`A${key(f)}`) ? 'A' : 'M';
    const fit = fitEtsForm({ ...f, error }, m, y, start, end);
    if (!fit) continue;
    fits.push(fit);
    const twin = error === 'A' ? 'M' : 'A';
    if (f.season !== 'M' && wanted.has(`${twin}${key(f)}`)) {
      // The twin's own maximum likelihood, searched from the first fit's parameters: the states
      // run alike, but the likelihoods weigh the errors differently (relative errors for M), so
      // their optima differ (the Nile's ETS(M,N,N): alpha 0.15 where ETS(A,N,N) has 0.24).
      const own = fitEtsForm({ ...f, error: twin }, m, y, start, end, fit);
      if (own) fits.push(own);
    }
  }
  return fits;
}

/**
 * A fit's -2 log-likelihood (with the constant n (log 2 pi + 1) statsmodels' llf carries) on
 * y[start .. end] from `init` (default: the heuristic start), and that start: for comparing our
 * filter with statsmodels' ETSModel at each other's parameters (bench/timeseries-ets.ts).
 */
export function etsLikelihood(
  fit: EtsFit,
  y: ArrayLike<number>,
  start: number,
  end: number,
  init?: { l: number; b: number; s: ArrayLike<number> },
): { m2ll: number; l: number; b: number; s: number[] } {
  const mm = fit.season !== 'N' ? fit.m : 1;
  const from = init
    ? { l: init.l, b: init.b, s: Float64Array.from(init.s.length ? init.s : [0]) }
    : initialStates(fit, mm, y, start, end);
  if (from.s.length !== mm) from.s = new Float64Array(mm).fill(fit.season === 'M' ? 1 : 0);
  const s = new Float64Array(mm);
  const r = filter(fit, mm, fit.alpha, fit.beta, fit.gamma, fit.phi, y, start, end, from, s);
  const n = end - start + 1;
  return {
    m2ll: minus2LogLik(fit, r) + n * (Math.log(2 * Math.PI) + 1),
    l: from.l,
    b: from.b,
    s: fit.season !== 'N' ? [...from.s] : [],
  };
}

/**
 * Forecasts steps 1..H after y[end] into out[o .. o + H - 1], running the fitted model's filter
 * over y[start .. end] from the heuristic start. A run the model cannot make (a multiplicative
 * model meeting a non-positive value) forecasts the last value.
 */
export function etsForecast(
  fit: EtsFit,
  y: ArrayLike<number>,
  start: number,
  end: number,
  H: number,
  out: Float64Array,
  o: number,
): void {
  const mm = fit.season !== 'N' ? fit.m : 1;
  const s = new Float64Array(mm);
  const init = initialStates(fit, mm, y, start, end);
  const r = filter(fit, mm, fit.alpha, fit.beta, fit.gamma, fit.phi, y, start, end, init, s);
  if (!r.ok) {
    for (let k = 0; k < H; k++) out[o + k] = y[end];
    return;
  }
  const n = end - start + 1;
  const damp = fit.trend === 'N' ? 0 : fit.trend === 'A' ? 1 : fit.phi;
  let trendSum = 0;
  let pk = 1;
  for (let k = 1; k <= H; k++) {
    pk *= damp;
    trendSum += fit.trend === 'A' ? 1 : pk;
    const base = r.l + (fit.trend === 'N' ? 0 : trendSum * r.b);
    let v = base;
    if (fit.season === 'A') v = base + s[(n + k - 1) % mm];
    else if (fit.season === 'M') v = base * s[(n + k - 1) % mm];
    out[o + k - 1] = Number.isFinite(v) ? v : y[end];
  }
}
