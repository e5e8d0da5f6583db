// Conformal intervals of a forecaster: the residuals of each series' chosen candidate pooled over
// the rolling-origin folds, scaled per series, weighted by age with a half-life chosen on the main
// split, and their quantiles per step at each nominal level.

import { round } from '../pipeline/describe';
import { type Fold, type Scored, ratio } from './candidates';
import {
  ageWeight,
  calibrationSketch,
  trainingSpan,
  weightedConformalQuantile,
  weightedConformalQuantiles,
} from './intervals';
import type { Selection } from './selection';
import type { Series } from './series';
import type { ForecastCoverage, TimeSeriesArtifact, TimeSeriesDescription } from './types';

/** Nominal levels every model is calibrated and measured at (besides its own confidence). */
const NOMINAL_LEVELS = [0.5, 0.8, 0.9, 0.95];
/**
 * Non-overlapping forecast windows of a series' own that weigh as much as the pooled residuals in
 * its width factor (a series' residual level is a noisy estimate: consecutive origins share
 * their targets).
 */
const FACTOR_PRIOR_WINDOWS = 8;

export interface Calibration {
  /**
   * Per step: |error| / origin scale / the series' width factor; each residual's age (how long
   * before the main split its origin is, in validation periods; 0 on the main split) and whether
   * it is from the main split.
   */
  residuals: number[][];
  ages: number[][];
  main: boolean[][];
  /** Each residual's target time (StepResiduals.target), when known. */
  target?: number[][];
}

/**
 * The chosen candidates' residuals over every fold (an earlier fold's GBM residuals times its
 * skill factor; a GBM chosen on the main split alone refitted there for this), per step, with
 * their series.
 */
export function compositeResiduals(
  scored: Scored[],
  sel: Selection,
  folds: Fold[],
  H: number,
  /** The series' timestamps: with them, each residual carries the time of the row it forecast. */
  series?: readonly { t: Float64Array }[],
): StepResiduals {
  const r = Array.from({ length: H }, (): number[] => []);
  const age = Array.from({ length: H }, (): number[] => []);
  const main = Array.from({ length: H }, (): boolean[] => []);
  const seriesOf = Array.from({ length: H }, (): number[] => []);
  const foldOf = Array.from({ length: H }, (): number[] => []);
  const stood = Array.from({ length: H }, (): boolean[] => []);
  const target = Array.from({ length: H }, (): number[] => []);
  for (const fold of folds) {
    for (let i = 0; i < fold.packed.n; i++) {
      const [g, row] = fold.origins[i];
      const chosen = scored[sel.choice[g]];
      const run = (chosen.calibrationRuns ?? chosen.runs)[fold.index];
      if (!run) continue;
      const standIn = run.fitted !== undefined && run.fitted[i] === 0;
      for (let k = 1; k <= H; k++) {
        const y = fold.truth(i, k);
        if (Number.isNaN(y)) break;
        const x = (Math.abs(y - run.pred[i * H + k - 1]) / run.scale[i]) * run.factor;
        if (!Number.isFinite(x)) continue;
        r[k - 1].push(x);
        age[k - 1].push(fold.age[i]);
        main[k - 1].push(fold.index === 0);
        seriesOf[k - 1].push(g);
        foldOf[k - 1].push(fold.index);
        stood[k - 1].push(standIn);
        if (series) target[k - 1].push(series[g].t[row + k]);
      }
    }
  }
  return { r, age, main, series: seriesOf, fold: foldOf, stood, ...(series ? { target } : {}) };
}

/**
 * The residuals of each series' own model: a local model (ETS, ARIMA, Theta, TSB, or the
 * combination or ensemble of them) that could not be fitted before a fold's cut forecast
 * seasonal-naive on that fold's origins, and those stand-in residuals are left out, so each
 * model's bands rest on its own errors (the stand-in's, on a short trending or seasonal series,
 * are larger). A series whose model was fitted on no origin keeps them: they are all there is.
 * Also counts what was left out and kept (DESCRIBE's `calibrationStandIns`).
 */
