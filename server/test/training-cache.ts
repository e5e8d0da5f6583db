/**
 * Configuration that lets a test instance reuse the run's finished trainings of identical requests
 * (server/models/training-cache.ts; the folder comes from ./global-setup.ts): for files whose
 * tests need trained models but never watch a training run (its phases, a DROP or a crash
 * meanwhile, the number of workers). Pass it to `startHarness` or `open`.
 * `TEST_TRAINING_CACHE=0 npx vitest run` trains everything (the cache must change no outcome).
 */
import { inject } from 'vitest';
// The names `inject` reads are declared with the set-up that provides them (any program that
// compiles this file, the bench's too, sees them).
import type {} from './global-setup';
import type { Config } from '../config';

export function trainingCache(): Partial<Config> {
  if (process.env.TEST_TRAINING_CACHE === '0') return {};
  return { TRAINING_CACHE_DIR: inject('trainingCacheDir') };
}
