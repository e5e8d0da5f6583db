// Entry of the pool's model thread (pool.ts starts it by URL; nothing imports it): fits
// one-vs-rest scores of logistic jobs while the training thread boosts trees (linear/job.ts), and
// takes its share of task sets the training thread hands out (rows of the permutation importance
// and missing-input analysis, a scale model). The training thread claims tasks from the same
// shared counters, so it never waits for work this thread has not started.
import { type MessagePort, workerData } from 'node:worker_threads';
import { type ImportanceJob, importanceScorer } from '../analysis/importance';
import { type MissingJob, missingScorer } from '../analysis/missing';
import { type ScaleJob, fitScale } from '../analysis/scale';
import { type ModelThreadMessage, type TaskKind, runClaimedTasks } from './protocol';
import { fitClaimedScores } from '../linear/job';

const { port } = workerData as { port: MessagePort };

/** Each task set's function, built from its job (the same functions the training thread runs). */
const TASKS: Record<TaskKind, (job: never) => (task: number) => unknown> = {
  importance: (job: ImportanceJob) => importanceScorer(job),
  missing: (job: MissingJob) => missingScorer(job),
  scale: (job: ScaleJob) => () => fitScale(job),
};

port.on('message', (msg: ModelThreadMessage) => {
  if (msg.t === 'linear') {
    fitClaimedScores(msg.job);
    return;
  }
  // The job's function is built only if a task is left to claim (the training thread may have
  // taken them all while this message waited). The training thread closes the result port.
  let run: ((task: number) => unknown) | null = null;
  runClaimedTasks(
    msg.claim,
    msg.n,
    (k) => (run ??= TASKS[msg.kind](msg.job as never))(k),
    (task, result) => msg.port.postMessage({ task, result }),
  );
});
