/**
 * Admission to the engine (issue 22, item 6): heavy requests are bounded by the pool, short ones
 * never wait behind them (the lane while the pool is full, and the head of the line when the
 * lane is full too), each waiting request with a query id knows its place in line, and a request
 * cancelled while it waits leaves the line. Sessions are held by promises the test settles, so
 * every assertion follows an event, never the clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../errors';
import { Engine, type SessionOptions } from '../duckdb';

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

/** Order in which held sessions got their place. */
const started: string[] = [];

/** A limited session that runs `SELECT 1` once admitted, then holds its place until released. */
function hold(name: string, so: Omit<SessionOptions, 'limited'> = {}) {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let admitted!: () => void;
  const running = new Promise<void>((r) => (admitted = r));
  const done = engine.session(
    async (s) => {
      started.push(name);
      const r = await s.query('SELECT 1 AS one');
      admitted();
      await gate;
      return r.rows;
    },
    { limited: true, queryId: name, ...so },
  );
  return { release, running, done };
}

const short = { short: () => Promise.resolve(true) };
const heavy = { short: () => Promise.resolve(false) };

async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 5));
}

describe('admission to the engine', () => {
  it('serves short requests before heavy ones and reports each place in line', async () => {
    const a = hold('a', heavy);
    await a.running;
    expect(engine.load).toMatchObject({ active: 1, waiting: 0 });

    const b = hold('b', heavy);
    await until(() => engine.load.waiting === 1 && engine.queue[0]?.short === false);
    // A short one runs in the lane at once, beside the heavy one that holds the pool.
    const c = hold('c', short);
    await c.running;
    expect(engine.load.lane).toEqual({ active: 1, limit: 1 });

    // The lane is full: the next short one waits, ahead of the heavy one that came first.
    const d = hold('d', short);
    await until(() => engine.queue.some((w) => w.queryId === 'd' && w.short));
    expect(engine.queue.map((w) => [w.queryId, w.position, w.short])).toEqual([
      ['d', 1, true],
      ['b', 2, false],
    ]);

    // The pool's slot frees: it goes to the short request, not to the heavy one waiting longer.
    a.release();
    await d.running;
    expect(engine.queue.map((w) => w.queryId)).toEqual(['b']);

    // The lane frees: the lane is not for heavy requests, so b waits for the pool.
    c.release();
    await c.done;
    expect(engine.load).toMatchObject({ waiting: 1, lane: { active: 0 } });

    d.release();
    await b.running;
    b.release();
    expect(await Promise.all([a.done, b.done, c.done, d.done])).toEqual(Array(4).fill([[1]]));
    expect(started).toEqual(['a', 'c', 'd', 'b']);
    expect(engine.load).toMatchObject({ active: 0, waiting: 0, lane: { active: 0 } });
  });

  it('a request cancelled while it waits leaves the line with the cancel error', async () => {
    const a = hold('a2');
    await a.running;
    const ac = new AbortController();
    const e = hold('e', { signal: ac.signal });
    const f = hold('f');
    await until(() => engine.queue.length === 2);
    expect(engine.queue.map((w) => [w.queryId, w.position])).toEqual([
      ['e', 1],
      ['f', 2],
    ]);
    ac.abort();
    const err = await e.done.catch((x: unknown) => x);
    expect(err).toBeInstanceOf(ServiceError);
    expect((err as ServiceError).message).toBe('The query was cancelled by the client');
    expect(engine.queue.map((w) => [w.queryId, w.position])).toEqual([['f', 1]]);
    a.release();
    await f.running;
    f.release();
    await Promise.all([a.done, f.done]);
    expect(started).not.toContain('e');
  });

  it('a short request asks its plan only while the pool is full', async () => {
    let asked = 0;
    const probe = {
      short: () => {
        asked++;
        return Promise.resolve(true);
      },
    };
    const a = hold('a3', probe);
    await a.running;
    a.release();
    await a.done;
    expect(asked).toBe(0);
  });
});
