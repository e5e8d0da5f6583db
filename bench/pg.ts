/**
 * PostgreSQL integration bench: a throwaway PostgreSQL server (the tests' helper) with a 1M-row
 * table made by generate_series, read back through the chunked server-side-cursor reader the model
 * layer uses for training data, and copied into DuckDB the way a join with a local table does.
 * Reports rows/s and peak RSS growth; the point of the chunked reader is that memory stays
 * bounded by one chunk whatever the table size, so RSS growth should not scale with the rows.
 *
 * Then trains a model from the integration through SQL (`CREATE MODEL ... FROM bench_pg (SELECT
 * ...)`, read through the same server-side cursor) on a 1M-row table with a learnable target
 * (y = 3a + 2b + category effect + noise, 8 columns), polling `mindsdb.models` until complete,
 * and reports the wall time, rows/s, r2 (DESCRIBE ... .info) and the process's peak RSS (the
 * instance runs in-process here and trains in a worker thread of this process, so RSS covers
 * both) with its growth over the baseline. The time of each phase (fetch, then the engine's
 * phases from DESCRIBE ... .progress) and the RSS peak within it are printed, to tell where the
 * time and the memory go. PG_BENCH_TRAIN=0 skips the training part.
 */
import { startPgServer } from '../server/integrations/__tests__/pg-server';
import { loadRemoteIntoTemp } from '../server/integrations/load';
import { startHarness, type Harness } from '../server/test/harness';
import { progress, type BenchLine } from './types';

/** Rows in the bench table; PG_BENCH_ROWS overrides (e.g. to check memory stays flat with 3M). */
const ROWS = Number(process.env.PG_BENCH_ROWS ?? 1_000_000);

/** Samples RSS every 20 ms while `fn` runs; returns the peak growth over the starting RSS. */
export async function withPeakRss<T>(
  fn: () => Promise<T>,
): Promise<{ value: T; peakMb: number; seconds: number }> {
  (globalThis as { gc?: () => void }).gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const t0 = performance.now();
  try {
    const value = await fn();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { value, peakMb: (peak - base) / 1024 / 1024, seconds: (performance.now() - t0) / 1000 };
  } finally {
    clearInterval(timer);
  }
}

