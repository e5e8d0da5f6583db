// The candidates of a forecaster (seasonal-naive, naive, drift, direct and recursive GBMs), each
// scored on the same validation origins by mean |error| / origin scale, and the choice among them.

import type { ResolvedSettings } from '../api';
import { now } from '../pipeline/progress';
import type { Rng } from '../prng';
import { type ExampleContext, examplesOfOrigins, trainingExamples } from './examples';
import type { FeatureLayout } from './features';
import { type GbmFit, MIN_GBM_EXAMPLES, fitGbm } from './gbm-fit';
import { type Candidate, type Origins, runCandidate } from './model';
import type { CandidateName, FeatureSpec } from './types';

/** One candidate's validation errors. */
export interface Scored {
  name: CandidateName;
  candidate: Candidate;
  /** Mean |error| / origin scale over all validated (origin, step) pairs, and per step. */
  score: number;
  stepScore: number[];
  stepMae: number[];
  /** |error| / scale per step (for the conformal quantiles of the selected one). */
  residuals: number[][];
  trainingTime: number;
  /** Examples the GBM was fitted on and the iterations it kept (for the refit). */
  fit?: GbmFit;
}

/** The validation set-up every candidate is scored on. */
export interface ValidationContext {
  ctx: ExampleContext;
  /** The main (last) validation split. */
  cut: Int32Array;
  /** The main validation origins (every Scored.residuals are theirs), packed, and their truth. */
  valOrigins: [number, number][];
  origins: Origins;
  truth: (i: number, k: number) => number;
  settings: ResolvedSettings;
  rng: Rng;
}

/** Scores the baselines, then fits and scores each GBM strategy there are enough examples for. */
export function scoreCandidates(v: ValidationContext): Scored[] {
  const { ctx, cut, valOrigins, origins, truth, settings, rng } = v;
  const { series, spec, layout } = ctx;
  const { window: W, horizon: H, period } = spec;
  const names: CandidateName[] = [
    'seasonal_naive',
    ...(period > 1 ? ['naive' as const] : []),
    'drift',
  ];
  const scored: Scored[] = names.map((name) => {
    const c0 = now();
    const s = evaluate(name, { name } as Candidate, spec, layout, origins, truth);
    s.trainingTime = (now() - c0) / 1000;
    return s;
  });
  // With HORIZON 1 the recursive model would be the direct one trained twice.
  const strategies = H > 1 ? (['direct', 'recursive'] as const) : (['direct'] as const);
  for (const strategy of strategies) {
    const c0 = now();
    const train = trainingExamples(series, cut, W, strategy === 'direct' ? H : 1, rng, strategy);
    if (train.n < MIN_GBM_EXAMPLES) continue;
    const val = examplesOfOrigins(series, valOrigins, strategy === 'direct' ? H : 1);
    const fit = fitGbm(ctx, train, val, settings, rng);
    const name = strategy === 'direct' ? 'gbm_direct' : 'gbm_recursive';
    const s = evaluate(name, { name, part: fit.part }, spec, layout, origins, truth);
    s.trainingTime = (now() - c0) / 1000;
    s.fit = fit;
    scored.push(s);
  }
  return scored;
}

/**
 * Lowest validation error wins; a tie goes to the simpler (earlier) candidate. USING model =
 * 'gbm' picks the better GBM when there is one.
 */
export function selectCandidate(scored: Scored[], settings: ResolvedSettings): Scored {
  const pool =
    settings.model === 'gbm' && scored.some((s) => s.fit) ? scored.filter((s) => s.fit) : scored;
  let best = pool[0];
  for (const s of pool) if (s.score < best.score - 1e-12) best = s;
  return best;
}

/** Scores a candidate on the validation origins. */
export function evaluate(
  name: CandidateName,
  candidate: Candidate,
  spec: FeatureSpec,
  layout: FeatureLayout,
  origins: Origins,
  truth: (i: number, k: number) => number,
): Scored {
  const H = origins.H;
  const { pred, scale } = runCandidate(candidate, spec, layout, origins);
  const residuals: number[][] = Array.from({ length: H }, () => []);
  const stepSum = new Float64Array(H);
  const stepAbs = new Float64Array(H);
  let sum = 0;
  let count = 0;
  for (let i = 0; i < origins.n; i++) {
    for (let k = 1; k <= H; k++) {
      const y = truth(i, k);
      if (Number.isNaN(y)) break;
      const e = Math.abs(y - pred[i * H + k - 1]);
      const s = e / scale[i];
      residuals[k - 1].push(s);
      stepSum[k - 1] += s;
      stepAbs[k - 1] += e;
      sum += s;
      count++;
    }
  }
  return {
    name,
    candidate,
    score: count ? sum / count : Infinity,
    stepScore: Array.from(stepSum, (v, k) => (residuals[k].length ? v / residuals[k].length : 0)),
    stepMae: Array.from(stepAbs, (v, k) => (residuals[k].length ? v / residuals[k].length : 0)),
    residuals,
    trainingTime: 0,
  };
}

export function ratio(a: number, b: number): number {
  return b > 0 ? a / b : a > 0 ? Infinity : 1;
}

/**
 * Lightwood's 0..1 view of MASE against seasonal-naive (r = 1 / MASE): no better than
 * seasonal-naive scales linearly to 0.5, 10x better is 0.99, and logarithmic squashing beyond.
 */
export function boundedTsAccuracy(mase: number): number {
  if (!(mase >= 0)) return 0;
  const r = mase === 0 ? 1e4 : 1 / mase;
  if (r <= 1) return 0.5 * r;
  if (r <= 10) return 0.5 + 0.49 * Math.log10(r);
  return Math.min(1, 0.99 + (0.01 * Math.log(r / 10)) / Math.log(1e3));
}
