/**
 * A client that goes away in the middle of a model join is an outcome, not a failure: the
 * instance logs the request's one info line and no error (it logged "POST /api/sql/query failed:
 * AbortError" with a stack when the abort landed between two steps of the plan).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type Logger } from '../app';
import { turns } from '../../engine/turns';
import { startHarness, sqlOk, type Harness } from '../../test/harness';
import { waitComplete } from '../../test/models';
import { trainingCache } from '../../test/training-cache';

/**
 * Two model joins over every row, reduced to one row: each prediction runs in many slices, and
 * the plan checks the request's signal between the first join's prediction and the second's read.
 */
const JOIN =
  'SELECT count(*) AS n FROM (SELECT m.y FROM mindsdb.t AS t JOIN mindsdb.m AS m UNION ALL SELECT m.y FROM (SELECT * FROM mindsdb.t WHERE id % 2 = 0) AS t JOIN mindsdb.m AS m) AS p';

let h: Harness;
beforeAll(async () => {
  h = await startHarness(trainingCache());
  await sqlOk(
    h,
    'CREATE TABLE mindsdb.t AS SELECT range AS id, range * 0.5 AS a, range * 2.0 + 1 AS y FROM range(100000)',
  );
  await sqlOk(
    h,
    'CREATE MODEL mindsdb.m FROM mindsdb (SELECT a, y FROM t LIMIT 300) PREDICT y USING max_iterations = 5',
  );
  await waitComplete(h, 'm');
});
afterAll(async () => {
  await h?.close();
});

async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 5));
}

describe('a client that goes away', () => {
  it('is logged as one info line, never as an error', async () => {
    const info: string[] = [];
    const errors: string[] = [];
    const log: Logger = { info: (m) => info.push(m), error: (m) => errors.push(m) };
    const app = await buildApp(h.instance, log, { forceCloseConnections: true });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    let endShort: (() => void) | null = null;
    try {
      // A short request in flight holds the join's slices at their turns (turns.ts), so the
      // test sees the join between two slices of its prediction.
      endShort = turns.light();
      const ac = new AbortController();
      const pending = fetch(`${url}/api/sql/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: JOIN }),
        signal: ac.signal,
      }).catch((e: Error) => e.name);
      // The join is predicting (its slices wait for turns of the event loop): the client leaves
      // while no DuckDB statement runs, so the plan's own check of the signal meets the abort.
      await until(() => turns.state.heavyWaiting > 0);
      ac.abort();
      expect(await pending).toBe('AbortError');
      endShort();
      // The request's work ends (its session leaves the pool), and whatever it threw is handled.
      const engine = h.instance.catalog.engine;
      await until(() => engine.load.active === 0 && engine.load.statements === 0);
      for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
      const lines = info.filter((l) => l.includes('POST /api/sql/query'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).not.toMatch(/\n/);
      expect(lines[0]).toMatch(/ POST \/api\/sql\/query client went away before the answer$/);
      expect(errors).toEqual([]);
    } finally {
      endShort?.();
      await app.close();
    }
  });
});
