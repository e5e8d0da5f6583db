// The engine's thread pool: histogram block workers on shared memory (block-worker.ts) and one
// model thread (model-thread.ts) that fits linear models and takes shares of task sets. Training
// stays synchronous: the training thread publishes work, claims its share itself and waits only
// for work another thread has taken, so a thread that is slow to wake (a busy machine) costs
// nothing. Every number is computed by the same code in the same order whichever thread runs it.

import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import { type LinearJob, abandonJob, joinJob, jobPending, jobScores } from '../linear/job';
import type { LinearModel } from '../linear/linear';
import {
  ARGS,
  type BlockFn,
  type BlockSource,
  CLAIM,
  DONE,
  ERROR,
  EXIT,
  FNS,
  MAX_BLOCKS,
  NBLOCK,
  SEQ,
  SEQ_MASK,
  WORKER_SOURCE,
} from './block-worker';
import type { ModelThreadMessage, TaskKind } from './protocol';
import { TaskSet } from './tasks';

type Shared = Float64Array | Int32Array | Uint8Array;

/**
 * The model thread's entry, started through the workers' bootstrap: it loads a TypeScript entry
 * as one bundle of its modules, or through tsx where none can be built (workers do not inherit
 * tsx's loader).
 */
const MODEL_BOOTSTRAP = new URL('../../automl-worker/bootstrap.mjs', import.meta.url);
const MODEL_ENTRY = new URL('./model-thread.ts', import.meta.url).href;

/** Worker threads of every pool in this thread that have not exited yet (tests check for leaks). */
const live = new Set<Worker>();

export function liveWorkerCount(): number {
  return live.size;
}

export class ThreadPool {
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
  fnId(spec: BlockSource): number {
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
  build(blocks: { spec: BlockSource; fn: BlockFn }[], ...args: Parameters<BlockFn>): void {
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
      const worker = new Worker(MODEL_BOOTSTRAP, {
        workerData: { entry: MODEL_ENTRY, port: port2 },
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
