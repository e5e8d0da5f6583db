/**
 * Training of model versions: a queue of jobs run by worker threads, at most `maxConcurrent` at
 * once. A job reads its FROM query into columns, hands them to a worker (so SQL and predictions
 * stay responsive), and writes the outcome into the version's record: `generating` (queued, then
 * fetching) -> `training` (worker running, phases from the engine's onProgress) -> `complete` |
 * `error` (reason in ERROR). A completed version becomes its model's active one.
 *
 * A worker that finished a request is kept (one at most) for the next one: its engine code is
 * compiled and warm, and it loads no module again, which on a 30k-row table was a third of the
 * training's time. A cancelled or failed worker is terminated, never reused. With a warm-up gate,
 * the first worker starts once the gate opens (the first visit's requests have settled:
 * warmup-gate.ts) and warms up on generated data (automl/warmup.ts), so the first training is as
 * quick as the later ones without competing with the first page load; a training asked for
 * meanwhile waits for it, one asked for before takes its place.
 */
import { Worker } from 'node:worker_threads';
import type { TrainMessage, TrainRequest, WarmMessage, WorkerRequest } from './worker-protocol';
import type { ModelStore, ModelVersionRecord } from './store';
import { transferables } from './training-columns';
import type { TrainingData } from './training-data';
import type { WarmupGate } from './warmup-gate';
import { type TrainingCache, trainingKey } from './training-cache';

const WORKER_BOOTSTRAP = new URL('../automl-worker/bootstrap.mjs', import.meta.url);
const WORKER_ENTRY = new URL('../automl-worker/train.ts', import.meta.url).href;

type FinalMessage = Exclude<TrainMessage, { type: 'progress' }>;

interface Job {
  rec: ModelVersionRecord;
  cancelled: boolean;
  /** Interrupts the job's read of its FROM query (DROP MODEL, shutdown). */
  abort: AbortController;
  worker?: Worker;
}

export interface TrainerOptions {
  store: ModelStore;
  data: TrainingData;
  maxConcurrent: number;
  /** Called when a version completed and became active (the registry warms its predictor). */
  onComplete: (rec: ModelVersionRecord) => void;
  /** Start a worker and warm it up when this gate opens (see above). */
  warmupGate?: WarmupGate | null;
  /** Reuses finished trainings of identical requests (TRAINING_CACHE_DIR: test suites only). */
  cache?: TrainingCache | null;
}

/**
 * The primary accuracy and its name: the first metric the engine reports (r2_score or
 * balanced_accuracy_score).
 */
function primaryAccuracy(acc: Record<string, number>): {
  value: number | null;
  name: string | null;
} {
  const [name, v] = Object.entries(acc)[0] ?? [null, null];
  return { value: typeof v === 'number' && Number.isFinite(v) ? v : null, name };
}

export class Trainer {
  private readonly queue: Job[] = [];
  private readonly running = new Set<Job>();
  private readonly jobs = new Map<ModelVersionRecord, Job>();
  private readonly waiters = new Set<() => void>();
  private closed = false;
  /** A worker done with its request, waiting (unref'd) for the next one. */
  private idleWorker: Worker | null = null;
  /** Workers started so far (tests read it). */
  private started = 0;
  /** The most trainings that ran at once (tests read it: MAX_CONCURRENT_TRAININGS holds). */
  private peak = 0;
  /** The worker warming up, and when it is done (it then becomes the idle one). */
  private warming: { worker: Worker; done: Promise<void> } | null = null;

  /** Settles once the warm-up's moment has come and it has started or stood aside. */
  readonly warmupDecided: Promise<void>;

  constructor(private readonly opts: TrainerOptions) {
    this.warmupDecided = opts.warmupGate
      ? opts.warmupGate.opened.then(() => this.warmUp())
      : Promise.resolve();
  }

  /** Starts a worker on the warm-up, unless one is already there (a training came first). */
  private warmUp(): void {
    if (this.closed || this.started > 0) return;
    const worker = this.spawn();
    const done = new Promise<void>((resolve) => {
      const finish = (ok: boolean) => {
        worker.off('message', onMessage);
        worker.off('exit', onExit);
        this.warming = null;
        if (ok) this.release(worker);
        resolve();
      };
      const onMessage = (m: WarmMessage) => {
        if (m.type === 'warm') finish(true);
      };
      const onExit = () => finish(false);
      worker.on('message', onMessage);
      worker.on('exit', onExit);
    });
    // While it warms up, the worker must not keep the process alive.
    worker.unref();
    this.warming = { worker, done };
    worker.postMessage({ type: 'warmup' } satisfies WorkerRequest);
  }

