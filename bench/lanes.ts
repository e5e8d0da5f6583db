/**
 * Cheap requests beside heavy ones (issue 22, item 6): `SELECT 1` latency over HTTP on an idle
 * instance (the baseline, same run), then while eight heavy queries hold and queue for the four
 * engine connections, with the short lane (ENGINE_SHORT_LANE=1) and without it (0, the statement
 * timeout at 10 s bounds the wait). Reported as ratios to the idle baseline; the machine's load is
 * printed with them.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { startHarness, type Harness } from '../server/test/harness';
import { percentile, progress, type BenchLine } from './types';

const HEAVY = 'SELECT count(*) FROM range(10000000000) AS a WHERE a.range % 7 = 3';
const ROUNDS = 10;

async function selectOne(h: Harness): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`${h.url}/api/sql/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'SELECT 1' }),
  });
  await res.text();
  return performance.now() - t0;
}

async function worst(h: Harness): Promise<number> {
  let most = 0;
  for (let i = 0; i < ROUNDS; i++) most = Math.max(most, await selectOne(h));
  return most;
}

async function p50(h: Harness): Promise<number> {
  const lat: number[] = [];
  for (let i = 0; i < ROUNDS; i++) lat.push(await selectOne(h));
  return percentile(
    lat.sort((a, b) => a - b),
    50,
  );
}

/** SELECT 1's p50 when idle, its slowest answer while eight heavy queries hold the pool. */
async function underLoad(lane: number): Promise<{ idle: number; busy: number }> {
  const h = await startHarness({ ENGINE_SHORT_LANE: lane, STATEMENT_TIMEOUT_MS: 10_000 });
  try {
    await selectOne(h);
    const idle = await p50(h);
    const ac = new AbortController();
    const heavy = Array.from({ length: 8 }, () =>
      fetch(`${h.url}/api/sql/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: HEAVY }),
        signal: ac.signal,
      }).catch(() => undefined),
    );
    const engine = h.instance.catalog.engine;
    while (engine.load.active < 4) await new Promise((r) => setTimeout(r, 20));
    // The slowest of the sequential SELECT 1s: the first one waits longest when it has to queue
    // (later ones may find the pool free once the heavy queries hit their timeout).
    const busy = await worst(h);
    ac.abort();
    await Promise.all(heavy);
    return { idle, busy };
  } finally {
    await h.close();
  }
}

export async function runLanesBench(): Promise<BenchLine[]> {
  const load = os.loadavg()[0].toFixed(1);
  progress(`lanes: SELECT 1 beside eight heavy queries, with the short lane (load ${load})`);
  const withLane = await underLoad(1);
  progress('lanes: the same without the lane (ENGINE_SHORT_LANE=0)');
  const without = await underLoad(0);
  const ratio = withLane.busy / withLane.idle;
  return [
    {
      name: `lanes: SELECT 1 p50, idle (ms; load ${load})`,
      value: withLane.idle,
      unit: 'ms',
      target: 'baseline',
      pass: true,
    },
    {
      name: 'lanes: slowest SELECT 1 beside 8 heavy queries, short lane (x idle p50)',
      value: ratio,
      unit: 'x',
      target: '<= 20x',
      pass: ratio <= 20,
    },
    {
      name: 'lanes: slowest SELECT 1 beside 8 heavy queries, no lane (x idle p50)',
      value: without.busy / without.idle,
      unit: 'x',
      target: 'reference',
      pass: true,
    },
  ];
}
