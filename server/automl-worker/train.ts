/**
 * Training worker: runs `train` or `finetune` requests of the AutoML engine off the main thread (so
 * SQL and predictions stay responsive), one at a time, writes each artifact atomically and reports
 * progress and the outcome to the trainer (server/models/trainer.ts), which owns the model's
 * status and reuses an idle worker for the next request.
 */
import fs from 'node:fs';
import v8 from 'node:v8';
import vm from 'node:vm';
import { parentPort } from 'node:worker_threads';
import {
  AutoMLError,
  deserializeArtifact,
  evidenceOf,
  finetuneColumns,
  keepPoolBetweenTrainings,
  loadPredictor,
  serializeArtifact,
  serializeEvidence,
  trainColumns,
  correctClassSampling,
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
    const trained =
      req.mode === 'finetune'
        ? finetuneColumns(
            deserializeArtifact(fs.readFileSync(req.baseArtifactFile!, 'utf8')),
            data,
            opts,
          )
        : req.timeseries
          ? trainForecaster(data, { ...opts, ...req.timeseries })
          : trainColumns(data, opts);
    // The evidence first: an artifact on disk means its version is whole. A stratified sample's
    // evidence keeps the sample's class shares (its held-out rows are the sample's).
    const evidence = evidenceOf(trained);
    if (evidence) writeFileAtomic(req.evidenceFile, serializeEvidence(evidence));
    const artifact = req.classRates ? correctClassSampling(trained, req.classRates) : trained;
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

/**
 * A full garbage collection of this worker, so an idle worker holds its code and not the last
 * training's arrays (a 200k-row training left ~180 MB): V8 collects an isolate only as it
 * allocates, and an idle one does not. `--expose-gc` cannot be given to a worker, so the flag is
 * set at run time; without it (another runtime), nothing is done. It runs once the worker has
 * been idle for IDLE_COLLECT_MS: right after a training, it cost the next one ~0.1 s (the heap
 * shrank and had to grow again).
 */
const collect: () => void = (() => {
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc: unknown = vm.runInNewContext('gc');
    return typeof gc === 'function' ? () => (gc as () => void)() : () => undefined;
  } catch {
    return () => undefined;
  }
})();
// The engine's helper threads serve this worker's trainings one after the other, as it does.
keepPoolBetweenTrainings();
const IDLE_COLLECT_MS = 30_000;
let idleTimer: NodeJS.Timeout | null = null;
/** Collects once no request came for IDLE_COLLECT_MS (the timer does not keep the worker alive). */
const collectWhenIdle = () => {
  idleTimer = setTimeout(collect, IDLE_COLLECT_MS);
  idleTimer.unref();
};

parentPort!.on('message', (m: WorkerRequest) => {
  if (idleTimer) clearTimeout(idleTimer);
  if (m.type === 'train') {
    run(m.request);
    collectWhenIdle();
    return;
  }
  try {
    warmUp();
  } catch {
    // A warm-up that fails leaves a worker as usable as a fresh one.
  }
  post({ type: 'warm' });
  collectWhenIdle();
});
