// Entry of every training worker thread and of the prediction thread (models/predict-thread/).
// Workers do not inherit tsx's loader (neither under
// `tsx server/main.ts` nor under Vitest, and `execArgv: ['--import', 'tsx']` is rejected for
// workers on Node 20), so TypeScript sources are registered here before the real entry loads.
import { workerData } from 'node:worker_threads';

if (workerData.entry.endsWith('.ts')) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import(workerData.entry);
