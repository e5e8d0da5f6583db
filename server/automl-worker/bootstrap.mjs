// Entry of every worker thread that runs TypeScript: the training workers, the prediction thread
// (models/predict-thread/) and the engine pool's model thread (automl/threads/pool.ts). Workers do
// not inherit a loader (neither tsx's nor Vitest's, and `execArgv: ['--import', 'tsx']` is
// rejected for workers on Node 20), so a TypeScript entry loads as one bundle of its modules,
// built on first use (../bundle.mjs): 0.05-0.1 CPU-s a start against 0.4-0.8 through tsx's hooks.
// Where no bundle can be built (or TS_BUNDLES=0), tsx is registered in the thread and the sources
// load through it.
import { workerData } from 'node:worker_threads';

let entry = workerData.entry;
if (entry.endsWith('.ts')) {
  const bundled = process.env.TS_BUNDLES === '0' ? null : await import('../bundle.mjs');
  const url = await bundled?.bundledEntry(entry);
  if (url) {
    // Stack traces name the sources' files and lines, as under tsx.
    process.setSourceMapsEnabled(true);
    entry = url;
  } else {
    const { register } = await import('tsx/esm/api');
    register();
  }
}
await import(entry);
