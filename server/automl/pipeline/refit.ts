// The refit: the selected candidate retrained on all rows (training + validation) with the
// iteration count early stopping chose, and the interval correction that goes with it.

import { trainGBM } from '../gbm/boost';
import type { GBMModel } from '../gbm/model';
import { Rng } from '../prng';
import { type ScoreModel, blend, scoreRows } from '../predict/score';
import { allRows } from '../rows';
import type { Candidate } from './candidates';
import { type FitContext, fitLinear, fitLinearLater } from './fit';
import { REFIT_MAX_ROWS, gbmParams } from './sizes';

/** Share of the training split the learning-curve probe is fitted on. */
const PROBE_FRACTION = 0.5;

export interface Refit {
  model: ScoreModel;
  /** The regression half-width for the refit model (validated width x learning-curve factor). */
  halfWidth: number | null;
}

/**
 * Refits `best` on all `n` rows when the settings allow it and the table is small enough;
 * otherwise the validated model and its width are kept. Cross-fitted candidates are refit with
 * the mean iteration count of their folds.
 */
export function refit(ctx: FitContext, best: Candidate, halfWidth: number | null): Refit {
  const { settings, split, enc } = ctx;
  const n = enc.n;
  const single = !ctx.crossFit && split.val.length > 0 && n <= REFIT_MAX_ROWS;
  if (!(settings.refit && (ctx.crossFit || single))) {
    return { model: best.model, halfWidth };
  }
  // Same capacity as validated: tree shape from the training-split (fold) size.
  const trainSize = ctx.crossFit ? ctx.folds[0].train.length : split.train.length;
  const fitGbmOn = (rows: Int32Array): GBMModel => {
    const p = {
      ...gbmParams(settings, trainSize, {
        user: ctx.user,
        classifier: ctx.shape.task !== 'regression',
      }),
      maxIterations: Math.max(1, Math.round(best.iterations)),
    };
    return trainGBM({
      data: enc.binned,
      target: ctx.gTarget,
      trainRows: rows,
      valRows: new Int32Array(0),
      params: p,
    }).model;
  };
  // The logistic refit starts from the validated weights (the same rows and a fifth more).
  const init = best.linear ?? undefined;
  const fitKind = (rows: Int32Array): ScoreModel => {
    if (best.kind === 'gbm') return { gbm: fitGbmOn(rows), linear: null };
    if (best.kind === 'linear') return { gbm: null, linear: fitLinear(ctx, rows, init) };
    // The blend's logistic part fits on the pool's second thread while the trees grow.
    const linear = fitLinearLater(ctx, rows, init);
    const gbm = fitGbmOn(rows);
    return blend(gbm, linear());
  };
  const model = fitKind(allRows(n));
  if (ctx.shape.task === 'regression' && halfWidth !== null) {
    // Each (training split, validation rows) pair the width was calibrated on.
    const pairs = ctx.crossFit
      ? best.fits.map((f, j) => ({ train: ctx.folds[j].train, val: f.rows, model: f.model }))
      : split.val.length >= 20
        ? [{ train: split.train, val: split.val, model: best.model }]
        : [];
    if (pairs.length > 0) {
      halfWidth *= learningCurveFactor({ fit: fitKind, pairs, ctx, nAll: n, seed: settings.seed });
    }
  }
  return { model, halfWidth };
}

/**
 * Interval correction for the refit. The conformal half-width comes from validation residuals of
 * a model trained on the training split, but the shipped model is refit on all rows and errs less,
 * so uncorrected intervals over-cover (about 0.92 instead of 0.90 on the 1k-row concrete set).
 * We fit the same model on half of the training split (of each fold, when cross-fitted), compare
 * the validation mean absolute errors of both fits, and extrapolate that shrinkage along a power-law learning curve (error ~ rows^-a)
 * to the refit's row count. The mean absolute error is used rather than the 90 % quantile itself
 * because it averages every residual and is far less noisy; saturated models (home_rentals) get a
 * factor of ~1. The factor is clamped to [0.8, 1] so the correction can only narrow a little.
 */
function learningCurveFactor(opts: {
  /** Fits the selected kind of model on the given rows. */
  fit: (rows: Int32Array) => ScoreModel;
  /** The validated fits (one, or one per fold): training rows, validation rows, model. */
  pairs: { train: Int32Array; val: Int32Array; model: ScoreModel }[];
  ctx: FitContext;
  nAll: number;
  seed: number;
}): number {
  const { fit, pairs, nAll, seed } = opts;
  const { enc, y } = opts.ctx;
  const nTrain = pairs[0].train.length;
  // Own RNG stream: the probe's subset must not shift when other stages draw more numbers.
  const rng = new Rng(seed ^ 0x1ea7);
  let maeSub = 0;
  let maeFull = 0;
  let subSize = 0;
  for (const p of pairs) {
    const rows = rng.shuffle(Int32Array.from(p.train));
    const sub = rows.slice(0, Math.round(p.train.length * PROBE_FRACTION));
    subSize = sub.length;
    const rawSub = scoreRows(fit(sub), enc, p.val, 1);
    const rawFull = scoreRows(p.model, enc, p.val, 1);
    for (let i = 0; i < p.val.length; i++) {
      const t = y[p.val[i]];
      maeSub += Math.abs(t - rawSub[i]);
      maeFull += Math.abs(t - rawFull[i]);
    }
  }
  if (!(maeSub > 0) || !(maeFull > 0)) return 1;
  const ratio = Math.min(1, Math.max(0.5, maeFull / maeSub));
  const exponent = Math.log(nAll / nTrain) / Math.log(nTrain / subSize);
  return Math.min(1, Math.max(0.8, ratio ** exponent));
}
