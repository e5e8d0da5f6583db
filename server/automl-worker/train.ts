/**
 * Training worker: runs `train` or `finetune` requests of the AutoML engine off the main thread (so
 * SQL and predictions stay responsive), one at a time, writes each artifact atomically and reports
 * progress and the outcome to the trainer (server/models/trainer.ts), which owns the model's
 * status and reuses an idle worker for the next request.
 */
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import {
  AutoMLError,
  deserializeArtifact,
  finetuneColumns,
  keepPoolBetweenTrainings,
  loadPredictor,
  serializeArtifact,
  trainColumns,
  trainForecaster,
  type TrainProgress,
  warmUp,
} from '../automl/index';
import { writeFileAtomic } from '../engine/atomic';
import type {
  TrainMessage,
  TrainRequest,
  WarmMessage,
  WorkerRequest,
} from '../models/worker-protocol';

/**
 * Runs one request and reports its outcome. The worker stays alive afterwards for the trainer to
 * hand it the next request (its code is then compiled and warm: the engine's loops run at full
 * speed from the start, and no module is loaded again).
 */
function run(req: TrainRequest): void {
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
}

const post = (m: TrainMessage | WarmMessage) => parentPort!.postMessage(m);
// The engine's helper threads serve this worker's trainings one after the other, as it does.
keepPoolBetweenTrainings();
const first = (workerData as { request?: TrainRequest }).request;
if (first) run(first);
parentPort!.on('message', (m: WorkerRequest) => {
  if (m.type === 'train') {
    run(m.request);
    return;
  }
  try {
    warmUp();
  } catch {
    // A warm-up that fails leaves a worker as usable as a fresh one.
  }
  post({ type: 'warm' });
});
