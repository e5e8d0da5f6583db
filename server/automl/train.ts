// The training pipeline: type inference -> encoders -> candidate models (GBM, linear) picked on a
// validation split -> analysis (conformal calibration, accuracy, permutation importance) ->
// optional refit on all rows -> a JSON artifact. Also finetune (continue boosting on new rows).

import type {
  CandidateInfo,
  CellValue,
  Dataset,
  FeatureInfo,
  MissingCalibration,
  ModelArtifact,
  ModelDescription,
  ResolvedSettings,
  SerializedLinear,
  Task,
  TrainOptions,
  TrainProgress,
} from './api';
import {
  type ClassCalibration,
  classProbabilities,
  fitClassCalibration,
  predictedClass,
  regressionHalfWidth,
} from './conformal';
import {
  type ColumnEncoder,
  type Layout,
  type LinearRows,
  binStreams,
  buildLayout,
  encoderName,
  fitEncoders,
  linearRows,
  parseStreams,
} from './encoders';
import { AutoMLError } from './errors';
import {
  type BinnedData,
  type GBMModel,
  type GBMParams,
  type GBMTarget,
  DEFAULT_GBM_PARAMS,
  countLeaves,
  deserializeGBM,
  fromBase64,
  predictRaw,
  serializeGBM,
  toBase64,
  trainGBM,
} from './gbm';
import { permutationImportance } from './importance';
import { type LinearModel, fitLogistic, fitRidge, predictLinearRows } from './linear';
import { balancedAccuracyScore, r2Score } from './metrics';
import { DEFAULT_SETTINGS, resolveSettings } from './options';
import { Rng, permutation } from './prng';
import {
  type BaseType,
  type ColumnProfile,
  type ValueKind,
  categoryKey,
  inferColumnType,
  isMissing,
  keyToLabel,
  parseNumber,
} from './types';

/** Fewer rows than this cannot be split into training and validation rows meaningfully. */
export const MIN_TRAIN_ROWS = 5;
/**
 * Refitting on all rows costs two more GBM fits (the refit and the learning-curve probe) and buys
 * little once the training split is large, so big tables keep the validated model as is (and its
 * exactly calibrated intervals).
 */
const REFIT_MAX_ROWS = 20_000;
/** The linear candidate's sparse design matrix costs ~12 bytes x slots per row; skip it beyond this. */
const LINEAR_MAX_ROWS = 200_000;
/** Type inference looks at a seeded sample of this many rows (distinct counts, parse shares). */
const INFERENCE_SAMPLE_ROWS = 100_000;
/** Permutation importance is estimated on at most this many validation rows. */
const IMPORTANCE_MAX_ROWS = 2_000;
/**
 * Large tables. Past GBM_SAMPLE_MIN_ROWS training rows each boosting iteration grows its tree on a
 * seeded sample of GBM_SAMPLE_ROWS rows (bagging, as LightGBM's bagging_fraction): the
 * histogram work per tree stays bounded whatever the table size, and with hundreds of trees every
 * row is still seen many times. Boosting then also stops once 20 iterations in a row improved the
 * validation loss by less than LARGE_MIN_REL_IMPROVEMENT in total (the curve is flat: on a 1M-row
 * table a 3x smaller threshold buys 20 more trees and no r2 at the fourth decimal), and runs at most
 * LARGE_MAX_ITERATIONS iterations unless USING max_iterations asks for more.
 */
export const GBM_SAMPLE_MIN_ROWS = 150_000;
export const GBM_SAMPLE_ROWS = 100_000;
const LARGE_MIN_REL_IMPROVEMENT = 1e-3;
export const LARGE_MAX_ITERATIONS = 500;
/**
 * Validation rows used for early stopping and candidate selection (a seeded sample beyond this;
 * 50k rows measure r2 / balanced accuracy to the third decimal), and for the analysis (conformal
 * calibration per missing-input mask, accuracy): a quantile of 20k residuals is as good as exact.
 */
const SELECT_MAX_ROWS = 50_000;
/** The reduced model (see REDUCED_MIN_IMPORTANCE) trains on at most this many rows. */
const REDUCED_MAX_ROWS = 200_000;
const ANALYSIS_MAX_ROWS = 20_000;
/** A classifier grows one tree per class per iteration; beyond this a "class" is an identifier. */
export const MAX_CLASSES = 100;
const PHASES = [
  'analyzing data',
  'encoding',
  'training candidates',
  'analyzing model',
  'finalizing',
];

function now(): number {
  return performance.now();
}

function progress(cb: ((p: TrainProgress) => void) | undefined, phase: number): void {
  cb?.({ phase, total: PHASES.length, name: PHASES[phase - 1] });
}

// ---------------------------------------------------------------------------------------------
// Target analysis
// ---------------------------------------------------------------------------------------------

interface TargetInfo {
  task: Task;
  profile: ColumnProfile;
  /** Positions (into the data rows) of rows with a usable target. */
  keep: number[];
  /** Regression: values; classification: class codes. Indexed by position in `keep`. */
  y: Float64Array;
  classKeys: string[] | null;
  classLabels: (string | number | boolean)[] | null;
}

