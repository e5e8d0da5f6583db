import { describe, expect, it } from 'vitest';
import { WarmupGate } from '../warmup-gate';

/** A schedule the test fires by hand: the order of events decides, never the clock. */
function manualSchedule() {
  const pending: { fn: () => void; ms: number; live: boolean }[] = [];
  return {
    schedule: (fn: () => void, ms: number) => {
      const t = { fn, ms, live: true };
      pending.push(t);
      return () => {
        t.live = false;
      };
    },
    /** Delays of the timers still armed. */
    armed: () => pending.filter((t) => t.live).map((t) => t.ms),
    /** Fires every armed timer (their time has come). */
    fire: () => {
      for (const t of pending.splice(0)) if (t.live) t.fn();
    },
  };
}

const state = (gate: WarmupGate) => {
  let open = false;
  void gate.opened.then(() => (open = true));
  // Let the promise's reaction run before reading.
  return async () => {
    await Promise.resolve();
    await Promise.resolve();
    return open;
  };
};

describe('the training warm-up gate', () => {
  it('opens only after the first page’s requests have settled, not while one is in flight', async () => {
    const clock = manualSchedule();
    const gate = new WarmupGate({ quietMs: 3_000, unvisitedMs: 60_000, schedule: clock.schedule });
    const isOpen = state(gate);
    // Waiting for a first visit.
    expect(clock.armed()).toEqual([60_000]);

    // The page asks for its first things: the wait for a visit is off, nothing armed meanwhile.
    const status = gate.request();
    const catalog = gate.request();
    expect(clock.armed()).toEqual([]);
    status();
    expect(clock.armed()).toEqual([]);
    catalog();
    // All answered: a quiet period starts.
    expect(clock.armed()).toEqual([3_000]);

    // Another request before the quiet period ends puts the moment off again.
    const schema = gate.request();
    expect(clock.armed()).toEqual([]);
    clock.fire(); // the cancelled timer's time comes: nothing happens
    expect(await isOpen()).toBe(false);
    schema();
    schema(); // answered twice (close after finish): counted once
    expect(clock.armed()).toEqual([3_000]);
    clock.fire();
    expect(await isOpen()).toBe(true);

    // Once open, requests change nothing.
    gate.request()();
    expect(clock.armed()).toEqual([]);
  });

  it('opens after the unvisited wait when no request comes, and never once closed', async () => {
    const clock = manualSchedule();
    const alone = new WarmupGate({ quietMs: 3_000, unvisitedMs: 60_000, schedule: clock.schedule });
    const aloneOpen = state(alone);
    clock.fire();
    expect(await aloneOpen()).toBe(true);

    const other = manualSchedule();
    const closed = new WarmupGate({
      quietMs: 3_000,
      unvisitedMs: 60_000,
      schedule: other.schedule,
    });
    const closedOpen = state(closed);
    const done = closed.request();
    closed.close();
    done();
    expect(other.armed()).toEqual([]);
    other.fire();
    expect(await closedOpen()).toBe(false);
  });
});
