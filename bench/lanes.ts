/**
 * Cheap requests beside heavy ones (issue 22, item 6), through the path users use: the instance as
 * `npm run instance` runs it (the supervisor and its instance process, over HTTP on a real port).
 * `SELECT 1` latency (p50, p99, max) on the idle instance (the baseline, same run), then while
 * eight heavy model joins over a 1,000,000-row table run (four on the engine's connections, four
 * waiting), with the short lane (ENGINE_SHORT_LANE default) and without it (0). Reported as ratios
 * to the idle p50 of the same run, with the machine's load beside them. Also: the playground's
 * status call (`GET /api/status`) under the same load, and the instance's resident memory before,
 * at the peak of and 30 s after a 1,000,000-row result.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { spawnInstance, type InstanceProcess } from '../server/test/process';
import { waitComplete } from '../server/test/models';
import { TIMING_PHASES, parseServerTiming, type TimingPhase } from '../server/engine/timings';
import { percentile, progress, type BenchLine } from './types';

const ROWS = 1_000_000;
/** A model join over the whole table, reduced to one row so the answer itself is small. */
const HEAVY =
  'SELECT count(*) AS n, avg(p.y) AS mean FROM (SELECT t.a, t.b, m.y FROM mindsdb.big AS t JOIN mindsdb.m AS m) AS p';
const SAMPLES = 40;

const load = () => os.loadavg()[0].toFixed(1);

interface SqlAnswer {
  type: string;
  error_message?: string;
  data?: unknown[][];
}

async function post(p: InstanceProcess, body: unknown): Promise<SqlAnswer> {
  const res = await fetch(`${p.url}/api/sql/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as SqlAnswer;
}

/** One `SELECT 1` with where its time went (the route's Server-Timing phases, timings.ts). */
interface Sample {
  ms: number;
  phases: Partial<Record<TimingPhase, number>>;
}

async function selectOne(p: InstanceProcess): Promise<Sample> {
  const t0 = performance.now();
  const res = await fetch(`${p.url}/api/sql/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'SELECT 1' }),
  });
  const body = (await res.json()) as SqlAnswer;
  if (body.type === 'error') throw new Error(body.error_message);
  return {
    ms: performance.now() - t0,
    phases: parseServerTiming(res.headers.get('server-timing')),
  };
}

/** The phases of a sample, and what the server's own total leaves (HTTP, event-loop waits). */
function phaseText(s: Sample): string {
  const parts = TIMING_PHASES.filter((k) => s.phases[k] !== undefined).map(
    (k) => `${k} ${s.phases[k]!.toFixed(0)}`,
  );
  const outside = s.ms - (s.phases.total ?? 0);
  return `${parts.join(', ')}, outside the engine ${outside.toFixed(0)} (ms)`;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

interface Latency {
  p50: number;
  p99: number;
  max: number;
}

function summary(lat: number[]): Latency {
  const s = [...lat].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p99: percentile(s, 99), max: s[s.length - 1] };
}

async function sample(fn: () => Promise<unknown>, n = SAMPLES): Promise<Latency> {
  const lat: number[] = [];
  for (let i = 0; i < n; i++) lat.push(await timed(fn));
  return summary(lat);
}

async function status(p: InstanceProcess): Promise<{ engine: { waiting: number } }> {
  return (await (await fetch(`${p.url}/api/status`)).json()) as { engine: { waiting: number } };
}

/** Resident memory of the instance process (the supervisor's child), in MB. */
function rssMb(p: InstanceProcess): number {
  const s = fs.readFileSync(`/proc/${p.instancePid()}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(s)![1]) / 1024;
}

async function prepare(p: InstanceProcess): Promise<void> {
  const made = await post(p, {
    query: `CREATE TABLE mindsdb.big AS SELECT range AS id, (range * 7919) % 1000 / 10.0 AS a, (range * 104729) % 97 AS b, ((range * 7919) % 1000) / 5.0 + (range * 104729) % 97 AS y FROM range(${ROWS})`,
  });
  if (made.type === 'error') throw new Error(made.error_message);
  const model = await post(p, {
    query:
      'CREATE MODEL mindsdb.m FROM mindsdb (SELECT a, b, y FROM big LIMIT 2000) PREDICT y USING max_iterations = 20',
  });
  if (model.type === 'error') throw new Error(model.error_message);
  await waitComplete(p, 'm');
}

interface Run {
  idle: Latency;
  idleStatus: Latency;
  busy: Latency;
  busyStatus: Latency;
  heavyDone: number;
  load: string;
  /** The slowest busy sample, phase by phase. */
  slowest: Sample;
}

async function run(lane: number | null, dataDir: string): Promise<Run> {
  const env: Record<string, string> = { STATEMENT_TIMEOUT_MS: '600000', TRAINING_WARMUP: '0' };
  if (lane !== null) env.ENGINE_SHORT_LANE = String(lane);
  const p = await spawnInstance(dataDir, env);
  try {
    const one = () => post(p, { query: 'SELECT 1' });
    await one();
    const idle = await sample(one);
    const idleStatus = await sample(() => status(p));
    let heavyDone = 0;
    const heavy = Array.from({ length: 8 }, () =>
      post(p, { query: HEAVY }).then((r) => {
        if (r.type === 'error') throw new Error(r.error_message);
        heavyDone++;
      }),
    );
    // Measured once the pool is full and four wait.
    while ((await status(p)).engine.waiting < 4) await new Promise((r) => setTimeout(r, 20));
    const l = load();
    const samples: Sample[] = [];
    const statusLat: number[] = [];
    for (let i = 0; i < SAMPLES && heavyDone === 0; i++) {
      samples.push(await selectOne(p));
      statusLat.push(await timed(() => status(p)));
    }
    const lat = samples.map((s) => s.ms);
    const slowest = samples.reduce((a, b) => (b.ms > a.ms ? b : a));
    progress(`lanes: slowest SELECT 1 beside the joins: ${phaseText(slowest)}`);
    const doneDuring = heavyDone;
    await Promise.all(heavy);
    return {
      idle,
      idleStatus,
      busy: summary(lat),
      busyStatus: summary(statusLat),
      heavyDone: doneDuring,
      load: l,
      slowest,
    };
  } finally {
    await p.stop();
  }
}

/**
 * RSS before, at the peak of and 30 s after reading the 1M-row result of a model join, streamed
 * as the playground reads it, and DuckDB's own accounting of its memory 30 s after.
 */
async function memory(dataDir: string) {
  const p = await spawnInstance(dataDir, { STATEMENT_TIMEOUT_MS: '600000', TRAINING_WARMUP: '0' });
  try {
    await post(p, { query: 'SELECT 1' });
    const before = rssMb(p);
    let peak = before;
    let reading = true;
    const watch = (async () => {
      while (reading) {
        peak = Math.max(peak, rssMb(p));
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const res = await fetch(`${p.url}/api/sql/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'SELECT t.id, m.y FROM mindsdb.big AS t JOIN mindsdb.m AS m',
        response_format: 'jsonlines',
      }),
    });
    const text = await res.text();
    reading = false;
    await watch;
    // One line per chunk of rows after the header: count the rows.
    const rows = (text.match(/\],\[/g)?.length ?? 0) + (text.includes('[[') ? 1 : 0);
    const after: number[] = [];
    for (let s = 0; s < 30; s++) {
      await new Promise((res) => setTimeout(res, 1000));
      after.push(rssMb(p));
    }
    const duck = await post(p, {
      query: 'SELECT round(sum(memory_usage_bytes) / 1e6) FROM duckdb_memory()',
    });
    return {
      before,
      peak,
      after30: after[after.length - 1],
      rows,
      duckdb: Number(duck.data?.[0]?.[0]),
    };
  } finally {
    await p.stop();
  }
}

