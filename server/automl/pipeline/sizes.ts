// Size-dependent choices of the pipeline: row caps for large tables, the seeded train/validation
// split, class weights and the GBM parameters for a training-set size.

import type { ResolvedSettings } from '../api';
import { DEFAULT_GBM_PARAMS, type GBMParams } from '../gbm/model';
import { type Rng, permutation } from '../prng';

/**
 * Refitting on all rows costs two more GBM fits (the refit and the learning-curve probe) and buys
 * little once the training split is large, so big tables keep the validated model as is (and its
 * exactly calibrated intervals).
 */
export const REFIT_MAX_ROWS = 20_000;
/** The linear candidate's sparse design matrix costs ~12 bytes x slots per row; skip it beyond this. */
export const LINEAR_MAX_ROWS = 200_000;
/**
 * Large tables. Past GBM_SAMPLE_MIN_ROWS training rows each boosting iteration grows its tree on a
 * seeded sample of GBM_SAMPLE_ROWS rows (bagging, as LightGBM's bagging_fraction): the
 * histogram work per tree stays bounded whatever the table size, and with hundreds of trees every
 * row is still seen many times. Boosting then also stops once LARGE_PATIENCE iterations in a row
 * improved the validation loss by less than LARGE_MIN_REL_IMPROVEMENT in total (see MID_MIN_ROWS),
 * and runs at most LARGE_MAX_ITERATIONS iterations unless USING max_iterations asks for more.
 */
export const GBM_SAMPLE_MIN_ROWS = 150_000;
export const GBM_SAMPLE_ROWS = 100_000;
const LARGE_MIN_REL_IMPROVEMENT = 5e-4;
export const LARGE_MAX_ITERATIONS = 500;
/**
 * From MID_MIN_ROWS training rows, boosting stops once LARGE_PATIENCE iterations in a row improved
 * the validation loss by less than MID_MIN_REL_IMPROVEMENT in total (unless USING
 * early_stopping_rounds says otherwise): the last fractions of a percent of loss cost as many trees
 * as the first 99 %, every tree is paid again at each prediction, and the patience's trees are
 * grown only to be dropped. Patience 10 is HistGradientBoosting's; with the tolerance halved from
 * 1e-3 it kept the held-out r2 of patience 20 within 0.001 (messy 30k: 97 -> 74 trees, 0.6244 ->
 * 0.6234; 200k: 133 -> 95 trees, 0.6274 -> 0.6264; HGB 0.6222 / 0.6252).
 */
const MID_MIN_ROWS = 10_000;
const MID_MIN_REL_IMPROVEMENT = 5e-4;
export const LARGE_PATIENCE = 10;
/**
 * Validation rows used for early stopping and candidate selection (a seeded sample beyond this;
 * 20k rows measure r2 / balanced accuracy to the third decimal), and for the analysis (conformal
 * calibration, accuracy, the report): the 90 % quantile of 10k residuals covers 0.900 +- 0.003
 * (one standard error), and the analysis of 20k rows cost a 200k-row training 0.15 s.
 */
export const SELECT_MAX_ROWS = 20_000;
export const ANALYSIS_MAX_ROWS = 10_000;
/**
 * From this many rows (single split) the pool's model thread is started with the training, so it
 * is loaded when the analysis shares permutation-importance columns and missing-input masks with
 * it (threads/ shareTasks); below, the analysis takes a few tens of milliseconds.
 */
export const SHARED_ANALYSIS_MIN_ROWS = 10_000;
/** The reduced model (see analysis/analyze.ts) trains on at most this many rows. */
export const REDUCED_MAX_ROWS = 200_000;

/**
 * Small data is cross-fitted: with at most this many training scores (rows x scores per row),
 * every candidate is fitted in FOLDS folds, so selection and calibration see every row out of
 * fold (a 20 % split of 150 rows is 30 rows: one lucky split makes a classifier certain), and the
 * shipped model is refit on all rows.
 */
