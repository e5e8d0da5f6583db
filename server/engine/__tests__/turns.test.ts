/**
 * The JavaScript thread between heavy slices and short requests (turns.ts; issue 22, item 6): at
 * most one heavy slice per iteration of the event loop, none while a short request is in flight
 * (up to the hold), and the engine marks its short-lane sessions and its short/heavy judgement as
 * short. Every assertion follows an event or an iteration of the loop, never the clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../duckdb';
import { TurnGate, turns } from '../turns';

/** One iteration of the event loop: an immediate queued now runs in the next check phase. */
const iteration = () => new Promise<void>((r) => setImmediate(r));

describe('turns of the event loop', () => {
  it('grants at most one heavy slice per iteration of the event loop, in arrival order', async () => {
    const gate = new TurnGate();
    const granted: number[] = [];
    const all = [1, 2, 3].map((n) => gate.heavyTurn().then(() => granted.push(n)));
    expect(gate.state.heavyWaiting).toBe(3);
    await iteration();
    expect(granted).toEqual([1]);
    await iteration();
    expect(granted).toEqual([1, 2]);
    await iteration();
    expect(granted).toEqual([1, 2, 3]);
    await Promise.all(all);
    expect(gate.state.heavyWaiting).toBe(0);
  });

  it('holds heavy slices while a short request is in flight and resumes when it ends', async () => {
    const gate = new TurnGate(60_000);
    const end = gate.light();
    let granted = false;
    const turn = gate.heavyTurn().then(() => (granted = true));
    for (let i = 0; i < 20; i++) await iteration();
    expect(granted).toBe(false);
    expect(gate.state).toEqual({ heavyWaiting: 1, lightInFlight: 1 });
    end();
    end(); // a second call changes nothing
    await turn;
    expect(gate.state).toEqual({ heavyWaiting: 0, lightInFlight: 0 });
  });

  it('lets heavy work take a turn while short requests never stop (the hold is bounded)', async () => {
    const gate = new TurnGate(20);
    const end = gate.light();
    await gate.heavyTurn();
    // Granted although the short request is still in flight.
    expect(gate.state).toEqual({ heavyWaiting: 0, lightInFlight: 1 });
    end();
  });
});

describe("the engine's short work", () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await Engine.open(':memory:', {
      connections: 1,
      queueLimit: 10,
      shortLane: 1,
      timeoutMs: 60_000,
      maxRows: 1000,
    });
  });
  afterAll(async () => {
    await engine.close();
  });

  it('marks the judgement and a short-lane session as short, and a pool session not', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let inPool = -1;
    let admitted!: () => void;
    const running = new Promise<void>((r) => (admitted = r));
    const heavy = engine.session(
      async () => {
        inPool = turns.state.lightInFlight;
        admitted();
        await held;
      },
      { limited: true },
    );
    await running;
    // Alone in the pool (no judgement asked): heavy slices are not held for it.
    expect(inPool).toBe(0);

    let whileJudged = -1;
    let inLane = -1;
    const rows = await engine.session(
      async (s) => {
        inLane = turns.state.lightInFlight;
        return (await s.query('SELECT 42 AS x')).rows;
      },
      {
        limited: true,
        short: () => {
          whileJudged = turns.state.lightInFlight;
          return Promise.resolve(true);
        },
      },
    );
    expect(rows).toEqual([[42]]);
    expect(whileJudged).toBe(1);
    expect(inLane).toBe(1);
    expect(engine.load.lane.active).toBe(0);
    expect(turns.state.lightInFlight).toBe(0);
    release();
    await heavy;
  });

  it("ends a request's short mark when it takes a pool slot or waits as heavy, not in the lane", async () => {
    const ended: string[] = [];
    const mark = (name: string) => () => ended.push(name);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let admitted!: () => void;
    const running = new Promise<void>((r) => (admitted = r));
    const a = engine.session(
      async () => {
        admitted();
        await held;
      },
      { limited: true, endShortTurn: mark('a') },
    );
    await running;
    expect(ended).toEqual(['a']);

    // Judged heavy: its mark ends while it waits (heavy slices must not wait for it).
    const b = engine.session(async () => 'b', {
      limited: true,
      short: () => Promise.resolve(false),
      endShortTurn: mark('b'),
    });
    while (!ended.includes('b')) await iteration();
    expect(engine.load.waiting).toBe(1);

    // In the lane: its mark lasts while it runs.
    const inLane = await engine.session(async () => [...ended], {
      limited: true,
      short: () => Promise.resolve(true),
      endShortTurn: mark('c'),
    });
    expect(inLane).toEqual(['a', 'b']);
    release();
    expect(await b).toBe('b');
    await a;
  });
});
