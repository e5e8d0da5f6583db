// The engine's choice of differences beside statsmodels' SARIMAX peer's (issue 29): per set, origin
// and series of the bench (bench/timeseries.ts), the engine's plan (arimaPlan: D by seasonal
// strength, d by KPSS with R's short Newey-West lags, up to 2) and the peer's
// (bench/statsmodels_peer.py: D by classical decomposition's seasonal strength, d by statsmodels'
// KPSS with its automatic lags, Hobijn et al. 1998, at most 1), and the engine's ARIMA searched on
// all the train rows at each, scored on the test window (MASE as the bench computes it). Prints
// per set where the plans differ and which forecast better, and the mean MASE of ARIMA under
// other rules: d by KPSS at the automatic lags (computed here: whether the lags are all that
// separates the two), the engine's d at most 1, the plan (engine's or peer's) whose ARIMA
// forecast the train's last h rows better, and the engine's plan with a drift whenever
// d + D = 1 (the peer's trend 't'), and the engine's plan taking the second difference only where
// the augmented Dickey-Fuller test cannot reject a unit root in the first. Session 15 (arima,
// round 3) in docs/forecasting.md.
// `TIMESERIES_SETS=holdout npx tsx bench/timeseries-differences.ts` (statsmodels needed;
// TIMESERIES_DIFF_DETAIL=1 prints each series-origin where the plans differ).

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type ArimaFit,
  type ArimaPlan,
  arimaForecast,
  arimaPlan,
  fitArima,
} from '../server/automl/timeseries/stat/arima';
import { type Task, maseScale, tasksOf } from './timeseries';
import { PYTHON, STATSMODELS_SCRIPT, askedSets, statsmodelsAvailable } from './timeseries-sets';

if (!statsmodelsAvailable()) throw new Error(`statsmodels is needed (${PYTHON})`);

const PEER_PLANS = `
import json, sys, warnings
import numpy as np
sys.path.insert(0, sys.argv[1])
from statsmodels_peer import seasonal_strength, kpss_d
warnings.simplefilter("ignore")
out = []
for t in json.load(open(sys.argv[2])):
    y = np.asarray(t["y"], dtype=float)
    m = int(t["m"])
    seasonal = m > 1 and len(y) >= 3 * m + 3
    D = 1 if seasonal and seasonal_strength(y, m) > 0.64 else 0
    x = y[m:] - y[:-m] if D else y
    out.append([kpss_d(x), D])
json.dump(out, sys.stdout)
`;

/** KPSS (level) with statsmodels' automatic lags (Hobijn, Franses & Ooms 1998). */
function kpssAuto(x: ArrayLike<number>, n: number): number {
  let mean = 0;
  for (let i = 0; i < n; i++) mean += x[i];
  mean /= n;
  const e = Float64Array.from({ length: n }, (_, i) => x[i] - mean);
  const dot = (l: number) => {
    let g = 0;
    for (let i = l; i < n; i++) g += e[i] * e[i - l];
    return g;
  };
  const cov = Math.trunc(n ** (2 / 9));
  let s0 = dot(0) / n;
  let s1 = 0;
  for (let i = 1; i <= cov; i++) {
    const p = dot(i) / (n / 2);
    s0 += p;
    s1 += i * p;
  }
  const lags = Math.min(n - 1, Math.trunc(1.1447 * Math.cbrt((s1 / s0) ** 2) * Math.cbrt(n)));
  let lrv = dot(0);
  for (let l = 1; l <= lags; l++) lrv += 2 * dot(l) * (1 - l / (lags + 1));
  lrv /= n;
  let s = 0;
  let eta = 0;
  for (let i = 0; i < n; i++) {
    s += e[i];
    eta += s * s;
  }
  return lrv > 0 ? eta / (n * n * lrv) : 0;
}

/**
 * The augmented Dickey-Fuller t statistic (with a constant) of x[0 .. n-1], over
 * trunc((n - 1)^(1/3)) lagged differences (tseries' adf.test); 0 when too short to regress.
 */
