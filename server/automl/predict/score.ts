// The scoring parts of a model on encoded rows: raw score = linear part + GBM part (either may be
// absent). The mean ensemble is stored as both parts halved; a finetuned linear model has trees on
// top of it.

import type { Task } from '../api';
import type { Encoded } from '../data/encoded';
import type { GBMModel } from '../gbm/model';
import { predictRawFast } from '../gbm/compile';
import { type LinearModel, predictLinearRows } from '../linear/linear';

export interface ScoreModel {
  gbm: GBMModel | null;
  linear: LinearModel | null;
}

/** Raw scores of `rows` (positions in the encoded data), packed as out[i * K + k]. */
export function scoreRows(m: ScoreModel, enc: Encoded, rows: Int32Array, K: number): Float64Array {
  const nR = rows.length;
  const out = new Float64Array(nR * K);
  if (m.gbm) {
    const F = enc.binned.F;
    const sub = new Uint8Array(nR * F);
    for (let i = 0; i < nR; i++)
      sub.set(enc.binned.bins.subarray(rows[i] * F, rows[i] * F + F), i * F);
    predictRawFast(m.gbm, sub, F, nR, out);
  }
  if (m.linear) {
    const tmp = new Float64Array(enc.n * K);
    predictLinearRows(m.linear, enc.linear!, rows, tmp);
    for (let i = 0; i < nR; i++) for (let k = 0; k < K; k++) out[i * K + k] += tmp[rows[i] * K + k];
  }
  return out;
}

/** 0.5 * GBM + 0.5 * linear, expressed as scaled parts so the score stays "sum of parts". */
export function blend(g: GBMModel, l: LinearModel): ScoreModel {
  return {
    gbm: { ...g, base: g.base.map((v) => v / 2), value: g.value.map((v) => v / 2) },
    linear: { ...l, w: l.w.map((v) => v / 2) },
  };
}

/**
 * How a model's raw scores read: the task, scores per row (K: 1, or the number of classes for
 * multiclass), the regression target's standardisation and a classifier's log class-weight shift.
 */
export interface ScoreShape {
  task: Task;
  K: number;
  nClasses: number;
  /** Regression: the model predicts (y - mean) / std. */
  yScale: { mean: number; std: number } | null;
  /** Classifiers: per-class logit shift back to the real class prior. */
  shift: number[];
}
