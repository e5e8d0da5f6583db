import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { startHarness, type Harness } from '../../test/harness';
import { trainingCache } from '../../test/training-cache';

let h: Harness;
beforeAll(async () => {
  // Long enough for `SELECT 1` on a busy machine (every statement obeys it, the cheap ones too),
  // short next to the 10^13-row join that must be interrupted.
  h = await startHarness({
    ...trainingCache(),
    STATEMENT_TIMEOUT_MS: 3000,
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
      'The statement ran longer than the statement timeout (3000 ms) and was interrupted',
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

/** A streamed answer's documents: JSON lines, or the `data:` events and comments of SSE. */
async function streamed(
  url: string,
  query: string,
  format: 'jsonlines' | 'sse',
  extra: Record<string, unknown> = {},
) {
  const res = await fetch(`${url}/api/sql/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, response_format: format, ...extra }),
  });
  const text = await res.text();
  if (format === 'jsonlines') {
    const lines = text.trimEnd().split('\n');
    return {
      type: res.headers.get('content-type'),
      text,
      lines,
      docs: lines.map((l) => JSON.parse(l)),
      comments: [],
    };
  }
  const events = text.split('\n\n').filter(Boolean);
  const lines = events.filter((e) => e.startsWith('data: ')).map((e) => e.slice(6));
  const comments = events.filter((e) => e.startsWith(': ')).map((e) => JSON.parse(e.slice(2)));
  return {
    type: res.headers.get('content-type'),
    text,
    lines,
    docs: lines.map((l) => JSON.parse(l)),
    comments,
  };
}

describe('streamed results (response_format jsonlines and sse)', () => {
  // Their own instance: the short statement timeout above would cut a 50k-row stream whenever
  // the machine is busy (the timeout counts the whole stream, reading included).
  let hs: Harness;
  beforeAll(async () => {
    hs = await startHarness({ ...trainingCache(), MAX_RESULT_ROWS: 1000 });
  });
  afterAll(async () => {
    await hs.close();
  });

  it("streams MindsDB's jsonlines: a header line, then bare arrays of rows past the JSON row cap", async () => {
    const r = await streamed(
      hs.url,
      'SELECT range AS i, range * 2 AS j FROM range(50000)',
      'jsonlines',
    );
    expect(r.type).toBe('application/jsonlines');
    // MindsDB's header bytes first; the fields after them are this instance's.
    expect(r.text.startsWith('{"type":"table","column_names":["i","j"],')).toBe(true);
    expect(r.docs[0]).toEqual({
      type: 'table',
      column_names: ['i', 'j'],
      context: { db: 'mindsdb' },
      column_types: ['BIGINT', 'BIGINT'],
      row_limit: 10_000_000,
    });
    // ~700 KB of rows: one line, batched across the engine's 2,048-row chunks.
    expect(r.docs).toHaveLength(2);
    const rows = r.docs[1] as unknown[];
    expect(Array.isArray(rows)).toBe(true);
    expect(rows).toHaveLength(50000);
    expect(rows[49999]).toEqual([49999, 99998]);
  });

  it('cuts jsonlines past about 1 MB per line, every row once and in order', async () => {
    const r = await streamed(
      hs.url,
      "SELECT range AS i, repeat('x', 60) AS s FROM range(60000)",
      'jsonlines',
    );
    const lines = r.text.trimEnd().split('\n');
    // ~4.4 MB of rows: five lines or so, none much past 1 MB (one engine chunk at most beyond).
    expect(lines.length).toBeGreaterThanOrEqual(5);
    for (const line of lines.slice(1)) expect(line.length).toBeLessThan(1024 * 1024 + 2048 * 80);
    const rows = r.docs.slice(1).flat() as [number, string][];
    expect(rows).toHaveLength(60000);
    expect(rows.map((x) => x[0])).toEqual(Array.from({ length: 60000 }, (_, k) => k));
  });

  it('streams the same documents as sse events, and ends with the row count in a comment', async () => {
    const r = await streamed(hs.url, 'SELECT range AS i, range * 2 AS j FROM range(50000)', 'sse');
    expect(r.type).toBe('text/event-stream; charset=utf-8');
    expect(r.text.startsWith('data: {"type":"table","column_names":["i","j"],')).toBe(true);
    expect(r.docs[0]).toMatchObject({ type: 'table', column_names: ['i', 'j'] });
    const rows = r.docs.slice(1).flat();
    expect(rows).toHaveLength(50000);
    expect(rows[49999]).toEqual([49999, 99998]);
    expect(r.comments).toEqual([{ type: 'end', row_count: 50000, truncated: false }]);
    expect(r.text.endsWith(': {"type":"end","row_count":50000,"truncated":false}\n\n')).toBe(true);
  });

  it('answers ok and error results as a single document, and honours USE before the streamed statement', async () => {
    for (const format of ['jsonlines', 'sse'] as const) {
      const ok = await streamed(
        hs.url,
        `CREATE TABLE mindsdb.stream_${format} AS SELECT 1 AS x`,
        format,
      );
      expect(ok.docs).toHaveLength(1);
      expect(ok.docs[0]).toMatchObject({
        type: 'ok',
        column_names: [],
        context: { db: 'mindsdb' },
      });
      const err = await streamed(hs.url, 'SELECT * FROM missing_table', format);
      expect(err.docs).toHaveLength(1);
      expect(err.docs[0]).toMatchObject({
        type: 'error',
        error_code: 2,
        context: { db: 'mindsdb' },
      });
      expect(err.comments).toEqual([]);
      const used = await streamed(
        hs.url,
        'USE example_db; SELECT count(*) AS n FROM demo_data.home_rentals',
        format,
      );
      expect(used.docs[0].context).toEqual({ db: 'example_db' });
      expect(used.docs[1]).toEqual([[5037]]);
    }
  });

  it('streams statements the instance answers itself', async () => {
    const r = await streamed(hs.url, 'SHOW DATABASES', 'sse');
    expect(r.docs[0].column_names).toEqual(['Database']);
    expect(r.docs[1]).toContainEqual(['example_db']);
    expect(r.comments[0]).toMatchObject({ type: 'end', truncated: false });
  });

  it('cuts a stream at MAX_STREAM_ROWS, says so in the sse end record and the row_limit of both', async () => {
    const small = await startHarness({ ...trainingCache(), MAX_STREAM_ROWS: 1000 });
    try {
      const sse = await streamed(small.url, 'SELECT range AS i FROM range(5000)', 'sse');
      expect(sse.docs[0].row_limit).toBe(1000);
      expect(sse.docs.slice(1).flat()).toHaveLength(1000);
      expect(sse.comments).toEqual([{ type: 'end', row_count: 1000, truncated: true }]);
      const lines = await streamed(small.url, 'SELECT range AS i FROM range(5000)', 'jsonlines');
      expect(lines.docs[0].row_limit).toBe(1000);
      expect(lines.docs.slice(1).flat()).toHaveLength(1000);
    } finally {
      await small.close();
    }
  });

  it('refuses an unknown response_format in the SQL envelope', async () => {
    const r = await h.post('/api/sql/query', { query: 'SELECT 1', response_format: 'csv' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ type: 'error', error_code: 3, column_names: [] });
    expect(r.body.error_message).toBe(
      'response_format must be one of "json", "jsonlines" or "sse", got "csv"',
    );
    const none = await h.post('/api/sql/query', {
      query: 'SELECT 1 AS one',
      response_format: null,
    });
    expect(none.body).toMatchObject({ type: 'table', data: [[1]] });
  });
});

describe('class 9: results bounded by bytes as well as rows', () => {
  let b: Harness;
  beforeAll(async () => {
    b = await startHarness({ ...trainingCache(), MAX_RESULT_BYTES: 8 * 1024 * 1024 });
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
    // Bounded by the work (the engine stops at the byte cap), not by a clock: on a busy machine
    // it took over a minute.
  }, 600_000);

  it('caps at 64 MB by default', () => {
    expect(loadConfig({}).MAX_RESULT_BYTES).toBe(64 * 1024 * 1024);
    expect(loadConfig({ MAX_RESULT_BYTES: '1000' }).MAX_RESULT_BYTES).toBe(1000);
  });

  it("caps what a client gets, not the instance's own reads (a model trains on all its rows)", async () => {
    const small = await startHarness({ ...trainingCache(), MAX_RESULT_BYTES: 10_000 });
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
    await small.instance.models.idle();
    const status = (
      await small.sql("SELECT status, error FROM mindsdb.models WHERE name = 'all_rows'")
    ).data[0];
    expect(status).toEqual(['complete', null]);
    await small.close();
    // Bounded by the work (one training), waited on through the trainer, not a clock.
  }, 600_000);

  it('marks a result truncated when a single value is larger than the cap', async () => {
    const r = await b.sql("SELECT repeat('y', 10000000) AS big UNION ALL SELECT 'small'");
    expect(r.truncated).toBe(true);
    expect(r.data.length).toBeLessThanOrEqual(1);
  });

  it('splits streamed rows into documents of about a megabyte', async () => {
    const r = await streamed(b.url, "SELECT repeat('z', 40000) AS s FROM range(2000)", 'sse');
    const data = r.lines.slice(1);
    expect(data.length).toBeGreaterThan(50);
    for (const l of data) expect(l.length).toBeLessThan(1.2 * 1024 * 1024);
    expect(r.docs.slice(1).reduce((n, d) => n + d.length, 0)).toBe(2000);
    expect(r.comments).toEqual([{ type: 'end', row_count: 2000, truncated: false }]);
  });

  it('batches rows per line as MindsDB writes them, not per engine chunk of 2,048 rows', async () => {
    const r = await streamed(b.url, 'SELECT range AS i FROM range(10000)', 'jsonlines');
    // 10,000 small rows are one batch (about 70 KB): one line after the header, in order.
    expect(r.docs).toHaveLength(2);
    expect(r.docs[1]).toHaveLength(10000);
    expect((r.docs[1] as number[][]).map((row) => row[0])).toEqual(
      Array.from({ length: 10000 }, (_, i) => i),
    );
  });
});

describe('class 10: slow and abandoned jsonlines readers release the pool', () => {
  let s: Harness;
  beforeAll(async () => {
    s = await startHarness({
      ...trainingCache(),
      ENGINE_CONNECTIONS: 2,
      STATEMENT_TIMEOUT_MS: 1500,
    });
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
    const ticket = await engine.enter(-120_000, 'a wedged statement');
    expect((await engineLoad()).healthy).toBe(false);
    engine.leave(ticket);
    expect((await engineLoad()).healthy).toBe(true);
  });
});
