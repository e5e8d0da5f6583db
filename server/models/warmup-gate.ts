/**
 * When the training warm-up may start: once the instance's HTTP traffic has settled, so its
 * worker never competes with a visitor's first page load for the cores. The gate opens after
 * `quietMs` with no request in flight since the last one was answered (the first page's burst is
 * over), or after `unvisitedMs` from the start if no request came at all (nobody visits: warm up
 * for the first CREATE MODEL anyway). Each new request puts the moment off again.
 */

/** Runs `fn` after `ms` and returns what cancels it (tests pass their own to fire by hand). */
type Schedule = (fn: () => void, ms: number) => () => void;

const realSchedule: Schedule = (fn, ms) => {
  const t = setTimeout(fn, ms);
  // A pending warm-up must not keep the process alive.
  t.unref();
  return () => clearTimeout(t);
};

export interface WarmupGateOptions {
  quietMs: number;
  unvisitedMs: number;
  schedule?: Schedule;
}

export class WarmupGate {
  /** Resolves when the gate opens (never, once closed before). */
  readonly opened: Promise<void>;
  private open!: () => void;
  private isOpen = false;
  private closed = false;
  private inFlight = 0;
  private cancel: (() => void) | null = null;
  private readonly schedule: Schedule;

  constructor(private readonly opts: WarmupGateOptions) {
    this.schedule = opts.schedule ?? realSchedule;
    this.opened = new Promise((resolve) => (this.open = resolve));
    this.arm(opts.unvisitedMs);
  }

  /**
   * A request arrived: the gate waits for it. Returns what to call once it is answered or
   * abandoned (calling it again does nothing).
   */
  request(): () => void {
    if (this.isOpen || this.closed) return () => undefined;
    this.inFlight++;
    this.disarm();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.inFlight--;
      if (this.inFlight === 0) this.arm(this.opts.quietMs);
    };
  }

  /** Stops waiting (shutdown): the gate never opens. */
  close(): void {
    this.closed = true;
    this.disarm();
  }

  private arm(ms: number): void {
    this.disarm();
    if (this.isOpen || this.closed) return;
    this.cancel = this.schedule(() => {
      this.cancel = null;
      if (this.inFlight > 0 || this.closed) return;
      this.isOpen = true;
      this.open();
    }, ms);
  }

  private disarm(): void {
    this.cancel?.();
    this.cancel = null;
  }
}