export async function runPgBench(): Promise<BenchLine[]> {
  progress('starting PostgreSQL');
  const pgs = await startPgServer({ seed: false });
  const harness = await startHarness();
  const instance = harness.instance;
  try {
    const admin = await pgs.admin();
    progress(`loading ${ROWS.toLocaleString('en-US')} rows with generate_series`);
    try {
      await admin.query(`CREATE TABLE bench_rows AS
      SELECT g AS id, g % 100 AS k, (g::int8 * 7919 % 10007) / 10007.0::float8 AS x, md5(g::text) AS s, g % 3 = 0 AS flag,
             date '2020-01-01' + (g % 1000) AS d
      FROM generate_series(1, ${ROWS}) AS g`);
      await admin.query(`ALTER TABLE bench_rows OWNER TO ${pgs.user}`);
      if (TRAIN) {
        progress(`loading ${ROWS.toLocaleString('en-US')} training rows (learnable target)`);
        await admin.query(TRAIN_TABLE_SQL);
        await admin.query(`ALTER TABLE bench_train OWNER TO ${pgs.user}`);
      }
    } finally {
      await admin.end();
    }
    const params = JSON.stringify({
      host: pgs.host,
      port: pgs.port,
      user: pgs.user,
      password: pgs.password,
      database: pgs.database,
    });
    const created = await instance.sql.execute({
      query: `CREATE DATABASE bench_pg WITH ENGINE = 'postgres', PARAMETERS = ${params}`,
    });
    if (created.type === 'error') throw new Error(created.error_message);

    progress('reading through the chunked reader (10,000-row FETCHes)');
    let checksum = 0;
    const read = await withPeakRss(() =>
      instance.integrations.readRows('bench_pg', 'SELECT * FROM bench_rows', (rows) => {
        for (const r of rows) checksum += r[1] as number;
      }),
    );
    if (read.value.rowCount !== ROWS)
      throw new Error(`read ${read.value.rowCount} rows, expected ${ROWS}`);
    const readRate = ROWS / read.seconds;
    progress(
      `read ${ROWS} rows in ${read.seconds.toFixed(2)} s, peak RSS +${read.peakMb.toFixed(0)} MB (checksum ${checksum})`,
    );

    progress('copying into DuckDB as a join does');
    const integ = instance.integrations.postgres('bench_pg');
    const copy = await withPeakRss(() =>
      instance.catalog.engine.session((session) =>
        loadRemoteIntoTemp(session, integ, 'SELECT * FROM bench_rows', 'bench_copy', {
          timeoutMs: 600_000,
        }),
      ),
    );
    progress(
      `copied ${copy.value} rows in ${copy.seconds.toFixed(2)} s, peak RSS +${copy.peakMb.toFixed(0)} MB`,
    );
    const trainLines = TRAIN ? await trainFromIntegration(harness) : [];

    return [
      ...trainLines,
      {
        name: 'pg: 1M-row chunked read (s)',
        value: read.seconds,
        unit: 's',
        target: 'report',
        pass: true,
      },
      {
        name: 'pg: chunked read rate',
        value: readRate,
        unit: 'rows/s',
        target: '>= 250k',
        pass: readRate >= 250_000,
      },
      {
        name: 'pg: chunked read peak RSS growth',
        value: read.peakMb,
        unit: 'MB',
        target: '<= 100',
        pass: read.peakMb <= 100,
      },
      {
        name: 'pg: 1M rows into DuckDB (join path)',
        value: ROWS / copy.seconds,
        unit: 'rows/s',
        target: '>= 100k',
        pass: ROWS / copy.seconds >= 100_000,
      },
      {
        name: 'pg: join-path copy peak RSS growth',
        value: copy.peakMb,
        unit: 'MB',
        target: '<= 300',
        pass: copy.peakMb <= 300,
      },
    ];
  } finally {
    await harness.close();
    await pgs.stop();
  }
}

const TRAIN = process.env.PG_BENCH_TRAIN !== '0';

/**
 * The training table: 8 columns, y = 3a + 2b + effect(cat) + 0.05c + noise (sd 1): the noise is
 * under 1 % of the variance, so a good model reaches r2 near 0.99; `d`, `flag`, `day` are noise. Deterministic (setseed).
 */
const TRAIN_TABLE_SQL = `
  SELECT setseed(0.42);
  CREATE TABLE bench_train AS
  WITH g AS (
    SELECT i,
           random() * 10 AS a,
           random() * 10 AS b,
           (random() * 100)::int AS c,
           (ARRAY['red','green','blue','black','white'])[1 + (i % 5)] AS cat,
           random() AS d,
           random() < 0.3 AS flag,
           sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random()) AS noise
    FROM generate_series(1, ${ROWS}) AS i
  )
  SELECT a, b, c, cat, d, flag,
         (date '2020-01-01' + (i % 730)::int) AS day,
         3 * a + 2 * b
           + CASE cat WHEN 'red' THEN 5 WHEN 'green' THEN -3 WHEN 'blue' THEN 0 WHEN 'black' THEN 8 ELSE -6 END
           + 0.05 * c + noise AS y
  FROM g;`;

interface PhaseMark {
  name: string;
  at: number;
  peakRss: number;
}

const mb = (b: number) => b / 1024 / 1024;

async function sqlOk(h: Harness, query: string) {
  const r = await h.sql(query);
  if (r.type === 'error') throw new Error(`${query.slice(0, 60)}…: ${r.error_message}`);
  return r as { column_names: string[]; data: unknown[][] };
}

