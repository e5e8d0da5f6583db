// Public entry point of the AutoML engine (Lightwood-style: type inference -> encoders -> GBM /
// linear candidates -> conformal analysis; time-series forecasters in timeseries/). Other layers
// import only from here.

import type { ColumnarData, Dataset, ModelArtifact, Predictor, TrainOptions } from './api';
import { AutoMLError } from './errors';
import {
  finetune as finetuneTabular,
  finetuneColumns as finetuneTabularColumns,
} from './pipeline/finetune';
import { loadPredictor as loadTabular, validateArtifact } from './predict/predictor';
import {
  isTimeSeriesArtifact,
  loadForecaster,
  validateTimeSeriesArtifact,
} from './timeseries/forecaster';
import { retrainForecaster } from './timeseries/train';
import type { Forecaster, TimeSeriesArtifact } from './timeseries/types';

export type {
  CellValue,
  ColumnarColumn,
  ColumnarData,
  Dataset,
  Explanation,
  ModelArtifact,
  ModelDescription,
  ModelMetrics,
  ModelWarning,
  Prediction,
  PredictionColumns,
  Predictor,
  TrainOptions,
  TrainProgress,
} from './api';
export { COMPILE_BATCH_ROWS } from './api';
export type { Forecaster, TimeSeriesArtifact, TimeSeriesDescription } from './timeseries/types';
export type { ModelEvidence } from './evaluation/evidence';
export { deserializeEvidence, serializeEvidence } from './evaluation/evidence';
export { decideWithThreshold } from './evaluation/decision';
export * as evaluation from './evaluation/index';
export { evidenceOf } from './pipeline/evidence';
export { cellAt } from './data/table';
export { AutoMLError } from './errors';
export { categoryKey } from './data/column-types';
export { partialDependence } from './effects/effects';
export { inputKinds, knownCategories } from './effects/inputs';
export { descriptionWarnings } from './analysis/warnings';
export { ALLOWED_USING_KEYS } from './options';
export { keepPoolBetweenTrainings } from './threads';
export { warmUp } from './warmup';
export { train, trainColumns } from './pipeline/train';
export { correctClassSampling, isClassTarget } from './sampling';
export { trainForecaster } from './timeseries/train';

/** Any saved model: tabular (no `kind`) or time-series (`kind: 'timeseries'`). */
export type AnyModelArtifact = ModelArtifact | TimeSeriesArtifact;

/** A time-series model's predictor: call `forecast` instead of `predict`. */
export function isForecaster(p: Predictor): p is Forecaster {
  return (p as Partial<Forecaster>).kind === 'timeseries';
}

/** The predictor of an artifact: a Forecaster for time-series models. */
export function loadPredictor(a: TimeSeriesArtifact): Forecaster;
export function loadPredictor(a: AnyModelArtifact): Predictor;
export function loadPredictor(a: AnyModelArtifact): Predictor {
  return isTimeSeriesArtifact(a) ? loadForecaster(a) : loadTabular(a);
}

/**
 * Continues a model on new rows. Tabular models keep boosting (pipeline/finetune.ts); time-series
 * models train again with their settings (timeseries/train.ts `retrainForecaster`).
 */
export function finetune(
  base: ModelArtifact,
  data: Dataset,
  opts?: Partial<TrainOptions>,
): ModelArtifact;
export function finetune(
  base: AnyModelArtifact,
  data: Dataset,
  opts?: Partial<TrainOptions>,
): AnyModelArtifact;
export function finetune(
  base: AnyModelArtifact,
  data: Dataset,
  opts: Partial<TrainOptions> = {},
): AnyModelArtifact {
  return isTimeSeriesArtifact(base)
    ? retrainForecaster(base, data, opts)
    : finetuneTabular(base, data, opts);
}

/** finetune on columnar data (see trainColumns). */
export function finetuneColumns(
  base: ModelArtifact,
  data: ColumnarData,
  opts?: Partial<TrainOptions>,
): ModelArtifact;
export function finetuneColumns(
  base: AnyModelArtifact,
  data: ColumnarData,
  opts?: Partial<TrainOptions>,
): AnyModelArtifact;
export function finetuneColumns(
  base: AnyModelArtifact,
  data: ColumnarData,
  opts: Partial<TrainOptions> = {},
): AnyModelArtifact {
  return isTimeSeriesArtifact(base)
    ? retrainForecaster(base, data, opts)
    : finetuneTabularColumns(base, data, opts);
}

function validateAny(a: unknown): asserts a is AnyModelArtifact {
  if (isTimeSeriesArtifact(a)) validateTimeSeriesArtifact(a);
  else validateArtifact(a);
}

/** JSON text of an artifact (artifacts are plain JSON already; this is the one place that says so). */
export function serializeArtifact(a: AnyModelArtifact): string {
  validateAny(a);
  return JSON.stringify(a);
}

/** Parses and validates an artifact; a corrupt or foreign file is an AutoMLError, not a crash later. */
export function deserializeArtifact(s: string): AnyModelArtifact {
  let parsed: unknown;
  try {
    parsed = JSON.parse(s);
  } catch (e) {
    throw new AutoMLError(`model artifact is not valid JSON: ${(e as Error).message}`);
  }
  validateAny(parsed);
  return parsed;
}
export { OnnxExportError, exportOnnx, type OnnxExport } from './onnx/export';
