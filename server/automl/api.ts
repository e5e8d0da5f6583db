// Public types of the AutoML engine: the contract the catalog, SQL and HTTP layers code against.
// Kept free of implementation imports so it can be read on its own.

import type { ClassCalibration } from './analysis/conformal';
import type { BaseType, InferredType, ValueKind } from './data/column-types';
import type { ColumnEncoder } from './data/encoders';
import type { SerializedGBM } from './gbm/serialize';
import type { TimeSeriesDescription } from './timeseries/description';

export type CellValue = string | number | boolean | null;

/** Row-major, as the SQL engine returns them (numbers may arrive as numeric strings; bigints as strings). */
export interface Dataset {
  columns: string[];
  rows: CellValue[][];
}

/**
 * Columnar training data (what the training worker receives, its buffers transferred from the
 * main thread): one column each, typed arrays where the source had a single type.
 */
export type ColumnarColumn =
  /** `nulls[i] = 1` marks a NULL (null when the column has none). */
  | { kind: 'number'; values: Float64Array; nulls: Uint8Array | null }
  /** 0 false, 1 true, 2 NULL. */
  | { kind: 'boolean'; values: Uint8Array }
  /** `codes[i]` indexes `dict`; -1 is NULL. */
  | { kind: 'text'; codes: Int32Array; dict: string[] }
  | { kind: 'mixed'; values: ArrayLike<CellValue> }
  /** Every value NULL. */
  | { kind: 'null' };

export interface ColumnarData {
  columns: string[];
  rowCount: number;
  data: ColumnarColumn[];
}

/** Training phases 1..5: analyzing data, encoding, training candidates, analyzing model, finalizing. */
export interface TrainProgress {
  phase: number;
  total: number;
  name: string;
}

export interface TrainOptions {
  target: string;
  /** Default 42. */
  seed?: number;
  /** USING k = v from SQL; unknown keys throw an AutoMLError listing the allowed ones. */
  using?: Record<string, unknown>;
  onProgress?: (p: TrainProgress) => void;
  /**
   * Threads that build gradient histograms (this one included): default AUTOML_THREADS, else
   * min(2, available cores). Any count gives the same artifact.
   */
  threads?: number;
}

export interface Prediction {
  /** Regression: a number; classification: the class label in its original type (1, 'Yes', true). */
  value: number | string | boolean | null;
  /** 0..1: the interval's coverage level (regression) or the calibrated probability of `value`. */
  confidence: number;
  /** Regression interval; null for classifiers. */
  lower: number | null;
  upper: number | null;
  /** null when no truth was given with the row. */
  anomaly: boolean | null;
  /** Classifiers: class label (as string) -> calibrated probability. */
  probabilities?: Record<string, number>;
}

export interface FeatureInfo {
  column: string;
  type: string;
  encoder: string;
  role: 'input' | 'target' | 'ignored' | 'identifier';
}

export interface CandidateInfo {
  name: string;
  /** Validation score (the accuracy function below). */
  performance: number;
  /** Seconds. */
  training_time: number;
  selected: boolean;
  accuracy_functions: string[];
}

export type Task = 'regression' | 'binary' | 'multiclass';

/** Validation scores of a classifier under each decision rule (USING decision). */
export interface DecisionScores {
  /** Arg-max of the class-weighted scores: maximises balanced accuracy (the default). */
  balanced: { balanced_accuracy: number; accuracy: number };
  /** The most probable class: maximises accuracy. */
  argmax: { balanced_accuracy: number; accuracy: number };
}

type Label = string | number | boolean;

/** Regression metrics in the target's units, beside a model that always predicts the mean. */
export interface RegressionReport {
  mae: number;
  rmse: number;
  r2: number;
  baseline: { kind: 'mean'; value: number; mae: number; rmse: number; r2: number };
  /** Predicted vs actual of at most REPORT_SAMPLE_ROWS validation rows (a seeded sample). */
  sample: { actual: number[]; predicted: number[] };
}

/** Classifier metrics under the model's decision rule, beside always predicting the majority. */
export interface ClassificationReport {
  accuracy: number;
  balanced_accuracy: number;
  baseline: { kind: 'majority'; class: Label; accuracy: number; balanced_accuracy: number };
  classes: Label[];
  /** Counts; rows = actual class, columns = predicted class. */
  confusion: number[][];
  per_class: { class: Label; precision: number | null; recall: number | null; support: number }[];
  /** 10 equal bins of the reported confidence (empty bins left out). */
  calibration: { confidence: number; observed: number; count: number }[];
}

/**
 * What DESCRIBE shows about how good a model is, computed at training time on validation rows
 * (out of fold when cross-fitted). Stored in the wire shape of the contract's ModelMetrics.
 */
