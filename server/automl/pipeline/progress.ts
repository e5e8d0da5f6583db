// Training progress phases reported to the caller, and the clock timings are taken with.

import type { TrainProgress } from '../api';

const PHASES = [
  'analyzing data',
  'encoding',
  'training candidates',
  'analyzing model',
  'finalizing',
];

export function now(): number {
  return performance.now();
}

export function progress(cb: ((p: TrainProgress) => void) | undefined, phase: number): void {
  cb?.({ phase, total: PHASES.length, name: PHASES[phase - 1] });
}
