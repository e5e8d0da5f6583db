// A small pool of worker threads that build gradient histograms with the training thread, one
// block of features per task, on shared memory (SharedArrayBuffer + Atomics). Training stays
// synchronous: the training thread publishes a build, takes blocks itself and waits only for a
// block a worker has taken, so a worker that is slow to wake (a busy machine) costs nothing.

import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import {
  MessageChannel,
  type MessagePort,
  Worker,
  receiveMessageOnPort,
} from 'node:worker_threads';
import { type LinearJob, abandonJob, joinJob, jobPending, jobScores } from '../linear/job';
import type { LinearModel } from '../linear/linear';
import { AutoMLError } from '../errors';
import type { BuildFn, BuilderSpec } from './histogram';

type Shared = Float64Array | Int32Array | Uint8Array;

// Control block (Int32 slots).
const SEQ = 0; // current build; workers wait for it to change
const CLAIM = 1; // (seq << 8) | next unclaimed block
const DONE = 2; // blocks finished in the current build
const NBLOCK = 3;
const ARGS = 4; // hist, bins, idx, g, h buffer ids, then s, e
const EXIT = 11;
const ERROR = 12;
const FNS = 16; // builder id of each block
const MAX_BLOCKS = 64;
const SEQ_MASK = 0x3fffff;

/**
 * The worker: plain JavaScript evaluated from this string (no module loading, so it starts in a few
 * milliseconds under tsx, Vitest or plain Node alike). Buffers and generated builders arrive as
 * messages, read synchronously when a build is published.
 */
const WORKER_SOURCE = `
const { workerData, receiveMessageOnPort } = require('node:worker_threads');
const { ctl, port } = workerData;
const bufs = new Map();
const fns = new Map();
const drain = () => {
  for (let m = receiveMessageOnPort(port); m; m = receiveMessageOnPort(port)) {
    const d = m.message;
    if (d.t === 'buf') bufs.set(d.id, d.a);
    else if (d.t === 'fn') fns.set(d.id, new Function('off', d.src)(d.offC));
    else for (const id of d.ids) { bufs.delete(id); fns.delete(id); }
  }
};
let seen = 0;
for (;;) {
  Atomics.wait(ctl, ${SEQ}, seen);
  if (Atomics.load(ctl, ${EXIT})) break;
  const seq = Atomics.load(ctl, ${SEQ});
  seen = seq;
  drain();
  for (;;) {
    const v = Atomics.load(ctl, ${CLAIM});
    const c = v & 255;
    if (v >>> 8 !== seq || c >= ctl[${NBLOCK}]) break;
    if (Atomics.compareExchange(ctl, ${CLAIM}, v, v + 1) !== v) continue;
    try {
      fns.get(ctl[${FNS} + c])(bufs.get(ctl[${ARGS}]), bufs.get(ctl[${ARGS + 1}]),
        bufs.get(ctl[${ARGS + 2}]), ctl[${ARGS + 5}], ctl[${ARGS + 6}], bufs.get(ctl[${ARGS + 3}]),
        bufs.get(ctl[${ARGS + 4}]));
    } catch {
      Atomics.store(ctl, ${ERROR}, 1);
    }
    Atomics.add(ctl, ${DONE}, 1);
    Atomics.notify(ctl, ${DONE});
  }
}
`;

/**
 * The model thread's bootstrap: workers do not inherit tsx's loader, so TypeScript sources are
 * registered first (as server/automl-worker does).
 */
