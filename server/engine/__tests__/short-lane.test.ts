/**
 * Issue 22, item 6: heavy queries do not starve cheap ones. With every pool connection held by
 * heavy statements, a short read (judged by DuckDB's plan, without running it) runs at once in the
 * short lane (ENGINE_SHORT_LANE), while another heavy one waits in the queue as before. Bound by
 * conditions on the pool, never by the clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../test/harness';

const HEAVY = 'SELECT count(*) FROM range(10000000000) AS a WHERE a.range % 7 = 3';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ ENGINE_CONNECTIONS: 2, ENGINE_SHORT_LANE: 1 });
});
afterAll(async () => {
  await h.close();
});

async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 20));
}

/** A query sent over HTTP that the test can abandon (the instance then interrupts it). */
function send(query: string, queryId?: string) {
  const ac = new AbortController();
  const answer = fetch(`${h.url}/api/sql/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, ...(queryId ? { context: { query_id: queryId } } : {}) }),
    signal: ac.signal,
  })
    .then((r) => r.json() as Promise<any>)
    .catch((e: Error) => e.name);
  return { answer, abort: () => ac.abort() };
}

describe('the short lane', () => {
  it('answers SELECT 1 and a small table read while heavy queries hold the pool; a heavy one still waits', async () => {
    const engine = h.instance.catalog.engine;
    expect(
      (await h.sql('CREATE TABLE mindsdb.small AS SELECT range AS i FROM range(100)')).type,
    ).toBe('ok');
    const heavy = [send(HEAVY), send(HEAVY), send(HEAVY)];
    // Two hold the pool, the third waits for a connection.
    await until(() => engine.load.active === 2 && engine.load.waiting === 1);

    expect((await h.sql('SELECT 1 AS one')).data).toEqual([[1]]);
    expect((await h.sql('SELECT sum(i) FROM mindsdb.small')).data).toEqual([[4950]]);
    // They ran beside the heavy ones, which still hold the pool and the queue.
    expect(engine.load).toMatchObject({ active: 2, waiting: 1, lane: { active: 0, limit: 1 } });
    expect((await h.get('/api/status')).body.engine).toMatchObject({
      active: 2,
      waiting: 1,
      lane: { active: 0, limit: 1 },
    });

    // A heavy query is not short: it queues behind the others, and the status says where.
    const fourth = send(HEAVY, 'fourth-1');
    await until(() => engine.load.waiting === 2);
    expect(engine.load.lane.active).toBe(0);
    expect((await h.get('/api/status')).body.engine.queue).toEqual([
      { query_id: 'fourth-1', position: 2, waiting_ms: expect.any(Number), short: false },
    ]);

    for (const q of [...heavy, fourth]) q.abort();
    expect(await Promise.all([...heavy, fourth].map((q) => q.answer))).toEqual(
      Array(4).fill('AbortError'),
    );
    await until(() => engine.load.statements === 0 && engine.load.waiting === 0);
    expect(engine.load.active).toBe(0);
  });
});