export function ownResiduals(res: StepResiduals): {
  res: StepResiduals;
  left: number;
  kept: number;
} {
  if (!res.stood?.some((s) => s.includes(true))) return { res, left: 0, kept: 0 };
  const fitted = new Set<number>();
  res.stood.forEach((s, k) => s.forEach((x, i) => x || fitted.add(res.series[k][i])));
  let left = 0;
  let kept = 0;
  const out = subset(res, (k) =>
    res.r[k].flatMap((_, i) => {
      if (!res.stood![k][i]) return [i];
      if (fitted.has(res.series[k][i])) {
        left++;
        return [];
      }
      kept++;
      return [i];
    }),
  );
  return { res: out, left, kept };
}

/**
 * Per series, how much larger its residuals run than the pooled ones at the same steps (their sum
 * over the pooled mean's), shrunk towards 1 by FACTOR_PRIOR_WINDOWS: series of unlike difficulty
 * get widths of their own, a series with little evidence the pooled width.
 */
function widthFactors(res: StepResiduals, nSeries: number, H: number) {
  const own = new Float64Array(nSeries);
  const pooled = new Float64Array(nSeries);
  const steps = new Float64Array(nSeries);
  for (let k = 0; k < H; k++) {
    const r = res.r[k];
    if (r.length === 0) continue;
    let mean = 0;
    for (const x of r) mean += x;
    mean /= r.length;
    r.forEach((x, i) => {
      const g = res.series[k][i];
      own[g] += x;
      pooled[g] += mean;
      steps[g]++;
    });
  }
  return Float64Array.from(own, (o, g) => {
    if (!(pooled[g] > 0)) return 1;
    // Each origin's H steps overlap the next H - 1 origins': steps / H^2 independent windows.
    const w = steps[g] / (H * H);
    return (w * (o / pooled[g]) + FACTOR_PRIOR_WINDOWS) / (w + FACTOR_PRIOR_WINDOWS);
  });
}

/** Half-lives (in validation periods) the calibration chooses from; Infinity weighs all alike. */
const HALF_LIVES = [Infinity, 2, 1, 0.5, 0.25, 0.125];

/**
 * How fast older residuals lose weight: the half-life whose quantiles, computed from the residuals
 * before the main split alone, score best on the main split's residuals by the interval score
 * (width plus 2 / alpha times the miss; a proper score, lowest in expectation at the true
 * quantile). A series whose latest stretch behaves unlike its past (a calm year after a crisis)
 * leans on its recent residuals; otherwise the longest half-life within one standard error of the
 * best score wins (the one-standard-error rule), since more residuals give steadier quantiles.
 * With the residuals' target times, the score's variance counts the misses shared across series
 * at dates that do not persist once (sharedMisses' design effect): a holiday in the main split
 * is not clear evidence for the main split's shape.
 * Infinity when nothing precedes the main split.
 */
export function chooseHalfLife(c: Calibration, level: number): number {
  const alpha = 1 - level;
  const scores: { h: number; mean: number; se: number }[] = [];
  for (const h of HALF_LIVES) {
    let mean = 0;
    let variance = 0;
    let counted = 0;
    const miss: boolean[][] = [];
    const at: number[][] = [];
    for (let k = 0; k < c.residuals.length; k++) {
      const r = c.residuals[k];
      const early: number[] = [];
      const w: number[] = [];
      for (let i = 0; i < r.length; i++) {
        if (c.main[k][i]) continue;
        early.push(r[i]);
        w.push(ageWeight(c.ages[k][i], h));
      }
      if (early.length === 0) continue;
      const q = weightedConformalQuantile(early, w, level);
      const s: number[] = [];
      const out: boolean[] = [];
      const t: number[] = [];
      for (let i = 0; i < r.length; i++) {
        if (!c.main[k][i]) continue;
        s.push(2 * q + (2 / alpha) * Math.max(0, r[i] - q));
        out.push(r[i] > q);
        if (c.target) t.push(c.target[k][i]);
      }
      miss.push(out);
      at.push(t);
      if (s.length === 0) continue;
      const m = s.reduce((a, b) => a + b, 0) / s.length;
      const v = s.reduce((a, b) => a + (b - m) ** 2, 0) / Math.max(1, s.length - 1);
      mean += m;
      variance += v / s.length;
      counted++;
    }
    // Misses shared across series at dates that do not persist count once (sharedMisses).
    if (counted > 0 && c.target) variance *= sharedMisses(miss, at).design;
    if (counted > 0) scores.push({ h, mean: mean / counted, se: Math.sqrt(variance) / counted });
  }
  if (scores.length === 0) return Infinity;
  let best = scores[0];
  for (const x of scores) if (x.mean < best.mean) best = x;
  // HALF_LIVES run from the longest: the first within one standard error of the best.
  return scores.find((x) => x.mean <= best.mean + best.se)!.h;
}

