// Candidate models compared on rows they did not train on: the GBM, the linear model and their
// mean, fitted on the training split (validated on the validation rows) or, on small data, in
// every fold (validated out of fold on all rows). The highest validation score wins.

import type { CandidateInfo } from '../api';
import type { ScoredPart } from '../analysis/analyze';
import { taskScore } from '../analysis/metrics';
import { trainGBM } from '../gbm/boost';
import { type ScoreModel, blend, scoreRows } from '../predict/score';
import { type FitContext, fitLinear } from './fit';
import { now } from './progress';

/** One fit of a candidate: the model and the rows it is validated on (it did not train on them). */
export interface FoldFit {
  model: ScoreModel;
  rows: Int32Array;
  /** Boosting iterations early stopping kept (0 for the linear model). */
  iterations: number;
}

export interface Candidate extends CandidateInfo {
  kind: 'gbm' | 'linear' | 'blend';
  /** One fit per fold (one in all for a single validation split). */
  fits: FoldFit[];
  /** The model fitted on the training split (single split), else the first fold's. */
  model: ScoreModel;
  /** Mean boosting iterations over the fits. */
  iterations: number;
}

export function accuracyName(ctx: FitContext): string {
  return ctx.shape.task === 'regression' ? 'r2_score' : 'balanced_accuracy_score';
}

/** The fits of a candidate as scored parts for the analysis (scales are added by the caller). */
export function scoredParts(c: Candidate): ScoredPart[] {
  return c.fits.map((f) => ({ model: f.model, rows: f.rows, scale: null }));
}

/** Validation rows of each fold: the capped validation rows (single split) or the fold's rows. */
export function validationRows(ctx: FitContext): Int32Array[] {
  return ctx.crossFit ? ctx.folds.map((f) => f.val) : [ctx.selRows];
}

/** Out-of-fold raw scores of a candidate's fits, concatenated in fold order. */
function outOfFold(ctx: FitContext, fits: FoldFit[]): Float64Array {
  const K = ctx.shape.K;
  const parts = fits.map((f) => scoreRows(f.model, ctx.enc, f.rows, K));
  const out = new Float64Array(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Trains the candidates `settings.model` allows (the linear one when `wantLinear`), best marked. */
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
  const yVal = Float64Array.from(
    valRows.flatMap((rows) => Array.from(rows)),
    (r) => y[r],
  );
  const score = (fits: FoldFit[]) => taskScore(task, yVal, outOfFold(ctx, fits), K, nClasses);
  const make = (
    kind: Candidate['kind'],
    name: string,
    fits: FoldFit[],
    seconds: number,
  ): Candidate => ({
    kind,
    name,
    performance: score(fits),
    training_time: seconds,
    selected: false,
    accuracy_functions: [accName],
    fits,
    model: fits[0].model,
    iterations: fits.reduce((s, f) => s + f.iterations, 0) / fits.length,
  });
  let gbmCand: Candidate | null = null;
  let linCand: Candidate | null = null;
  if (settings.model !== 'linear') {
    const c0 = now();
    const fits = valRows.map((val, f): FoldFit => {
      const res = trainGBM({
        data: enc.binned,
        target: ctx.gTarget,
        trainRows: trainRows[f],
        valRows: val,
        params: ctx.params,
      });
      return { model: { gbm: res.model, linear: null }, rows: val, iterations: res.iterations };
    });
    gbmCand = make('gbm', 'GBM', fits, (now() - c0) / 1000);
    candidates.push(gbmCand);
  }
  if (wantLinear) {
    const c0 = now();
    const fits = valRows.map((val, f): FoldFit => ({
      model: { gbm: null, linear: fitLinear(ctx, trainRows[f]) },
      rows: val,
      iterations: 0,
    }));
    linCand = make(
      'linear',
      task === 'regression' ? 'Linear(ridge)' : 'Linear(logistic)',
      fits,
      (now() - c0) / 1000,
    );
    candidates.push(linCand);
  }
  if (gbmCand && linCand) {
    // The mean of both models' scores: often better than either when the signal is partly
    // linear (telco churn), and free since both are trained already.
    const fits = gbmCand.fits.map((g, f): FoldFit => ({
      model: blend(g.model.gbm!, linCand!.fits[f].model.linear!),
      rows: g.rows,
      iterations: g.iterations,
    }));
    candidates.push(
      make(
        'blend',
        'Ensemble(mean of GBM, Linear)',
        fits,
        gbmCand.training_time + linCand.training_time,
      ),
    );
  }
  // Highest validation score wins; on a tie the earlier (simpler to explain) candidate is kept.
  let best = candidates[0];
  for (const c of candidates) if (c.performance > best.performance) best = c;
  best.selected = true;
  return { candidates, best };
}