function adfStatistic(x: ArrayLike<number>, n: number): number {
  const k = Math.trunc(Math.cbrt(n - 1));
  const p = k + 2;
  const T = n - k - 1;
  if (T <= p + 2) return 0;
  // Normal equations of d x[t] on 1, x[t-1], d x[t-1 .. t-k], inverted by Gauss-Jordan.
  const row = (t: number, j: number) =>
    j === 0 ? 1 : j === 1 ? x[t - 1] : x[t - j + 1] - x[t - j];
  const a = Array.from({ length: p }, () => new Float64Array(2 * p));
  const xty = new Float64Array(p);
  for (let t = k + 1; t < n; t++) {
    const dy = x[t] - x[t - 1];
    for (let i = 0; i < p; i++) {
      const ri = row(t, i);
      xty[i] += ri * dy;
      for (let j = 0; j < p; j++) a[i][j] += ri * row(t, j);
    }
  }
  for (let i = 0; i < p; i++) a[i][p + i] = 1;
  for (let c = 0; c < p; c++) {
    let piv = c;
    for (let r = c + 1; r < p; r++) if (Math.abs(a[r][c]) > Math.abs(a[piv][c])) piv = r;
    [a[c], a[piv]] = [a[piv], a[c]];
    const d = a[c][c];
    if (!(Math.abs(d) > 1e-12)) return 0;
    for (let j = 0; j < 2 * p; j++) a[c][j] /= d;
    for (let r = 0; r < p; r++) {
      if (r === c) continue;
      const f = a[r][c];
      for (let j = 0; j < 2 * p; j++) a[r][j] -= f * a[c][j];
    }
  }
  const beta = Array.from({ length: p }, (_, i) => xty.reduce((s, v, j) => s + a[i][p + j] * v, 0));
  let sse = 0;
  for (let t = k + 1; t < n; t++) {
    let e = x[t] - x[t - 1];
    for (let j = 0; j < p; j++) e -= beta[j] * row(t, j);
    sse += e * e;
  }
  const se = Math.sqrt((sse / (T - p)) * a[1][p + 1]);
  return se > 0 ? beta[1] / se : 0;
}

/**
 * ADF's 5 % critical value with a constant for n rows (MacKinnon 2010's response surface over the
 * regression's n - trunc((n - 1)^(1/3)) - 1 observations, as statsmodels' adfuller).
 */
function adfCritical5(n: number): number {
  const T = n - Math.trunc(Math.cbrt(n - 1)) - 1;
  return -2.86154 - 2.8903 / T - 4.234 / T ** 2 - 40.04 / T ** 3;
}

function mase(f: ArrayLike<number>, t: Task, m: number): number {
  let s = 0;
  for (let k = 0; k < t.truth.length; k++) s += Math.abs(f[k] - t.truth[k]);
  return s / t.truth.length / maseScale(t.train, m);
}

function score(fit: ArimaFit | null, t: Task, m: number): number {
  if (!fit) return NaN;
  const out = new Float64Array(t.truth.length);
  arimaForecast(fit, t.train, 0, t.train.length - 1, t.truth.length, out, 0);
  return mase(out, t, m);
}

