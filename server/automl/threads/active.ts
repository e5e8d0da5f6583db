// The pool of the training running in this thread: how many threads a training gets, the pool's
// life (one training, or kept between trainings by the server's training worker), and the two
// ways the engine shares work through it (task sets, one task later).
import { availableParallelism } from 'node:os';
import { AutoMLError } from '../errors';
import { ThreadPool } from './pool';
import type { TaskKind } from './protocol';
import { TaskSet } from './tasks';

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

let active: ThreadPool | null = null;

/** The pool of the training running in this thread, if it has one. */
export function activePool(): ThreadPool | null {
  return active;
}

/**
 * Tasks of a set on the active pool's two threads (ThreadPool.shareTasks), or all in this thread
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
let resident: ThreadPool | null = null;
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
  let pool: ThreadPool;
  if (keepResident) {
    if (!resident || resident.threads !== threads) {
      resident?.close();
      resident = new ThreadPool(threads);
    }
    pool = resident;
  } else pool = new ThreadPool(threads);
  active = pool;
  try {
    return fn();
  } finally {
    active = null;
    if (pool === resident) pool.endTraining();
    else pool.close();
  }
}