function sortClassKeys(keys: string[], kind: ValueKind): string[] {
  if (kind === 'number') return keys.sort((a, b) => Number(a) - Number(b));
  return keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function analyzeTarget(data: Dataset, target: string, seed: number): TargetInfo {
  const tIdx = data.columns.indexOf(target);
  if (tIdx < 0) {
    throw new AutoMLError(
      `target column '${target}' is not in the data; columns are: ${data.columns.join(', ')}`,
    );
  }
  if (data.rows.length === 0) throw new AutoMLError('the training data has no rows');
  const present: number[] = [];
  for (let r = 0; r < data.rows.length; r++) if (!isMissing(data.rows[r][tIdx])) present.push(r);
  if (present.length === 0) {
    throw new AutoMLError(
      `target column '${target}' has no values: all ${data.rows.length} rows are NULL or blank`,
    );
  }
  checkRowCount(target, present.length);
  const values = present.map((r) => data.rows[r][tIdx]);
  let profile = inferColumnType(target, inferenceSample(values, seed));
  // A target is never dropped: an "identifier" target is judged by its underlying data type.
  if (profile.type === 'identifier' && profile.dataType === 'integer') {
    profile = { ...profile, type: 'integer' };
  }
  const t = profile.type;
  if (profile.constant) {
    const only = String(values[0]);
    throw new AutoMLError(
      t === 'binary' || t === 'categorical'
        ? `target column '${target}' has only one class ('${only}'); a classifier needs at least 2`
        : `target column '${target}' has a single value (${only}) in every row; there is nothing to learn`,
    );
  }
  if (t === 'datetime') {
    throw new AutoMLError(
      `target column '${target}' holds dates/times; predicting dates is not supported`,
    );
  }
  if (t === 'integer' || t === 'float') {
    const keep: number[] = [];
    const y: number[] = [];
    for (let i = 0; i < present.length; i++) {
      const x = parseNumber(values[i]);
      if (!Number.isNaN(x)) {
        keep.push(present[i]);
        y.push(x);
      }
    }
    checkRowCount(target, keep.length);
    return {
      task: 'regression',
      profile,
      keep,
      y: Float64Array.from(y),
      classKeys: null,
      classLabels: null,
    };
  }
  // Classification (binary, categorical, short text, string identifiers with few values).
  const kind = profile.valueKind;
  const counts = new Map<string, number>();
  for (const v of values) {
    const k = categoryKey(v, kind)!;
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  if (counts.size > MAX_CLASSES) {
    throw new AutoMLError(
      `target column '${target}' has ${counts.size} distinct values; classification supports at most ${MAX_CLASSES} classes (is it an identifier or free text?)`,
    );
  }
  const classKeys = sortClassKeys([...counts.keys()], kind);
  const code = new Map(classKeys.map((k, i) => [k, i]));
  const y = new Float64Array(present.length);
  for (let i = 0; i < present.length; i++) y[i] = code.get(categoryKey(values[i], kind)!)!;
  checkRowCount(target, present.length);
  return {
    task: classKeys.length === 2 ? 'binary' : 'multiclass',
    profile: { ...profile, type: classKeys.length === 2 ? 'binary' : 'categorical' },
    keep: present,
    y,
    classKeys,
    classLabels: classKeys.map((k) => keyToLabel(k, kind)),
  };
}

/** A seeded sample of `values` when there are more than INFERENCE_SAMPLE_ROWS of them. */
function inferenceSample<T>(values: T[], seed: number): T[] {
  if (values.length <= INFERENCE_SAMPLE_ROWS) return values;
  const p = permutation(values.length, new Rng(seed ^ 0x5eed));
  const out = new Array<T>(INFERENCE_SAMPLE_ROWS);
  for (let i = 0; i < INFERENCE_SAMPLE_ROWS; i++) out[i] = values[p[i]];
  return out;
}

function checkRowCount(target: string, n: number): void {
  if (n < MIN_TRAIN_ROWS) {
    throw new AutoMLError(
      `training needs at least ${MIN_TRAIN_ROWS} rows with a value in '${target}', got ${n}`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Splits, weights, parameters
// ---------------------------------------------------------------------------------------------

/**
 * Seeded train/validation split of positions 0..n-1. Classification splits are stratified so a
 * rare class is represented on both sides (and always keeps at least one training row).
 */
function splitRows(
  n: number,
  fraction: number,
  rng: Rng,
  classes: Float64Array | null,
  nClasses: number,
): { train: Int32Array; val: Int32Array } {
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

/** Inverse-frequency class weights n / (K * n_c): each class carries the same total weight. */
function classWeights(y: Float64Array, nClasses: number): number[] {
  const count = new Float64Array(nClasses);
  for (const c of y) count[c]++;
  return Array.from(count, (c) => (c > 0 ? y.length / (nClasses * c) : 1));
}

/**
 * GBM parameters for `nTrain` training rows. `userIterations`: USING max_iterations was given, so
 * the large-table iteration cap does not apply.
 */
export function gbmParams(s: ResolvedSettings, nTrain: number, userIterations = false): GBMParams {
  // Small data: 20 rows per leaf would forbid almost every split of a 50-row table.
  const minLeaf = Math.max(1, Math.min(s.minSamplesLeaf, Math.floor(nTrain / 10)));
  const large = nTrain > GBM_SAMPLE_MIN_ROWS;
  return {
    ...DEFAULT_GBM_PARAMS,
    learningRate: s.learningRate,
    maxIterations:
      large && !userIterations ? Math.min(s.maxIterations, LARGE_MAX_ITERATIONS) : s.maxIterations,
    maxLeaves: s.maxLeaves > 0 ? s.maxLeaves : nTrain < 10_000 ? 15 : 31,
    minSamplesLeaf: minLeaf,
    l2: s.l2,
    earlyStoppingRounds: s.earlyStoppingRounds,
    minDataPerCat: Math.min(DEFAULT_GBM_PARAMS.minDataPerCat, minLeaf),
    ...(large
      ? {
          subsampleRows: GBM_SAMPLE_ROWS,
          seed: s.seed,
          minRelImprovement: LARGE_MIN_REL_IMPROVEMENT,
        }
      : {}),
  };
}

/** True when USING names `key` (case-insensitive). */
function usesKey(using: Record<string, unknown> | undefined, key: string): boolean {
  return (
    !!using && Object.keys(using).some((k) => k.toLowerCase() === key && using[k] !== undefined)
  );
}

/**
 * At most `max` of `rows`: a seeded sample (kept in the original order) beyond that, else `rows`
 * itself. Uses its own RNG stream so small tables draw exactly the numbers they always did.
 */
function capRows(rows: Int32Array, max: number, seed: number): Int32Array {
  if (rows.length <= max) return rows;
  const keep = new Uint8Array(rows.length);
  const p = permutation(rows.length, new Rng(seed));
  for (let i = 0; i < max; i++) keep[p[i]] = 1;
  const out = new Int32Array(max);
  let j = 0;
  for (let i = 0; i < rows.length; i++) if (keep[i]) out[j++] = rows[i];
  return out;
}

// ---------------------------------------------------------------------------------------------
// Encoded data shared by training and finetuning
// ---------------------------------------------------------------------------------------------

interface Encoded {
  n: number;
  layout: Layout;
  binned: BinnedData;
  /** Null when no linear model is trained or used (large tables). */
  linear: LinearRows | null;
}

function encode(
  encs: ColumnEncoder[],
  columns: (ArrayLike<unknown> | undefined)[],
  n: number,
  withLinear: boolean,
): Encoded {
  const layout = buildLayout(encs);
  const streams = parseStreams(encs, columns, n, false);
  const F = layout.features.length;
  const binned: BinnedData = {
    n,
    F,
    bins: binStreams(layout, streams, n),
    nBins: Int32Array.from(layout.features, (f) => f.nBins),
    isCat: Uint8Array.from(layout.features, (f) => (f.isCat ? 1 : 0)),
  };
  return { n, layout, binned, linear: withLinear ? linearRows(layout, streams, n) : null };
}

/** The scoring parts of a model: raw score = linear part + GBM part (either may be absent). */
interface ScoreModel {
  gbm: GBMModel | null;
  linear: LinearModel | null;
}

/** Raw scores of `rows` (positions in the encoded data), packed as out[i * K + k]. */
function scoreRows(m: ScoreModel, enc: Encoded, rows: Int32Array, K: number): Float64Array {
  const nR = rows.length;
  const out = new Float64Array(nR * K);
  if (m.gbm) {
    const F = enc.binned.F;
    const sub = new Uint8Array(nR * F);
    for (let i = 0; i < nR; i++)
      sub.set(enc.binned.bins.subarray(rows[i] * F, rows[i] * F + F), i * F);
    predictRaw(m.gbm, sub, F, nR, out);
  }
  if (m.linear) {
    const tmp = new Float64Array(enc.n * K);
    predictLinearRows(m.linear, enc.linear!, rows, tmp);
    for (let i = 0; i < nR; i++) for (let k = 0; k < K; k++) out[i * K + k] += tmp[rows[i] * K + k];
  }
  return out;
}

/** Task score used for model selection and DESCRIBE accuracies (higher is better). */
function taskScore(
  task: Task,
  yRows: Float64Array,
  raw: Float64Array,
  K: number,
  nClasses: number,
): number {
  if (task === 'regression') return r2Score(yRows, raw);
  const pred = new Float64Array(yRows.length);
  for (let i = 0; i < yRows.length; i++) pred[i] = predictedClass(raw, i * K, K);
  return balancedAccuracyScore(yRows, pred, nClasses);
}

function pick(a: Float64Array, rows: Int32Array): Float64Array {
  const out = new Float64Array(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = a[rows[i]];
  return out;
}

// ---------------------------------------------------------------------------------------------
// Analysis: calibration + importance
// ---------------------------------------------------------------------------------------------

interface Analysis {
  halfWidth: number | null;
  classCal: ClassCalibration | null;
  accuracy: number;
  importances: number[];
  missing: MissingCalibration | null;
  reduced: ReducedModel | null;
}

/** A GBM trained with one input column (encoder index) missing, used when it is absent. */
interface ReducedModel {
  column: number;
  gbm: GBMModel;
}

/**
 * A column with at least this permutation importance gets a reduced model: tree routing of a
 * missing value cannot recover what such a column carries (home_rentals' initial_price, 0.998),
 * while a model trained without it learns the conditional mean from the other inputs.
 */
const REDUCED_MIN_IMPORTANCE = 0.5;

/** The training bins with every tree feature of encoder `column` set to its missing bin. */
function maskedBinned(enc: Encoded, column: number): BinnedData {
  const b = enc.binned;
  const bins = Uint8Array.from(b.bins);
  const F = b.F;
  for (const f of enc.layout.encoderFeatures[column]) {
    const miss = b.nBins[f] - 1; // numeric and categorical features keep 'missing' last
    for (let i = 0; i < b.n; i++) bins[i * F + f] = miss;
  }
  return { ...b, bins };
}

function analyze(
  task: Task,
  model: ScoreModel,
  enc: Encoded,
  encs: ColumnEncoder[],
  rows: Int32Array,
  y: Float64Array,
  yScale: { mean: number; std: number } | null,
  K: number,
  nClasses: number,
  shift: number[],
  level: number,
  rng: Rng,
  /** Called with the importances; may train a reduced model for the dominant column. */
  makeReduced: (importances: number[]) => ReducedModel | null = () => null,
): Analysis {
  const yRows = pick(y, rows);
  const raw = scoreRows(model, enc, rows, K);
  let halfWidth: number | null = null;
  let classCal: ClassCalibration | null = null;
  if (task === 'regression') {
    // Residuals in original units; the interval is pred -/+ halfWidth.
    const pred = Float64Array.from(raw, (v) => yScale!.mean + yScale!.std * v);
    const truth = Float64Array.from(yRows, (v) => yScale!.mean + yScale!.std * v);
    halfWidth = regressionHalfWidth(truth, pred, level);
  } else {
    classCal = fitClassCalibration(raw, yRows, K, nClasses, shift, level);
  }
  const accuracy = taskScore(task, yRows, raw, K, nClasses);
  let impRows = rows;
  let impY = yRows;
  if (rows.length > IMPORTANCE_MAX_ROWS) {
    const p = permutation(rows.length, rng).slice(0, IMPORTANCE_MAX_ROWS);
    impRows = Int32Array.from(p, (i) => rows[i]);
    impY = Float64Array.from(p, (i) => yRows[i]);
  }
  const importances = columnImportances(
    task,
    model,
    enc,
    impRows,
    impY,
    K,
    nClasses,
    classCal,
    rng,
  );
  const reduced = makeReduced(importances);
  // Group ranking for the missing-input calibration: with a reduced model the dominant column
  // comes first and the others follow their importance in the reduced model (in the main model
  // they are all ~0 next to the dominant one, which would make the grouping arbitrary).
  let ranking = importances;
  if (reduced) {
    const m = Math.min(impRows.length, 500);
    const r = columnImportances(
      task,
      { gbm: reduced.gbm, linear: null },
      enc,
      impRows.subarray(0, m),
      impY.subarray(0, m),
      K,
      nClasses,
      classCal,
      rng,
    );
    ranking = r.map((v, c) => (c === reduced.column ? 2 : v));
  }
  const missing = missingCalibration(
    task,
    model,
    reduced,
    enc,
    encs,
    rows,
    yRows,
    yScale,
    K,
    nClasses,
    shift,
    level,
    ranking,
    halfWidth,
    classCal,
  );
  return { halfWidth, classCal, accuracy, importances, missing, reduced };
}

/** Input columns calibrated one by one for missing inputs; the less important rest is pooled. */
const MISSING_SINGLE_GROUPS = 3;

/**
 * Column groups for the missing-input calibration: with at most 4 inputs each is its own group,
 * otherwise the 3 most important columns are single groups and the others form one pooled group
 * (at most 4 groups, so 16 masks to calibrate).
 */
export function missingGroups(importances: number[]): number[][] {
  const p = importances.length;
  const order = Array.from({ length: p }, (_, i) => i).sort(
    (a, b) => importances[b] - importances[a] || a - b,
  );
  if (p <= MISSING_SINGLE_GROUPS + 1) return order.map((c) => [c]);
  return [
    ...order.slice(0, MISSING_SINGLE_GROUPS).map((c) => [c]),
    order.slice(MISSING_SINGLE_GROUPS).sort((a, b) => a - b),
  ];
}

/**
 * Scores `rows` with chosen input columns forced to missing, encoded exactly as the predictor
 * encodes an absent value (the bins / linear slots of an all-missing row).
 */
function maskedScorer(
  model: ScoreModel,
  enc: Encoded,
  encs: ColumnEncoder[],
  rows: Int32Array,
  K: number,
): (columns: number[]) => Float64Array {
  const nR = rows.length;
  const F = enc.binned.F;
  const miss = encode(
    encs,
    encs.map(() => undefined),
    1,
    enc.linear !== null,
  );
  const bins0 = new Uint8Array(nR * F);
  for (let i = 0; i < nR; i++)
    bins0.set(enc.binned.bins.subarray(rows[i] * F, rows[i] * F + F), i * F);
  const S = enc.linear ? enc.linear.slots : 0;
  const idx0 = new Int32Array(nR * S);
  const val0 = new Float64Array(nR * S);
  if (enc.linear) {
    for (let i = 0; i < nR; i++) {
      idx0.set(enc.linear.idx.subarray(rows[i] * S, rows[i] * S + S), i * S);
      val0.set(enc.linear.val.subarray(rows[i] * S, rows[i] * S + S), i * S);
    }
  }
  // Linear slots of each feature (same order as linearRows()).
  const featSlot: number[] = [];
  const featWidth: number[] = [];
  let s0 = 0;
  for (const f of enc.layout.features) {
    featSlot.push(s0);
    const w = f.isCat ? 1 : f.linMissDim >= 0 ? 2 : 1;
    featWidth.push(w);
    s0 += w;
  }
  const bins = new Uint8Array(nR * F);
  const idx = new Int32Array(nR * S);
  const val = new Float64Array(nR * S);
  const masked: Encoded = {
    n: nR,
    layout: enc.layout,
    binned: { ...enc.binned, n: nR, bins },
    linear: enc.linear ? { n: nR, slots: S, idx, val } : null,
  };
  const all = Int32Array.from({ length: nR }, (_, i) => i);
  return (columns) => {
    bins.set(bins0);
    idx.set(idx0);
    val.set(val0);
    for (const c of columns) {
      for (const f of enc.layout.encoderFeatures[c]) {
        const b = miss.binned.bins[f];
        for (let i = 0; i < nR; i++) bins[i * F + f] = b;
        if (!miss.linear) continue;
        for (let s = featSlot[f], e = s + featWidth[f]; s < e; s++) {
          for (let i = 0; i < nR; i++) {
            idx[i * S + s] = miss.linear.idx[s];
            val[i * S + s] = miss.linear.val[s];
          }
        }
      }
    }
    return scoreRows(model, masked, all, K);
  };
}

/**
 * Missing-input calibration (the method is described in conformal.ts): for every mask of column
 * groups, the validation rows are scored with those columns forced to missing and the conformal
 * quantile (regression) or temperature + set threshold (classifiers) is fitted on them. Under
 * "missing completely at random" a prediction row with missing set M is exchangeable with the
 * validation rows masked by M, so the mask's interval has the requested coverage for it; using
 * the smallest mask that contains M (the pooled group as a whole) errs on the wide side.
 */
function missingCalibration(
  task: Task,
  model: ScoreModel,
  reduced: ReducedModel | null,
  enc: Encoded,
  encs: ColumnEncoder[],
  rows: Int32Array,
  yRows: Float64Array,
  yScale: { mean: number; std: number } | null,
  K: number,
  nClasses: number,
  shift: number[],
  level: number,
  importances: number[],
  halfWidth: number | null,
  classCal: ClassCalibration | null,
): MissingCalibration | null {
  if (rows.length < 10 || encs.length === 0) return null;
  const groups = missingGroups(importances);
  const G = groups.length;
  const score = maskedScorer(model, enc, encs, rows, K);
  const scoreReduced = reduced
    ? maskedScorer({ gbm: reduced.gbm, linear: null }, enc, encs, rows, K)
    : null;
  const nMasks = 1 << G;
  const halfWidths: number[] = [];
  const classes: { temperature: number; setThreshold: number }[] = [];
  let truth: Float64Array | null = null;
  if (task === 'regression') {
    halfWidths.push(halfWidth!);
    truth = Float64Array.from(yRows, (v) => yScale!.mean + yScale!.std * v);
  } else {
    classes.push({ temperature: classCal!.temperature, setThreshold: classCal!.setThreshold });
  }
  for (let m = 1; m < nMasks; m++) {
    const cols: number[] = [];
    for (let g = 0; g < G; g++) if (m & (1 << g)) cols.push(...groups[g]);
    const raw = scoreReduced && cols.includes(reduced!.column) ? scoreReduced(cols) : score(cols);
    if (task === 'regression') {
      const pred = Float64Array.from(raw, (v) => yScale!.mean + yScale!.std * v);
      let q = regressionHalfWidth(truth!, pred, level);
      // Missing more never narrows the interval: the mask's width is at least each sub-mask's.
      for (let g = 0; g < G; g++) if (m & (1 << g)) q = Math.max(q, halfWidths[m & ~(1 << g)]);
      halfWidths.push(q);
    } else {
      const c = fitClassCalibration(raw, yRows, K, nClasses, shift, level);
      classes.push({ temperature: c.temperature, setThreshold: c.setThreshold });
    }
  }
  const names = groups.map((g) => g.map((c) => encs[c].column));
  return task === 'regression' ? { groups: names, halfWidths } : { groups: names, classes };
}

/**
 * Permutation importance on `rows`. Regression scores with r2; classification with the negative
 * calibrated log-loss, because balanced accuracy is a step function that leaves weak-but-real
 * columns at exactly 0 on a few hundred validation rows.
 */
function columnImportances(
  task: Task,
  model: ScoreModel,
  enc: Encoded,
  rows: Int32Array,
  yRows: Float64Array,
  K: number,
  nClasses: number,
  cal: ClassCalibration | null,
  rng: Rng,
): number[] {
  const nR = rows.length;
  const F = enc.binned.F;
  const groups = enc.layout.encoderFeatures;
  const bins = enc.binned.bins;
  const vb = new Uint8Array(nR * F);
  for (let i = 0; i < nR; i++) vb.set(bins.subarray(rows[i] * F, rows[i] * F + F), i * F);
  // Linear slots of each feature (same order as linearRows()).
  const L: LinearRows = enc.linear ?? {
    n: 0,
    slots: 0,
    idx: new Int32Array(0),
    val: new Float64Array(0),
  };
  const featSlot: number[] = [];
  const featWidth: number[] = [];
  let s0 = 0;
  for (const f of enc.layout.features) {
    featSlot.push(s0);
    const w = f.isCat ? 1 : f.linMissDim >= 0 ? 2 : 1;
    featWidth.push(w);
    s0 += w;
  }
  const S = L.slots;
  const lIdx = new Int32Array(nR * S);
  const lVal = new Float64Array(nR * S);
  const copyLinear = (i: number, src: number, f: number): void => {
    for (let s = featSlot[f], e = s + featWidth[f]; s < e; s++) {
      lIdx[i * S + s] = L.idx[src * S + s];
      lVal[i * S + s] = L.val[src * S + s];
    }
  };
  if (model.linear) {
    for (let i = 0; i < nR; i++) for (let f = 0; f < F; f++) copyLinear(i, rows[i], f);
  }
  const lin: LinearRows = { n: nR, slots: S, idx: lIdx, val: lVal };
  const all = Int32Array.from({ length: nR }, (_, i) => i);
  const raw = new Float64Array(nR * K);
  const tmp = new Float64Array(nR * K);
  const probs = new Float64Array(nClasses);
  // Fewer rows need more shuffles for a stable estimate; 2 suffice from ~500 rows on.
  const repeats = nR < 200 ? 5 : nR < 500 ? 3 : 2;
  // (Compiled trees do not help here: each pass is too short for V8 to optimise fresh functions.)
  const score = (c: number, perm: Int32Array | null): number => {
    const feats = c >= 0 ? groups[c] : [];
    if (perm) {
      for (const f of feats) {
        for (let i = 0; i < nR; i++) {
          const src = rows[perm[i]];
          vb[i * F + f] = bins[src * F + f];
          if (model.linear) copyLinear(i, src, f);
        }
      }
    }
    raw.fill(0);
    if (model.gbm) predictRaw(model.gbm, vb, F, nR, raw);
    if (model.linear) {
      predictLinearRows(model.linear, lin, all, tmp);
      for (let j = 0; j < raw.length; j++) raw[j] += tmp[j];
    }
    let result: number;
    if (task === 'regression') result = r2Score(yRows, raw);
    else {
      let ll = 0;
      for (let i = 0; i < nR; i++) {
        classProbabilities(raw, i * K, K, cal!, probs);
        ll += Math.log(Math.max(probs[yRows[i]], 1e-15));
      }
      result = ll / Math.max(1, nR);
    }
    if (perm) {
      for (const f of feats) {
        for (let i = 0; i < nR; i++) {
          vb[i * F + f] = bins[rows[i] * F + f];
          if (model.linear) copyLinear(i, rows[i], f);
        }
      }
    }
    return result;
  };
  return permutationImportance(groups.length, nR, score, rng, repeats);
}

// ---------------------------------------------------------------------------------------------
// Artifact pieces
// ---------------------------------------------------------------------------------------------

function serializeLinear(m: LinearModel): SerializedLinear {
  return { kind: m.kind, d: m.d, K: m.K, w: toBase64(m.w) };
}

export function deserializeLinear(s: SerializedLinear): LinearModel {
  return { kind: s.kind, d: s.d, K: s.K, w: fromBase64(s.w, (b) => new Float64Array(b)) };
}

function summaryString(
  encs: ColumnEncoder[],
  model: ScoreModel,
  task: Task,
  level: number,
): string {
  const kinds = new Set(encs.map((e) => e.kind));
  const parts: string[] = [];
  if (kinds.has('numeric')) parts.push('num:quantile-bins');
  if (kinds.has('categorical')) parts.push('cat:codes');
  if (kinds.has('datetime')) parts.push('datetime:parts');
  if (kinds.has('text')) parts.push('text:stats');
  const stages = ['TypeInference', `Encoders(${parts.join(', ')})`];
  if (model.linear) {
    stages.push(`Linear(${model.linear.kind}, ${model.linear.d} dims)`);
  }
  if (model.gbm) {
    const c = countLeaves(model.gbm);
    stages.push(`GBM(${c.trees} trees, ${c.maxLeaves} leaves)`);
  }
  stages.push(task === 'regression' ? `Conformal(${level})` : `Calibration+Conformal(${level})`);
  stages.push('PermutationImportance');
  return stages.join(' --> ');
}

function round(x: number, d = 6): number {
  const f = 10 ** d;
  return Number.isFinite(x) ? Math.round(x * f) / f : 0;
}

function targetEncoderName(task: Task, nClasses: number): string {
  return task === 'regression' ? 'NumericTarget(standardize)' : `LabelEncoder(${nClasses} classes)`;
}

function describeInputs(encs: ColumnEncoder[], profiles: ColumnProfile[]) {
  const inputTypes: Record<string, BaseType> = {};
  const categories: Record<string, (string | number | boolean)[]> = {};
  const numericRanges: Record<string, { min: number; max: number }> = {};
  encs.forEach((e, j) => {
    inputTypes[e.column] = profiles[j].type as BaseType;
    if (e.kind === 'categorical') {
      // Most frequent first (the UI shows the common choices), numbers in numeric order.
      const labels = e.keys.slice(0, 100).map((k) => keyToLabel(k, e.valueKind));
      if (e.valueKind === 'number') (labels as number[]).sort((a, b) => a - b);
      categories[e.column] = labels;
    } else if (e.kind === 'numeric') {
      numericRanges[e.column] = { min: e.stats.min, max: e.stats.max };
    }
  });
  return { inputTypes, categories, numericRanges };
}

// ---------------------------------------------------------------------------------------------
// train
// ---------------------------------------------------------------------------------------------

export function train(data: Dataset, opts: TrainOptions): ModelArtifact {
  const t0 = now();
  if (!data || !Array.isArray(data.columns) || !Array.isArray(data.rows)) {
    throw new AutoMLError('training data must have columns and rows');
  }
  if (!opts || typeof opts.target !== 'string' || opts.target === '') {
    throw new AutoMLError('a target column is required (PREDICT <column>)');
  }
  const settings = resolveSettings(opts.using, DEFAULT_SETTINGS, opts.seed);
  const target = opts.target;
  const rng = new Rng(settings.seed);
  progress(opts.onProgress, 1);

  const ti = analyzeTarget(data, target, settings.seed);
  const task = ti.task;
  const n = ti.keep.length;
  const nClasses = ti.classKeys ? ti.classKeys.length : 0;
  for (const c of settings.ignoreColumns) {
    if (c === target) throw new AutoMLError(`cannot ignore the target column '${target}'`);
    if (!data.columns.includes(c)) {
      throw new AutoMLError(
        `ignore_columns names '${c}', which is not in the data; columns are: ${data.columns.join(', ')}`,
      );
    }
  }
  const ignored = new Set(settings.ignoreColumns);

  // Profile every column (also dropped ones, for DESCRIBE ... features).
  const features: FeatureInfo[] = [];
  const inputProfiles: ColumnProfile[] = [];
  const inputColumns: CellValue[][] = [];
  const dropped: string[] = [];
  data.columns.forEach((name, j) => {
    if (name === target) {
      features.push({
        column: name,
        type: ti.profile.type,
        encoder: targetEncoderName(task, nClasses),
        role: 'target',
      });
      return;
    }
    const col = ti.keep.map((r) => data.rows[r][j]);
    const p = inferColumnType(name, inferenceSample(col, settings.seed));
    if (ignored.has(name)) {
      features.push({ column: name, type: p.type, encoder: 'none', role: 'ignored' });
    } else if (p.type === 'identifier') {
      features.push({ column: name, type: 'identifier', encoder: 'none', role: 'identifier' });
      dropped.push(`${name} (identifier: ${p.reason})`);
    } else if (p.type === 'empty' || p.constant) {
      features.push({ column: name, type: p.type, encoder: 'none', role: 'ignored' });
      dropped.push(`${name} (${p.type === 'empty' ? 'no values' : 'constant'})`);
    } else {
      features.push({ column: name, type: p.type, encoder: '', role: 'input' });
      inputProfiles.push(p);
      inputColumns.push(col);
    }
  });
  if (inputProfiles.length === 0) {
    throw new AutoMLError(
      `no usable input columns to predict '${target}' from` +
        (dropped.length ? `; dropped: ${dropped.join(', ')}` : '') +
        (ignored.size ? `; ignored: ${[...ignored].join(', ')}` : ''),
    );
  }

  progress(opts.onProgress, 2);
  const encs = fitEncoders(inputProfiles, inputColumns, rng);
  for (const f of features) {
    if (f.role === 'input')
      f.encoder = encoderName(encs[inputProfiles.findIndex((p) => p.name === f.column)]);
  }
  const wantLinear =
    settings.model === 'linear' || (settings.model === 'auto' && n <= LINEAR_MAX_ROWS);
  const enc = encode(encs, inputColumns, n, wantLinear);

  let y = ti.y;
  let yScale: { mean: number; std: number } | null = null;
  let weight: Float64Array | null = null;
  let shift: number[] = [];
  const K = task === 'multiclass' ? nClasses : 1;
  if (task === 'regression') {
    // Standardize so L2/leaf statistics and tolerances do not depend on the target's units.
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
  const split = splitRows(
    n,
    settings.validationFraction,
    rng,
    task === 'regression' ? null : y,
    nClasses,
  );
  const gTarget: GBMTarget = {
    objective: task === 'regression' ? 'regression' : task,
    K,
    y,
    weight,
  };

  progress(opts.onProgress, 3);
  const candidates: (CandidateInfo & {
    kind: 'gbm' | 'linear' | 'blend';
    model: ScoreModel;
    iterations: number;
  })[] = [];
  const accName = task === 'regression' ? 'r2_score' : 'balanced_accuracy_score';
  // Large tables validate on a sample of the validation rows (all of them up to 50k).
  const selRows = capRows(split.val, SELECT_MAX_ROWS, settings.seed ^ 0x5e1ec7);
  const yVal = pick(y, selRows);
  const params = gbmParams(settings, split.train.length, usesKey(opts.using, 'max_iterations'));
  const fitLinear = (rows: Int32Array): LinearModel =>
    task === 'regression'
      ? fitRidge(enc.linear!, rows, y, null, enc.layout.linDims)
      : fitLogistic(enc.linear!, rows, y, nClasses, weight, enc.layout.linDims);
  let gbmCand: (typeof candidates)[number] | null = null;
  let linCand: (typeof candidates)[number] | null = null;
  if (settings.model !== 'linear') {
    const c0 = now();
    const res = trainGBM(enc.binned, gTarget, split.train, selRows, params);
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
    const model: ScoreModel = { gbm: null, linear: fitLinear(split.train) };
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

  progress(opts.onProgress, 4);
  const analysis = analyze(
    task,
    best.model,
    enc,
    encs,
    capRows(selRows, ANALYSIS_MAX_ROWS, settings.seed ^ 0xa7a1),
    y,
    yScale,
    K,
    nClasses,
    shift,
    settings.confidence,
    rng,
    (importances) => {
      // Reduced model for a dominant column (trees only; the split is the one validated above).
      if (settings.model === 'linear' || encs.length < 2 || split.val.length < 10) return null;
      let top = 0;
      for (let c = 1; c < importances.length; c++) if (importances[c] > importances[top]) top = c;
      if (!(importances[top] >= REDUCED_MIN_IMPORTANCE)) return null;
      // A fallback for rows missing one input: on large tables a sample of the training rows
      // (and its own tree-shape parameters) is plenty.
      const redRows = capRows(split.train, REDUCED_MAX_ROWS, settings.seed ^ 0x4ed);
      const redParams =
        redRows === split.train
          ? params
          : gbmParams(settings, redRows.length, usesKey(opts.using, 'max_iterations'));
      const res = trainGBM(maskedBinned(enc, top), gTarget, redRows, selRows, redParams);
      return { column: top, gbm: res.model };
    },
  );

  progress(opts.onProgress, 5);
  let finalModel = best.model;
  let halfWidth = analysis.halfWidth;
  if (settings.refit && split.val.length > 0 && n <= REFIT_MAX_ROWS) {
    // Refit on train + validation rows with the iteration count early stopping chose: more data,
    // same capacity (tree shape from the training-split size, as validated).
    const allRows = Int32Array.from({ length: n }, (_, i) => i);
    const fitGbmOn = (rows: Int32Array): GBMModel => {
      const p = {
        ...gbmParams(settings, split.train.length),
        maxIterations: Math.max(1, best.iterations),
      };
      return trainGBM(enc.binned, gTarget, rows, new Int32Array(0), p).model;
    };
    const fitKind = (rows: Int32Array): ScoreModel =>
      best.kind === 'gbm'
        ? { gbm: fitGbmOn(rows), linear: null }
        : best.kind === 'linear'
          ? { gbm: null, linear: fitLinear(rows) }
          : blend(fitGbmOn(rows), fitLinear(rows));
    finalModel = fitKind(allRows);
    if (task === 'regression' && halfWidth !== null && split.val.length >= 20) {
      halfWidth *= learningCurveFactor(fitKind, best.model, enc, split, y, n, settings.seed);
    }
  }

  // The refit's width correction applies to complete rows; masks keep their (wider) quantiles.
  const missing = analysis.missing;
  if (missing?.halfWidths && halfWidth !== null) missing.halfWidths[0] = halfWidth;

  const { inputTypes, categories, numericRanges } = describeInputs(encs, inputProfiles);
  const columnImportances: Record<string, number> = {};
  encs.forEach((e, j) => (columnImportances[e.column] = analysis.importances[j]));
  const description: ModelDescription = {
    task,
    target,
    targetType: ti.profile.type,
    inputs: encs.map((e) => e.column),
    accuracies: { [accName]: round(analysis.accuracy, 6) },
    columnImportances,
    features,
    candidates: candidates.map((c) => ({
      name: c.name,
      performance: round(c.performance, 6),
      training_time: round(c.training_time, 3),
      selected: c.selected,
      accuracy_functions: c.accuracy_functions,
    })),
    summary: summaryString(encs, finalModel, task, settings.confidence),
    inputTypes,
    categories,
    ...(ti.classLabels ? { classes: ti.classLabels } : {}),
    numericRanges,
    confidenceLevel: settings.confidence,
    trainRows: n,
    trainingTimeMs: 0,
  };
  const artifact: ModelArtifact = {
    format: 'automl/1',
    target,
    task,
    target_info: { type: ti.profile.type, valueKind: ti.profile.valueKind },
    classes: ti.classKeys ? { keys: ti.classKeys, labels: ti.classLabels! } : null,
    y_scale: yScale,
    encoders: encs,
    model: {
      gbm: finalModel.gbm ? serializeGBM(finalModel.gbm) : null,
      linear: finalModel.linear ? serializeLinear(finalModel.linear) : null,
      ...(analysis.reduced
        ? {
            reduced: {
              column: encs[analysis.reduced.column].column,
              gbm: serializeGBM(analysis.reduced.gbm),
            },
          }
        : {}),
    },
    calibration: {
      halfWidth,
      classes: analysis.classCal,
      ...(missing ? { missing } : {}),
    },
    settings,
    description,
  };
  description.trainingTimeMs = Math.round(now() - t0);
  return artifact;
}

// ---------------------------------------------------------------------------------------------
// finetune
// ---------------------------------------------------------------------------------------------

/** Iterations a finetune may add when USING max_iterations is not given (early stopping decides). */
const FINETUNE_MAX_ITERATIONS = 200;
/** ... and when there are too few new rows (< 10) for a validation split. */
const FINETUNE_BLIND_ITERATIONS = 10;

/**
 * Continues boosting from `base` on new rows: the encoders stay fixed (new categories map to the
 * 'other/unseen' code, out-of-range numbers to the edge bins), the base model's scores become the
 * starting point and new trees are added with early stopping on a validation split of the new
 * rows. A linear base keeps its weights and gets trees on top. Calibration, accuracy and
 * importances are recomputed on the new validation rows when there are enough of them.
 */
export function finetune(
  base: ModelArtifact,
  data: Dataset,
  opts: Partial<TrainOptions> = {},
): ModelArtifact {
  const t0 = now();
  if (!base || base.format !== 'automl/1')
    throw new AutoMLError('finetune needs an automl/1 model artifact');
  const target = base.target;
  if (opts.target !== undefined && opts.target !== target) {
    throw new AutoMLError(`finetune must keep the target '${target}', got '${opts.target}'`);
  }
  const usingIn = { ...(opts.using ?? {}) };
  const settings = resolveSettings(
    usingIn,
    { ...base.settings, maxIterations: FINETUNE_MAX_ITERATIONS },
    opts.seed,
  );
  const rng = new Rng(settings.seed + 1);
  progress(opts.onProgress, 1);
  const tIdx = data.columns.indexOf(target);
  if (tIdx < 0) {
    throw new AutoMLError(
      `target column '${target}' is not in the data; columns are: ${data.columns.join(', ')}`,
    );
  }
  const task = base.task;
  const kind = base.target_info.valueKind;
  const keep: number[] = [];
  const yList: number[] = [];
  const classCode = base.classes ? new Map(base.classes.keys.map((k, i) => [k, i])) : null;
  for (let r = 0; r < data.rows.length; r++) {
    const v = data.rows[r][tIdx];
    if (isMissing(v)) continue;
    if (task === 'regression') {
      const x = parseNumber(v);
      if (Number.isNaN(x)) continue;
      keep.push(r);
      yList.push((x - base.y_scale!.mean) / base.y_scale!.std);
    } else {
      const k = categoryKey(v, kind)!;
      const c = classCode!.get(k);
      if (c === undefined) {
        throw new AutoMLError(
          `target value '${k}' in row ${r} was not a class when the model was trained (classes: ${base.classes!.keys.join(', ')}); retrain the model instead of finetuning`,
        );
      }
      keep.push(r);
      yList.push(c);
    }
  }
  if (keep.length === 0) {
    throw new AutoMLError(`finetune data has no rows with a value in '${target}'`);
  }
  const n = keep.length;
  const y = Float64Array.from(yList);
  const encs = base.encoders;
  const columns = encs.map((e) => {
    const j = data.columns.indexOf(e.column);
    return j < 0 ? undefined : keep.map((r) => data.rows[r][j]);
  });
  progress(opts.onProgress, 2);
  const enc = encode(encs, columns, n, base.model.linear !== null);
  const nClasses = base.classes ? base.classes.keys.length : 0;
  const K = task === 'multiclass' ? nClasses : 1;
  let weight: Float64Array | null = null;
  let shift: number[] = [];
  if (task !== 'regression') {
    // Keep the base model's class balance so old and new trees optimise the same objective.
    const baseShift = base.calibration.classes?.shift ?? [];
    const cw =
      task === 'binary'
        ? [1, Math.exp(baseShift[0] ?? 0)]
        : Array.from({ length: nClasses }, (_, k) => Math.exp(baseShift[k] ?? 0));
    weight = Float64Array.from(y, (c) => cw[c]);
    shift = baseShift;
  }
  const useVal = n >= 10;
  const split = useVal
    ? splitRows(n, settings.validationFraction, rng, task === 'regression' ? null : y, nClasses)
    : { train: Int32Array.from({ length: n }, (_, i) => i), val: new Int32Array(0) };
  const selRows = capRows(split.val, SELECT_MAX_ROWS, settings.seed ^ 0x5e1ec7);

  progress(opts.onProgress, 3);
  const baseGbm = base.model.gbm ? deserializeGBM(base.model.gbm) : null;
  const baseLinear = base.model.linear ? deserializeLinear(base.model.linear) : null;
  const c0 = now();
  // Trees continue from the base scores: from the base GBM itself, or (linear base) from an empty
  // ensemble whose starting scores are the linear model's outputs.
  let initGbm: GBMModel;
  if (baseGbm) initGbm = baseGbm;
  else {
    initGbm = emptyGBM(K);
  }
  const offset = baseLinear ? linearOffset(baseLinear, enc, K) : null;
  // Without validation rows nothing stops the boosting, so only a few careful steps are taken
  // unless USING max_iterations says otherwise.
  const userIterations = usesKey(usingIn, 'max_iterations');
  const params = {
    ...gbmParams(settings, split.train.length, userIterations),
    maxIterations:
      split.val.length > 0 || userIterations
        ? settings.maxIterations
        : Math.min(settings.maxIterations, FINETUNE_BLIND_ITERATIONS),
  };
  const res = trainGBMWithOffset(
    enc.binned,
    { objective: task === 'regression' ? 'regression' : task, K, y, weight },
    { train: split.train, val: selRows },
    params,
    initGbm,
    offset,
  );
  const model: ScoreModel = { gbm: res.model, linear: baseLinear };
  const trainSeconds = (now() - c0) / 1000;

  progress(opts.onProgress, 4);
  const desc0 = base.description;
  let calibration = base.calibration;
  let accuracies = desc0.accuracies;
  let columnImportances = desc0.columnImportances;
  let performance = desc0.candidates.find((c) => c.selected)?.performance ?? 0;
  if (split.val.length >= 10) {
    const yScale = base.y_scale;
    const a = analyze(
      task,
      model,
      enc,
      encs,
      capRows(selRows, ANALYSIS_MAX_ROWS, settings.seed ^ 0xa7a1),
      y,
      yScale,
      K,
      nClasses,
      shift,
      settings.confidence,
      rng,
    );
    calibration = {
      halfWidth: a.halfWidth,
      classes: a.classCal,
      ...(a.missing ? { missing: a.missing } : {}),
    };
    const accName = task === 'regression' ? 'r2_score' : 'balanced_accuracy_score';
    accuracies = { [accName]: round(a.accuracy, 6) };
    performance = round(a.accuracy, 6);
    columnImportances = {};
    for (let j = 0; j < encs.length; j++) columnImportances[encs[j].column] = a.importances[j];
  }
  progress(opts.onProgress, 5);
  const description: ModelDescription = {
    ...desc0,
    accuracies,
    columnImportances,
    candidates: [
      ...desc0.candidates.map((c) => ({ ...c, selected: false })),
      {
        name: `GBM(finetuned, +${res.iterations} iterations)`,
        performance,
        training_time: round(trainSeconds, 3),
        selected: true,
        accuracy_functions: Object.keys(accuracies),
      },
    ],
    summary: summaryString(encs, model, task, settings.confidence),
    confidenceLevel: settings.confidence,
    trainRows: n,
    trainingTimeMs: 0,
  };
  // The reduced model (if any) is not finetuned, so it is dropped; missing inputs fall back to
  // tree routing, with intervals recalibrated above when there were enough new rows.
  const artifact: ModelArtifact = {
    ...base,
    model: {
      gbm: serializeGBM(res.model),
      linear: baseLinear ? serializeLinear(baseLinear) : null,
    },
    calibration,
    settings: { ...settings, maxIterations: base.settings.maxIterations },
    description,
  };
  description.trainingTimeMs = Math.round(now() - t0);
  return artifact;
}

/** Share of the training split the learning-curve probe is fitted on. */
const PROBE_FRACTION = 0.5;

/**
 * Interval correction for the refit. The conformal half-width comes from validation residuals of
 * a model trained on the training split, but the shipped model is refit on all rows and errs less,
 * so uncorrected intervals over-cover (about 0.92 instead of 0.90 on the 1k-row concrete set).
 * We fit the same model on half of the training split, compare the validation mean absolute errors
 * of both fits, and extrapolate that shrinkage along a power-law learning curve (error ~ rows^-a)
 * to the refit's row count. The mean absolute error is used rather than the 90 % quantile itself
 * because it averages every residual and is far less noisy; saturated models (home_rentals) get a
 * factor of ~1. The factor is clamped to [0.8, 1] so the correction can only narrow a little.
 */
function learningCurveFactor(
  fit: (rows: Int32Array) => ScoreModel,
  fullModel: ScoreModel,
  enc: Encoded,
  split: { train: Int32Array; val: Int32Array },
  y: Float64Array,
  nAll: number,
  seed: number,
): number {
  const nTrain = split.train.length;
  // Own RNG stream: the probe's subset must not shift when other stages draw more numbers.
  const rows = new Rng(seed ^ 0x1ea7).shuffle(Int32Array.from(split.train));
  const sub = rows.slice(0, Math.round(nTrain * PROBE_FRACTION));
  const rawSub = scoreRows(fit(sub), enc, split.val, 1);
  const rawFull = scoreRows(fullModel, enc, split.val, 1);
  let maeSub = 0;
  let maeFull = 0;
  for (let i = 0; i < split.val.length; i++) {
    const t = y[split.val[i]];
    maeSub += Math.abs(t - rawSub[i]);
    maeFull += Math.abs(t - rawFull[i]);
  }
  if (!(maeSub > 0) || !(maeFull > 0)) return 1;
  const ratio = Math.min(1, Math.max(0.5, maeFull / maeSub));
  const exponent = Math.log(nAll / nTrain) / Math.log(nTrain / sub.length);
  return Math.min(1, Math.max(0.8, ratio ** exponent));
}

/** 0.5 * GBM + 0.5 * linear, expressed as scaled parts so the score stays "sum of parts". */
function blend(g: GBMModel, l: LinearModel): ScoreModel {
  return {
    gbm: { ...g, base: g.base.map((v) => v / 2), value: g.value.map((v) => v / 2) },
    linear: { ...l, w: l.w.map((v) => v / 2) },
  };
}

function emptyGBM(K: number): GBMModel {
  return {
    K,
    base: new Float64Array(K),
    nTrees: 0,
    roots: new Int32Array(0),
    feat: new Int32Array(0),
    thr: new Int32Array(0),
    isCatNode: new Uint8Array(0),
    left: new Int32Array(0),
    right: new Int32Array(0),
    value: new Float64Array(0),
    catBits: new Uint32Array(0),
    maxLeaves: 0,
  };
}

function linearOffset(m: LinearModel, enc: Encoded, K: number): Float64Array {
  const out = new Float64Array(enc.n * K);
  predictLinearRows(
    m,
    enc.linear!,
    Int32Array.from({ length: enc.n }, (_, i) => i),
    out,
  );
  return out;
}

function trainGBMWithOffset(
  data: BinnedData,
  target: GBMTarget,
  split: { train: Int32Array; val: Int32Array },
  params: GBMParams,
  init: GBMModel,
  offset: Float64Array | null,
) {
  return trainGBM(
    data,
    target,
    split.train,
    split.val,
    params,
    init,
    undefined,
    offset ?? undefined,
  );
}
