/**
 * Prediction speed (docs/DESIGN.md section 6): single-row latency over HTTP (p50/p99), batch
 * throughput over HTTP at 1k and 10k rows per request (target >= 50k rows/s), and the registry's
 * in-process throughput on the same rows (target >= 200k rows/s) with the HTTP/in-process ratio
 * (issue 23: >= 0.5), a single-row SELECT from the model (p50 < 10 ms) and a 100k-row SQL JOIN as a
 * ratio of the in-process predict of the same rows (>= 0.5),
 * which says what the HTTP layer (JSON both ways, validation, the socket) costs on top of the
 * engine. Everything runs in this process on one instance, interleaved, so a noisy machine moves
 * both sides alike.
 */
import { performance } from 'node:perf_hooks';
import { startHarness, type Harness } from '../server/test/harness';
import { percentile, progress, type BenchLine } from './types';

const MODEL = 'bench_home_rentals';
const LOCATIONS = ['good', 'great', 'poor'];
const NEIGHBORHOODS = [
  'downtown',
  'south_side',
  'westbrae',
  'alcatraz_ave',
  'thowsand_oaks',
  'berkeley_hills',
];

/** Rows like the training data (all inputs present), varied so no cache or branch predictor helps. */
function rows(n: number): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) => ({
    number_of_rooms: i % 4,
    number_of_bathrooms: 1 + (i % 2),
    sqft: 300 + ((i * 37) % 1700),
    location: LOCATIONS[i % 3],
    days_on_market: (i * 13) % 60,
    initial_price: 1000 + ((i * 101) % 5000),
    neighborhood: NEIGHBORHOODS[i % NEIGHBORHOODS.length],
  }));
}

/**
 * Batch prediction through SQL: a 100k-row table joined with the model, answered whole over HTTP
 * (prediction, materialisation and JSON of every row) and aggregated (the planner and prediction
 * without the transfer). Rows per second, median of `rounds`.
 */
async function sqlJoin(
  h: Harness,
  rounds: number,
): Promise<{ rows: number; aggregate: number; inProcess: number }> {
  const n = 100_000;
  await h.sql(`CREATE TABLE files.bench_join AS SELECT i % 4 AS number_of_rooms, 1 + i % 2 AS number_of_bathrooms,
    300 + (i * 37) % 1700 AS sqft, ['good', 'great', 'poor'][1 + i % 3] AS location, (i * 13) % 60 AS days_on_market,
    1000 + (i * 101) % 5000 AS initial_price, 'downtown' AS neighborhood FROM range(${n}) t(i)`);
  const run = async (query: string, expectRows: number) => {
    const t0 = performance.now();
    const r = await h.sql(query);
    const ms = performance.now() - t0;
    if (r.type !== 'table' || r.data.length !== expectRows)
      throw new Error(`join answered ${r.type}: ${r.error_message ?? r.data?.length}`);
    return n / (ms / 1000);
  };
  const all = `SELECT t.*, m.rental_price, m.rental_price_confidence FROM files.bench_join AS t JOIN mindsdb.${MODEL} AS m`;
  const agg = `SELECT t.location, avg(m.rental_price) AS p FROM files.bench_join AS t JOIN mindsdb.${MODEL} AS m GROUP BY 1`;
  // The same 100k rows predicted in-process: the baseline the SQL path is a ratio of.
  const data = (
    await h.instance.catalog.engine.query('SELECT * FROM files.bench_join', {
      internal: true,
      maxRows: n,
    })
  ).rows;
  const ref = { project: 'mindsdb', name: MODEL };
  const cols = ['number_of_rooms', 'number_of_bathrooms', 'sqft', 'location', 'days_on_market'];
  const records = data.map((r) =>
    Object.fromEntries([...cols, 'initial_price', 'neighborhood'].map((c, i) => [c, r[i]])),
  );
  const inProcessRate = async () => {
    const t0 = performance.now();
    await h.instance.models.predict(ref, records);
    return n / ((performance.now() - t0) / 1000);
  };
  await run(all, n);
  await inProcessRate();
  const rows: number[] = [];
  const aggregate: number[] = [];
  const inProcess: number[] = [];
  for (let i = 0; i < rounds; i++) {
    rows.push(await run(all, n));
    aggregate.push(await run(agg, 3));
    inProcess.push(await inProcessRate());
  }
  return { rows: median(rows), aggregate: median(aggregate), inProcess: median(inProcess) };
}

