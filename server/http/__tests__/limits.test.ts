import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
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

describe('class 9: results bounded by bytes as well as rows', () => {
  let b: Harness;
  beforeAll(async () => {
    b = await startHarness({ MAX_RESULT_BYTES: 8 * 1024 * 1024 });
  });
  afterAll(async () => {
    await b.close();
  });

  it('answers the 4 GB query of 40 KB rows with a truncated result under the byte cap, and keeps serving', async () => {
    const res = await fetch(`${b.url}/api/sql/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: "SELECT repeat('x', 40000) || i::VARCHAR AS s FROM range(100000) t(i)",
      }),
    });
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text.length).toBeLessThanOrEqual(8 * 1024 * 1024 + 1024);
    const r = JSON.parse(text);
    expect(r.type).toBe('table');
    expect(r.truncated).toBe(true);
    expect(r.data.length).toBeGreaterThan(150);
    expect(r.data[7][0]).toBe(`${'x'.repeat(40000)}7`);
    expect((await b.sql('SELECT 1 AS alive')).data).toEqual([[1]]);
  });

  it('caps at 64 MB by default', () => {
    expect(loadConfig({}).MAX_RESULT_BYTES).toBe(64 * 1024 * 1024);
    expect(loadConfig({ MAX_RESULT_BYTES: '1000' }).MAX_RESULT_BYTES).toBe(1000);
  });

  it("caps what a client gets, not the instance's own reads (a model trains on all its rows)", async () => {
    const small = await startHarness({ MAX_RESULT_BYTES: 10_000 });
    const client = await small.sql('SELECT * FROM example_db.demo_data.home_rentals');
    expect(client.truncated).toBe(true);
    expect(client.data.length).toBeLessThan(300);
    const own = await small.instance.catalog.engine.query(
      'SELECT * FROM example_db.demo_data.home_rentals',
    );
    expect(own.rows).toHaveLength(5037);
    await small.sql(
      'CREATE MODEL mindsdb.all_rows FROM example_db (SELECT * FROM demo_data.home_rentals) PREDICT rental_price',
    );
    let status: unknown[] = [];
    for (let i = 0; i < 600; i++) {
      status = (await small.sql("SELECT status, error FROM mindsdb.models WHERE name = 'all_rows'"))
        .data[0];
      if (status[0] === 'complete' || status[0] === 'error') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toEqual(['complete', null]);
    await small.close();
  });

  it('marks a result truncated when a single value is larger than the cap', async () => {
    const r = await b.sql("SELECT repeat('y', 10000000) AS big UNION ALL SELECT 'small'");
    expect(r.truncated).toBe(true);
    expect(r.data.length).toBeLessThanOrEqual(1);
  });

  it('splits streamed rows into lines of about a megabyte', async () => {
    const res = await fetch(`${b.url}/api/sql/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: "SELECT repeat('z', 40000) AS s FROM range(2000)",
        response_format: 'jsonlines',
      }),
    });
    const lines = (await res.text()).trimEnd().split('\n');
    const data = lines.slice(1, -1);
    expect(data.length).toBeGreaterThan(50);
    for (const l of data) expect(l.length).toBeLessThan(1.2 * 1024 * 1024);
    expect(data.reduce((n, l) => n + JSON.parse(l).data.length, 0)).toBe(2000);
    expect(JSON.parse(lines.at(-1)!)).toEqual({ type: 'end', row_count: 2000, truncated: false });
  });
});

describe('class 10: slow and abandoned jsonlines readers release the pool', () => {
  let s: Harness;
  beforeAll(async () => {
    s = await startHarness({ ENGINE_CONNECTIONS: 2, STATEMENT_TIMEOUT_MS: 1500 });
  });
  afterAll(async () => {
    await s.close();
  });

  const engineLoad = async () => (await s.get('/api/status')).body.engine;
  const untilIdle = async () => {
    for (let i = 0; i < 300; i++) {
      const e = await engineLoad();
      if (e.active === 0 && e.waiting === 0) return e;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the pool never became idle');
  };
  const body = JSON.stringify({
    query: "SELECT repeat('r', 2000) AS s FROM range(100000000)",
    response_format: 'jsonlines',
  });
  /** A client that sends a streaming query and then never reads the answer. */
  const stalled = () => {
    const u = new URL(s.url);
    const sock = net.connect(Number(u.port), u.hostname, () => {
      sock.write(
        `POST /api/sql/query HTTP/1.1\r\nHost: ${u.host}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      sock.pause();
    });
    sock.on('error', () => undefined);
    return sock;
  };

  it('reports the pool in /api/status, and frees it within the statement timeout of readers that stopped reading', async () => {
    const idle = await engineLoad();
    expect(idle).toMatchObject({ active: 0, waiting: 0, limit: 2, healthy: true });
    const socks = Array.from({ length: 4 }, stalled);
    let busy = idle;
    for (let i = 0; i < 100 && busy.active < 2; i++) {
      await new Promise((r) => setTimeout(r, 50));
      busy = await engineLoad();
    }
    expect(busy.active).toBe(2);
    // All four streams held the two connections; SQL still gets through once they are dropped.
    expect((await s.sql('SELECT 42 AS after')).data).toEqual([[42]]);
    await untilIdle();
    for (const sock of socks) sock.destroy();
  });

  it('frees a connection at once when the reader goes away', async () => {
    const socks = Array.from({ length: 2 }, stalled);
    for (let i = 0; i < 100 && (await engineLoad()).active < 2; i++)
      await new Promise((r) => setTimeout(r, 50));
    for (const sock of socks) sock.destroy();
    const e = await untilIdle();
    expect(e.healthy).toBe(true);
    expect((await s.sql('SELECT 1')).data).toEqual([[1]]);
  });

  it('says unhealthy while a statement has outlived its timeout (a wedged pool)', async () => {
    const engine = s.instance.catalog.engine;
    const ticket = await engine.enter(-120_000);
    expect((await engineLoad()).healthy).toBe(false);
    engine.leave(ticket);
    expect((await engineLoad()).healthy).toBe(true);
  });
});
