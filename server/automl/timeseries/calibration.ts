// Conformal intervals of a forecaster: residuals of the selected candidate pooled over rolling
// origins, weighted by age with a half-life chosen on the main split, quantiles per step.

import { round } from '../pipeline/describe';
import { type Scored, type ValidationContext, evaluate, ratio } from './candidates';
import { originsBetween, timeSplit, trainingExamples } from './examples';
import { MIN_GBM_EXAMPLES, fitGbm } from './gbm-fit';
import { type Candidate, type OriginSource, packOrigins } from './model';
import { ageWeight, calibrationSketch, trainingSpan, weightedConformalQuantile } from './intervals';
import type { TimeSeriesArtifact, TimeSeriesDescription } from './types';

/**
 * Rolling-origin calibration: earlier time cuts whose next segment of history is forecast by a
 * model that saw only the rows before it (the main validation split is the last of these folds).
 */
const CALIBRATION_FOLDS = 2;
/** Training examples of a calibration fold's GBM (a seeded sample beyond). */
const FOLD_MAX_EXAMPLES = 80_000;
/** The least a fold's residuals are scaled by for its model's lesser skill (see calibrationResiduals). */
const FOLD_SKILL_MIN = 0.8;
/** Origins scored per calibration fold (a seeded sample beyond). */
const FOLD_MAX_ORIGINS = 6_000;

export interface Calibration {
  /**
   * Per step: |error| / origin scale; each residual's age (how long before the main split its
   * origin is, in validation periods; 0 on the main split) and whether it is from the main split.
   */
  residuals: number[][];
  ages: number[][];
  main: boolean[][];
}

/** The validation set-up, and how to build origins and truth of other origin lists. */
interface CalibrationContext extends ValidationContext {
  sourceOf: (o: [number, number]) => OriginSource;
  truthOf: (list: [number, number][]) => (i: number, k: number) => number;
}

/**
 * The scale-free residuals (|error| / origin scale, per step) the intervals are calibrated on:
 * the selected candidate's on the main validation split, plus those of earlier stretches of the
 * history, each forecast without having seen it. One validation period is a single market regime
 * (a calm year, say); the quantile of residuals pooled over several rolling origins reflects how
 * forecasts of this series fail over its history, which is what a 90 % interval must cover.
 * Baselines learn nothing, so every origin before the main split is out-of-sample for them; a
 * GBM is refitted per fold on the examples before the fold's cut (for the iterations early
 * stopping kept on the main split) and scored on the origins up to the next cut.
 */
