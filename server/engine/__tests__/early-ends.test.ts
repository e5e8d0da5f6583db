/**
 * Issue 22, item 5: every early end of a result is an error or `truncated: true`, never a quiet
 * successful table. After an interrupt, DuckDB's streaming result just runs dry, which looked like
 * the end of the rows: four parallel SELECTs past the timeout answered one `truncated`, three
 * tables of 0 rows with no mark. Here each end (timeout, cancel, interrupt) is forced at each
 * point of reading a result (before the first chunk, between chunks, inside a chunk), found by a
 * dry run and bound by work, not the clock (`readHooks` in results.ts); the caps are set at and
 * around each chunk's edge; and the same over HTTP, for JSON and for the streamed forms.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../errors';
import { startHarness, type Harness } from '../../test/harness';
import { readHooks, type EarlyEnd, type ReadPoint, type StreamSink } from '../results';
import { jsonSize, type JsonValue } from '../values';

const TABLE = 'mindsdb.early_ends';
const SELECTS = {
  // A scan streams from DuckDB's pipeline; a sort is materialized first. Both end early.
  scan: `SELECT i, 'row ' || i AS s FROM ${TABLE}`,
  sorted: `SELECT i, 'row ' || i AS s FROM ${TABLE} ORDER BY i DESC`,
};
const TOTAL = 5000;

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await h.sql(`CREATE TABLE ${TABLE} AS SELECT range AS i FROM range(${TOTAL})`);
});
afterAll(async () => {
  await h.close();
});
afterEach(() => {
  delete readHooks.point;
});

const engine = () => h.instance.catalog.engine;

/** The points of reading `sql` and the chunk sizes, from a run that ends nothing. */
async function dryRun(sql: string): Promise<{ points: ReadPoint[]; chunks: number[] }> {
  const points: ReadPoint[] = [];
  readHooks.point = (p, _end, at) => {
    if (at === sql) points.push(p);
  };
  const chunks: number[] = [];
  await engine().stream(sql, {}, sinkOf([], chunks));
  delete readHooks.point;
  return { points, chunks };
}

function sinkOf(rows: JsonValue[][], chunks: number[] = [], oks: unknown[] = []): StreamSink {
  return {
    header: () => undefined,
    rows: (r) => {
      rows.push(...r);
      chunks.push(r.length);
    },
    ok: (n) => void oks.push(n),
  };
}

const MESSAGES: Record<EarlyEnd, RegExp> = {
  timeout: /ran longer than the statement timeout/,
  cancel: /cancelled by the client/,
  interrupt: /interrupted before it finished/,
};

/** Ends the statement reading `sql` at point `p` (the first time it is reached) for `why`. */
function endAt(sql: string, p: ReadPoint, why: EarlyEnd) {
  let done = false;
  readHooks.point = (q, end, at) => {
    if (!done && at === sql && q.at === p.at && q.chunk === p.chunk) {
      done = true;
      end(why);
    }
  };
}

async function failure(run: () => Promise<unknown>): Promise<ServiceError> {
  try {
    await run();
  } catch (err) {
    if (err instanceof ServiceError) return err;
    throw err;
  }
  throw new Error('expected the read to fail, and it succeeded');
}

