/**
 * Where one request's time goes on the engine: waiting for a place (admission), judging whether it
 * is short (classification), connecting, preparing (parse, bind, the statement guard) and running
 * and reading its statements. The SQL route sends them as a `Server-Timing` header (browsers show
 * it in their network panel; the lanes bench reads it), so a slow cheap request says which phase
 * was slow without a profiler.
 */

/** The phases, in the order a request meets them. */
export const TIMING_PHASES = [
  'admit',
  'classify',
  'connect',
  'prepare',
  'execute',
  'total',
] as const;

export type TimingPhase = (typeof TIMING_PHASES)[number];

export class Timings {
  private readonly spans = new Map<TimingPhase, number>();

  /** Adds `ms` to a phase (a request of several statements prepares and runs several times). */
  add(phase: TimingPhase, ms: number): void {
    this.spans.set(phase, (this.spans.get(phase) ?? 0) + ms);
  }

  /** Times `fn` into `phase`, whether it resolves or throws. */
  async time<T>(phase: TimingPhase, fn: () => Promise<T>): Promise<T> {
    const t0 = performance.now();
    try {
      return await fn();
    } finally {
      this.add(phase, performance.now() - t0);
    }
  }

  get(phase: TimingPhase): number | undefined {
    return this.spans.get(phase);
  }

  /** The `Server-Timing` header's value: `admit;dur=0.1, prepare;dur=0.4, ...` (ms). */
  header(): string {
    return TIMING_PHASES.filter((p) => this.spans.has(p))
      .map((p) => `${p};dur=${this.spans.get(p)!.toFixed(1)}`)
      .join(', ');
  }
}

/** Reads a `Server-Timing` header back into milliseconds per phase (for the bench). */
export function parseServerTiming(value: string | null): Partial<Record<TimingPhase, number>> {
  const out: Partial<Record<TimingPhase, number>> = {};
  for (const part of (value ?? '').split(',')) {
    const m = /^\s*([a-z]+);dur=([\d.]+)\s*$/.exec(part);
    if (m && (TIMING_PHASES as readonly string[]).includes(m[1]))
      out[m[1] as TimingPhase] = Number(m[2]);
  }
  return out;
}