/** Trains `mindsdb.bench_pg_model` from the integration and measures time, memory and r2. */
async function trainFromIntegration(h: Harness): Promise<BenchLine[]> {
  (globalThis as { gc?: () => void }).gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const phases: PhaseMark[] = [];
  const sample = () => {
    const rss = process.memoryUsage().rss;
    peak = Math.max(peak, rss);
    const cur = phases.at(-1);
    if (cur) cur.peakRss = Math.max(cur.peakRss, rss);
  };
  const timer = setInterval(sample, 200);
  const t0 = performance.now();
  const mark = (name: string) => {
    if (phases.at(-1)?.name === name) return;
    const rss = process.memoryUsage().rss;
    phases.push({ name, at: performance.now(), peakRss: rss });
    progress(
      `  ${((performance.now() - t0) / 1000).toFixed(1)} s: ${name} (RSS ${mb(rss).toFixed(0)} MB)`,
    );
  };
  progress(
    `training from the integration: ${ROWS.toLocaleString('en-US')} rows (baseline RSS ${mb(base).toFixed(0)} MB)`,
  );
  let status: string | undefined;
  let error: string | null | undefined;
  try {
    await sqlOk(
      h,
      'CREATE MODEL mindsdb.bench_pg_model FROM bench_pg (SELECT a, b, c, cat, d, flag, day, y FROM bench_train) PREDICT y',
    );
    mark('fetching rows from PostgreSQL');
    const deadline = Date.now() + 30 * 60_000;
    for (;;) {
      const m = await sqlOk(
        h,
        "SELECT status, error FROM mindsdb.models WHERE name = 'bench_pg_model'",
      );
      [status, error] = (m.data[0] ?? []) as [string, string | null];
      if (status === 'complete' || status === 'error') break;
      if (status === 'training') {
        const p = await sqlOk(h, 'DESCRIBE mindsdb.bench_pg_model.progress');
        const [cur, total, name] = p.data[0] as [number | null, number | null, string];
        mark(cur !== null ? `phase ${cur}/${total}: ${name}` : 'training (worker starting)');
      }
      if (Date.now() > deadline) throw new Error(`training still ${status} after 30 minutes`);
      await new Promise((r) => setTimeout(r, 250));
    }
    sample();
    mark(status);
  } finally {
    clearInterval(timer);
  }
  const seconds = (performance.now() - t0) / 1000;
  for (let i = 0; i < phases.length - 1; i++) {
    const p = phases[i];
    progress(
      `  ${p.name}: ${((phases[i + 1].at - p.at) / 1000).toFixed(1)} s, peak RSS ${mb(p.peakRss).toFixed(0)} MB`,
    );
  }
  if (status !== 'complete') throw new Error(`training failed: ${error ?? status}`);
  const info = await sqlOk(h, 'DESCRIBE mindsdb.bench_pg_model.info');
  const acc = info.data[0][info.column_names.indexOf('accuracies')];
  const accuracies = (typeof acc === 'string' ? JSON.parse(acc) : acc) as Record<string, number>;
  const r2 = accuracies.r2_score ?? NaN;
  progress(
    `trained in ${seconds.toFixed(1)} s, r2_score ${r2.toFixed(4)}, peak RSS ${mb(peak).toFixed(0)} MB (+${mb(peak - base).toFixed(0)} MB over ${mb(base).toFixed(0)} MB)`,
  );
  await sqlOk(h, 'DROP MODEL mindsdb.bench_pg_model');
  return [
    {
      name: `pg: train ${ROWS / 1000}k rows from integration (s)`,
      value: seconds,
      unit: 's',
      target: '<= 180',
      pass: seconds <= 180,
    },
    {
      name: 'pg: train from integration rate',
      value: ROWS / seconds,
      unit: 'rows/s',
      target: 'report',
      pass: true,
    },
    {
      name: 'pg: trained model r2_score (validation)',
      value: r2,
      unit: '',
      target: '>= 0.95',
      pass: r2 >= 0.95,
    },
    {
      name: 'pg: training peak RSS (process)',
      value: mb(peak),
      unit: 'MB',
      target: 'report',
      pass: true,
    },
    {
      name: 'pg: training peak RSS growth',
      value: mb(peak - base),
      unit: 'MB',
      target: '<= 1500',
      pass: peak - base <= 1500 * 1024 * 1024,
    },
  ];
}