/**
 * Rows per second with explanations (exact TreeSHAP per row): the registry in-process (10k
 * rows), REST with `params.explain` (1k rows a request) and a SQL join reading `m.*` (10k
 * distinct rows, all over HTTP). Median of `rounds`.
 */
async function explainRates(
  h: Harness,
  post: (body: string | Uint8Array<ArrayBuffer>) => Promise<number>,
  rounds: number,
): Promise<{ inProcess: number; rest: number; sql: number }> {
  const ref = { project: 'mindsdb', name: MODEL };
  const data10k = rows(10_000);
  const body = JSON.stringify({ data: rows(1_000), params: { explain: true } });
  const n = 10_000;
  await h.sql(`CREATE TABLE files.bench_explain AS SELECT * FROM files.bench_join LIMIT ${n}`);
  const query = `SELECT t.*, m.* FROM files.bench_explain AS t JOIN mindsdb.${MODEL} AS m`;
  const timed = async (rowsDone: number, f: () => Promise<unknown>) => {
    const t0 = performance.now();
    await f();
    return rowsDone / ((performance.now() - t0) / 1000);
  };
  await h.instance.models.predict(ref, data10k, { explain: true });
  await post(body);
  const inProcess: number[] = [];
  const rest: number[] = [];
  const sql: number[] = [];
  for (let i = 0; i < rounds; i++) {
    inProcess.push(
      await timed(n, () => h.instance.models.predict(ref, data10k, { explain: true })),
    );
    rest.push(await timed(1_000, () => post(body)));
    sql.push(
      await timed(n, async () => {
        const r = await h.sql(query);
        if (r.type !== 'table' || r.data.length !== n)
          throw new Error(`explain join: ${r.error_message}`);
      }),
    );
  }
  return { inProcess: median(inProcess), rest: median(rest), sql: median(sql) };
}

/**
 * Rows per second of a 10-class classifier with 64 numeric inputs (issue 23: >= 30k over REST):
 * 10k rows a request over HTTP and the same rows in-process, median of `rounds`. Trained with
 * the defaults on 2,000 rows whose class follows one input.
 */
async function wideClassifier(
  h: Harness,
  rounds: number,
): Promise<{ rest: number; inProcess: number; bytes: number }> {
  const name = 'bench_wide_cls';
  const inputs = Array.from({ length: 64 }, (_, j) => `x${j + 1}`);
  const value = (i: number, j: number) => ((i * (2 * j + 3) + j * 7) % 101) / 10;
  const cols = inputs.map((c, j) => `((i * ${2 * j + 3} + ${j * 7}) % 101) / 10.0 AS ${c}`);
  await h.sql(
    `CREATE TABLE files.${name} AS SELECT ${cols.join(', ')}, 'class_' || (floor(((i * 3) % 101) / 10.0)::INT % 10) AS label FROM range(2000) t(i)`,
  );
  const created = await h.sql(
    `CREATE MODEL mindsdb.${name} FROM files (SELECT * FROM ${name}) PREDICT label`,
  );
  if (created.type !== 'table') throw new Error(`CREATE MODEL failed: ${created.error_message}`);
  await h.instance.models.idle();
  const n = 10_000;
  const data = Array.from({ length: n }, (_, r) =>
    Object.fromEntries(inputs.map((c, j) => [c, value(r + 7, j)])),
  );
  const body = new TextEncoder().encode(JSON.stringify(data));
  const ref = { project: 'mindsdb', name };
  const post = () => poster(h, name)(body);
  const bytes = await post();
  await h.instance.models.predict(ref, data);
  const rest: number[] = [];
  const inProcess: number[] = [];
  for (let i = 0; i < rounds; i++) {
    let t0 = performance.now();
    await post();
    rest.push(n / ((performance.now() - t0) / 1000));
    t0 = performance.now();
    await h.instance.models.predict(ref, data);
    inProcess.push(n / ((performance.now() - t0) / 1000));
  }
  return { rest: median(rest), inProcess: median(inProcess), bytes };
}