/**
 * Residuals at a step that weigh as much as the shape pooled over all steps: below this many a
 * step's quantiles lean on the pooled shape (a few dozen residuals cannot tell its 95th
 * percentile from its maximum).
 */
const STEP_SHAPE_PRIOR = 200;

/**
 * Half-widths per step at each of `levels`, from residuals per step `res` with weights `w`:
 * each step's scale (its weighted mean residual, never below an earlier step's: a fan) times the
 * conformal quantile of the residuals over their step's scale, that step's own quantile blended
 * with the one pooled over all steps by how many residuals the step has. The widths at different
 * levels follow the residuals' distribution, not one width scaled.
 */
export function levelWidths(res: number[][], w: number[][], levels: number[]): number[][] {
  const H = res.length;
  const sigma: number[] = [];
  let widest = 0;
  for (let k = 0; k < H; k++) {
    let sw = 0;
    let s = 0;
    res[k].forEach((x, i) => {
      s += w[k][i] * x;
      sw += w[k][i];
    });
    const m = sw > 0 ? s / sw : 0;
    widest = Math.max(widest, m);
    sigma.push(widest);
  }
  const allU: number[] = [];
  const allW: number[] = [];
  const stepU = res.map((r, k) =>
    r.map((x, i) => {
      const u = sigma[k] > 0 ? x / sigma[k] : 0;
      allU.push(u);
      allW.push(w[k][i]);
      return u;
    }),
  );
  const pooled = weightedConformalQuantiles(allU, allW, levels);
  const own = stepU.map((u, k) => weightedConformalQuantiles(u, w[k], levels));
  return levels.map((_, l) => {
    const out: number[] = [];
    let prev = 0;
    for (let k = 0; k < H; k++) {
      const n = res[k].length;
      let q = pooled[l];
      if (n > 0) {
        const a = n / (n + STEP_SHAPE_PRIOR);
        q = a * own[k][l] + (1 - a) * pooled[l];
      }
      const hw = Number.isFinite(q) ? sigma[k] * q : prev;
      prev = Math.max(prev, hw);
      out.push(prev);
    }
    return out;
  });
}

/** How a band's misses at the same dates move together across series (sharedMisses). */
export interface SharedMisses {
  /** Share of the residuals the band misses. */
  rate: number;
  /** Intra-date correlation of the misses (one-way ANOVA over the dates, per step, pooled). */
  rho: number;
  /** The mean number of residuals per date and step (the clusters' adjusted size, n0). */
  size: number;
  /**
   * The share of the dates' common miss variance that carries to the next date (their excess
   * miss shares' lag-1 autocovariance over that variance, within [0, 1]): near 1 a shared miss
   * that persists (a recession), near 0 one that does not (a holiday).
   */
  persistence: number;
  /**
   * The misses' design effect across series from the part of their shared variance that does
   * not persist: 1 + (size - 1) rho (1 - persistence).
   */
  design: number;
}