function ratioLines(label: string, r: Run, target: boolean): BenchLine[] {
  const x = (v: number) => v / r.idle.p50;
  return [
    {
      name: `lanes ${label}: SELECT 1 idle p50 / p99 / max (ms; load ${r.load})`,
      value: r.idle.p50,
      unit: `ms (p99 ${r.idle.p99.toFixed(1)}, max ${r.idle.max.toFixed(1)})`,
      target: 'baseline',
      pass: true,
    },
    {
      name: `lanes ${label}: SELECT 1 beside 8 heavy model joins, p50 / p99 / max (x idle p50; load ${r.load})`,
      value: x(r.busy.max),
      // The idle max beside it: on a loaded machine the idle run has outliers of its own.
      unit: `x max (p50 ${x(r.busy.p50).toFixed(1)}x, p99 ${x(r.busy.p99).toFixed(1)}x; ${r.busy.max.toFixed(0)} ms max, ${(r.busy.max / r.idle.max).toFixed(1)}x the idle max)`,
      target: target ? '<= 20x' : 'reference',
      pass: !target || x(r.busy.max) <= 20,
    },
    {
      name: `lanes ${label}: the slowest of those, phase by phase (Server-Timing)`,
      value: r.slowest.ms,
      unit: `ms (${phaseText(r.slowest)})`,
      target: 'reference',
      pass: true,
    },
    {
      name: `lanes ${label}: GET /api/status beside them, max (x its idle p50)`,
      value: r.busyStatus.max / r.idleStatus.p50,
      unit: `x (${r.busyStatus.max.toFixed(0)} ms; idle p50 ${r.idleStatus.p50.toFixed(1)} ms)`,
      target: 'reference',
      pass: true,
    },
  ];
}

export async function runLanesBench(): Promise<BenchLine[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-lanes-'));
  try {
    progress(
      `lanes: a ${ROWS.toLocaleString('en-US')}-row table and a small model (load ${load()})`,
    );
    const p = await spawnInstance(dataDir, { TRAINING_WARMUP: '0' });
    try {
      await prepare(p);
    } finally {
      await p.stop();
    }
    // LANES_BENCH_PARTS=lane,nolane,memory (default: all) runs a part alone.
    const parts = (process.env.LANES_BENCH_PARTS ?? 'lane,nolane,memory').split(',');
    const lines: BenchLine[] = [];
    if (parts.includes('lane')) {
      progress(`lanes: SELECT 1 beside eight heavy model joins, default lane (load ${load()})`);
      lines.push(...ratioLines('(short lane)', await run(null, dataDir), true));
    }
    if (parts.includes('nolane')) {
      progress(`lanes: the same without the lane, ENGINE_SHORT_LANE=0 (load ${load()})`);
      lines.push(...ratioLines('(no lane)', await run(0, dataDir), false));
    }
    if (!parts.includes('memory')) return lines;
    progress(`lanes: resident memory around a ${ROWS.toLocaleString('en-US')}-row result`);
    const mem = await memory(dataDir);
    return [
      ...lines,
      {
        name: `memory: instance RSS before / peak / 30 s after a ${mem.rows.toLocaleString('en-US')}-row model join, streamed (MB; load ${load()})`,
        value: mem.after30,
        unit: `MB after 30 s (before ${mem.before.toFixed(0)}, peak ${mem.peak.toFixed(0)}; DuckDB's own ${mem.duckdb} MB)`,
        target: 'reference',
        pass: true,
      },
    ];
  } catch (err) {
    // The whole message (run.ts shows its first line): an instance's output, say.
    progress(`lanes: ${(err as Error).message}`);
    throw err;
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
