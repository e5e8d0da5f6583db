// Candidate models compared on rows they did not train on: the GBM, the linear model and their
// mean, fitted on the training split (validated on the validation rows) or, on small data, in
// every fold (validated out of fold on all rows). The highest validation score wins.

import type { CandidateInfo } from '../api';
import type { ScoredPart } from '../analysis/analyze';
import { taskScore } from '../analysis/metrics';
import { trainGBM } from '../gbm/boost';
import type { LinearModel } from '../linear/linear';
import { type ScoreModel, blend, scoreRows } from '../predict/score';
import { type FitContext, fitLinearLater } from './fit';
import { now } from './progress';

/** One fit of a candidate: the model and the rows it is validated on (it did not train on them). */
interface FoldFit {
  model: ScoreModel;
  rows: Int32Array;
  /** Boosting iterations early stopping kept (0 for the linear model). */
  iterations: number;
}

export interface Candidate extends CandidateInfo {
  kind: 'gbm' | 'linear' | 'blend';
  /** One fit per fold (one in all for a single validation split). */
  fits: FoldFit[];
  /** Raw scores by absolute row (n x K) of each row's out-of-fold fit (validation rows only). */
  oof: Float64Array;
  /** Single split: in-sample raw scores of training `rows` (packed rows x K). */
  inSample: (rows: Int32Array) => Float64Array;
  /** The model fitted on the training split (single split), else the first fold's. */
  model: ScoreModel;
  /** Mean boosting iterations over the fits. */
  iterations: number;
  /** The linear part as fitted (not halved by the blend) on the training split or first fold. */
  linear: LinearModel | null;
}

export function accuracyName(ctx: FitContext): string {
  return ctx.shape.task === 'regression' ? 'r2_score' : 'balanced_accuracy_score';
}

/** The fits of a candidate as scored parts for the analysis (scales are added by the caller). */
export function scoredParts(c: Candidate): ScoredPart[] {
  return c.fits.map((f) => ({ model: f.model, rows: f.rows, scale: null, raw: c.oof }));
}

/** Validation rows of each fold: the capped validation rows (single split) or the fold's rows. */
function validationRows(ctx: FitContext): Int32Array[] {
  return ctx.crossFit ? ctx.folds.map((f) => f.val) : [ctx.selRows];
}

/** Raw scores at `rows` of an absolute-row array (n x K), packed. */
function gather(abs: Float64Array, rows: Int32Array, K: number): Float64Array {
  const out = new Float64Array(rows.length * K);
  for (let i = 0; i < rows.length; i++)
    for (let k = 0; k < K; k++) out[i * K + k] = abs[rows[i] * K + k];
  return out;
}

/** Absolute-row raw scores (n x K) of each fit's model at its own rows. */
function scoreFits(ctx: FitContext, fits: FoldFit[]): Float64Array {
  const K = ctx.shape.K;
  const out = new Float64Array(ctx.enc.n * K);
  for (const f of fits) {
    const raw = scoreRows(f.model, ctx.enc, f.rows, K);
    for (let i = 0; i < f.rows.length; i++)
      for (let k = 0; k < K; k++) out[f.rows[i] * K + k] = raw[i * K + k];
  }
  return out;
}

