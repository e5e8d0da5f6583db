/**
 * Monitoring speed (issue 27): drift of a 1M-row query against a version's training sample
 * (target < 3 s, DuckDB bins the rows in one statement and keeps a bounded sample), through SQL
 * over HTTP and in-process, beside a plain scan of the same query in the same run (the baseline:
 * DuckDB reading every row once); the process's memory growth while it runs; and partial
 * dependence of 20 grid points over 1k rows on the demo models (target < 1 s), beside one batch
 * prediction of the same 20k rows. The machine's load is stated, since every figure moves with it.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { partialDependence, type CellValue } from '../server/automl/index';
import { startHarness, type Harness } from '../server/test/harness';
import { progress, type BenchLine } from './types';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function sql(h: Harness, query: string) {
  const r = await h.sql(query);
  if (r.type === 'error') throw new Error(`${r.error_message} in: ${query}`);
  return r as { column_names: string[]; data: unknown[][] };
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** The first `n` rows of a model's training data as columns keyed by its inputs. */
async function frame(h: Harness, model: string, table: string, n: number) {
  const rec = h.instance.models.ready({ project: 'mindsdb', name: model });
  const p = await h.instance.models.predictor(rec);
  const r = await sql(h, `SELECT * FROM example_db.demo_data.${table} LIMIT ${n}`);
  const columns: Record<string, CellValue[]> = {};
  for (const c of p.description.inputs) {
    const j = r.column_names.findIndex((x) => x.toLowerCase() === c.toLowerCase());
    columns[c] = r.data.map((row) => (j < 0 ? null : (row[j] as CellValue)));
  }
  return { p, columns, n: r.data.length };
}

export async function runMonitoringBench(): Promise<BenchLine[]> {
  const load = os.loadavg()[0];
  const h = await startHarness();
  try {
    progress('training the demo models (home_rentals, customer_churn)');
    await sql(
      h,
      `CREATE MODEL mindsdb.bench_rentals FROM example_db (SELECT * FROM demo_data.home_rentals) PREDICT rental_price`,
    );
    await sql(
      h,
      `CREATE MODEL mindsdb.bench_churn FROM example_db (SELECT * FROM demo_data.customer_churn) PREDICT Exited`,
    );
    await h.instance.models.idle();
    progress('a 1M-row table of this month listings');
    await sql(
      h,
      `CREATE TABLE files.rentals_1m AS SELECT h.* FROM range(1000) r, example_db.demo_data.home_rentals_this_month h`,
    );
    const query = 'SELECT * FROM rentals_1m';
    const ref = { project: 'mindsdb', name: 'bench_rentals' };
    // The training sample is read once per version: warm it, as a second report on a page would.
    await h.instance.monitoring.drift.compute(ref, { query, db: 'files' });

    progress('drift of 1M rows: SQL over HTTP, in-process, and a plain scan');
    const rounds = 3;
    const overHttp: number[] = [];
    const inProcess: number[] = [];
    const scan: number[] = [];
    let rssGrowth = 0;
    for (let i = 0; i < rounds; i++) {
      scan.push(
        await timed(() =>
          sql(h, `SELECT count(*), avg(sqft), count(DISTINCT neighborhood) FROM files.rentals_1m`),
        ),
      );
      const before = process.memoryUsage().rss;
      let peak = before;
      const watch = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
      overHttp.push(
        await timed(() =>
          sql(h, `DESCRIBE bench_rentals.drift FROM files (SELECT * FROM rentals_1m)`),
        ),
      );
      clearInterval(watch);
      rssGrowth = Math.max(rssGrowth, (peak - before) / 2 ** 20);
      inProcess.push(
        await timed(() => h.instance.monitoring.drift.compute(ref, { query, db: 'files' })),
      );
    }

    progress('partial dependence: 20 grid points x 1k rows');
    const effects: { name: string; pd: number; batch: number }[] = [];
    for (const [model, table, column, cls] of [
      ['bench_rentals', 'home_rentals', 'sqft', undefined],
      ['bench_churn', 'customer_churn', 'Age', '1'],
    ] as const) {
      const f = await frame(h, model, table, 1000);
      const pd: number[] = [];
      const batch: number[] = [];
      const all: Record<string, CellValue[]> = {};
      for (const [c, v] of Object.entries(f.columns))
        all[c] = Array.from({ length: 20 }, () => v).flat();
      for (let i = 0; i < 5; i++) {
        let t0 = performance.now();
        const r = partialDependence(f.p, f, { column, kind: 'number', classLabel: cls });
        pd.push(performance.now() - t0);
        if (r.grid.length !== 20) throw new Error(`${model}: ${r.grid.length} grid points`);
        t0 = performance.now();
        f.p.predictColumns!(all, 20 * f.n);
        batch.push(performance.now() - t0);
      }
      effects.push({ name: model, pd: median(pd), batch: median(batch) });
    }

    const loadNote = `load ${load.toFixed(1)} on ${os.cpus().length} cores`;
    const lines: BenchLine[] = [
      {
        name: `drift, 1M-row query, SQL over HTTP (${loadNote})`,
        value: median(overHttp) / 1000,
        unit: 's',
        target: '< 3',
        pass: median(overHttp) < 3000,
      },
      {
        name: 'drift, 1M-row query, in-process',
        value: median(inProcess) / 1000,
        unit: 's',
        target: '< 3',
        pass: median(inProcess) < 3000,
      },
      {
        name: 'drift / plain scan of the same 1M rows (ratio)',
        value: median(overHttp) / median(scan),
        unit: 'x',
        target: 'info',
        pass: true,
      },
      {
        name: 'drift, 1M rows: process memory growth',
        value: rssGrowth,
        unit: 'MB',
        target: '< 300',
        pass: rssGrowth < 300,
      },
    ];
    for (const e of effects) {
      lines.push(
        {
          name: `partial dependence ${e.name}, 20 x 1k rows`,
          value: e.pd / 1000,
          unit: 's',
          target: '< 1',
          pass: e.pd < 1000,
        },
        {
          name: `partial dependence ${e.name} / one 20k-row predict (ratio)`,
          value: e.pd / e.batch,
          unit: 'x',
          target: 'info',
          pass: true,
        },
      );
    }
    return lines;
  } finally {
    await h.close();
  }
}