/**
 * How the misses `miss` (per step, with each residual's target time `target`) cluster on dates:
 * per step, the residuals forecasting the same time are one cluster (series that share a
 * calendar, or a numeric order, share it); the misses' intra-cluster correlation by one-way
 * ANOVA (Fleiss' estimator, pooled over the steps), and whether a date's excess misses carry to
 * the next date of the same step. A shock that hits every series at one date (a holiday) shows a
 * high correlation and no persistence; a recession, both high.
 */
export function sharedMisses(miss: boolean[][], target: number[][]): SharedMisses {
  let ssb = 0;
  let ssw = 0;
  let dfb = 0;
  let dfw = 0;
  let n0 = 0;
  let lag = 0;
  let pairs = 0;
  let missed = 0;
  let total = 0;
  miss.forEach((m, k) => {
    const at = new Map<number, [number, number]>();
    m.forEach((x, i) => {
      const c = at.get(target[k][i]) ?? [0, 0];
      c[0]++;
      if (x) c[1]++;
      at.set(target[k][i], c);
    });
    const dates = [...at.keys()].sort((a, b) => a - b);
    if (dates.length < 2) return;
    let n = 0;
    let x = 0;
    let sq = 0;
    for (const [c, y] of at.values()) {
      n += c;
      x += y;
      sq += c * c;
    }
    const p = x / n;
    const e = dates.map((d) => {
      const [c, y] = at.get(d)!;
      ssb += c * (y / c - p) ** 2;
      ssw += y * (1 - y / c);
      return y / c - p;
    });
    for (let j = 1; j < e.length; j++) lag += e[j - 1] * e[j];
    pairs += e.length - 1;
    dfb += dates.length - 1;
    dfw += n - dates.length;
    n0 += n - sq / n;
    missed += x;
    total += n;
  });
  const rate = total ? missed / total : 0;
  if (dfb === 0 || dfw <= 0) return { rate, rho: 0, size: 1, persistence: 0, design: 1 };
  const size = n0 / dfb;
  const msb = ssb / dfb;
  const msw = ssw / dfw;
  const between = Math.max(0, (msb - msw) / size);
  const rho = between + msw > 0 ? between / (between + msw) : 0;
  const persistence = between > 0 ? Math.min(1, Math.max(0, lag / pairs / between)) : 0;
  const design = 1 + Math.max(0, size - 1) * rho * (1 - persistence);
  return { rate, rho, size, persistence, design };
}

/**
 * Independent forecast windows of the main split that weigh as much as the nominal level in the
 * level a band takes (see quantileLevels).
 */
const LEVEL_PRIOR_WINDOWS = 10;

/**
 * Per nominal level: the quantile level of the calibration residuals its band takes. The
 * residuals come from forecasts made before the period a model forecasts, and their quantile at
 * the nominal level covers the next period's errors only as well as the past's errors resemble
 * the next period's. The latest period at hand is the main split: the level p whose band (the
 * weighted quantile of all the residuals, as trained) covers the nominal share of the main
 * split's residuals (the conformal share of them, ceil(l (n + 1)) of n) is what the band takes,
 * shrunk towards the nominal level by the main split's
 * independent windows (H consecutive origins count as one; LEVEL_PRIOR_WINDOWS of them weigh as
 * much as the prior; given each residual's target time, divided by the design effect of the
 * nominal band's misses shared across series at dates that do not persist, sharedMisses: a
 * holiday every series missed is one event, not a series' worth of windows each) and kept within
 * [level - (1 - level), 1 - (1 - level) / 3]. Errors that
 * shrank from the earlier folds to the latest (a model that learned more, a calmer stretch)
 * narrow the bands, errors that grew widen them. Without an earlier fold, the nominal levels.
 */