function calibrationResiduals(best: Scored, c: CalibrationContext): Calibration {
  const { ctx, cut, settings } = c;
  const { series, spec, layout } = ctx;
  const W = spec.window;
  const H = spec.horizon;
  const G = layout.groupColumns.length;
  const ageOf = (g: number, t: number): number => {
    const s = series[g].t;
    const ref = s[Math.min(cut[g], s.length - 1)];
    const span = (s[s.length - 1] - s[0]) * settings.validationFraction;
    const age = ref - s[t];
    return age <= 0 || !(span > 0) ? 0 : age / span;
  };
  const out: Calibration = {
    residuals: Array.from({ length: H }, () => []),
    ages: Array.from({ length: H }, () => []),
    main: Array.from({ length: H }, () => []),
  };
  let isMain = true;
  const push = (list: [number, number][], residuals: number[][]) => {
    const truth = c.truthOf(list);
    for (let k = 1; k <= H; k++) {
      let j = 0;
      const r = residuals[k - 1];
      for (let i = 0; i < list.length && j < r.length; i++) {
        if (Number.isNaN(truth(i, k))) continue;
        out.residuals[k - 1].push(r[j++]);
        out.ages[k - 1].push(isMain ? 0 : ageOf(list[i][0], list[i][1]));
        out.main[k - 1].push(isMain);
      }
    }
  };
  const add = (candidate: Candidate, list: [number, number][], factor = 1) => {
    if (list.length === 0) return;
    const origins = packOrigins(list.map(c.sourceOf), spec, H, G);
    const r = evaluate(best.name, candidate, spec, layout, origins, c.truthOf(list)).residuals;
    push(list, factor === 1 ? r : r.map((x) => x.map((v) => v * factor)));
  };
  push(c.valOrigins, best.residuals);
  isMain = false;
  // Origins with the full lookback where the series has it (what a forecast reads).
  const first = Math.max(W - 1, spec.lookback - 1);
  if (!best.fit) {
    const list = originsBetween(
      series,
      (g) => (cut[g] - 2 >= first ? first : W - 1),
      (g) => cut[g] - 2,
      FOLD_MAX_ORIGINS * CALIBRATION_FOLDS,
      settings.seed,
    );
    add(best.candidate, list);
    return out;
  }
  const fit = best.fit;
  const strategy = best.name === 'gbm_direct' ? 'direct' : 'recursive';
  let next = cut;
  for (let j = 1; j <= CALIBRATION_FOLDS; j++) {
    const fraction = Math.min(0.9, settings.validationFraction * (1 + j));
    const foldCut = timeSplit(series, W, fraction);
    let earlier = false;
    series.forEach((_, g) => (earlier ||= foldCut[g] < next[g]));
    if (!earlier) break;
    const train = trainingExamples(
      series,
      foldCut,
      W,
      strategy === 'direct' ? H : 1,
      c.rng,
      strategy,
      FOLD_MAX_EXAMPLES,
    );
    if (train.n < MIN_GBM_EXAMPLES) break;
    const until = next;
    const list = originsBetween(
      series,
      (g) => Math.max(W - 1, foldCut[g] - 1),
      (g) => Math.min(until[g], series[g].t.length) - 2,
      FOLD_MAX_ORIGINS,
      settings.seed + j,
    );
    const foldFit = fitGbm(ctx, train, null, settings, c.rng, Math.max(1, fit.iterations));
    const candidate: Candidate = {
      name: best.name as 'gbm_direct' | 'gbm_recursive',
      part: foldFit.part,
    };
    // A fold's model learned from fewer rows than the validated one and errs more for that alone;
    // its residuals are scaled by how much more it errs on the main validation origins, so they
    // carry how hard their stretch of history was, not how much less the model knew (clamped:
    // the correction only narrows, and at most by FOLD_SKILL_MIN).
    const onMain = evaluate(best.name, candidate, spec, layout, c.origins, c.truth);
    const skill = onMain.score > 0 ? best.score / onMain.score : 1;
    add(candidate, list, Math.min(1, Math.max(FOLD_SKILL_MIN, skill)));
    next = foldCut;
  }
  return out;
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
 * Infinity when nothing precedes the main split.
 */
export function chooseHalfLife(c: Calibration, level: number): number {
  const alpha = 1 - level;
  const scores: { h: number; mean: number; se: number }[] = [];
  for (const h of HALF_LIVES) {
    let mean = 0;
    let variance = 0;
    let counted = 0;
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
      for (let i = 0; i < r.length; i++) {
        if (c.main[k][i]) s.push(2 * q + (2 / alpha) * Math.max(0, r[i] - q));
      }
      if (s.length === 0) continue;
      const m = s.reduce((a, b) => a + b, 0) / s.length;
      const v = s.reduce((a, b) => a + (b - m) ** 2, 0) / Math.max(1, s.length - 1);
      mean += m;
      variance += v / s.length;
      counted++;
    }
    if (counted > 0) scores.push({ h, mean: mean / counted, se: Math.sqrt(variance) / counted });
  }
  if (scores.length === 0) return Infinity;
  let best = scores[0];
  for (const x of scores) if (x.mean < best.mean) best = x;
  // HALF_LIVES run from the longest: the first within one standard error of the best.
  return scores.find((x) => x.mean <= best.mean + best.se)!.h;
}

/** Per forecast step: the interval's half-width (in origin scales) and the main split's accuracy. */
export interface Intervals {
  halfWidths: number[];
  /** The age weighting's half-life, in validation periods (Infinity: equal weights). */
  halfLife: number;
  horizonAccuracy: TimeSeriesDescription['horizonAccuracy'];
  /** What a forecast recalibrates on outcomes after training with (see recalibrate.ts). */
  online: NonNullable<TimeSeriesArtifact['calibration']['online']>;
}

/**
 * Calibrates the selected candidate's intervals on its rolling-origin residuals and measures them
 * per step on the main split against seasonal-naive (`snaive`).
 */
export function calibrateIntervals(best: Scored, snaive: Scored, c: CalibrationContext): Intervals {
  const H = c.ctx.spec.horizon;
  const level = c.settings.confidence;
  const pooled = calibrationResiduals(best, c);
  const halfLife = chooseHalfLife(pooled, level);
  const halfWidths: number[] = [];
  const weights: number[][] = [];
  let widest = 0;
  for (let k = 0; k < H; k++) {
    const r = pooled.residuals[k];
    const w = pooled.ages[k].map((a) => ageWeight(a, halfLife));
    weights.push(w);
    // Wider with the step (never narrower than an earlier step's), the usual fan of a forecast.
    if (r.length > 0) widest = Math.max(widest, weightedConformalQuantile(r, w, level));
    halfWidths.push(widest);
  }
  const horizonAccuracy = halfWidths.map((hw, k) => {
    const r = best.residuals[k];
    let inside = 0;
    for (const x of r) if (x <= hw) inside++;
    return {
      step: k + 1,
      mase: round(ratio(best.stepScore[k], snaive.stepScore[k]), 6),
      mae: round(best.stepMae[k], 6),
      coverage: round(r.length ? inside / r.length : 0, 6),
    };
  });
  const online = {
    halfLife: halfLife === Infinity ? null : halfLife,
    ...trainingSpan(c.ctx.series, c.settings.validationFraction),
    ...calibrationSketch(pooled.residuals, weights),
  };
  return { halfWidths, halfLife, horizonAccuracy, online };
}
