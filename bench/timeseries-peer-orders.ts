// The engine's ARIMA beside statsmodels' SARIMAX at the same order (issue 29): separates
// estimation from order choice. Per set, origin and series of the bench (bench/timeseries.ts),
// statsmodels' SARIMAX peer picks its order (bench/statsmodels_peer.py orders); the engine's
// ARIMA is fitted at that order with each trend statsmodels is refitted with ('n' none, 'c' a
// constant or drift, 'ct' a drift and a drift trend; the engine fits no drift trend with a
// seasonal part), and searched on all the rows (and on the peer's rows where a set bounds them by
// peerRows: both fits at the peer's order read the rows the peer reads). Prints test MASE per set
// (as the bench computes it), and every fit where statsmodels' coefficients have a higher
// likelihood than the engine's own by the engine's likelihood (-2 log L, stat/arima.ts
// arimaM2ll): an optimiser that stopped short, or a bound.
// `TIMESERIES_SETS=global,stocks npx tsx bench/timeseries-peer-orders.ts` (statsmodels needed;
// `holdout,s&p` for a hold-out set; TIMESERIES_ORDERS_DETAIL=1 prints each series-origin's orders).

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type ArimaFit,
  arimaForecast,
  arimaM2ll,
  arimaName,
  fitArima,
} from '../server/automl/timeseries/stat/arima';
import { type Task, maseScale, tasksOf } from './timeseries';
import { PYTHON, STATSMODELS_SCRIPT, askedSets, statsmodelsAvailable } from './timeseries-sets';

interface PeerOrder {
  order: [number, number, number, number, number, number, string];
  m: number;
  params: Record<string, number>;
  forecast: number[];
  variants: Record<string, { params: Record<string, number>; forecast: number[] }>;
}

if (!statsmodelsAvailable()) throw new Error(`statsmodels is needed (${PYTHON})`);
const sets = askedSets();
const detail = process.env.TIMESERIES_ORDERS_DETAIL === '1';

/** statsmodels' coefficients as the engine's fit holds them (the mean of the differenced rows). */
function fromStatsmodels(v: Record<string, number>, o: PeerOrder['order'], m: number) {
  const [p, d, q, P, D, Q] = o;
  const take = (name: string, n: number, lag: number) =>
    Array.from({ length: n }, (_, i) => v[`${name}${(i + 1) * lag}`] ?? 0);
  const ar = take('ar.L', p, 1);
  const ma = take('ma.L', q, 1);
  const sar = take('ar.S.L', P, m);
  const sma = take('ma.S.L', Q, m);
  const at1 = (1 - ar.reduce((a, b) => a + b, 0)) * (1 - sar.reduce((a, b) => a + b, 0));
  return { d, D, m, ar, ma, sar, sma, mean: (v.intercept ?? 0) / at1 };
}

function mase(f: ArrayLike<number>, t: Task, m: number): number {
  let s = 0;
  for (let k = 0; k < t.truth.length; k++) s += Math.abs(f[k] - t.truth[k]);
  return s / t.truth.length / maseScale(t.train, m);
}

function forecast(fit: ArimaFit, t: Task): Float64Array {
  const out = new Float64Array(t.truth.length);
  arimaForecast(fit, t.train, 0, t.train.length - 1, t.truth.length, out, 0);
  return out;
}