export function quantileLevels(
  u: number[][],
  w: number[][],
  main: boolean[][],
  levels: number[],
  H: number,
  /** Each residual's target time (StepResiduals.target): the misses' design effect across series. */
  target?: number[][],
): number[] {
  const late = u.map((r, k) => r.filter((_, i) => main[k][i]));
  let count = 0;
  for (const r of late) count += r.length;
  const early = u.some((r, k) => r.some((_, i) => !main[k][i]));
  if (count === 0 || !early) return levels;
  const grid = Array.from({ length: 199 }, (_, j) => 0.005 * (j + 1));
  const q = levelWidths(u, w, grid);
  // Coverage of the main split's residuals at each grid level (non-decreasing in the level).
  // Per grid level: how many of the main split's residuals its band holds (non-decreasing).
  const inside = grid.map((_, j) => {
    let x = 0;
    late.forEach((r, k) => {
      for (const v of r) if (v <= q[j][k]) x++;
    });
    return x;
  });
  const lateAt = target?.map((t, k) => t.filter((_, i) => main[k][i]));
  return levels.map((l) => {
    // The band at the nominal level: how its misses on the main split cluster on dates.
    let windows = count / (H * H);
    if (lateAt) {
      const j0 = Math.min(grid.length - 1, Math.max(0, Math.round(l / 0.005) - 1));
      const miss = late.map((r, k) => r.map((v) => v > q[j0][k]));
      windows /= sharedMisses(miss, lateAt).design;
    }
    const a = windows / (windows + LEVEL_PRIOR_WINDOWS);
    // The conformal share: a band that holds ceil(l (n + 1)) of n exchangeable residuals covers
    // the next one with probability at least l. The plain share, l n, sets it at the order
    // statistic whose expected coverage is ceil(l n) / (n + 1), below l by up to 1 / (n + 1)
    // and more for small n: with a dozen residuals (a yearly series, HORIZON 1) the bands held
    // 0.79 / 0.88 at 80 / 90 % of errors they should have held 0.8 / 0.9 of.
    const need = Math.ceil(l * (count + 1) - 1e-9);
    let j = inside.findIndex((c) => c >= need);
    if (j < 0) j = grid.length - 1;
    const p = l + a * (grid[j] - l);
    return Math.min(1 - (1 - l) / 3, Math.max(l - (1 - l), p));
  });
}

/** Per forecast step: the interval's half-width (in origin scales) and the main split's accuracy. */
export interface Intervals {
  /** At the model's confidence level. */
  halfWidths: number[];
  /** At each nominal level (NOMINAL_LEVELS and the model's). */
  levels: { level: number; halfWidths: number[]; quantile: number }[];
  /** The age weighting's half-life, in validation periods (Infinity: equal weights). */
  halfLife: number;
  horizonAccuracy: TimeSeriesDescription['horizonAccuracy'];
  /** Achieved coverage per nominal level, out of sample (see calibrateIntervals). */
  coverage: ForecastCoverage[];
  /** Per series: its width factor (1 for series without residuals of their own). */
  widthFactor: Float64Array;
  /** What a forecast recalibrates on outcomes after training with (see recalibrate.ts). */
  online: NonNullable<TimeSeriesArtifact['calibration']['online']>;
  /**
   * Residuals of origins where the chosen local model could not be fitted and seasonal-naive
   * stood in: left out of the bands, or kept for a series whose model was fitted on none
   * (ownResiduals).
   */
  standIns: { left: number; kept: number };
}

/** Rolling-origin residuals per step (|error| / origin scale), with their age, fold and series. */
export interface StepResiduals {
  r: number[][];
  age: number[][];
  /** Whether from the main split (fold 0). */
  main: boolean[][];
  series: number[][];
  /** The fold (0: the main split; 1, 2: earlier ones). */
  fold: number[][];
  /**
   * Whether the residual is a stand-in's: the series' local model could not be fitted before
   * that fold's cut and forecast seasonal-naive there (ownResiduals leaves these out).
   */
  stood?: boolean[][];
  /**
   * The time of the row each residual forecast (ORDER BY units: series of a set that share a
   * calendar share their dates), when the calibration was given the series.
   */
  target?: number[][];
}

/** The per-residual fields of StepResiduals, in the order they are copied. */
const RESIDUAL_KEYS = ['r', 'age', 'main', 'series', 'fold', 'stood', 'target'] as const;

