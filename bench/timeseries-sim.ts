// The simulated sets (bench/timeseries-sets.ts, SIM) beside the peer of their generating family:
// per set, the engine's MASE, each peer's, the generating family's peer (statsmodels' ETS on the
// ETS sets, its SARIMAX on the ARIMA ones: close to the best possible forecast there), the engine
// minus that peer with its standard error over the series (each series' difference averaged over
// its origins first: the series are the independent draws), the engine's rank, and each of our
// candidates forced on every series. Reads the JSON of bench/timeseries-choices.ts:
//   TIMESERIES_SETS=sim TIMESERIES_PEERS=cached npx tsx bench/timeseries-choices.ts sim.json
//   npx tsx bench/timeseries-sim.ts sim.json
// (any set of the JSON is tabulated; the generating peer is shown for the simulated ones).

import { readFileSync } from 'node:fs';
import type { ChoicesRecord } from './timeseries-choices';
import { SIM } from './timeseries-sets';

const file = process.argv[2];
if (!file) throw new Error('usage: npx tsx bench/timeseries-sim.ts <choices.json>');
const runs = JSON.parse(readFileSync(file, 'utf8')) as ChoicesRecord[];
const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '-');
const mean = (x: number[]) => x.reduce((a, b) => a + b, 0) / x.length;

/** Per method, per series: its MASE at each origin. */
function bySet(set: string) {
  const out = new Map<string, Map<string, number[]>>();
  const add = (method: string, key: string, v: number) => {
    if (!out.has(method)) out.set(method, new Map());
    const m = out.get(method)!;
    if (!m.has(key)) m.set(key, []);
    m.get(key)!.push(v);
  };
  for (const r of runs.filter((x) => x.set === set)) {
    for (const t of r.tasks) {
      const mase = (p: number[]) =>
        t.truth.reduce((a, y, k) => a + Math.abs(y - p[k]), 0) / t.truth.length / t.scale;
      add('engine', t.key, mase(t.engine.value));
      add('seasonal_naive', t.key, mase(t.seasonal_naive));
      for (const p of ['ets', 'sarimax', 'theta'] as const)
        add(`peer ${p}`, t.key, t.peers ? mase(t.peers[p]) : NaN);
      for (const [c, f] of Object.entries(t.candidates)) if (f) add(c, t.key, mase(f));
    }
  }
  return out;
}

const sets = [...new Set(runs.map((r) => r.set))];
const candidates = [
  ...new Set(runs.flatMap((r) => r.tasks.flatMap((t) => Object.keys(t.candidates)))),
];
console.log(
  `| set | series-origins | engine | seasonal-naive | ETS | SARIMAX | Theta | generator | engine - generator (± s.e. over series) | rank | ${candidates.join(' | ')} |`,
);
console.log(`|${' --- |'.repeat(10 + candidates.length)}`);
for (const set of sets) {
  const m = bySet(set);
  const overall = (method: string) => mean([...(m.get(method)?.values() ?? [])].flat());
  const gen = SIM.find((s) => s.name === set)?.generator;
  const eng = overall('engine');
  let diff = '-';
  if (gen) {
    const d = [...m.get('engine')!.entries()].map(([k, v]) =>
      mean(v.map((x, i) => x - m.get(`peer ${gen}`)!.get(k)![i])),
    );
    const sd = Math.sqrt(d.reduce((a, x) => a + (x - mean(d)) ** 2, 0) / (d.length - 1));
    diff = `${mean(d) >= 0 ? '+' : ''}${mean(d).toFixed(3)} ± ${(sd / Math.sqrt(d.length)).toFixed(3)}`;
  }
  const others = ['seasonal_naive', 'peer ets', 'peer sarimax', 'peer theta'].map(overall);
  const rank = 1 + others.filter((x) => x < eng).length;
  const n = [...m.get('engine')!.values()].flat().length;
  console.log(
    `| ${set} | ${n} | ${f3(eng)} | ${others.map(f3).join(' | ')} | ${gen ?? '-'} ${gen ? f3(overall(`peer ${gen}`)) : ''} | ${diff} | ${rank} | ${candidates.map((c) => f3(overall(c))).join(' | ')} |`,
  );
}
