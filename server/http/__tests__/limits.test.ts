import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../test/harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    STATEMENT_TIMEOUT_MS: 400,
    MAX_RESULT_ROWS: 1000,
    BODY_LIMIT_BYTES: 64 * 1024,
  });
});
afterAll(async () => {
  await h.close();
});

describe('limits', () => {
  it('interrupts a statement that runs past the timeout, and keeps serving', async () => {
    const r = await h.sql('SELECT count(*) FROM range(10000000000) a, range(1000) b');
    expect(r.type).toBe('error');
    expect(r.error_code).toBe(5);
    expect(r.error_message).toBe(
      'The statement ran longer than the statement timeout (400 ms) and was interrupted',
    );
    expect((await h.sql('SELECT 1 AS alive')).data).toEqual([[1]]);
  });

  it('caps a 10-million-row result at the row cap and marks it truncated', async () => {
    const r = await h.sql('SELECT range AS i FROM range(10000000)');
    expect(r.type).toBe('table');
    expect(r.data).toHaveLength(1000);
    expect(r.data[999]).toEqual([999]);
    expect(r.truncated).toBe(true);
  });

  it('does not mark a result that fits exactly as truncated', async () => {
    const r = await h.sql('SELECT range AS i FROM range(1000)');
    expect(r.data).toHaveLength(1000);
    expect(r.truncated).toBeUndefined();
  });

  it('answers a body over the size limit with 413 and keeps serving', async () => {
    const r = await h.post('/api/sql/query', { query: `SELECT '${'x'.repeat(100 * 1024)}'` });
    expect(r.status).toBe(413);
    expect(r.body).toMatchObject({ type: 'error', error_code: 6 });
    expect((await h.sql('SELECT 1 AS alive')).data).toEqual([[1]]);
  });

  it('interrupts the engine when the client goes away', async () => {
    const ac = new AbortController();
    const pending = fetch(`${h.url}/api/sql/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'SELECT count(*) FROM range(10000000000) a, range(1000) b' }),
      signal: ac.signal,
    }).catch((e: Error) => e.name);
    setTimeout(() => ac.abort(), 100);
    expect(await pending).toBe('AbortError');
    // The pool has 4 connections; if cancelled queries kept running they would pile up and stall.
    const r = await Promise.all(Array.from({ length: 6 }, () => h.sql('SELECT 1 AS alive')));
    expect(r.map((x) => x.data)).toEqual(Array(6).fill([[1]]));
  });
});

describe('jsonlines streaming', () => {
  const stream = async (query: string, extra: Record<string, unknown> = {}) => {
    const res = await fetch(`${h.url}/api/sql/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, response_format: 'jsonlines', ...extra }),
    });
    expect(res.headers.get('content-type')).toMatch(/application\/x-ndjson/);
    const text = await res.text();
    return text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
  };

  it('streams a header, row chunks past the JSON row cap, and an end line', async () => {
    const lines = await stream('SELECT range AS i, range * 2 AS j FROM range(50000)');
    expect(lines[0]).toEqual({
      type: 'table',
      column_names: ['i', 'j'],
      column_types: ['BIGINT', 'BIGINT'],
      context: { db: 'mindsdb' },
    });
    const rows = lines.slice(1, -1).flatMap((l) => l.data);
    expect(lines.length).toBeGreaterThan(3);
    expect(rows).toHaveLength(50000);
    expect(rows[49999]).toEqual([49999, 99998]);
    expect(lines.at(-1)).toEqual({ type: 'end', row_count: 50000, truncated: false });
  });

  it('answers ok and error results as a single line, and honours USE before the streamed statement', async () => {
    expect(await stream('CREATE TABLE mindsdb.stream_t AS SELECT 1 AS x')).toMatchObject([
      { type: 'ok' },
    ]);
    const err = await stream('SELECT * FROM missing_table');
    expect(err).toHaveLength(1);
    expect(err[0]).toMatchObject({ type: 'error', error_code: 2 });
    const used = await stream('USE example_db; SELECT count(*) AS n FROM demo_data.home_rentals');
    expect(used[0].context).toEqual({ db: 'example_db' });
    expect(used[1]).toEqual({ data: [[5037]] });
  });

  it('streams statements the instance answers itself', async () => {
    const lines = await stream('SHOW DATABASES');
    expect(lines[0].column_names).toEqual(['Database']);
    expect(lines[1].data).toContainEqual(['example_db']);
    expect(lines.at(-1).type).toBe('end');
  });
});
