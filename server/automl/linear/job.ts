// A linear fit as data (structured-cloneable) shared by the training thread and the pool's model
// thread (threads/model-thread.ts): its scores (one-vs-rest logistic scores, or the one ridge fit) are
// claimed one at a time from a shared counter by whichever thread is free, and their weights
// written to a shared buffer.
import type { LinearRows } from '../data/layout';
import { type LinearModel, fitLogisticScore, fitRidge, logisticScores } from './linear';

export interface LinearJob {
  /** Regression: one ridge fit (y standardized, no weights) instead of logistic scores. */
  ridge?: boolean;
  X: LinearRows;
  rows: Int32Array;
  y: Float64Array;
  nClasses: number;
  weight: Float64Array | null;
  d: number;
  /** Weights to start from (see fitLogistic). */
  init?: Float64Array;
  /** Shared: [next unclaimed score, scores done, failed (1)]. */
  claim: Int32Array;
  /** Shared: the weights, K blocks of d + 1. */
  w: Float64Array;
}

/** Scores of a job: the logistic one-vs-rest scores, or the ridge fit. */
export function jobScores(job: Pick<LinearJob, 'ridge' | 'nClasses'>): number {
  return job.ridge ? 1 : logisticScores(job.nClasses);
}

const NEXT = 0;
const DONE = 1;
const FAILED = 2;

/** Fits scores until none is left unclaimed (on any thread); returns when this one has no more. */
export function fitClaimedScores(job: LinearJob): void {
  const K = jobScores(job);
  const D = job.d + 1;
  for (let k = Atomics.add(job.claim, NEXT, 1); k < K; k = Atomics.add(job.claim, NEXT, 1)) {
    try {
      const { X, rows, y, nClasses, weight, d, init } = job;
      const wk = job.ridge
        ? fitRidge(X, rows, y, weight, d).w
        : fitLogisticScore(k, X, rows, y, nClasses, weight, d, 1, init);
      job.w.set(wk, k * D);
    } catch {
      Atomics.store(job.claim, FAILED, 1);
    }
    Atomics.add(job.claim, DONE, 1);
    Atomics.notify(job.claim, DONE);
  }
}

/**
 * Leaves the job's unclaimed scores unfitted (its training ended without joining it): a thread
 * fitting one finishes that one and takes no other.
 */
export function abandonJob(job: LinearJob): void {
  Atomics.store(job.claim, NEXT, 1 << 30);
}

/** True while a score of the job is unfitted (the model thread may be working on it). */
export function jobPending(job: LinearJob): boolean {
  return Atomics.load(job.claim, DONE) < jobScores(job);
}

/**
 * Fits the scores nobody has claimed yet in this thread, waits for those the model thread is
 * fitting, and returns the model; null if a score failed on the other thread.
 */
export function joinJob(job: LinearJob): LinearModel | null {
  fitClaimedScores(job);
  const K = jobScores(job);
  for (let d = Atomics.load(job.claim, DONE); d < K; d = Atomics.load(job.claim, DONE))
    Atomics.wait(job.claim, DONE, d);
  if (Atomics.load(job.claim, FAILED)) return null;
  return { kind: job.ridge ? 'ridge' : 'logistic', d: job.d, K, w: Float64Array.from(job.w) };
}
