/**
 * Issue 22, item 4: reading a model's training data obeys the statement timeout
 * (STATEMENT_TIMEOUT_MS; it had a hard-coded 10 minutes of its own), DROP MODEL stops the read it
 * owns (DuckDB is interrupted: no statement keeps running, no CPU burnt afterwards), and
 * /api/status lists long-running work.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from '../../test/harness';

/** A FROM query that never ends by itself: the whole of a huge sort. */
const ENDLESS =
  'SELECT a.range % 10 AS x, a.range % 3 AS y FROM range(1000000000000) AS a ORDER BY md5(a.range::VARCHAR)';

const harnesses: Harness[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.close();
});

async function until<T>(fn: () => Promise<T | undefined> | T | undefined): Promise<T> {
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const modelRow = async (h: Harness, name: string) =>
  (await h.sql(`SELECT status, error FROM mindsdb.models WHERE name = '${name}'`)).data[0] as [
    string,
    string | null,
  ];

describe('reading training data', () => {
  it('ends at the statement timeout, and the training says so', async () => {
    const h = await startHarness({ STATEMENT_TIMEOUT_MS: 3000 });
    harnesses.push(h);
    const r = await h.sql(`CREATE MODEL mindsdb.too_slow FROM mindsdb (${ENDLESS}) PREDICT y`);
    expect(r.type).toBe('table');
    const [status, error] = await until(async () => {
      const row = await modelRow(h, 'too_slow');
      return row[0] === 'error' ? row : undefined;
    });
    expect(status).toBe('error');
    expect(error).toMatch(
      /The FROM query failed: The statement ran longer than the statement timeout \(3000 ms\).*STATEMENT_TIMEOUT_MS/,
    );
    expect(h.instance.catalog.engine.load.statements).toBe(0);
  });

  it('stops when the model is dropped, and is listed as long-running meanwhile', async () => {
    const h = await startHarness({ STATEMENT_TIMEOUT_MS: 600_000 });
    harnesses.push(h);
    const engine = h.instance.catalog.engine;
    expect(
      (await h.sql(`CREATE MODEL mindsdb.dropped FROM mindsdb (${ENDLESS}) PREDICT y`)).type,
    ).toBe('table');
    // The read is under way: its statement runs in the engine.
    await until(() => (engine.load.statements > 0 ? true : undefined));
    // The status names the read once it has run a while (10 s): the clock is moved on by that
    // much rather than waited for (the endless sort kept both cores busy meanwhile).
    const realNow = Date.now.bind(Date);
    const later = vi.spyOn(Date, 'now').mockImplementation(() => realNow() + 10_000);
    const listed = await until(async () => {
      const s = (await h.get('/api/status')).body;
      return s.engine.long_running.length > 0 ? s.engine.long_running : undefined;
    }).finally(() => later.mockRestore());
    expect(listed[0]).toMatchObject({
      what: 'training data of mindsdb.dropped (version 1)',
      past_timeout: false,
    });
    expect(listed[0].running_ms).toBeGreaterThanOrEqual(10_000);

    expect((await h.sql('DROP MODEL mindsdb.dropped')).type).toBe('ok');
    // DuckDB was interrupted: nothing of the read keeps running.
    await until(() => (engine.load.statements === 0 ? true : undefined));
    expect((await h.get('/api/status')).body.engine.long_running).toEqual([]);
    expect((await h.sql('SELECT 1 AS one')).data).toEqual([[1]]);
  });
});
