// What the training thread and the pool's model thread say to each other: the messages, and the
// shared counters from which both claim the tasks of a set (so neither waits for the other).
import type { MessagePort } from 'node:worker_threads';
import type { LinearJob } from '../linear/job';

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

/** Shared counters of a task set (see ThreadPool.shareTasks). */
const TASK_NEXT = 0;
export const TASK_DONE = 1;
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
