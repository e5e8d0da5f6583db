/**
 * Messages between the trainer (trainer.ts) and a training worker (server/automl-worker/train.ts).
 * Models owns them: it starts the worker by URL and never imports it; the worker imports this.
 * A request travels as a message to a worker (started fresh or idle after its previous request),
 * its rows in columnar typed arrays whose buffers are transferred, not copied (see
 * training-columns.ts); the worker answers with progress ticks and one final message. The worker writes the artifact file itself so a multi-megabyte model never
 * crosses threads.
 */
import type { TrainProgress } from '../automl/index';
import type { JsonValue } from '../engine/values';
import type { TimeSeriesSettings } from './store';
import type { ColumnarDataset } from './training-columns';

export interface TrainRequest {
  mode: 'train' | 'finetune';
  data: ColumnarDataset;
  target: string;
  using: Record<string, unknown>;
  /** A time-series model (train mode): its ORDER BY / GROUP BY / WINDOW / HORIZON. */
  timeseries?: TimeSeriesSettings | null;
  /** finetune: the artifact of the version to continue from. */
  baseArtifactFile?: string;
  /** Where to write the new version's artifact (atomically). */
  artifactFile: string;
  /** Where to write the evidence its training kept (docs/evaluation.md), if any. */
  evidenceFile: string;
  /**
   * Train mode on a sample stratified by class (training-sample.ts): each class's value and the
   * rate its rows were drawn at, so probabilities move back to the source's class shares.
   */
  classRates?: { value: JsonValue; rate: number }[];
}

/**
 * The trainer -> a worker that is alive (idle after its previous request): a training, or a
 * warm-up (two small trainings on generated data, answered with `warm`) after the instance starts.
 */
export type WorkerRequest = { type: 'train'; request: TrainRequest } | { type: 'warmup' };

export type TrainMessage =
  | { type: 'progress'; progress: TrainProgress }
  | { type: 'done'; accuracies: Record<string, number>; trainingTimeMs: number }
  /** `user`: the engine rejected the data or options (AutoMLError); otherwise a bug or a crash. */
  | { type: 'error'; message: string; user: boolean };

/** The answer to a warm-up: done (or failed: the worker is as usable as a fresh one either way). */
export interface WarmMessage {
  type: 'warm';
}
