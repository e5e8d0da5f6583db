/**
 * Turns of the process's one JavaScript thread between heavy work and short requests.
 *
 * A model join does seconds of JavaScript (predicting a million rows, loading the predictions
 * through the appender) in slices with a turn of the event loop between them. With four joins at
 * once, every turn of the loop ran four slices back to back before the next I/O callback, and a
 * short request needs a dozen callbacks (connect, prepare, execute, fetch, each a round trip
 * through libuv's thread pool): the lanes bench timed a `SELECT 1` beside eight joins at 4.3 s,
 * spread over every phase, with the loop busy without a break for 2.3 s (a CPU profile of the
 * instance: predicting, appending, garbage collection).
 *
 * So heavy work asks for its turn here between slices (`heavyTurn`), and the gate hands out at
 * most ONE turn per iteration of the event loop (I/O callbacks of every request run between any
 * two heavy slices), and none while a short request is in flight (`light`), up to LIGHT_HOLD_MS
 * of holding: a short request ends in milliseconds when it has the thread, and heavy work is
 * never held back longer than that by a stream of short ones.
 */

/** The longest heavy work waits for short requests in flight before it takes one turn anyway. */
const LIGHT_HOLD_MS = 200;

export class TurnGate {
  private readonly waiting: (() => void)[] = [];
  private lightInFlight = 0;
  private scheduled = false;
  /** When heavy work last got a turn (or first waited since then). */
  private heldSince: number | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly holdMs = LIGHT_HOLD_MS) {}

  /** Heavy work calls this between slices; it resolves when the slice may run. */
  heavyTurn(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.schedule();
    });
  }

  /** Marks a short request in flight; call the returned function (once) when it ends. */
  light(): () => void {
    this.lightInFlight++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.lightInFlight--;
      if (this.lightInFlight === 0) this.schedule();
    };
  }

  /** Heavy slices waiting for a turn, and short requests in flight (for tests and the status). */
  get state(): { heavyWaiting: number; lightInFlight: number } {
    return { heavyWaiting: this.waiting.length, lightInFlight: this.lightInFlight };
  }

  private schedule(): void {
    if (this.scheduled || this.waiting.length === 0) return;
    this.scheduled = true;
    // An immediate runs after this iteration's I/O callbacks; one granted per iteration.
    setImmediate(() => {
      this.scheduled = false;
      this.grant();
    });
  }

  private grant(): void {
    if (this.waiting.length === 0) return;
    if (this.lightInFlight > 0) {
      const now = Date.now();
      this.heldSince ??= now;
      const left = this.heldSince + this.holdMs - now;
      if (left > 0) {
        // Short requests have the thread; the last one to end schedules again, the timer caps it.
        this.timer ??= setTimeout(() => {
          this.timer = null;
          this.schedule();
        }, left);
        return;
      }
    }
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.heldSince = null;
    this.waiting.shift()!();
    this.schedule();
  }
}

/** The process's gate (one JavaScript thread, one gate). */
export const turns = new TurnGate();

/** Between two slices of heavy JavaScript work: waits for its turn (see the module comment). */
export function heavyTurn(): Promise<void> {
  return turns.heavyTurn();
}