  /** Queues the training of a new `generating` version. */
  enqueue(rec: ModelVersionRecord): void {
    const job: Job = { rec, cancelled: false, abort: new AbortController() };
    this.jobs.set(rec, job);
    this.queue.push(job);
    this.pump();
  }

  /** Cancels a version's training, queued or running; its record is the caller's to remove. */
  cancel(rec: ModelVersionRecord): void {
    const job = this.jobs.get(rec);
    if (!job) return;
    job.cancelled = true;
    const i = this.queue.indexOf(job);
    if (i >= 0) this.queue.splice(i, 1);
    // The read of the FROM query stops too (DuckDB is interrupted), not only the training.
    job.abort.abort();
    void job.worker?.terminate();
    this.jobs.delete(rec);
  }

  /** Resolves when no training is queued or running (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.queue.length > 0 || this.running.size > 0) {
      await new Promise<void>((resolve) => this.waiters.add(resolve));
    }
  }

  /**
   * Stops the workers. Their records keep `generating`/`training` on disk, which the next start
   * turns into `error: interrupted by a restart of the instance`.
   */
  async close(): Promise<void> {
    this.closed = true;
    this.opts.warmupGate?.close();
    const jobs = [...this.jobs.values()];
    for (const j of jobs) {
      j.cancelled = true;
      j.abort.abort();
    }
    this.queue.length = 0;
    const idle = this.idleWorker;
    this.idleWorker = null;
    const warming = this.warming?.worker;
    await Promise.all([
      ...jobs.flatMap((j) => (j.worker ? [j.worker.terminate()] : [])),
      ...(idle ? [idle.terminate()] : []),
      ...(warming ? [warming.terminate()] : []),
    ]);
  }

  /** Training workers started so far, and whether one is idle (kept for the next request). */
  workers(): { started: number; idle: boolean } {
    return { started: this.started, idle: this.idleWorker !== null };
  }

  /** The most trainings that ran at once so far (never above MAX_CONCURRENT_TRAININGS). */
  peakConcurrency(): number {
    return this.peak;
  }

  private pump(): void {
    while (!this.closed && this.running.size < this.opts.maxConcurrent && this.queue.length > 0) {
      const job = this.queue.shift()!;
      this.running.add(job);
      this.peak = Math.max(this.peak, this.running.size);
      void this.runJob(job).finally(() => {
        this.running.delete(job);
        this.jobs.delete(job.rec);
        this.pump();
        if (this.queue.length === 0 && this.running.size === 0) {
          for (const w of [...this.waiters]) w();
          this.waiters.clear();
        }
      });
    }
  }

  private async runJob(job: Job): Promise<void> {
    const { store } = this.opts;
    const rec = job.rec;
    const started = Date.now();
    let outcome:
      | { ok: true; accuracy: { value: number | null; name: string | null } }
      | { ok: false; error: string };
    try {
      const data = await this.opts.data.fetch(rec, job.abort.signal);
      if (job.cancelled) return;
      rec.status = 'training';
      store.save();
      const request: TrainRequest = {
        mode: rec.mode,
        data,
        target: rec.target,
        using: rec.using,
        timeseries: rec.timeseries ?? null,
        ...(rec.mode === 'train' && rec.sample?.classes ? { classRates: rec.sample.classes } : {}),
        artifactFile: store.artifactFile(rec.project, rec.name, rec.version),
        evidenceFile: store.evidenceFile(rec.project, rec.name, rec.version),
        baseArtifactFile:
          rec.baseVersion !== null
            ? store.artifactFile(rec.project, rec.name, rec.baseVersion)
            : undefined,
      };
      const msg = await this.trainOrReuse(job, request);
      outcome =
        msg.type === 'done'
          ? { ok: true, accuracy: primaryAccuracy(msg.accuracies) }
          : {
              ok: false,
              error: msg.user ? msg.message : `Training failed unexpectedly: ${msg.message}`,
            };
    } catch (err) {
      outcome = { ok: false, error: err instanceof Error ? err.message : String(err) };
    }
    // A dropped model or a shutdown owns the record now: nothing to report.
    if (job.cancelled || this.closed) return;
    rec.trainingTime = Math.round((Date.now() - started) / 10) / 100;
    if (outcome.ok) {
      rec.status = 'complete';
      rec.accuracy = outcome.accuracy.value;
      rec.accuracyMetric = outcome.accuracy.name;
      rec.error = null;
      // The newest complete version takes over (the previous one served predictions meanwhile),
      // unless it was made with USING active = 0.
      if (rec.activateOnComplete !== false) {
        for (const v of store.versions(rec.project, rec.name)) v.active = v === rec;
        this.opts.onComplete(rec);
      }
    } else {
      rec.status = 'error';
      rec.error = outcome.error;
    }
    try {
      store.save();
    } catch {
      // A full disk: the record in memory has its final state, and a restart marks a version
      // whose state never reached the disk as interrupted, so it is never stuck in training.
    }
  }

