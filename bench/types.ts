import os from 'node:os';

/** One measured figure of `npm run bench`, with its target and whether it meets it. */
export interface BenchLine {
  name: string;
  value: number;
  unit: string;
  target: string;
  pass: boolean;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

/** A step of a bench, with the machine's load beside it (figures here are read against it). */
export function progress(msg: string) {
  process.stderr.write(`  … ${msg} [load ${os.loadavg()[0].toFixed(1)}]\n`);
}