describe.each(Object.entries(SELECTS))('an early end of a %s', (_name, sql) => {
  it('is an error at every point of reading, as JSON and as a stream', async () => {
    const { points, chunks } = await dryRun(sql);
    expect(chunks.reduce((a, b) => a + b, 0)).toBe(TOTAL);
    // Before the first chunk, between every two, inside every one.
    expect(points.map((p) => p.at)).toContain('before-first');
    expect(points.filter((p) => p.at === 'inside').length).toBe(chunks.length);
    expect(points.filter((p) => p.at === 'between').length).toBeGreaterThanOrEqual(chunks.length);
    for (const why of ['timeout', 'cancel', 'interrupt'] as const) {
      for (const p of points) {
        endAt(sql, p, why);
        const json = await failure(() => engine().query(sql));
        expect(json.code, `${why} at ${p.at} ${p.chunk}`).toBe(5);
        expect(json.message).toMatch(MESSAGES[why]);

        endAt(sql, p, why);
        const rows: JsonValue[][] = [];
        const oks: unknown[] = [];
        const streamed = await failure(() => engine().stream(sql, {}, sinkOf(rows, [], oks)));
        expect(streamed.code, `${why} at ${p.at} ${p.chunk} (stream)`).toBe(5);
        expect(rows.length).toBeLessThanOrEqual(TOTAL);
        expect(oks).toEqual([]);
      }
    }
    // Nothing left running, and the next statement is whole.
    expect(engine().load.statements).toBe(0);
    expect((await engine().query(sql)).rows.length).toBe(TOTAL);
  });

  it('is `truncated` at and around the edge of every chunk when a cap ends it', async () => {
    const { chunks } = await dryRun(sql);
    const edges = chunks.map((_, i) => chunks.slice(0, i + 1).reduce((a, b) => a + b, 0));
    for (const edge of edges) {
      for (const maxRows of [edge - 1, edge, edge + 1]) {
        if (maxRows <= 0) continue;
        const r = await engine().query(sql, { maxRows });
        const whole = maxRows >= TOTAL;
        expect(r.rows.length, `maxRows ${maxRows}`).toBe(Math.min(maxRows, TOTAL));
        expect(r.truncated, `maxRows ${maxRows}`).toBe(!whole);
        const rows: JsonValue[][] = [];
        const s = await engine().stream(sql, { maxRows }, sinkOf(rows));
        expect(s.truncated, `stream maxRows ${maxRows}`).toBe(!whole);
        expect(rows.length).toBe(Math.min(maxRows, TOTAL));
      }
    }
    const all = await engine().query(sql, { maxRows: TOTAL });
    // As results.ts counts them.
    const bytes = all.rows.reduce(
      (n, row) => n + 2 + row.length + row.reduce<number>((m, v) => m + jsonSize(v), 0),
      0,
    );
    for (const maxBytes of [1, 2048 * 10, bytes - 1]) {
      const r = await engine().query(sql, { maxBytes });
      expect(r.truncated, `maxBytes ${maxBytes}`).toBe(true);
      expect(r.rows.length).toBeLessThan(TOTAL);
    }
    expect((await engine().query(sql, { maxBytes: bytes })).truncated).toBe(false);
  });
});

describe('an early end over HTTP', () => {
  const sql = SELECTS.sorted;
  const firstBetween = (points: ReadPoint[]) => points.find((p) => p.at === 'between')!;

  it('answers the JSON form with the timeout error, never a table', async () => {
    const { points } = await dryRun(sql);
    endAt(sql, firstBetween(points), 'timeout');
    const r = await h.sql(sql);
    expect(r).toMatchObject({ type: 'error', error_code: 5, column_names: [] });
    expect(r.data).toBeUndefined();
  });

  it('ends a streamed answer with an error document, not a quiet end', async () => {
    const { points } = await dryRun(sql);
    for (const format of ['jsonlines', 'sse'] as const) {
      endAt(sql, firstBetween(points), 'timeout');
      const res = await fetch(`${h.url}/api/sql/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: sql, response_format: format }),
      });
      const text = await res.text();
      const docs =
        format === 'jsonlines'
          ? text.trim().split('\n')
          : text
              .split('\n\n')
              .filter((e) => e.startsWith('data: '))
              .map((e) => e.slice(6));
      const last = JSON.parse(docs[docs.length - 1]);
      expect(last, format).toMatchObject({ type: 'error', error_code: 5 });
      // No end record that claims the rows were all there.
      expect(text).not.toMatch(/"type":"end"/);
    }
  });
});

describe('an end before the statement runs', () => {
  it('a statement cancelled while it connects and prepares never runs', async () => {
    // The client goes away while the session still connects (a thread-pool round trip): DuckDB's
    // interrupt then hits no running statement, so the session itself must not start it.
    const ac = new AbortController();
    const asked = engine().query('CREATE TABLE mindsdb.cancelled_early AS SELECT 1 AS x', {
      signal: ac.signal,
    });
    setImmediate(() => ac.abort());
    const err = await asked.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect((err as ServiceError).message).toMatch(/cancel/i);
    const left = await h.sql(
      "SELECT count(*) AS n FROM information_schema.tables WHERE table_name = 'cancelled_early'",
    );
    expect(left.data).toEqual([[0]]);
  });
});