export const CROSSFIT_MAX_SCORES = 3_000;
/** ... and at least this many rows (each fold must hold a few). */
export const CROSSFIT_MIN_ROWS = 30;
export const FOLDS = 5;
/**
 * Classifiers: boosting stops once 20 iterations in a row improved the validation log-loss by
 * less than this (nats per row) in total. On separable data the loss shrinks geometrically
 * forever (thousands of trees answering 0 or 1); a model that improves by less is done.
 */
const CLASSIFIER_MIN_IMPROVEMENT = 2e-3;

/** Positions of the training and validation rows. */
export interface Split {
  train: Int32Array;
  val: Int32Array;
}

/**
 * Seeded train/validation split of positions 0..n-1. Classification splits are stratified so a
 * rare class is represented on both sides (and always keeps at least one training row).
 */
export function splitRows(opts: {
  n: number;
  /** Share of the rows that go to validation. */
  fraction: number;
  rng: Rng;
  /** Class codes per position, to stratify (null: regression). */
  classes: Float64Array | null;
  nClasses: number;
}): Split {
  const { n, fraction, rng, classes, nClasses } = opts;
  const perm = permutation(n, rng);
  const isVal = new Uint8Array(n);
  if (classes) {
    const count = new Float64Array(nClasses);
    for (let i = 0; i < n; i++) count[classes[i]]++;
    const quota = Array.from(count, (c) => Math.min(Math.round(c * fraction), c - 1));
    const taken = new Float64Array(nClasses);
    for (const i of perm) {
      const c = classes[i];
      if (taken[c] < quota[c]) {
        taken[c]++;
        isVal[i] = 1;
      }
    }
  } else {
    const nVal = Math.max(1, Math.round(n * fraction));
    for (let j = 0; j < nVal; j++) isVal[perm[j]] = 1;
  }
  const train: number[] = [];
  const val: number[] = [];
  // Keep the shuffled order (not row order) so nothing downstream depends on how rows were sorted.
  for (const i of perm) (isVal[i] ? val : train).push(i);
  return { train: Int32Array.from(train), val: Int32Array.from(val) };
}

/**
 * Seeded K-fold split of positions 0..n-1: fold f validates on its rows and trains on the others.
 * Classes are dealt to the folds in turn (stratified), so each fold sees each class.
 */
export function foldRows(opts: {
  n: number;
  folds: number;
  rng: Rng;
  classes: Float64Array | null;
  nClasses: number;
}): Split[] {
  const { n, folds, rng, classes, nClasses } = opts;
  const perm = permutation(n, rng);
  const fold = new Int32Array(n);
  const next = new Int32Array(Math.max(1, nClasses));
  perm.forEach((r, i) => {
    if (classes) fold[r] = next[classes[r]]++ % folds;
    else fold[r] = i % folds;
  });
  return Array.from({ length: folds }, (_, f) => {
    const train: number[] = [];
    const val: number[] = [];
    for (const r of perm) (fold[r] === f ? val : train).push(r);
    return { train: Int32Array.from(train), val: Int32Array.from(val) };
  });
}

/** Inverse-frequency class weights n / (K * n_c): each class carries the same total weight. */
export function classWeights(y: Float64Array, nClasses: number): number[] {
  const count = new Float64Array(nClasses);
  for (const c of y) count[c]++;
  return Array.from(count, (c) => (c > 0 ? y.length / (nClasses * c) : 1));
}

/**
 * From this many training rows boosting steps at LARGE_LEARNING_RATE unless USING learning_rate
 * says otherwise: with thousands of rows per leaf a step of 0.15 overfits no sooner than 0.1
 * (early stopping watches either), and it reaches the same validation loss in about two thirds of
 * the trees (messy 30k: 174 -> 81 trees, held-out r2 0.6258 -> 0.6261; every tree is paid again
 * in the analysis and at each prediction).
 */
export const LARGE_RATE_MIN_ROWS = MID_MIN_ROWS;
export const LARGE_LEARNING_RATE = 0.15;

