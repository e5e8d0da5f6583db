// Candidate models trained on the training split and compared on the validation rows: the GBM, the
// linear model and their mean; the highest validation score wins.

import type { CandidateInfo } from '../api';
import { taskScore } from '../analysis/metrics';
import { trainGBM } from '../gbm/boost';
import { type ScoreModel, blend, scoreRows } from '../predict/score';
import { pick } from '../rows';
import { type FitContext, fitLinear } from './fit';
import { now } from './progress';

export interface Candidate extends CandidateInfo {
  kind: 'gbm' | 'linear' | 'blend';
  model: ScoreModel;
  /** Boosting iterations early stopping kept (0 for the linear model). */
  iterations: number;
}

export function accuracyName(ctx: FitContext): string {
  return ctx.shape.task === 'regression' ? 'r2_score' : 'balanced_accuracy_score';
}

/** Trains the candidates `settings.model` allows (the linear one when `wantLinear`), best marked. */
export function trainCandidates(
  ctx: FitContext,
  wantLinear: boolean,
): { candidates: Candidate[]; best: Candidate } {
  const { settings, enc, y, selRows } = ctx;
  const { task, K, nClasses } = ctx.shape;
  const candidates: Candidate[] = [];
  const accName = accuracyName(ctx);
  const yVal = pick(y, selRows);
  let gbmCand: Candidate | null = null;
  let linCand: Candidate | null = null;
  if (settings.model !== 'linear') {
    const c0 = now();
    const res = trainGBM({
      data: enc.binned,
      target: ctx.gTarget,
      trainRows: ctx.split.train,
      valRows: selRows,
      params: ctx.params,
    });
    const valRaw = new Float64Array(selRows.length * K);
    for (let i = 0; i < selRows.length; i++)
      for (let k = 0; k < K; k++) valRaw[i * K + k] = res.raw[selRows[i] * K + k];
    gbmCand = {
      kind: 'gbm',
      name: 'GBM',
      performance: taskScore(task, yVal, valRaw, K, nClasses),
      training_time: (now() - c0) / 1000,
      selected: false,
      accuracy_functions: [accName],
      model: { gbm: res.model, linear: null },
      iterations: res.iterations,
    };
    candidates.push(gbmCand);
  }
  if (wantLinear) {
    const c0 = now();
    const model: ScoreModel = { gbm: null, linear: fitLinear(ctx, ctx.split.train) };
    const valRaw = scoreRows(model, enc, selRows, K);
    linCand = {
      kind: 'linear',
      name: task === 'regression' ? 'Linear(ridge)' : 'Linear(logistic)',
      performance: taskScore(task, yVal, valRaw, K, nClasses),
      training_time: (now() - c0) / 1000,
      selected: false,
      accuracy_functions: [accName],
      model,
      iterations: 0,
    };
    candidates.push(linCand);
  }
  if (gbmCand && linCand) {
    // The mean of both models' scores: often better than either when the signal is partly
    // linear (telco churn), and free since both are trained already.
    const model = blend(gbmCand.model.gbm!, linCand.model.linear!);
    const valRaw = scoreRows(model, enc, selRows, K);
    candidates.push({
      kind: 'blend',
      name: 'Ensemble(mean of GBM, Linear)',
      performance: taskScore(task, yVal, valRaw, K, nClasses),
      training_time: gbmCand.training_time + linCand.training_time,
      selected: false,
      accuracy_functions: [accName],
      model,
      iterations: gbmCand.iterations,
    });
  }
  // Highest validation score wins; on a tie the earlier (simpler to explain) candidate is kept.
  let best = candidates[0];
  for (const c of candidates) if (c.performance > best.performance) best = c;
  best.selected = true;
  return { candidates, best };
}
