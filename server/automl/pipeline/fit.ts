// The fitting context of one training: the encoded table, the prepared target (standardized
// values or class codes with class weights), the split and the GBM parameters, built once and
// passed to the candidates, the analysis and the refit.

import type { ResolvedSettings } from '../api';
import type { Encoded } from '../data/encoded';
import type { ColumnEncoder } from '../data/encoders';
import type { GBMParams, GBMTarget } from '../gbm/model';
import { activePool } from '../threads';
import { type LinearModel, fitLogistic, fitRidge } from '../linear/linear';
import type { ScoreShape } from '../predict/score';
import { type Split, type UserChoices, classWeights } from './sizes';
import type { TargetInfo } from './target';

export interface FitContext {
  settings: ResolvedSettings;
  shape: ScoreShape;
  enc: Encoded;
  encs: ColumnEncoder[];
  /** Targets by position: standardized values (regression) or class codes. */
  y: Float64Array;
  /** Class weights by position (classifiers), or null. */
  weight: Float64Array | null;
  gTarget: GBMTarget;
  /** The validation split (single split); on cross-fitted data all rows train, none validate. */
  split: Split;
  /** Small data: candidates are fitted in these folds and validated out of fold. */
  crossFit: boolean;
  folds: Split[];
  /** Validation rows for early stopping and candidate selection (a sample on large tables). */
  selRows: Int32Array;
  params: GBMParams;
  /** What USING set explicitly (size-dependent defaults leave it alone, see sizes.ts). */
  user: UserChoices;
}

export interface PreparedTarget {
  shape: ScoreShape;
  y: Float64Array;
  weight: Float64Array | null;
}

/**
 * Regression targets are standardized (so L2 / leaf statistics and tolerances do not depend on
 * the target's units); classifiers get inverse-frequency class weights and the matching shift
 * back to the real class prior.
 */
export function prepareTarget(ti: TargetInfo, settings: ResolvedSettings): PreparedTarget {
  const task = ti.task;
  const n = ti.keep.length;
  const nClasses = ti.classKeys ? ti.classKeys.length : 0;
  let y = ti.y;
  let yScale: { mean: number; std: number } | null = null;
  let weight: Float64Array | null = null;
  let shift: number[] = [];
  const K = task === 'multiclass' ? nClasses : 1;
  if (task === 'regression') {
    let mean = 0;
    for (const v of y) mean += v;
    mean /= n;
    let ss = 0;
    for (const v of y) ss += (v - mean) * (v - mean);
    const std = Math.sqrt(ss / n) || 1;
    yScale = { mean, std };
    y = Float64Array.from(y, (v) => (v - mean) / std);
  } else {
    const cw =
      settings.classWeight === 'balanced' ? classWeights(y, nClasses) : new Array(nClasses).fill(1);
    weight = Float64Array.from(y, (c) => cw[c]);
    shift = task === 'binary' ? [Math.log(cw[1] / cw[0])] : cw.map((w) => Math.log(w));
  }
  return { shape: { task, K, nClasses, yScale, shift }, y, weight };
}

/**
 * The linear candidate fitted on `rows`: ridge for regression, logistic for classifiers (started
 * from `init`'s weights when given: the refit of a validated model).
 */
export function fitLinear(ctx: FitContext, rows: Int32Array, init?: LinearModel): LinearModel {
  const { enc, y, weight } = ctx;
  const d = enc.layout.linDims;
  return ctx.shape.task === 'regression'
    ? fitRidge(enc.linear!, rows, y, null, d)
    : fitLogistic(enc.linear!, rows, y, ctx.shape.nClasses, weight, d, 1, init?.w);
}

/**
 * From this many rows a ridge fit (a Gram matrix of rows x slots^2 additions: 15 ms at 26k rows,
 * 0.08 s at 160k) goes to the pool's model thread too; below, it costs about what sharing its
 * design matrix does.
 */
const RIDGE_LATER_MIN_ROWS = 10_000;

/**
 * fitLinear with the pool's model thread fitting it (a logistic fit's one-vs-rest scores, or a
 * large ridge fit) while this one goes on (boosting); the returned function finishes the fit.
 */
export function fitLinearLater(
  ctx: FitContext,
  rows: Int32Array,
  init?: LinearModel,
): () => LinearModel {
  const pool = activePool();
  const fitHere = () => fitLinear(ctx, rows, init);
  const ridge = ctx.shape.task === 'regression';
  const later =
    pool && (!ridge || rows.length >= RIDGE_LATER_MIN_ROWS)
      ? pool.fitLinear(
          {
            ...(ridge ? { ridge: true } : {}),
            X: ctx.enc.linear!,
            rows,
            y: ctx.y,
            nClasses: ctx.shape.nClasses,
            weight: ridge ? null : ctx.weight,
            d: ctx.enc.layout.linDims,
            ...(init && !ridge ? { init: init.w } : {}),
          },
          fitHere,
        )
      : null;
  if (later) return later;
  const model = fitHere();
  return () => model;
}
