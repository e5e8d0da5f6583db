/**
 * Training worker: runs one `train` or `finetune` of the AutoML engine off the main thread (so SQL
 * and predictions stay responsive), writes the artifact atomically and reports progress and the
 * outcome to the trainer (server/models/trainer.ts), which owns the model's status.
 */
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import {
  AutoMLError,
  deserializeArtifact,
  finetuneColumns,
  loadPredictor,
  serializeArtifact,
  trainColumns,
  trainForecaster,
  type TrainProgress,
} from '../automl/index';
import { writeFileAtomic } from '../engine/atomic';
import type { TrainMessage, TrainRequest } from '../models/worker-protocol';

const req = (workerData as { request: TrainRequest }).request;
const post = (m: TrainMessage) => parentPort!.postMessage(m);

try {
  const started = Date.now();
  const onProgress = (progress: TrainProgress) => post({ type: 'progress', progress });
  const opts = { target: req.target, using: req.using, onProgress };
  // The transferred columns go to the engine as they are (typed arrays, no rows are rebuilt).
  const data = req.data;
  (req as { data?: unknown }).data = undefined;
  const artifact =
    req.mode === 'finetune'
      ? finetuneColumns(
          deserializeArtifact(fs.readFileSync(req.baseArtifactFile!, 'utf8')),
          data,
          opts,
        )
      : req.timeseries
        ? trainForecaster(data, { ...opts, ...req.timeseries })
        : trainColumns(data, opts);
  writeFileAtomic(req.artifactFile, serializeArtifact(artifact));
  const desc = loadPredictor(artifact).description;
  post({
    type: 'done',
    accuracies: desc.accuracies,
    trainingTimeMs: desc.trainingTimeMs ?? Date.now() - started,
  });
} catch (err) {
  const message = err instanceof Error ? err.message : String(err);
  post({ type: 'error', message, user: err instanceof AutoMLError });
}