for (const s of sets) {
  const d = await s.data();
  const tasks = tasksOf(s, d);
  const dir = mkdtempSync(join(tmpdir(), 'ts-orders-'));
  let peers: Record<string, PeerOrder | null>;
  try {
    const job = tasks.map((t) => ({
      key: `${t.origin}#${t.key}`,
      y: t.train.slice(-(s.peerRows ?? t.train.length)),
      m: s.period,
      h: t.truth.length,
    }));
    writeFileSync(join(dir, 'job.json'), JSON.stringify({ tasks: job }));
    const r = spawnSync(PYTHON, [STATSMODELS_SCRIPT, 'orders', join(dir, 'job.json')], {
      encoding: 'utf8',
      maxBuffer: 1 << 28,
      env: { ...process.env, PYTHONWARNINGS: 'ignore' },
    });
    if (r.status !== 0) throw new Error(`statsmodels_peer.py orders: exit ${r.status}`);
    peers = JSON.parse(r.stdout) as Record<string, PeerOrder | null>;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const sums = new Map<string, number[]>();
  const add = (k: string, v: number) => sums.set(k, [...(sums.get(k) ?? []), v]);
  const notes: string[] = [];
  for (const t of tasks) {
    const p = peers[`${t.origin}#${t.key}`];
    if (!p) continue;
    // The peer's rows (the last peerRows, as the bench fits it): the same-order fits use them too.
    const pt = { ...t, train: t.train.slice(-(s.peerRows ?? t.train.length)) };
    const n = pt.train.length;
    const [pp, dd, q, P, D, Q] = p.order;
    add('SARIMAX, the peer (its order and trend)', mase(p.forecast, t, s.period));
    const searched = fitArima(t.train, 0, t.train.length - 1, s.period);
    if (s.peerRows) {
      const own = fitArima(pt.train, 0, n - 1, s.period);
      if (own)
        add("engine ARIMA searched on the peer's rows", mase(forecast(own, pt), t, s.period));
      if (own && detail)
        console.log(`  origin ${t.origin} ${t.key}: on the peer's rows ${arimaName(own)}`);
    }
    if (searched)
      add('engine ARIMA searched on all rows', mase(forecast(searched, t), t, s.period));
    if (detail)
      console.log(
        `  origin ${t.origin} ${t.key}: SARIMAX ${p.order.join(',')} m ${p.m} MASE ${mase(p.forecast, t, s.period).toFixed(3)}; engine ${searched ? `${arimaName(searched)} MASE ${mase(forecast(searched, t), t, s.period).toFixed(3)}` : '-'}`,
      );
    for (const [tr, v] of Object.entries(p.variants)) {
      const order = { p: pp, d: dd, q, P, D, Q, m: p.m, constant: tr !== 'n' };
      const plan = { d: dd, D, m: p.m };
      const fit = fitArima(pt.train, 0, n - 1, s.period, {
        plan,
        orders: [{ ...order, ...(tr === 'ct' ? { trend: true } : {}) }],
      });
      if (!fit) continue;
      add(`at its order, '${tr}': statsmodels`, mase(v.forecast, t, s.period));
      add(`at its order, '${tr}': engine`, mase(forecast(fit, pt), t, s.period));
      if (tr === 'ct') continue;
      const theirs = arimaM2ll(fromStatsmodels(v.params, p.order, p.m), pt.train, 0, n - 1);
      const ours = arimaM2ll(fit, pt.train, 0, n - 1);
      if (theirs < ours - 0.5) {
        const c = (x: number[]) => x.map((v) => v.toFixed(3)).join(' ');
        const sm = fromStatsmodels(v.params, p.order, p.m);
        notes.push(
          `  origin ${t.origin}, ${t.key}, ${arimaName(fit)}: -2 log L ${ours.toFixed(2)} (engine: ar ${c(fit.ar)}, ma ${c(fit.ma)}, sar ${c(fit.sar)}, sma ${c(fit.sma)}), ${theirs.toFixed(2)} at statsmodels' (ar ${c(sm.ar)}, ma ${c(sm.ma)}, sar ${c(sm.sar)}, sma ${c(sm.sma)})`,
        );
      }
    }
  }
  console.log(`\n${s.name}: test MASE (series-origins)`);
  for (const [k, v] of sums) {
    const mean = v.reduce((a, b) => a + b, 0) / v.length;
    console.log(`  ${k.padEnd(40)} ${mean.toFixed(3)} (${v.length})`);
  }
  console.log(`fits where statsmodels' coefficients have the higher likelihood: ${notes.length}`);
  for (const l of notes) console.log(l);
}
