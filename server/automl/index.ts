// Public entry point of the AutoML engine (Lightwood-style: type inference -> encoders -> GBM /
// linear candidates -> conformal analysis). Other layers import only from here.

import type { ModelArtifact } from './api';
import { AutoMLError } from './errors';
import { validateArtifact } from './predict/predictor';

export type {
  CandidateInfo,
  CellValue,
  ColumnarColumn,
  ColumnarData,
  Dataset,
  Explanation,
  FeatureInfo,
  ModelArtifact,
  ModelDescription,
  Prediction,
  Predictor,
  TrainOptions,
  TrainProgress,
} from './api';
export { AutoMLError } from './errors';
export { ALLOWED_USING_KEYS } from './options';
export { finetune, finetuneColumns } from './pipeline/finetune';
export { train, trainColumns } from './pipeline/train';
export { loadPredictor } from './predict/predictor';

/** JSON text of an artifact (artifacts are plain JSON already; this is the one place that says so). */
export function serializeArtifact(a: ModelArtifact): string {
  validateArtifact(a);
  return JSON.stringify(a);
}

/** Parses and validates an artifact; a corrupt or foreign file is an AutoMLError, not a crash later. */
export function deserializeArtifact(s: string): ModelArtifact {
  let parsed: unknown;
  try {
    parsed = JSON.parse(s);
  } catch (e) {
    throw new AutoMLError(`model artifact is not valid JSON: ${(e as Error).message}`);
  }
  validateArtifact(parsed);
  return parsed;
}
