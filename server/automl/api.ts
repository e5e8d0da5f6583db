// Public types of the AutoML engine: the contract the catalog, SQL and HTTP layers code against.
// Kept free of implementation imports so it can be read on its own.

import type { ColumnEncoder } from './encoders';
import type { SerializedGBM } from './gbm';
import type { ClassCalibration } from './conformal';
import type { BaseType, InferredType, ValueKind } from './types';

export type CellValue = string | number | boolean | null;

/** Row-major, as the SQL engine returns them (numbers may arrive as numeric strings; bigints as strings). */
export interface Dataset {
  columns: string[];
  rows: CellValue[][];
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
}

export interface Predictor {
  readonly description: ModelDescription;
  predict(rows: Record<string, unknown>[]): Prediction[];
  predictColumns?(columns: Record<string, CellValue[]>, n: number): Prediction[];
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
  model: { gbm: SerializedGBM | null; linear: SerializedLinear | null };
  calibration: { halfWidth: number | null; classes: ClassCalibration | null };
  /** Resolved training settings, reused by finetune. */
  settings: ResolvedSettings;
  description: ModelDescription;
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
  model: 'auto' | 'gbm' | 'linear';
  classWeight: 'balanced' | 'none';
  refit: boolean;
  validationFraction: number;
  ignoreColumns: string[];
}