  /**
   * Runs the request on a worker, or takes the cached training of an identical request when a
   * training cache is configured (training-cache.ts: test suites).
   */
  private async trainOrReuse(job: Job, request: TrainRequest): Promise<FinalMessage> {
    const cache = this.opts.cache;
    if (!cache?.covers(job.rec.name)) return this.runWorker(job, request);
    // Hashed before the worker runs: the column buffers are transferred to it.
    const key = trainingKey(request);
    const got = await cache.acquire(key, request, job.abort.signal);
    if ('hit' in got) return { type: 'done', accuracies: got.hit.accuracies, trainingTimeMs: 0 };
    try {
      const msg = await this.runWorker(job, request);
      if (got.claim && msg.type === 'done' && !job.cancelled)
        cache.store(key, request, { accuracies: msg.accuracies });
      return msg;
    } finally {
      if (got.claim) cache.release(got.claim);
    }
  }

  /** The idle worker (once a warm-up in progress is done), or a new one. */
  private async takeWorker(): Promise<Worker> {
    if (this.warming) await this.warming.done;
    const idle = this.idleWorker;
    this.idleWorker = null;
    if (idle) {
      idle.ref();
      return idle;
    }
    return this.spawn();
  }

  private spawn(): Worker {
    this.started++;
    const worker = new Worker(WORKER_BOOTSTRAP, { workerData: { entry: WORKER_ENTRY } });
    // Errors while idle or warming up end in an exit (handled); a job listens for its own.
    worker.on('error', () => undefined);
    // An exit while idle (a crash) just forgets the worker.
    worker.on('exit', () => {
      if (this.idleWorker === worker) this.idleWorker = null;
    });
    return worker;
  }

  /** Keeps a worker that answered its request for the next one (one at most; others end). */
  private release(worker: Worker): void {
    if (this.closed || this.idleWorker) {
      void worker.terminate();
      return;
    }
    // Idle, it must not keep the process alive.
    worker.unref();
    this.idleWorker = worker;
  }

  private async runWorker(job: Job, request: TrainRequest): Promise<FinalMessage> {
    const worker = await this.takeWorker();
    // Dropped while waiting for the warm-up: the worker stays idle for the next training.
    if (job.cancelled || this.closed) {
      this.release(worker);
      return { type: 'error', message: 'cancelled', user: true };
    }
    return new Promise((resolve) => {
      job.worker = worker;
      const onMessage = (m: TrainMessage) => {
        if (m.type === 'progress') {
          // Progress is kept in memory only: rewriting the catalog file on every tick buys nothing
          // (a restart turns an unfinished training into an error anyway).
          job.rec.phase = {
            current: m.progress.phase,
            total: m.progress.total,
            name: m.progress.name,
          };
          return;
        }
        settle(m);
        // A worker that answered (done, or the engine refused the data or options) is whole; one
        // that failed unexpectedly or was cancelled meanwhile is not trusted again.
        if (!job.cancelled && (m.type === 'done' || m.user)) this.release(worker);
        else void worker.terminate();
      };
      const onError = (err: Error) => settle({ type: 'error', message: err.message, user: false });
      const onExit = (code: number) =>
        settle({
          type: 'error',
          message: `the training worker stopped (exit code ${code})`,
          user: false,
        });
      let settled = false;
      const settle = (m: FinalMessage) => {
        if (settled) return;
        settled = true;
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        resolve(m);
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      // The column buffers move to the worker (no copy); they are unusable here afterwards.
      worker.postMessage(
        { type: 'train', request } satisfies WorkerRequest,
        transferables(request.data),
      );
    });
  }
}