const geo: Record<string, number[]> = {
  engine: [],
  peer: [],
  auto: [],
  cap: [],
  val: [],
  drift: [],
  adf: [],
};
for (const s of askedSets()) {
  const d = await s.data();
  const tasks = tasksOf(s, d).filter((t) => t.train.every((v) => Number.isFinite(v)));
  const dir = mkdtempSync(join(tmpdir(), 'ts-plans-'));
  let peer: [number, number][];
  try {
    const job = join(dir, 'job.json');
    writeFileSync(job, JSON.stringify(tasks.map((t) => ({ y: t.train, m: s.period }))));
    const r = spawnSync(PYTHON, ['-c', PEER_PLANS, join(STATSMODELS_SCRIPT, '..'), job], {
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    });
    if (r.status !== 0) throw new Error(`peer plans: exit ${r.status} ${r.stderr}`);
    peer = JSON.parse(r.stdout) as [number, number][];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const sum = { engine: 0, peer: 0, auto: 0, cap: 0, val: 0, drift: 0, adf: 0 };
  const diff = new Map<string, { n: number; ours: number; theirs: number; wins: number }>();
  let autoSame = 0;
  const lines: string[] = [];
  tasks.forEach((t, i) => {
    const n = t.train.length;
    const ours = arimaPlan(t.train, 0, n - 1, s.period);
    const [pd, pD] = peer[i];
    const theirs: ArimaPlan = { d: pd, D: pD, m: ours.m };
    // d by KPSS at the automatic lags, on the engine's D (at most 1, as the peer).
    const sd = ours.D ? t.train.slice(ours.m).map((v, k) => v - t.train[k]) : t.train;
    const ad = sd.length >= 8 && kpssAuto(sd, sd.length) >= 0.463 ? 1 : 0;
    const auto: ArimaPlan = { ...ours, d: ad };
    if (ad === pd && ours.D === pD) autoSame++;
    const fits = new Map<string, number>();
    const at = (p: ArimaPlan) => {
      const k = `${p.d},${p.D}`;
      if (!fits.has(k))
        fits.set(k, score(fitArima(t.train, 0, n - 1, s.period, { plan: p }), t, s.period));
      return fits.get(k) as number;
    };
    const e = at(ours);
    const p = at(theirs);
    const a = at(auto);
    sum.cap += at({ ...ours, d: Math.min(1, ours.d) });
    // The second difference only when ADF cannot reject a unit root in the first (KPSS and ADF
    // confirming each other).
    if (ours.d === 2) {
      const x = sd.slice(1).map((v, k) => v - sd[k]);
      sum.adf += adfStatistic(x, x.length) < adfCritical5(x.length) ? at({ ...ours, d: 1 }) : e;
    } else sum.adf += e;
    // The plan whose ARIMA forecast the train's last h rows better from the rows before them.
    let v = e;
    if (ours.d !== pd || ours.D !== pD) {
      const h = t.truth.length;
      const k = n - h;
      const err = (pl: ArimaPlan) => {
        const f = fitArima(t.train, 0, k - 1, s.period, { plan: pl });
        if (!f) return Infinity;
        const out = new Float64Array(h);
        arimaForecast(f, t.train, 0, k - 1, h, out, 0);
        let a = 0;
        for (let j = 0; j < h; j++) a += Math.abs(out[j] - t.train[k + j]);
        return Number.isFinite(a) ? a : Infinity;
      };
      if (k >= 8 && err(theirs) < err(ours)) v = p;
    }
    sum.val += v;
    sum.drift +=
      ours.d + ours.D === 1
        ? score(fitArima(t.train, 0, n - 1, s.period, { plan: ours, drift: 'always' }), t, s.period)
        : e;
    sum.engine += e;
    sum.peer += p;
    sum.auto += a;
    if (ours.d !== pd || ours.D !== pD) {
      const k = `engine d=${ours.d} D=${ours.D}, peer d=${pd} D=${pD}`;
      const c = diff.get(k) ?? { n: 0, ours: 0, theirs: 0, wins: 0 };
      c.n++;
      c.ours += e;
      c.theirs += p;
      if (p < e) c.wins++;
      diff.set(k, c);
      if (process.env.TIMESERIES_DIFF_DETAIL === '1')
        lines.push(
          `    origin ${t.origin} ${t.key}: ${k}: MASE ${e.toFixed(3)} vs ${p.toFixed(3)}`,
        );
    }
  });
  const N = tasks.length;
  console.log(
    `${s.name}: ${N} series-origins; ARIMA mean MASE at the engine's plan ${(sum.engine / N).toFixed(4)}, at the peer's ${(sum.peer / N).toFixed(4)}, engine D with d by KPSS's automatic lags ${(sum.auto / N).toFixed(4)} (that rule's d and D equal the peer's on ${autoSame}), the engine's d at most 1 ${(sum.cap / N).toFixed(4)}, the plan validated on the train's last rows ${(sum.val / N).toFixed(4)}, the engine's plan with a drift whenever d + D = 1 ${(sum.drift / N).toFixed(4)}, the second difference only where ADF cannot reject a unit root in the first ${(sum.adf / N).toFixed(4)}`,
  );
  for (const [k, c] of diff)
    console.log(
      `  ${k}: ${c.n}; mean MASE ${(c.ours / c.n).toFixed(3)} engine vs ${(c.theirs / c.n).toFixed(3)} peer; peer's better on ${c.wins}`,
    );
  for (const l of lines) console.log(l);
  geo.engine.push(sum.engine / N);
  geo.peer.push(sum.peer / N);
  geo.auto.push(sum.auto / N);
  geo.cap.push(sum.cap / N);
  geo.val.push(sum.val / N);
  geo.drift.push(sum.drift / N);
  geo.adf.push(sum.adf / N);
}
const g = (v: number[]) => Math.exp(v.reduce((a, x) => a + Math.log(x), 0) / v.length);
console.log(
  `geometric mean over ${geo.engine.length} sets of ARIMA's MASE: engine ${g(geo.engine).toFixed(4)}, peer's plan ${g(geo.peer).toFixed(4)}, d by automatic lags ${g(geo.auto).toFixed(4)}, the engine's d at most 1 ${g(geo.cap).toFixed(4)}, validated plan ${g(geo.val).toFixed(4)}, drift always ${g(geo.drift).toFixed(4)}, second difference by ADF ${g(geo.adf).toFixed(4)}`,
);
