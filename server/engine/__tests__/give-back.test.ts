/**
 * Memory given back after big results (issue 22, item 6): one full collection once the engine is
 * idle and the heap has grown enough, none while work runs or after small results. Driven by a
 * fake heap and a fake timer, so nothing depends on the clock or on V8's mood.
 */
import { describe, expect, it } from 'vitest';
import { MemoryGiveBack, processGiveBackDeps } from '../give-back';

const MB = 1024 * 1024;

function fake() {
  const state = { heap: 50 * MB, pending: [] as (() => void)[], collected: 0 };
  const giveBack = new MemoryGiveBack({
    heapUsed: () => state.heap,
    collect: () => {
      state.collected++;
      state.heap = 60 * MB;
    },
    later: (fn) => {
      state.pending.push(fn);
      return () => (state.pending = state.pending.filter((f) => f !== fn));
    },
  });
  const fire = () => state.pending.splice(0).forEach((f) => f());
  return { state, giveBack, fire };
}

describe('MemoryGiveBack', () => {
  it('collects once after a big result when the engine goes idle', () => {
    const { state, giveBack, fire } = fake();
    giveBack.busy();
    state.heap = 700 * MB;
    giveBack.idle();
    giveBack.idle();
    expect(state.pending).toHaveLength(1);
    fire();
    expect(state.collected).toBe(1);
    // Measured from the heap after the collection: idle again with no growth, no collection.
    giveBack.idle();
    expect(state.pending).toHaveLength(0);
  });

  it('waits while work runs and skips small growth', () => {
    const { state, giveBack, fire } = fake();
    state.heap = 100 * MB;
    giveBack.idle();
    expect(state.pending).toHaveLength(0);
    state.heap = 400 * MB;
    giveBack.idle();
    giveBack.busy();
    fire();
    expect(state.collected).toBe(0);
    giveBack.idle();
    fire();
    expect(state.collected).toBe(1);
  });

  it("reaches V8's full collection in this process", () => {
    const deps = processGiveBackDeps();
    expect(deps).not.toBeNull();
    // Held until measured, so no collection can take it earlier.
    const holder = { junk: Array.from({ length: 200_000 }, (_, i) => [i, i + 1]) };
    const full = deps!.heapUsed();
    // Only its length reaches expect(), which may keep what it is given.
    const made = holder.junk.length;
    holder.junk = [];
    deps!.collect();
    expect(made).toBe(200_000);
    expect(deps!.heapUsed()).toBeLessThan(full - 5 * MB);
  });
});
