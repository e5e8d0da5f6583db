/**
 * SQL over HTTP against the engine alone (docs/DESIGN.md section 6): a 100k x 10 SELECT through the
 * HTTP endpoint vs DuckDB producing the same JSON in-process (ratio, target <= 2x), and small-query
 * latency p50/p99 over loopback (target p50 < 2 ms). Both sides run in this process, one after
 * the other, on the same instance, so the ratio is robust to a noisy machine.
 */
import { performance } from 'node:perf_hooks';
import { startHarness } from '../server/test/harness';
import { toSqlResult } from '../server/sql/service';
import { percentile, progress, type BenchLine } from './types';

const BIG = `SELECT * FROM mindsdb.bench_wide`;

export async function runSqlBench(): Promise<BenchLine[]> {
  const h = await startHarness({ MAX_RESULT_ROWS: 200_000 });
  try {
    progress('sql: building a 100k x 10 table');
    await h.sql(`CREATE TABLE mindsdb.bench_wide AS SELECT range AS id, range * 1.5 AS f1, range % 97 AS i1,
      'name_' || (range % 1000) AS s1, DATE '2020-01-01' + CAST(range % 3650 AS INTEGER) AS d1, range % 2 = 0 AS b1,
      (range * 7) % 10007 AS i2, sqrt(range) AS f2, 'category_' || (range % 13) AS s2, range::DECIMAL(18,2) / 3 AS dec1
      FROM range(100000)`);

    const inProcess = async () => {
      const t0 = performance.now();
      const r = await h.instance.catalog.engine.query(BIG, { maxRows: 200_000 });
      const json = JSON.stringify({ ...toSqlResult(r), context: { db: 'mindsdb' } });
      return { ms: performance.now() - t0, bytes: json.length };
    };
    const overHttp = async () => {
      const t0 = performance.now();
      const res = await fetch(`${h.url}/api/sql/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: BIG }),
      });
      const text = await res.text();
      return { ms: performance.now() - t0, bytes: text.length };
    };
    progress('sql: 100k-row SELECT, in-process vs HTTP (5 rounds each, interleaved)');
    await inProcess();
    await overHttp();
    const a: number[] = [];
    const b: number[] = [];
    let bytes = 0;
    for (let i = 0; i < 5; i++) {
      a.push((await inProcess()).ms);
      const r = await overHttp();
      b.push(r.ms);
      bytes = r.bytes;
    }
    a.sort((x, y) => x - y);
    b.sort((x, y) => x - y);
    const ratio = percentile(b, 50) / percentile(a, 50);

    progress('sql: SELECT 1 latency over loopback (1000 requests)');
    const lat: number[] = [];
    for (let i = 0; i < 1100; i++) {
      const t0 = performance.now();
      const res = await fetch(`${h.url}/api/sql/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"query":"SELECT 1"}',
      });
      await res.text();
      if (i >= 100) lat.push(performance.now() - t0);
    }
    lat.sort((x, y) => x - y);
    return [
      {
        name: 'sql: 100k x 10 SELECT in-process (DuckDB -> JSON), median',
        value: percentile(a, 50),
        unit: 'ms',
        target: 'baseline',
        pass: true,
      },
      {
        name: `sql: 100k x 10 SELECT over HTTP (${(bytes / 1e6).toFixed(1)} MB), median`,
        value: percentile(b, 50),
        unit: 'ms',
        target: 'see ratio',
        pass: true,
      },
      {
        name: 'sql: HTTP / in-process ratio',
        value: ratio,
        unit: 'x',
        target: '<= 2',
        pass: ratio <= 2,
      },
      {
        name: 'sql: SELECT 1 latency p50',
        value: percentile(lat, 50),
        unit: 'ms',
        target: '< 2',
        pass: percentile(lat, 50) < 2,
      },
      {
        name: 'sql: SELECT 1 latency p99',
        value: percentile(lat, 99),
        unit: 'ms',
        target: 'report',
        pass: true,
      },
    ];
  } finally {
    await h.close();
  }
}
