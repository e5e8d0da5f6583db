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
import { type ChoicesRecord, gapOverSeries, maseBySeries } from './timeseries-choices';
import { SIM } from './timeseries-sets';

const file = process.argv[2];
if (!file) throw new Error('usage: npx tsx bench/timeseries-sim.ts <choices.json>');
const runs = JSON.parse(readFileSync(file, 'utf8')) as ChoicesRecord[];
const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '-');
const mean = (x: number[]) => x.reduce((a, b) => a + b, 0) / x.length;

const sets = [...new Set(runs.map((r) => r.set))];
const candidates = [
  ...new Set(runs.flatMap((r) => r.tasks.flatMap((t) => Object.keys(t.candidates)))),
];
console.log(
  `| set | series-origins | engine | seasonal-naive | ETS | SARIMAX | Theta | generator | engine - generator (± s.e. over series) | rank | ${candidates.join(' | ')} |`,
);
console.log(`|${' --- |'.repeat(10 + candidates.length)}`);
for (const set of sets) {
  const m = maseBySeries(runs, set);
  const overall = (method: string) => mean([...(m.get(method)?.values() ?? [])].flat());
  const gen = SIM.find((s) => s.name === set)?.generator;
  const eng = overall('engine');
  let diff = '-';
  if (gen) diff = gapOverSeries(m, `peer ${gen}`);
  const others = ['seasonal_naive', 'peer ets', 'peer sarimax', 'peer theta'].map(overall);
  const rank = 1 + others.filter((x) => x < eng).length;
  const n = [...m.get('engine')!.values()].flat().length;
  console.log(
    `| ${set} | ${n} | ${f3(eng)} | ${others.map(f3).join(' | ')} | ${gen ?? '-'} ${gen ? f3(overall(`peer ${gen}`)) : ''} | ${diff} | ${rank} | ${candidates.map((c) => f3(overall(c))).join(' | ')} |`,
  );
}