/**
 * POSTs a body to a model's REST predict; the size of its answer in bytes (anything but 200
 * throws). The answer is read as bytes, as a client in another process receives them: decoding a
 * 6-15 MB answer into a string here was this process's own client work, counted as the server's.
 */
const poster = (h: Harness, model: string) => async (body: string | Uint8Array<ArrayBuffer>) => {
  const res = await fetch(`${h.url}/api/projects/mindsdb/models/${model}/predict`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const bytes = await res.arrayBuffer();
  if (res.status !== 200) {
    const text = new TextDecoder().decode(bytes);
    throw new Error(`predict answered ${res.status}: ${text.slice(0, 200)}`);
  }
  return bytes.byteLength;
};

const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

export async function runPredictBench(): Promise<BenchLine[]> {
  const h = await startHarness({ MAX_RESULT_ROWS: 200_000 });
  try {
    progress('predict: training home_rentals');
    const created = await h.sql(
      `CREATE MODEL mindsdb.${MODEL} FROM example_db (SELECT * FROM demo_data.home_rentals) PREDICT rental_price`,
    );
    if (created.type !== 'table') throw new Error(`CREATE MODEL failed: ${created.error_message}`);
    await h.instance.models.idle();
    const status = await h.get(`/api/projects/mindsdb/models/${MODEL}`);
    if (status.body.status !== 'complete')
      throw new Error(`training ended ${status.body.status}: ${status.body.error}`);

    const post = poster(h, MODEL);

    progress('predict: single-row latency over HTTP (1000 requests)');
    const one = rows(200).map((r) => JSON.stringify([r]));
    for (let i = 0; i < 100; i++) await post(one[i % one.length]);
    const lat: number[] = [];
    for (let i = 0; i < 1000; i++) {
      const t0 = performance.now();
      await post(one[i % one.length]);
      lat.push(performance.now() - t0);
    }
    lat.sort((a, b) => a - b);

    progress('predict: single-row SELECT ... FROM model WHERE ... over HTTP (300 queries)');
    const sqlOne = rows(100).map(
      (r) =>
        `SELECT rental_price FROM mindsdb.${MODEL} WHERE sqft = ${r.sqft as number} AND location = '${r.location as string}' AND number_of_rooms = ${r.number_of_rooms as number}`,
    );
    for (let i = 0; i < 30; i++) await h.sql(sqlOne[i % sqlOne.length]);
    const sqlLat: number[] = [];
    for (let i = 0; i < 300; i++) {
      const t0 = performance.now();
      const r = await h.sql(sqlOne[i % sqlOne.length]);
      sqlLat.push(performance.now() - t0);
      if (r.type !== 'table') throw new Error(`single-row SQL answered ${r.error_message}`);
    }
    sqlLat.sort((a, b) => a - b);

    /** Rows per second of one request of n rows over HTTP, and of the registry in-process. */
    const batch = async (n: number, rounds: number) => {
      const data = rows(n);
      // Encoded once, as a client holding its JSON bytes sends them (encoding a 1.2 MB string
      // per request was this process's own client work, counted as the server's).
      const body = new TextEncoder().encode(JSON.stringify(data));
      const ref = { project: 'mindsdb', name: MODEL };
      await post(body);
      await h.instance.models.predict(ref, data);
      const http: number[] = [];
      const inProcess: number[] = [];
      for (let i = 0; i < rounds; i++) {
        let t0 = performance.now();
        await post(body);
        http.push(n / ((performance.now() - t0) / 1000));
        t0 = performance.now();
        await h.instance.models.predict(ref, data);
        inProcess.push(n / ((performance.now() - t0) / 1000));
      }
      return { http: median(http), inProcess: median(inProcess) };
    };
    progress('predict: batches of 1k rows (30 rounds)');
    const b1k = await batch(1_000, 30);
    progress('predict: batches of 10k rows (10 rounds)');
    const b10k = await batch(10_000, 10);
    const ratio = b10k.http / b10k.inProcess;

    progress('predict: a 10-class 64-input classifier over REST (training, then 5 rounds)');
    const wide = await wideClassifier(h, 5);

    progress('predict: SQL JOIN of a 100k-row table with the model (3 rounds)');
    const join = await sqlJoin(h, 3);

    progress('predict: explanations (TreeSHAP) in-process, over REST and through SQL');
    // A failure here (at load ~30 one run lost its socket: "fetch failed", read ECONNRESET) is
    // reported on the explanation lines and leaves the prediction figures above standing.
    const explain = await explainRates(h, post, 3).catch((e: Error) => {
      const why = `${e.message} (${String((e.cause as Error)?.message ?? '')})`;
      progress(`predict: explanations failed: ${why}`);
      return { inProcess: NaN, rest: NaN, sql: NaN };
    });

    return [
      {
        name: 'predict: single row over HTTP, p50',
        value: percentile(lat, 50),
        unit: 'ms',
        target: 'report',
        pass: true,
      },
      {
        name: 'predict: single row over HTTP, p99',
        value: percentile(lat, 99),
        unit: 'ms',
        target: '< 10',
        pass: percentile(lat, 99) < 10,
      },
      {
        name: 'predict: single-row SELECT ... FROM model WHERE ... over HTTP, p50',
        value: percentile(sqlLat, 50),
        unit: 'ms',
        target: '< 10',
        pass: percentile(sqlLat, 50) < 10,
      },
      {
        name: 'predict: 1k rows/request over HTTP',
        value: b1k.http,
        unit: 'rows/s',
        target: '>= 50k',
        pass: b1k.http >= 50_000,
      },
      {
        name: 'predict: 10k rows/request over HTTP',
        value: b10k.http,
        unit: 'rows/s',
        target: '>= 50k',
        pass: b10k.http >= 50_000,
      },
      {
        name: 'predict: 10k rows in-process (registry)',
        value: b10k.inProcess,
        unit: 'rows/s',
        target: '>= 200k',
        pass: b10k.inProcess >= 200_000,
      },
      {
        name: 'predict: REST / in-process throughput (10k rows, same run)',
        value: ratio,
        unit: 'x',
        target: '>= 0.5',
        pass: ratio >= 0.5,
      },
      {
        name: `predict: 10-class 64-input model, 10k rows/request over HTTP (${(wide.bytes / 1e6).toFixed(1)} MB answer)`,
        value: wide.rest,
        unit: 'rows/s',
        target: '>= 30k',
        pass: wide.rest >= 30_000,
      },
      {
        name: 'predict: 10-class 64-input model, 10k rows in-process (registry)',
        value: wide.inProcess,
        unit: 'rows/s',
        target: 'baseline',
        pass: true,
      },
      {
        name: 'predict: 10-class 64-input REST / in-process (same run)',
        value: wide.rest / wide.inProcess,
        unit: 'x',
        target: 'report',
        pass: true,
      },
      {
        name: 'predict: SQL JOIN 100k rows x model, all rows over HTTP',
        value: join.rows,
        unit: 'rows/s',
        target: '>= 50k',
        pass: join.rows >= 50_000,
      },
      {
        name: 'predict: 100k rows in-process (registry, the JOIN baseline)',
        value: join.inProcess,
        unit: 'rows/s',
        target: 'baseline',
        pass: true,
      },
      {
        name: 'predict: SQL JOIN 100k rows over HTTP / in-process (same run)',
        value: join.rows / join.inProcess,
        unit: 'x',
        target: '>= 0.5',
        pass: join.rows / join.inProcess >= 0.5,
      },
      {
        name: 'predict: SQL JOIN 100k rows x model, aggregated',
        value: join.aggregate,
        unit: 'rows/s',
        target: 'report',
        pass: true,
      },
      {
        name: 'explain: 10k rows in-process (registry, predict + TreeSHAP)',
        value: explain.inProcess,
        unit: 'rows/s',
        target: '>= 10k',
        pass: explain.inProcess >= 10_000,
      },
      {
        name: 'explain: 1k rows/request over REST (params.explain)',
        value: explain.rest,
        unit: 'rows/s',
        target: 'report',
        pass: true,
      },
      {
        name: 'explain: SQL JOIN 10k rows reading m.* over HTTP',
        value: explain.sql,
        unit: 'rows/s',
        target: 'report',
        pass: true,
      },
    ];
  } finally {
    await h.close();
  }
}