export interface ModelMetrics {
  task: Task;
  target: string;
  rows: { train: number; validation: number };
  validation: 'split' | 'cross-fitted';
  primary: { name: string; label: string; value: number };
  regression?: RegressionReport;
  classification?: ClassificationReport;
  /** A binary classifier deciding with a saved threshold (USING threshold): the metrics are under it. */
  threshold?: { value: number; positive: Label };
}

/** Something a careful data scientist would point out (see analysis/warnings.ts for thresholds). */
export interface ModelWarning {
  kind: string;
  column: string | null;
  message: string;
}

export interface ModelDescription {
  task: Task;
  target: string;
  targetType: string;
  inputs: string[];
  accuracies: Record<string, number>;
  /** One entry per input, normalised to sum to 1 (see importance.ts). */
  columnImportances: Record<string, number>;
  features: FeatureInfo[];
  candidates: CandidateInfo[];
  summary: string;
  inputTypes: Record<string, BaseType>;
  categories: Record<string, (string | number | boolean)[]>;
  classes?: (string | number | boolean)[];
  numericRanges: Record<string, { min: number; max: number }>;
  confidenceLevel: number;
  trainRows: number;
  trainingTimeMs: number;
  /**
   * Regression intervals: the nominal level (= confidenceLevel), the coverage achieved on
   * validation rows (each judged with a quantile fitted without it) overall and in the worst
   * fifth by predicted value, and whether widths adapt per row. Absent in older models.
   */
  intervals?: { nominal: number; validation: number; worstQuintile: number; adaptive: boolean };
  /**
   * Classifiers: the decision rule in use and both rules' validation scores, and the saved
   * threshold that overrides the rule (USING threshold). Absent in older models.
   */
  decision?: {
    rule: 'balanced' | 'argmax';
    threshold?: { value: number; positive: Label };
  } & DecisionScores;
  /** How candidates were validated: one split, or every row out of fold (small data). */
  validation?: 'split' | 'cross-fitted';
  /** Validation metrics and baselines (absent in older models and time-series models). */
  metrics?: ModelMetrics;
  /** Warnings found at training time (absent in older models: see analysis/warnings.ts). */
  warnings?: ModelWarning[];
  /** Time-series models only: ORDER BY / GROUP BY / WINDOW / HORIZON, frequency, per-step accuracy. */
  timeseries?: TimeSeriesDescription;
}

/**
 * Why a prediction came out: `baseValue` + the sum of `contributions` (one per input column) is
 * `value`, the predicted value (regression) or the raw score of the predicted class (classifiers:
 * the logit for class 1 of a binary model, its negative for class 0; the class's softmax score
 * for multiclass). Trees by exact TreeSHAP, a linear part by weight x input.
 */
export interface Explanation {
  value: number;
  baseValue: number;
  contributions: Record<string, number>;
  /** Classifiers: the class whose score is explained (the predicted one). */
  class?: string | number | boolean;
}

/**
 * A batch's predictions as columns, one entry per row: what `Prediction[]` holds without an
 * object per row and one per row's class probabilities (a 10k-row batch of a 10-class model
 * made 20k objects and 100k boxed numbers only to be read once).
 */
export interface PredictionColumns {
  /** Regression: the numbers; classifiers: each row's label (as `Prediction.value`). */
  value: Float64Array | readonly (string | number | boolean | null)[];
  confidence: Float64Array;
  /** Regression intervals; null for classifiers. */
  lower: Float64Array | null;
  upper: Float64Array | null;
  /** 1: anomalous, 0: not, -1: no truth given (`Prediction.anomaly` null). */
  anomaly: Int8Array;
  /**
   * Classifiers: per class, each row's probability: `columns[j]` is what
   * `Prediction.probabilities[names[j]]` holds, `names` in that object's key order.
   */
  probabilities: { names: readonly string[]; columns: Float64Array[] } | null;
}

/** Rows in one batch from which a predictor compiles its trees (a smaller batch walks them). */
export const COMPILE_BATCH_ROWS = 256;