/** Trains the candidates (the linear one when `wantLinear`), the serving one marked. */
export function trainCandidates(
  ctx: FitContext,
  wantLinear: boolean,
): { candidates: Candidate[]; best: Candidate } {
  const { settings, enc, y } = ctx;
  const { task, K, nClasses } = ctx.shape;
  const candidates: Candidate[] = [];
  const accName = accuracyName(ctx);
  const valRows = validationRows(ctx);
  const trainRows = ctx.crossFit ? ctx.folds.map((f) => f.train) : [ctx.split.train];
  const allVal = Int32Array.from(valRows.flatMap((rows) => Array.from(rows)));
  const yVal = Float64Array.from(allVal, (r) => y[r]);
  const make = (
    kind: Candidate['kind'],
    name: string,
    fits: FoldFit[],
    seconds: number,
    raws: { oof: Float64Array; inSample: (rows: Int32Array) => Float64Array },
    linear: LinearModel | null = null,
  ): Candidate => ({
    kind,
    name,
    performance: taskScore(task, yVal, gather(raws.oof, allVal, K), K, nClasses),
    training_time: seconds,
    selected: false,
    accuracy_functions: [accName],
    fits,
    oof: raws.oof,
    inSample: raws.inSample,
    model: fits[0].model,
    iterations: fits.reduce((s, f) => s + f.iterations, 0) / fits.length,
    linear,
  });
  let gbmCand: Candidate;
  let linCand: Candidate | null = null;
  // The logistic fits start first: on a second thread they run while the trees grow.
  const l0 = now();
  const linearLater = wantLinear ? trainRows.map((rows) => fitLinearLater(ctx, rows)) : [];
  {
    const c0 = now();
    // The boosting's own scores: validation rows out of fold, training rows in sample (exact
    // for the kept iterations on a single split, where the scale model learns from them).
    const oof = new Float64Array(enc.n * K);
    let trainRaw: Float64Array | null = null;
    const fits = valRows.map((val, f): FoldFit => {
      const res = trainGBM({
        data: enc.binned,
        target: ctx.gTarget,
        trainRows: trainRows[f],
        valRows: val,
        params: ctx.params,
        exactTrainRaw: !ctx.crossFit,
      });
      for (const r of val) for (let k = 0; k < K; k++) oof[r * K + k] = res.raw[r * K + k];
      trainRaw = res.raw;
      return { model: { gbm: res.model, linear: null }, rows: val, iterations: res.iterations };
    });
    const raw = trainRaw!;
    gbmCand = make('gbm', 'GBM', fits, (now() - c0) / 1000, {
      oof,
      inSample: (rows) => gather(raw, rows, K),
    });
    candidates.push(gbmCand);
  }
  if (wantLinear) {
    const fits = valRows.map((val, f): FoldFit => ({
      model: { gbm: null, linear: linearLater[f]() },
      rows: val,
      iterations: 0,
    }));
    const model = fits[0].model;
    linCand = make(
      'linear',
      task === 'regression' ? 'Linear(ridge)' : 'Linear(logistic)',
      fits,
      // Wall time until the fits were in (they overlap the GBM's on a second thread).
      (now() - l0) / 1000,
      { oof: scoreFits(ctx, fits), inSample: (rows) => scoreRows(model, enc, rows, K) },
      model.linear,
    );
    candidates.push(linCand);
  }
  if (linCand) {
    // The mean of both models' scores: often better than either when the signal is partly
    // linear (telco churn), and free since both are trained already.
    const fits = gbmCand.fits.map((g, f): FoldFit => ({
      model: blend(g.model.gbm!, linCand.fits[f].model.linear!),
      rows: g.rows,
      iterations: g.iterations,
    }));
    const g = gbmCand;
    const l = linCand;
    const half = (a: Float64Array, b: Float64Array) => a.map((v, i) => (v + b[i]) / 2);
    candidates.push(
      make(
        'blend',
        'Ensemble(mean of GBM, Linear)',
        fits,
        g.training_time + l.training_time,
        {
          oof: half(g.oof, l.oof),
          inSample: (rows) => half(g.inSample(rows), l.inSample(rows)),
        },
        l.linear,
      ),
    );
  }
  // Highest validation score wins; on a tie the earlier (simpler to explain) candidate is kept.
  // USING model names the one that serves instead (the others stay on the leaderboard).
  let best = candidates[0];
  for (const c of candidates) if (c.performance > best.performance) best = c;
  const named = settings.model === 'ensemble' ? 'blend' : settings.model;
  best = candidates.find((c) => c.kind === named) ?? best;
  best.selected = true;
  return { candidates, best };
}
