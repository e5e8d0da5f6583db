// The engine's threads (see README.md): what the rest of the engine may use. Nothing here imports
// gbm/, pipeline/ or analysis/ (model-thread.ts, an entry loaded by URL, is the one exception).
export type { BlockFn, BlockSource } from './block-worker';
export type { ThreadPool } from './pool';
export { liveWorkerCount } from './pool';
export {
  activePool,
  keepPoolBetweenTrainings,
  later,
  resolveThreads,
  shareTasks,
  withPool,
} from './active';
