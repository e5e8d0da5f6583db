// A linear fit as data (structured-cloneable): what the pool's model thread receives
// (linear/worker.ts), and the same fit run in the calling thread.
import type { LinearRows } from '../data/layout';
import { type LinearModel, fitLogistic, fitRidge } from './linear';

export interface LinearJob {
  kind: 'ridge' | 'logistic';
  X: LinearRows;
  rows: Int32Array;
  y: Float64Array;
  nClasses: number;
  weight: Float64Array | null;
  d: number;
  /** Logistic: weights to start from (see fitLogistic). */
  init?: Float64Array;
}

export type LinearAnswer = { model: LinearModel } | { error: string };

export function fitJob(job: LinearJob): LinearModel {
  return job.kind === 'ridge'
    ? fitRidge(job.X, job.rows, job.y, job.weight, job.d)
    : fitLogistic(job.X, job.rows, job.y, job.nClasses, job.weight, job.d, 1, job.init);
}