/** What USING set explicitly, which size-dependent defaults then leave alone. */
export interface UserChoices {
  /** USING max_iterations: the large-table iteration cap does not apply. */
  iterations?: boolean;
  /** USING learning_rate: used at every size. */
  rate?: boolean;
  /** USING validation_fraction: used at every size. */
  validation?: boolean;
  /** USING early_stopping_rounds: used at every size. */
  patience?: boolean;
}

/** The USING keys of `UserChoices` that a statement set. */
export function userChoices(using: Record<string, unknown> | undefined): UserChoices {
  return {
    iterations: usesKey(using, 'max_iterations'),
    rate: usesKey(using, 'learning_rate'),
    validation: usesKey(using, 'validation_fraction'),
    patience: usesKey(using, 'early_stopping_rounds'),
  };
}

/**
 * Large tables hold out fewer rows than the default fifth: from LARGE_VALIDATION_MIN_ROWS rows,
 * LARGE_VALIDATION_ROWS rows or a tenth, whichever is more (HistGradientBoosting holds out a
 * tenth). 4,000 rows measure the validation loss and the conformal quantiles well; the rows a
 * fifth would add are better spent on training, as large tables are not refit on all rows.
 */
export const LARGE_VALIDATION_MIN_ROWS = 20_000;
const LARGE_VALIDATION_ROWS = 4_000;

/** The share of `n` rows held out for validation (the setting, or less on large tables). */
export function validationShare(s: ResolvedSettings, n: number, user: UserChoices): number {
  if (user.validation || n < LARGE_VALIDATION_MIN_ROWS) return s.validationFraction;
  return Math.min(s.validationFraction, Math.max(0.1, LARGE_VALIDATION_ROWS / n));
}

/** GBM parameters for `nTrain` training rows. */
export function gbmParams(
  s: ResolvedSettings,
  nTrain: number,
  opts: { user?: UserChoices; classifier?: boolean } = {},
): GBMParams {
  const user = opts.user ?? {};
  // Small data: 20 rows per leaf would forbid almost every split of a 50-row table.
  const minLeaf = Math.max(1, Math.min(s.minSamplesLeaf, Math.floor(nTrain / 10)));
  const large = nTrain > GBM_SAMPLE_MIN_ROWS;
  // Rounds capped by data size: a few hundred rows cannot support a thousand trees.
  const cap = large ? LARGE_MAX_ITERATIONS : Math.max(200, 2 * nTrain);
  return {
    ...DEFAULT_GBM_PARAMS,
    learningRate:
      !user.rate && nTrain >= LARGE_RATE_MIN_ROWS ? LARGE_LEARNING_RATE : s.learningRate,
    maxIterations: user.iterations ? s.maxIterations : Math.min(s.maxIterations, cap),
    maxLeaves: s.maxLeaves > 0 ? s.maxLeaves : nTrain < 10_000 ? 15 : 31,
    minSamplesLeaf: minLeaf,
    l2: s.l2,
    earlyStoppingRounds:
      !user.patience && nTrain >= MID_MIN_ROWS
        ? Math.min(s.earlyStoppingRounds, LARGE_PATIENCE)
        : s.earlyStoppingRounds,
    minDataPerCat: Math.min(DEFAULT_GBM_PARAMS.minDataPerCat, minLeaf),
    // Classifiers: the log-loss tolerance; multiclass ones grow vector-leaf trees (gbm/model.ts).
    ...(opts.classifier
      ? { minAbsImprovement: CLASSIFIER_MIN_IMPROVEMENT, vectorLeaves: true }
      : {}),
    ...(large
      ? {
          subsampleRows: GBM_SAMPLE_ROWS,
          seed: s.seed,
          minRelImprovement: LARGE_MIN_REL_IMPROVEMENT,
        }
      : nTrain >= MID_MIN_ROWS
        ? { minRelImprovement: MID_MIN_REL_IMPROVEMENT }
        : {}),
  };
}

/** True when USING names `key` (case-insensitive). */
export function usesKey(using: Record<string, unknown> | undefined, key: string): boolean {
  return (
    !!using && Object.keys(using).some((k) => k.toLowerCase() === key && using[k] !== undefined)
  );
}
