// Entry of the pool's model thread (gbm/parallel.ts `HistPool.fitLogistic`): fits one-vs-rest
// scores of logistic jobs while the training thread boosts trees; the training thread fits the
// scores left when it is done with the trees (linear/job.ts), so it never waits for a job this
// thread has not started.
import { type MessagePort, workerData } from 'node:worker_threads';
import { type LogisticJob, fitClaimedScores } from './job';

const { port } = workerData as { port: MessagePort };

port.on('message', (job: LogisticJob) => fitClaimedScores(job));