/** The residuals at the indices `keep(k)` of each step, every per-residual field alike. */
function subset(res: StepResiduals, keep: (k: number) => number[]): StepResiduals {
  const out: StepResiduals = { r: [], age: [], main: [], series: [], fold: [] };
  res.r.forEach((_, k) => {
    const at = keep(k);
    for (const key of RESIDUAL_KEYS) {
      const from = res[key]?.[k] as unknown[] | undefined;
      if (!from) continue;
      const to = (out[key] ??= []) as unknown[][];
      to.push(at.map((i) => from[i]));
    }
  });
  return out;
}

/** What calibrateIntervals makes of the residuals: everything but the main split's accuracy. */
export type Bands = Pick<
  Intervals,
  'halfWidths' | 'levels' | 'halfLife' | 'coverage' | 'widthFactor' | 'standIns'
> & {
  /** Per step: the residuals over their series' width factor, and their age weights. */
  u: number[][];
  weights: number[][];
};

/** The bands calibrateIntervals makes of residuals, before their coverage is measured. */
type Fitted = Omit<Bands, 'coverage' | 'halfWidths' | 'standIns'> & { widths: number[][] };

/**
 * The bands of residuals `res` of `nSeries` series: per-series width factors, the age half-life
 * (`givenHalfLife` when given, else chosen on the main split), each level's quantile and
 * half-widths per step at `levelList`.
 */
function fitBands(
  res: StepResiduals,
  nSeries: number,
  level: number,
  levelList: number[],
  givenHalfLife?: number,
): Fitted {
  const H = res.r.length;
  const widthFactor = widthFactors(res, nSeries, H);
  const u = res.r.map((r, k) => r.map((x, i) => x / widthFactor[res.series[k][i]]));
  const pooled: Calibration = { residuals: u, ages: res.age, main: res.main, target: res.target };
  const halfLife = givenHalfLife ?? chooseHalfLife(pooled, level);
  const weights = res.age.map((a) => a.map((x) => ageWeight(x, halfLife)));
  const quantiles = quantileLevels(u, weights, res.main, levelList, H, res.target);
  const widths = levelWidths(u, weights, quantiles);
  const levels = levelList.map((l, i) => ({
    level: l,
    halfWidths: widths[i],
    quantile: round(quantiles[i], 4),
  }));
  return { levels, halfLife, widthFactor, u, weights, widths };
}

/**
 * The residuals without the main split: the first earlier fold in its place (the one each
 * level's quantile is checked on), every residual at its age as trained. Null without an
 * earlier fold.
 */
export function oneFoldBack(res: StepResiduals): StepResiduals | null {
  if (!res.fold.some((f) => f.some((j) => j >= 1))) return null;
  const out = subset(res, (k) => res.fold[k].flatMap((f, i) => (f >= 1 ? [i] : [])));
  out.main = out.fold.map((f) => f.map((j) => j === 1));
  out.fold = out.fold.map((f) => f.map((j) => j - 1));
  return out;
}

/**
 * The bands of residuals `res` of `nSeries` series (fitBands), and their achieved coverage per
 * level and step as DESCRIBE shows it, out of fold: the bands as trained (their half-life, each
 * residual weighed by its age as they weigh it) refitted without the main split (width factors,
 * each level's quantile level, checked on the first earlier fold, and the widths from the
 * earlier folds' residuals), counted on the main split's residuals, which they did not see. So
 * the figure is that of the bands a period ahead of their residuals, as they are at a forecast.
 * The half-life is the trained one, chosen on the main split: a calibration one period back
 * chooses its own on the first earlier fold with no fold before it to compare, so it cannot
 * discount a whole fold whose model knew far less (a GBM refitted on the rows before the oldest
 * cut: the demo house_sales' erred 7-13 times the validated model on the same origins), and
 * counted bands that covered 0.97 / 1.00 at 80 / 90 % where the trained ones held 0.76 / 0.88.
 * Without an earlier fold, in sample: the bands on the residuals they came from.
 */
