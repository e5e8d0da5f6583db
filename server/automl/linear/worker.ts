// Entry of the pool's model thread (gbm/parallel.ts `HistPool.fitLinear`): fits linear models
// while the training thread boosts trees. Each answer is posted on the job port, then counted in
// flag[0], which the training thread waits on (blocked, it takes no events: it reads the answer
// with receiveMessageOnPort); flag[1] says the module has loaded.
import { type MessagePort, workerData } from 'node:worker_threads';
import { type LinearAnswer, type LinearJob, fitJob } from './job';

const { port, flag } = workerData as { port: MessagePort; flag: Int32Array };
// Loaded: from now on every job is answered.
Atomics.store(flag, 1, 1);

port.on('message', (job: LinearJob) => {
  let answer: LinearAnswer;
  try {
    answer = { model: fitJob(job) };
  } catch (err) {
    answer = { error: err instanceof Error ? err.message : String(err) };
  }
  port.postMessage(answer);
  Atomics.add(flag, 0, 1);
  Atomics.notify(flag, 0);
});
