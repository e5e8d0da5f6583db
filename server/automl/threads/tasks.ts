// A set of tasks handed to the model thread, joined by the training thread once it needs their
// results: it runs the tasks nobody claimed and waits only for the ones running elsewhere.
import { type MessagePort, receiveMessageOnPort } from 'node:worker_threads';
import { TASK_DONE, runClaimedTasks } from './protocol';

/** Tasks handed to the model thread (ThreadPool.postTasks), joined once their results are needed. */
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
