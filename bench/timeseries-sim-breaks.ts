// Simulated sets with a known level shift (issue 29, session 20): series of the kinds testers
// bring (walks, AR(1)s, seasonal and trended series) with a step of 2-6 innovation standard
// deviations at a random row of the history's last half, one set where it falls within 1-3
// HORIZONs of the end, and the control: the AR(1) set's very series without the step (the same
// draws). Each set is scored as bench/timeseries-sim.ts scores the simulated collection: the engine,
// seasonal-naive, statsmodels' peers (cached like the bench's, by their inputs; the series are
// 60-160 rows, which bounds SARIMAX's order search to seconds a series), each of our candidates
// forced on every series, and how many of the ARIMA fits (searched on each series' training rows
// alone) find a level shift (stat/arima.ts levelShift, which the engine does not run: measured
// and not kept, docs/forecasting.md, "Session 20 (arima)").
//   nice -n 5 npx tsx bench/timeseries-sim-breaks.ts [out.json]
// TIMESERIES_SETS=a,b narrows the sets by a word of their names (`control`, `walk`, ...); the
// JSON is bench/timeseries-choices.ts's, so bench/timeseries-replay.ts replays rules on it.

import { writeFileSync } from 'node:fs';
import type { CellValue } from '../server/automl/index';
import { fitArima } from '../server/automl/timeseries/stat/arima';
import { tasksOf } from './timeseries';
import {
  type ChoicesRecord,
  gapOverSeries,
  maseBySeries,
  recordChoices,
} from './timeseries-choices';
import {
  type Rng,
  SIM_SHAPE,
  type SeriesSet,
  type SimKind,
  rng,
  simSeason,
  simTime,
} from './timeseries-sets';

type Shape = 'walk' | 'ar1' | 'seasonal' | 'trend';

/**
 * One series of n rows: a level of 100-1,000 plus, by shape, a random walk, an AR(1) (phi
 * 0.3-0.9), an AR(1) (0-0.6) around a season of amplitude 5-20 innovation sds, or one around a
 * line rising or falling by 5-20 sds over the series; innovations of sd 1-5 % of the level. Then a
 * step of `size` sds (its sign drawn) from row `at` on; the draws are the same for any size.
 */
function draw(r: Rng, shape: Shape, n: number, m: number, at: number, size: number): number[] {
  const level = r.uniform(100, 1000);
  const sigma = r.uniform(0.01, 0.05) * level;
  const phi = shape === 'ar1' ? r.uniform(0.3, 0.9) : shape === 'walk' ? 1 : r.uniform(0, 0.6);
  const season = shape === 'seasonal' ? simSeason(r, m, r.uniform(5, 20) * sigma) : [];
  const slope =
    shape === 'trend' ? (r.uniform(5, 20) * sigma * (r.uniform(0, 1) < 0.5 ? -1 : 1)) / n : 0;
  const sign = r.uniform(0, 1) < 0.5 ? -1 : 1;
  const y: number[] = [];
  let x = 0;
  for (let t = 0; t < n; t++) {
    x = phi * x + sigma * r.normal();
    const s = shape === 'seasonal' ? season[t % m] : 0;
    y.push(level + x + s + slope * t + (t >= at ? sign * size * sigma : 0));
  }
  return y;
}

/**
 * A set of `count` series of `shape` with a step of 2-6 sds (0: the control) at a row drawn from
 * the history's last half, or with `late`, within 1-3 HORIZONs before the first test origin.
 */
function breakSet(
  name: string,
  shape: Shape,
  kind: SimKind,
  seed: number,
  o: { control?: boolean; late?: boolean } = {},
): SeriesSet {
  const shape0 = SIM_SHAPE[kind];
  const count = 10;
  const rows: [number, number] = [Math.max(60, shape0.rows[0]), Math.min(160, shape0.rows[1])];
  return {
    name: `breaks: ${name} (${kind}, ${count} series)`,
    kind,
    source: 'simulated',
    generator: 'sarimax',
    data: () => {
      const r = rng(seed);
      const out: CellValue[][] = [];
      const H = shape0.horizon;
      for (let s = 1; s <= count; s++) {
        const n = r.int(rows[0], rows[1]);
        // The history at the first origin ends H x origins rows before the end.
        const hist = n - H * shape0.origins;
        const at = o.late
          ? hist - Math.round(r.uniform(1, 3) * H)
          : Math.round(r.uniform(hist / 2, hist - 3));
        const size = r.uniform(2, 6);
        const y = draw(r, shape, n, shape0.period, at, o.control ? 0 : size);
        const key = `s${String(s).padStart(2, '0')}`;
        y.forEach((v, i) => out.push([key, simTime(kind, i, n), Math.round(v * 1e4) / 1e4]));
      }
      return { columns: ['series', 't', 'y'], rows: out };
    },
    target: 'y',
    orderBy: 't',
    groupBy: ['series'],
    window: shape0.window,
    horizon: shape0.horizon,
    period: shape0.period,
    origins: shape0.origins,
  };
}

/** The sets: four shapes with a step, one with a late step, and the AR(1) set's control. */
const BREAKS: SeriesSet[] = [
  breakSet('AR(1) with a level shift', 'ar1', 'monthly', 2001),
  breakSet('AR(1), no shift (control: the same draws)', 'ar1', 'monthly', 2001, { control: true }),
  breakSet('random walk with a level shift', 'walk', 'monthly', 2002),
  breakSet('seasonal AR(1) with a level shift', 'seasonal', 'monthly', 2003),
  breakSet('line + AR(1) with a level shift', 'trend', 'quarterly', 2004),
  breakSet('AR(1), the shift 1-3 HORIZONs before the end', 'ar1', 'monthly', 2005, { late: true }),
];

const words = (process.env.TIMESERIES_SETS ?? '').split(',').filter(Boolean);
const sets = BREAKS.filter(
  (s) => words.length === 0 || words.some((w) => s.name.toLowerCase().includes(w.toLowerCase())),
);
const runs = (await recordChoices(sets)) as ChoicesRecord[];
if (process.argv[2]) writeFileSync(process.argv[2], JSON.stringify(runs));

const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '-');
const mean = (x: number[]) => x.reduce((a, b) => a + b, 0) / x.length;
const candidates = [
  ...new Set(runs.flatMap((r) => r.tasks.flatMap((t) => Object.keys(t.candidates)))),
];
console.log(
  `| set | series-origins | ARIMA shifts found | engine | seasonal-naive | ETS | SARIMAX | Theta | engine - SARIMAX (± s.e. over series) | rank | ${candidates.join(' | ')} |`,
);
console.log(`|${' --- |'.repeat(10 + candidates.length)}`);
for (const s of sets) {
  const m = maseBySeries(runs, s.name);
  const overall = (method: string) => mean([...(m.get(method)?.values() ?? [])].flat());
  const eng = overall('engine');
  const diff = gapOverSeries(m, 'peer sarimax');
  const others = ['seasonal_naive', 'peer ets', 'peer sarimax', 'peer theta'].map(overall);
  const rank = 1 + others.filter((x) => x < eng).length;
  // ARIMA searched on each task's training rows alone: how often it finds a shift.
  const tasks = tasksOf(s, await s.data());
  const found = tasks.filter(
    (t) =>
      fitArima(t.train, 0, t.train.length - 1, s.period, { shifts: true })?.shift !== undefined,
  ).length;
  console.log(
    `| ${s.name} | ${tasks.length} | ${found} | ${f3(eng)} | ${others.map(f3).join(' | ')} | ${diff} | ${rank} | ${candidates.map((c) => f3(overall(c))).join(' | ')} |`,
  );
}
