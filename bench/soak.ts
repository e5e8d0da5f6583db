/**
 * Soak: SOAK_SECONDS (default 60) of mixed load from this process against the instance running as
 * a separate process — SQL queries, single and batch predictions, describes — from 8 concurrent
 * clients. Reports throughput, p50/p99 latency, errors (target 0) and the instance's memory growth
 * (RSS sampled from /proc every second after a warm-up).
 */
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { tempDataDir } from '../server/test/harness';
import { spawnInstance } from '../server/test/process';
import { percentile, progress, type BenchLine } from './types';

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

export async function runSoakBench(): Promise<BenchLine[]> {
  const seconds = Number(process.env.SOAK_SECONDS ?? 60);
  const dir = tempDataDir();
  const inst = await spawnInstance(dir);
  try {
    progress('soak: training home_rentals_model');
    await inst.sql(
      'CREATE MODEL mindsdb.soak_model FROM example_db (SELECT * FROM demo_data.home_rentals) PREDICT rental_price',
    );
    for (;;) {
      const r = await inst.sql(
        "SELECT status, error FROM mindsdb.models WHERE name = 'soak_model'",
      );
      if (r.data?.[0]?.[0] === 'complete') break;
      if (r.data?.[0]?.[0] === 'error') throw new Error(`training failed: ${r.data[0][1]}`);
      await new Promise((res) => setTimeout(res, 200));
    }
    const post = (path: string, body: unknown) =>
      fetch(inst.url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const batch = Array.from({ length: 200 }, (_, i) => ({
      sqft: 400 + i * 3,
      location: ['good', 'great', 'poor'][i % 3],
      number_of_rooms: i % 4,
      number_of_bathrooms: 1 + (i % 2),
      days_on_market: i % 30,
      neighborhood: 'downtown',
    }));
    const ops: [string, () => Promise<Response>][] = [
      [
        'sql',
        () =>
          post('/api/sql/query', {
            query:
              'SELECT location, count(*), avg(rental_price) FROM example_db.demo_data.home_rentals GROUP BY 1',
          }),
      ],
      [
        'sql-predict',
        () =>
          post('/api/sql/query', {
            query:
              "SELECT rental_price, rental_price_confidence FROM mindsdb.soak_model WHERE sqft = 823 AND location = 'good'",
          }),
      ],
      [
        'sql-join',
        () =>
          post('/api/sql/query', {
            query:
              'SELECT t.sqft, m.rental_price FROM example_db.demo_data.home_rentals AS t JOIN mindsdb.soak_model AS m LIMIT 500',
          }),
      ],
      ['rest-predict', () => post('/api/projects/mindsdb/models/soak_model/predict', batch)],
      ['rest-describe', () => fetch(`${inst.url}/api/projects/mindsdb/models/soak_model/describe`)],
    ];
    progress(`soak: ${seconds} s of mixed load from 8 clients`);
    const lat: number[] = [];
    let errors = 0;
    const errorSamples: string[] = [];
    const end = performance.now() + seconds * 1000;
    const warmupEnd = performance.now() + Math.min(10, seconds / 4) * 1000;
    let rssStart = NaN;
    let rssMax = 0;
    const sampler = setInterval(() => {
      const r = rssMb(inst.child.pid!);
      if (performance.now() >= warmupEnd && Number.isNaN(rssStart)) rssStart = r;
      rssMax = Math.max(rssMax, r);
    }, 1000);
    let k = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (performance.now() < end) {
          const [name, op] = ops[k++ % ops.length];
          const t0 = performance.now();
          try {
            const res = await op();
            const body = await res.text();
            if (res.status !== 200 || body.includes('"type":"error"')) {
              errors++;
              if (errorSamples.length < 3)
                errorSamples.push(`${name}: ${res.status} ${body.slice(0, 160)}`);
            }
          } catch (err) {
            errors++;
            if (errorSamples.length < 3) errorSamples.push(`${name}: ${(err as Error).message}`);
          }
          lat.push(performance.now() - t0);
        }
      }),
    );
    clearInterval(sampler);
    const rssEnd = rssMb(inst.child.pid!);
    lat.sort((a, b) => a - b);
    for (const s of errorSamples) progress(`soak error sample: ${s}`);
    return [
      {
        name: `soak: requests in ${seconds} s (8 clients, mixed)`,
        value: lat.length,
        unit: 'req',
        target: 'report',
        pass: true,
      },
      {
        name: 'soak: throughput',
        value: lat.length / seconds,
        unit: 'req/s',
        target: 'report',
        pass: true,
      },
      {
        name: 'soak: latency p50',
        value: percentile(lat, 50),
        unit: 'ms',
        target: 'report',
        pass: true,
      },
      {
        name: 'soak: latency p99',
        value: percentile(lat, 99),
        unit: 'ms',
        target: 'report',
        pass: true,
      },
      { name: 'soak: errors', value: errors, unit: '', target: '0', pass: errors === 0 },
      {
        name: 'soak: instance RSS growth after warm-up',
        value: rssEnd - rssStart,
        unit: 'MB',
        target: '< 100',
        pass: rssEnd - rssStart < 100,
      },
      { name: 'soak: instance RSS peak', value: rssMax, unit: 'MB', target: 'report', pass: true },
    ];
  } finally {
    await inst.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