export function bandsOf(all: StepResiduals, nSeries: number, level: number): Bands {
  const { res, left, kept } = ownResiduals(all);
  const levelList = [...new Set([...NOMINAL_LEVELS, level])].sort((a, b) => a - b);
  const fit = fitBands(res, nSeries, level, levelList);
  const halfWidths = fit.levels.find((l) => l.level === level)!.halfWidths;

  const back = oneFoldBack(res);
  const before = back ? fitBands(back, nSeries, level, levelList, fit.halfLife) : fit;
  const counted = back ? res.main : res.r.map((r) => r.map(() => true));
  const coverage: ForecastCoverage[] = levelList.map((l, li) => {
    const hw = before.widths[li];
    let inside = 0;
    let total = 0;
    const steps = res.r.map((r, k) => {
      let x = 0;
      let n = 0;
      r.forEach((v, i) => {
        if (!counted[k][i]) return;
        n++;
        if (v <= hw[k] * before.widthFactor[res.series[k][i]]) x++;
      });
      inside += x;
      total += n;
      // No residual counted at this step (a short main split: origins whose later steps fall
      // after the series' end): no claim, rather than a coverage of 0.
      return n ? round(x / n, 4) : null;
    });
    const quantile = fit.levels[li].quantile;
    return {
      level: l,
      coverage: round(total ? inside / total : 0, 4),
      steps,
      quantile,
      outOfFold: back !== null,
    };
  });
  const { levels, halfLife, widthFactor, u, weights } = fit;
  const standIns = { left, kept };
  return { halfWidths, levels, halfLife, coverage, widthFactor, u, weights, standIns };
}

/**
 * Calibrates the intervals on the chosen candidates' rolling-origin residuals (bandsOf), and
 * measures the main split's accuracy per step.
 */
export function calibrateIntervals(
  scored: Scored[],
  sel: Selection,
  folds: Fold[],
  series: Series[],
  level: number,
  validationFraction: number,
): Intervals {
  const H = folds[0].packed.H;
  const res = compositeResiduals(scored, sel, folds, H, series);
  const { halfWidths, levels, halfLife, coverage, widthFactor, u, weights, standIns } = bandsOf(
    res,
    series.length,
    level,
  );

  // Per step on the main split: the chosen candidates against seasonal-naive.
  const main = folds[0];
  const sn = scored.find((s) => s.name === 'seasonal_naive')!.runs[0]!;
  const stepErr = new Float64Array(H);
  const stepSn = new Float64Array(H);
  const stepAbs = new Float64Array(H);
  const stepN = new Float64Array(H);
  for (let i = 0; i < main.packed.n; i++) {
    const run = scored[sel.choice[main.origins[i][0]]].runs[0];
    if (!run) continue;
    for (let k = 1; k <= H; k++) {
      const y = main.truth(i, k);
      if (Number.isNaN(y)) break;
      const d = Math.abs(y - run.pred[i * H + k - 1]);
      stepErr[k - 1] += d / run.scale[i];
      stepSn[k - 1] += Math.abs(y - sn.pred[i * H + k - 1]) / sn.scale[i];
      stepAbs[k - 1] += d;
      stepN[k - 1]++;
    }
  }
  const atLevel = coverage.find((c) => c.level === level)!;
  // A step no main-split origin reaches has no figures (null), not an error of 0.
  const horizonAccuracy = halfWidths.map((_, k) => ({
    step: k + 1,
    mase: stepN[k] ? round(ratio(stepErr[k], stepSn[k]), 6) : null,
    mae: stepN[k] ? round(stepAbs[k] / stepN[k], 6) : null,
    coverage: atLevel.steps[k],
  }));
  const online = {
    halfLife: halfLife === Infinity ? null : halfLife,
    ...trainingSpan(series, validationFraction),
    ...calibrationSketch(u, weights, (probs) => levelWidths(u, weights, probs)),
    quantiles: levels.map((l) => ({ level: l.level, quantile: l.quantile })),
  };
  return {
    ...{ halfWidths, levels, halfLife, horizonAccuracy, coverage, widthFactor, online },
    standIns,
  };
}