export interface Predictor {
  readonly description: ModelDescription;
  predict(rows: Record<string, unknown>[]): Prediction[];
  predictColumns?(columns: Record<string, CellValue[]>, n: number): Prediction[];
  /** `predictColumns` as columns (the same numbers, no object per row). */
  predictTable?(columns: Record<string, CellValue[]>, n: number): PredictionColumns;
  /** Per-row contributions of each input column (see Explanation). */
  explain?(rows: Record<string, unknown>[]): Explanation[];
  explainColumns?(columns: Record<string, CellValue[]>, n: number): Explanation[];
  /**
   * Makes big batches fast from the first one: compiles the model's trees and runs them until V8
   * has optimised them (hundreds of milliseconds of CPU for a model of hundreds of trees). Small
   * batches walk the trees until enough rows have been predicted; then the same happens.
   */
  warm?(): void;
  /**
   * One bounded step of `warm` (one group of trees compiled and run until optimised); true when
   * the warm-up is done. Batches before then walk the trees: the same numbers.
   */
  warmStep?(): boolean;
  /**
   * Warm in steps from now on: a batch that calls for the warm-up hands `warmStep` to `stepper`
   * (once), which runs it between turns of an event loop until it answers true, instead of
   * warming in one go (a latency stall for everything else on that thread).
   */
  warmInSteps?(stepper: (step: () => boolean) => void): void;
  /**
   * For a predictor that answers one batch and is dropped (a training's held-out rows): its trees
   * are walked, never compiled and warmed, which costs more than it saves for one batch. The same
   * numbers, bit for bit.
   */
  walkOnly?(): void;
  /**
   * Whether a batch of `COMPILE_BATCH_ROWS` or more would still walk the trees because their
   * warm-up is not done; answering true starts the warm-up in steps (`warmInSteps`) if it was not
   * started yet. False once the compiled trees serve the batches, or when there are none.
   */
  stillWarming?(): boolean;
}

export interface SerializedLinear {
  kind: 'ridge' | 'logistic';
  d: number;
  K: number;
  /** Float64 weights, base64. */
  w: string;
}

/**
 * Everything needed to predict and describe, as plain JSON (typed arrays are base64 strings), so
 * `JSON.parse(JSON.stringify(a))` is the same model. The score of a row is the sum of the parts
 * present: linear (if any) + GBM (if any); finetuning a linear model adds trees on top of it.
 */
export interface ModelArtifact {
  format: 'automl/1';
  target: string;
  task: Task;
  target_info: { type: InferredType; valueKind: ValueKind };
  /** Classification: class keys (canonical strings) and labels in the original type, index = class code. */
  classes: { keys: string[]; labels: (string | number | boolean)[] } | null;
  /** Regression: the model predicts (y - mean) / std. */
  y_scale: { mean: number; std: number } | null;
  /** One encoder per input column, in `description.inputs` order. */
  encoders: ColumnEncoder[];
  model: {
    gbm: SerializedGBM | null;
    linear: SerializedLinear | null;
    /**
     * Trees trained without `column` (the dominant input), which score the rows where it is
     * missing instead of the main model. Optional: older models have none.
     */
    reduced?: { column: string; gbm: SerializedGBM };
  };
  calibration: {
    /**
     * Regression: the interval half-width in the target's units, or with `scale` the multiplier
     * of a row's scale (standardized units): half-width = halfWidth * scale(row) * y_scale.std.
     */
    halfWidth: number | null;
    /** Adaptive intervals: the difficulty model (absent: constant width, as in older models). */
    scale?: SerializedScale;
    classes: ClassCalibration | null;
    /** Calibration for rows with missing inputs (absent in models trained before it existed). */
    missing?: MissingCalibration;
  };
  /** Resolved training settings, reused by finetune. */
  settings: ResolvedSettings;
  description: ModelDescription;
}

/**
 * Conformal calibration per pattern of missing inputs (see analysis/conformal.ts, "missing inputs"). Input
 * columns are put into `groups` (the most important columns one by one, the rest pooled); entry
 * m of the arrays is calibrated on validation rows with every group whose bit is set in m forced
 * to missing. A prediction row uses the entry of the smallest mask covering its missing inputs.
 */
/** The difficulty model of adaptive intervals (analysis/scale.ts). */
export interface SerializedScale {
  gbm: SerializedGBM;
  predThresholds: number[];
  floor: number;
}

export interface MissingCalibration {
  groups: string[][];
  /** Regression half-widths per mask ([0]: complete rows; non-decreasing in the mask); multipliers of the scale with `calibration.scale`. */
  halfWidths?: number[];
  /** Classifiers: temperature and conformal set threshold per mask. */
  classes?: { temperature: number; setThreshold: number }[];
}

export interface ResolvedSettings {
  seed: number;
  confidence: number;
  maxIterations: number;
  learningRate: number;
  /** 0 = auto (by training rows). */
  maxLeaves: number;
  minSamplesLeaf: number;
  l2: number;
  earlyStoppingRounds: number;
  /** 'auto': the best candidate serves; else the named one does (the others are still trained). */
  model: 'auto' | 'gbm' | 'linear' | 'ensemble';
  classWeight: 'balanced' | 'none';
  refit: boolean;
  validationFraction: number;
  ignoreColumns: string[];
  /** Classifiers' decision rule; absent in older models ('balanced'). */
  decision?: 'balanced' | 'argmax';
  /** Free text: TF-IDF features when they help ('auto'), or length and word count only. */
  textEncoder?: 'auto' | 'stats';
  /**
   * Binary classifiers: predict `positiveClass` (a class label's text) when its probability is at
   * least `threshold`, instead of the decision rule. Absent: the rule decides.
   */
  threshold?: number;
  positiveClass?: string;
}