const MODEL_BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
(async () => {
  if (workerData.tsx) {
    const m = await import(workerData.tsx);
    (m.register ?? m.default.register)();
  }
  await import(workerData.entry);
})();
`;
const MODEL_ENTRY = new URL('../model-thread.ts', import.meta.url).href;

/** Task sets the model thread knows (model-thread.ts maps each to its function). */
export type TaskKind = 'importance' | 'missing' | 'scale';

/** Messages to the model thread. */
export type ModelThreadMessage =
  | { t: 'linear'; job: LinearJob }
  | {
      t: 'tasks';
      kind: TaskKind;
      job: unknown;
      /** Tasks in the set. */
      n: number;
      /** Shared: [next unclaimed task, tasks done, failed (1)]. */
      claim: Int32Array;
      /** Where each task's result goes: { task, result }. */
      port: MessagePort;
    };

/** Shared counters of a task set (see shareTasks). */
const TASK_NEXT = 0;
const TASK_DONE = 1;
const TASK_FAILED = 2;

/**
 * Claims tasks of a set from its shared counter until none is left, running each with `run`;
 * `report` receives each result (the model thread posts it back).
 */
export function runClaimedTasks<R>(
  claim: Int32Array,
  n: number,
  run: (task: number) => R,
  report: (task: number, result: R) => void,
): void {
  for (let k = Atomics.add(claim, TASK_NEXT, 1); k < n; k = Atomics.add(claim, TASK_NEXT, 1)) {
    try {
      report(k, run(k));
    } catch {
      Atomics.store(claim, TASK_FAILED, 1);
    }
    Atomics.add(claim, TASK_DONE, 1);
    Atomics.notify(claim, TASK_DONE);
  }
}

/** Worker threads of every pool in this thread that have not exited yet (tests check for leaks). */
const live = new Set<Worker>();

export function liveWorkerCount(): number {
  return live.size;
}

/** Threads a training uses: the option, else AUTOML_THREADS, else min(2, available cores). */
export function resolveThreads(option?: number): number {
  const env = process.env.AUTOML_THREADS;
  const v = option ?? (env !== undefined && env.trim() !== '' ? Number(env) : undefined);
  if (v === undefined) return Math.min(2, availableParallelism());
  if (!Number.isInteger(v) || v < 1 || v > 64) {
    const from = option !== undefined ? 'the threads option' : 'AUTOML_THREADS';
    throw new AutoMLError(`${from} must be an integer from 1 to 64, got ${JSON.stringify(v)}`);
  }
  return v;
}

/** Tasks handed to the model thread (HistPool.postTasks), joined once their results are needed. */
export class TaskSet<R> {
  constructor(
    /** Shared counters of the set, or null when no model thread takes part. */
    private readonly claim: Int32Array | null,
    /** Where the model thread posts its results. */
    private readonly port: MessagePort | null,
  ) {}

  /** Runs the tasks nobody claimed here, waits for the others; the results in task order. */
  join(n: number, runHere: (task: number) => R): R[] {
    const results = new Array<R>(n);
    const got = new Uint8Array(n);
    const { claim, port } = this;
    if (claim && port) {
      try {
        runClaimedTasks(claim, n, runHere, (k, r) => {
          results[k] = r;
          got[k] = 1;
        });
        for (let d = Atomics.load(claim, TASK_DONE); d < n; d = Atomics.load(claim, TASK_DONE))
          Atomics.wait(claim, TASK_DONE, d);
        // The model thread posts each result before counting it done, so all are queued by now.
        for (let msg = receiveMessageOnPort(port); msg; msg = receiveMessageOnPort(port)) {
          const { task, result } = msg.message as { task: number; result: R };
          results[task] = result;
          got[task] = 1;
        }
      } finally {
        port.close();
      }
    }
    // A task that failed on the model thread runs here (the same code: the same result).
    for (let k = 0; k < n; k++) if (!got[k]) results[k] = runHere(k);
    return results;
  }
}

export class HistPool {
  readonly threads: number;
  private readonly ctl: Int32Array;
  private readonly workers: Worker[] = [];
  private readonly ports: MessagePort[] = [];
  private seq = 0;
  private nextId = 1;
  private readonly ids = new WeakMap<object, number>();
  /** Registrations in order (for `release`): the keyed object and its id. */
  private readonly registered: { key: object; id: number }[] = [];
  /** Shared copies of buffers that were not shared (the binned matrix), by original. */
  private readonly copies = new WeakMap<object, Shared>();
  private closed = false;
  /** The model thread (linear fits beside the trees, shared tasks) and its linear jobs not joined. */
  private model: { worker: Worker; port: MessagePort; pending: LinearJob[] } | null = null;

  constructor(threads: number) {
    this.threads = threads;
    this.ctl = new Int32Array(new SharedArrayBuffer(4 * (FNS + MAX_BLOCKS)));
  }

  /** Starts the histogram workers (on the first build that wants them: many trainings don't). */
  private startWorkers(): void {
    for (let i = 1; i < this.threads; i++) {
      const { port1, port2 } = new MessageChannel();
      const w = new Worker(WORKER_SOURCE, {
        eval: true,
        workerData: { ctl: this.ctl, port: port2 },
        transferList: [port2],
      });
      live.add(w);
      w.on('exit', () => live.delete(w));
      // A worker that fails to start never takes a block; the training thread builds them all.
      w.on('error', () => undefined);
      w.unref();
      this.workers.push(w);
      this.ports.push(port1);
    }
  }

  /** A zeroed Float64Array / Int32Array the workers can read and write. */
  f64(n: number): Float64Array {
    return new Float64Array(new SharedArrayBuffer(8 * Math.max(1, n)), 0, n);
  }

  i32(n: number): Int32Array {
    return new Int32Array(new SharedArrayBuffer(4 * Math.max(1, n)), 0, n);
  }

  /** The id workers know `a` by (sent on first use; `a` must live in shared memory). */
  private idOf(a: Shared): number {
    let id = this.ids.get(a);
    if (id === undefined) {
      if (!(a.buffer instanceof SharedArrayBuffer)) throw new Error('pool buffers must be shared');
      id = this.nextId++;
      this.ids.set(a, id);
      this.registered.push({ key: a, id });
      for (const p of this.ports) p.postMessage({ t: 'buf', id, a });
    }
    return id;
  }

  /** The id of a compiled builder (its source sent to the workers on first use). */
  fnId(spec: BuilderSpec): number {
    let id = this.ids.get(spec);
    if (id === undefined) {
      id = this.nextId++;
      this.ids.set(spec, id);
      this.registered.push({ key: spec, id });
      for (const p of this.ports) p.postMessage({ t: 'fn', id, src: spec.src, offC: spec.offC });
    }
    return id;
  }

  /** A shared copy of a read-only byte matrix (made once per matrix). */
  sharedBins(bins: Uint8Array): Uint8Array {
    if (bins.buffer instanceof SharedArrayBuffer) return bins;
    let c = this.copies.get(bins) as Uint8Array | undefined;
    if (!c) {
      c = new Uint8Array(new SharedArrayBuffer(Math.max(1, bins.length)), 0, bins.length);
      c.set(bins);
      this.copies.set(bins, c);
    }
    return c;
  }

  /** Registrations so far; `release(mark)` forgets the ones made after it. */
  mark(): number {
    return this.registered.length;
  }

  /** Lets the workers drop buffers and builders registered after `mark` (a finished boosting). */
  release(mark: number): void {
    const gone = this.registered.splice(mark);
    for (const r of gone) this.ids.delete(r.key);
    if (gone.length && !this.closed) {
      const ids = gone.map((r) => r.id);
      for (const p of this.ports) p.postMessage({ t: 'free', ids });
    }
  }

  /**
   * Runs blocks[c] (feature block c's builder) for every c over rows idx[s, e): the training
   * thread and the workers take blocks until none is left; returns once all are built.
   */
  build(blocks: { spec: BuilderSpec; fn: BuildFn }[], ...args: Parameters<BuildFn>): void {
    const [hist, bins, idx, s, e, g, h] = args;
    const ctl = this.ctl;
    const n = blocks.length;
    if (this.workers.length === 0 && !this.closed) this.startWorkers();
    // While the model thread fits, the cores are taken: one thread builds the histograms.
    if (this.workers.length === 0 || this.closed || this.modelBusy()) {
      for (const b of blocks) b.fn(hist, bins, idx, s, e, g, h);
      return;
    }
    ctl[ARGS] = this.idOf(hist);
    ctl[ARGS + 1] = this.idOf(this.sharedBins(bins));
    ctl[ARGS + 2] = this.idOf(idx);
    ctl[ARGS + 3] = this.idOf(g);
    ctl[ARGS + 4] = this.idOf(h);
    ctl[ARGS + 5] = s;
    ctl[ARGS + 6] = e;
    ctl[NBLOCK] = n;
    for (let c = 0; c < n; c++) ctl[FNS + c] = this.fnId(blocks[c].spec);
    Atomics.store(ctl, DONE, 0);
    const seq = (this.seq = (this.seq % SEQ_MASK) + 1);
    Atomics.store(ctl, CLAIM, seq << 8);
    Atomics.store(ctl, SEQ, seq);
    Atomics.notify(ctl, SEQ);
    for (;;) {
      const v = Atomics.load(ctl, CLAIM);
      const c = v & 255;
      if (c >= n) break;
      if (Atomics.compareExchange(ctl, CLAIM, v, v + 1) !== v) continue;
      blocks[c].fn(hist, bins, idx, s, e, g, h);
      Atomics.add(ctl, DONE, 1);
    }
    for (let d = Atomics.load(ctl, DONE); d < n; d = Atomics.load(ctl, DONE))
      Atomics.wait(ctl, DONE, d);
    if (Atomics.load(ctl, ERROR)) throw new Error('a histogram worker failed');
  }

  private modelBusy(): boolean {
    return this.model !== null && this.model.pending.some(jobPending);
  }

  /** A shared copy of a typed array (made once per array), or the array when it is shared. */
  private shared<T extends Int32Array | Float64Array>(a: T): T {
    if (a.buffer instanceof SharedArrayBuffer) return a;
    let c = this.copies.get(a) as T | undefined;
    if (!c) {
      const Ctor = a.constructor as new (b: SharedArrayBuffer, o: number, n: number) => T;
      c = new Ctor(new SharedArrayBuffer(Math.max(1, a.byteLength)), 0, a.length);
      c.set(a);
      this.copies.set(a, c);
    }
    return c;
  }

  /**
   * Posts a linear fit to the model thread, which fits its scores (one-vs-rest logistic ones, or
   * the ridge fit) while this thread goes on; the returned function fits the scores still
   * unclaimed here, waits for those being fitted there, and returns the model. Null without a
   * second thread (the caller fits it). Each score is the same code on the same inputs wherever it
   * runs, so the model is too.
   */
  fitLinear(
    job: Omit<LinearJob, 'claim' | 'w'>,
    fitHere: () => LinearModel,
  ): (() => LinearModel) | null {
    const m = this.modelThread();
    if (!m) return null;
    const full: LinearJob = {
      ...job,
      X: { ...job.X, idx: this.shared(job.X.idx), val: this.shared(job.X.val) },
      claim: this.i32(3),
      w: this.f64(jobScores(job) * (job.d + 1)),
    };
    m.port.postMessage({ t: 'linear', job: full } satisfies ModelThreadMessage);
    m.pending.push(full);
    return () => {
      const model = joinJob(full);
      m.pending = m.pending.filter((p) => p !== full);
      return model ?? fitHere();
    };
  }

  /**
   * The model thread (started on first use: it loads the engine's modules, ~0.1-0.3 s on the
   * other core, so trainings that will share work start it early, see `warm`). Null without a
   * second thread.
   */
  private modelThread(): { worker: Worker; port: MessagePort; pending: LinearJob[] } | null {
    if (this.threads < 2 || this.closed) return null;
    if (!this.model) {
      const { port1, port2 } = new MessageChannel();
      const tsx = MODEL_ENTRY.endsWith('.ts')
        ? pathToFileURL(
            createRequire(import.meta.url)
              .resolve('tsx/esm/api')
              .replace(/\.cjs$/, '.mjs'),
          ).href
        : null;
      const worker = new Worker(MODEL_BOOTSTRAP, {
        eval: true,
        workerData: { entry: MODEL_ENTRY, tsx, port: port2 },
        transferList: [port2],
      });
      live.add(worker);
      worker.on('exit', () => live.delete(worker));
      // A thread that fails to load never claims work: the training thread does it all.
      worker.on('error', () => undefined);
      worker.unref();
      this.model = { worker, port: port1, pending: [] };
    }
    return this.model;
  }

  /** Starts the model thread now, so it is loaded by the time tasks are shared with it. */
  warm(): void {
    this.modelThread();
  }

  /**
   * Runs tasks 0..n-1 of a set on this thread and the model thread: each claims the next task
   * from a shared counter, so a model thread that is still loading or busy costs nothing (this
   * thread takes every task). `runHere` runs a task in this thread; the model thread runs the
   * same function of `kind` on a structured clone of `job`, so results do not depend on which
   * thread ran a task. Returns the results in task order.
   */
  shareTasks<R>(kind: TaskKind, job: unknown, n: number, runHere: (task: number) => R): R[] {
    // Only a model thread already started (by `warm` or a linear fit) takes tasks: one started
    // now would still be loading when this thread is done.
    return this.postTasks<R>(kind, job, n >= 2 ? n : 0).join(n, runHere);
  }

  /**
   * Hands tasks 0..n-1 of a set to the model thread (when it is up) and returns at once: this
   * thread goes on with other work, and `join` then runs the tasks nobody has claimed, waits for
   * the ones the model thread is running and returns all results in task order.
   */
  postTasks<R>(kind: TaskKind, job: unknown, n: number): TaskSet<R> {
    const m = n >= 1 && !this.closed ? this.model : null;
    if (!m) return new TaskSet<R>(null, null);
    const claim = this.i32(3);
    const { port1, port2 } = new MessageChannel();
    m.port.postMessage(
      { t: 'tasks', kind, job, n, claim, port: port2 } satisfies ModelThreadMessage,
      [port2],
    );
    return new TaskSet<R>(claim, port1);
  }

  /**
   * A training using the pool ended (the pool stays for the next one): linear fits it left
   * unjoined (a training that failed midway) are abandoned, so the model thread is free for the
   * next training once it finishes the score it is on.
   */
  endTraining(): void {
    if (!this.model) return;
    for (const job of this.model.pending) abandonJob(job);
    this.model.pending = [];
  }

  /** Stops the workers (idempotent); their threads exit shortly after. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    Atomics.store(this.ctl, EXIT, 1);
    Atomics.add(this.ctl, SEQ, 1);
    Atomics.notify(this.ctl, SEQ);
    for (const p of this.ports) p.close();
    for (const w of this.workers) void w.terminate();
    if (this.model) {
      this.model.port.close();
      void this.model.worker.terminate();
    }
  }
}

let active: HistPool | null = null;

/** The pool of the training running in this thread, if it has one. */
export function activePool(): HistPool | null {
  return active;
}

/**
 * Tasks of a set on the active pool's two threads (HistPool.shareTasks), or all in this thread
 * when the training has no pool.
 */
export function shareTasks<R>(
  kind: TaskKind,
  job: unknown,
  n: number,
  runHere: (task: number) => R,
): R[] {
  if (active) return active.shareTasks(kind, job, n, runHere);
  return Array.from({ length: n }, (_, k) => runHere(k));
}

/**
 * One task handed to the active pool's model thread while this thread goes on: the returned
 * function gives its result (running it here if the model thread has not taken it). Without a
 * pool, the task runs when its result is first asked for.
 */
export function later<R>(kind: TaskKind, job: unknown, runHere: () => R): () => R {
  const set = active ? active.postTasks<R>(kind, job, 1) : new TaskSet<R>(null, null);
  let result: { value: R } | null = null;
  return () => (result ??= { value: set.join(1, runHere)[0] }).value;
}

/** The pool kept between trainings in this thread (see `keepPoolBetweenTrainings`). */
let resident: HistPool | null = null;
let keepResident = false;

/**
 * Keeps the pool of this thread's trainings alive from one training to the next (a training
 * worker that serves many requests, server/automl-worker/train.ts): its threads then load the
 * engine once, and their code stays compiled. Elsewhere each training's pool ends with it.
 */
export function keepPoolBetweenTrainings(): void {
  keepResident = true;
}

/**
 * Runs `fn` (one synchronous training) with a pool of `threads` threads (this one included) and
 * closes the pool afterwards, also when `fn` throws, unless pools are kept between trainings.
 * Nested calls share the outer pool.
 */
export function withPool<T>(threads: number, fn: () => T): T {
  if (threads <= 1 || active) return fn();
  let pool: HistPool;
  if (keepResident) {
    if (!resident || resident.threads !== threads) {
      resident?.close();
      resident = new HistPool(threads);
    }
    pool = resident;
  } else pool = new HistPool(threads);
  active = pool;
  try {
    return fn();
  } finally {
    active = null;
    if (pool === resident) pool.endTraining();
    else pool.close();
  }
}
