// Time-series forecasting benchmark (issue 29): the engine beside statsmodels' forecasters on the
// public sets of bench/timeseries-sets.ts (yearly, quarterly, monthly, daily; 1 to 50 series).
// Each set is cut at several origins, HORIZON apart from its end; at each, the engine and every
// peer train on the rows before the origin and forecast the next HORIZON rows of every series:
//   - MASE per series and origin: mean |error| over the series' in-sample seasonal-naive MAE
//     (naive for yearly series), averaged over the set; the engine's rank among itself,
//     seasonal-naive and the peers (statsmodels ETS with the form by AICc, SARIMAX with a small
//     order search, Theta), when Debian's python3-statsmodels is installed (bench/statsmodels_peer.py);
//   - interval coverage at 50/80/90/95 % pooled over the set (beside the out-of-sample coverage
//     DESCRIBE claimed from the validation folds, averaged over the origins, and how well it
//     follows the test's coverage over the set-origins) with each origin's
//     coverage and the standard error over the origins (an origin is the independent unit: its
//     steps, and its series, which share the calendar, a holiday or a recession, miss together;
//     with 2-8 origins a set's coverage moves by 5-15 points from chance alone), and the 80/90 width
//     ratio beside the ratio of the 80th and 90th percentiles of the engine's own absolute test
//     errors: scaled per series (pooled over the steps, whose widening spread lowers it), and
//     each over its own 90 % half-width (per step and series: the shape a band scaled per step
//     should match).
// Intervals in use: each origin is also forecast by the model trained one origin (HORIZON rows)
// earlier, whose history then holds HORIZON outcomes after its training: its intervals
// recalibrated on them (server/automl/timeseries/recalibrate.ts), and fixed as trained.
// The last origin of each set is also trained and forecast through SQL over HTTP (a real
// instance: the rows uploaded as a file, CREATE MODEL, JOIN ... > LATEST), its MASE printed beside
// the in-process one (TIMESERIES_HTTP=0 skips it).
// Speed: 1,000 generated daily series x 200 steps, WINDOW 14, HORIZON 12: training (< 30 s of CPU)
// and a forecast of all groups (< 2 s), and from a history 12 steps longer (intervals
// recalibrated on those outcomes).
// Peer forecasts are cached by their inputs in node_modules/.cache/timeseries-peers (the same
// inputs give the same forecasts); TIMESERIES_PEERS=fresh recomputes them, TIMESERIES_PEERS=cached
// uses only the cached ones (a set missing some prints - for the peers). TIMESERIES_ORIGINS=n
// cuts every set at n origins (at most those leaving four WINDOWs of rows), peers from the cache
// only: coverage measured over more independent windows than a set's 2-8. TIMESERIES_SETS=a,b
// picks sets by a word of their names; TIMESERIES_SETS=holdout runs the hold-out sets instead
// (bench/timeseries-sets.ts: series no choosing rule was tuned on; `holdout,daily` narrows them),
// TIMESERIES_SETS=fresh the fresh ones (series no session ran the engine on before session 16),
// TIMESERIES_SETS=sim the simulated ones (series drawn from the peers' own models, session 19);
// TIMESERIES_BENCH_SPEED=0 skips the speed figures.
// Run standalone with `npx tsx bench/timeseries.ts`; `bench/run.ts` imports runTimeseriesBench().

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type CellValue,
  type Dataset,
  type TimeSeriesArtifact,
  loadPredictor,
  trainForecaster,
} from '../server/automl/index';
import {
  PYTHON,
  STATSMODELS_SCRIPT,
  askedPool,
  type SeriesSet,
  statsmodelsAvailable,
} from './timeseries-sets';
import Papa from 'papaparse';
import { type Harness, startHarness, waitForModel } from '../server/test/harness';
import type { BenchLine } from './types';
import { progress } from './types';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CACHE = join(ROOT, 'node_modules', '.cache', 'timeseries-peers');
const LEVELS = [0.5, 0.8, 0.9, 0.95];
const PEERS = ['ets', 'sarimax', 'theta'] as const;
type Peer = (typeof PEERS)[number];
/**
 * One series-origin's peer forecasts; `failed`: the peers whose fit was refused (a non-finite or
 * runaway forecast, bench/statsmodels_peer.py) and what was used instead, and why.
 */
export type PeerResult = Record<Peer, number[]> & { failed?: Partial<Record<Peer, string>> };
/** The peer script's guard version (GUARD in bench/statsmodels_peer.py). */
const PEER_GUARD = 1;
const METHODS = ['engine', 'seasonal_naive', ...PEERS] as const;
type Method = (typeof METHODS)[number];

interface Series {
  key: string;
  t: CellValue[];
  y: number[];
}

/** One series-origin's forecast: per step the value, and per level the band. */
export interface Forecast {
  value: number[];
  lo: number[][];
  hi: number[][];
}

/** A training task: one series' rows before an origin and the steps to forecast. */
export interface Task {
  set: string;
  origin: number;
  key: string;
  train: number[];
  truth: number[];
  /** The truth's timestamps (the engine's forecast rows are matched by them). */
  times: string[];
}

interface SetResult {
  set: SeriesSet;
  /** Per method: mean MASE over series and origins (NaN without the peers). */
  mase: Record<Method, number>;
  rank: number;
  /** Per level: the share of test values inside the engine's interval. */
  coverage: number[];
  /**
   * Per level: each origin's coverage (oldest first), and the pooled coverage's standard error
   * over the origins, cluster-robust (NaN with one origin). An origin is the independent unit:
   * its steps share the origin, and its series the calendar (a holiday, a recession), so they
   * miss together.
   */
  originCoverage: number[][];
  coverageSe: number[];
  /** Mean 80 % over 90 % half-width, and the errors' own 80th / 90th percentile ratio. */
  widthRatio: number;
  errorRatio: number;
  /** The same ratio of the errors each over its point's 90 % half-width. */
  stepErrorRatio: number;
  /**
   * Per level: DESCRIBE's validation (out-of-sample) coverage at each origin, as originCoverage
   * (oldest first), and its mean over the origins.
   */
  claimedByOrigin: number[][];
  claimed: number[];
  /**
   * Per level: coverage of the model trained one origin (HORIZON rows) earlier, used at the later
   * origins: its intervals recalibrated on the outcomes since its training, and fixed as trained;
   * and the points they cover (the set's origins but its oldest).
   */
  laterCoverage: number[];
  laterFixedCoverage: number[];
  laterPoints: number;
  points: number;
  trainSeconds: number;
  selected: string;
  /** Peer fits refused by the peer script's guard: 'ETS, origin 2, series: why'. */
  refused: string[];
}

export function seriesOf(d: Dataset, s: SeriesSet): Map<string, Series> {
  const jt = d.columns.indexOf(s.orderBy);
  const jy = d.columns.indexOf(s.target);
  const jg = s.groupBy.map((g) => d.columns.indexOf(g));
  const out = new Map<string, Series>();
  const rows = d.rows.filter((r) => r[jy] !== null && r[jy] !== undefined && r[jt] !== null);
  rows.sort((a, b) => (String(a[jt]) < String(b[jt]) ? -1 : String(a[jt]) > String(b[jt]) ? 1 : 0));
  if (typeof rows[0]?.[jt] === 'number') rows.sort((a, b) => Number(a[jt]) - Number(b[jt]));
  for (const r of rows) {
    const key = jg.map((j) => String(r[j])).join('|');
    let x = out.get(key);
    if (!x) out.set(key, (x = { key, t: [], y: [] }));
    x.t.push(r[jt]);
    x.y.push(Number(r[jy]));
  }
  return out;
}

/** In-sample seasonal-naive MAE of `y` (naive when the series is shorter than two seasons). */
export function maseScale(y: number[], m: number): number {
  const p = y.length > 2 * m ? m : 1;
  let sum = 0;
  let n = 0;
  for (let i = p; i < y.length; i++) {
    sum += Math.abs(y[i] - y[i - p]);
    n++;
  }
  return n > 0 && sum > 0 ? sum / n : 1;
}

export function seasonalNaive(y: number[], m: number, h: number): number[] {
  const p = y.length >= m ? m : 1;
  return Array.from({ length: h }, (_, k) => y[y.length - p + (k % p)]);
}

/** Peer forecasts of every task, from the cache of identical inputs or from statsmodels. */
export function peerForecasts(tasks: Task[], sets: SeriesSet[]): Map<string, PeerResult> | null {
  if (!statsmodelsAvailable()) return null;
  const bySet = new Map(sets.map((s) => [s.name, s]));
  const jobs = tasks.map((t) => ({
    key: `${t.set}#${t.origin}#${t.key}`,
    // A set's peerRows bound the peers' fit to the last rows (SARIMAX on long hourly series).
    y: t.train.slice(-(bySet.get(t.set)!.peerRows ?? t.train.length)),
    m: bySet.get(t.set)!.period,
    h: t.truth.length,
  }));
  const out = new Map<string, PeerResult>();
  const hashOf = (j: (typeof jobs)[number]) =>
    createHash('sha256')
      .update(JSON.stringify([j.y, j.m, j.h]))
      .digest('hex')
      .slice(0, 32);
  mkdirSync(CACHE, { recursive: true });
  const fresh = process.env.TIMESERIES_PEERS === 'fresh';
  // Forecasts cached before the script's guard against runaway fits go through it again (only a
  // peer that fails it is refitted).
  const unguarded: (typeof jobs)[number][] = [];
  const cachedBefore = new Map<string, PeerResult>();
  const todo = jobs.filter((j) => {
    const file = join(CACHE, `${hashOf(j)}.json`);
    if (!fresh && existsSync(file)) {
      const r = JSON.parse(readFileSync(file, 'utf8')) as PeerResult & { guard?: number };
      if ((r.guard ?? 0) >= PEER_GUARD) out.set(j.key, r);
      else {
        unguarded.push(j);
        cachedBefore.set(j.key, r);
      }
      return false;
    }
    return true;
  });
  const fit = [...unguarded];
  // More origins than a set's own (TIMESERIES_ORIGINS) measure the engine's coverage: no new peers.
  const cachedOnly = process.env.TIMESERIES_PEERS === 'cached' || !!process.env.TIMESERIES_ORIGINS;
  if (todo.length > 0 && cachedOnly) {
    // Engine-only comparisons while the cache fills (TIMESERIES_PEERS_ONLY=1 in the background).
    progress(
      `statsmodels peers: ${todo.length} series-origins not cached, left out (their sets print -)`,
    );
  } else fit.push(...todo);
  if (fit.length > 0) {
    progress(
      `statsmodels peers: fitting ${fit.length - unguarded.length} series-origins, checking ${unguarded.length} cached before the guard (${jobs.length - fit.length} cached)`,
    );
    const dir = mkdtempSync(join(tmpdir(), 'ts-peers-'));
    try {
      // Each task names its cache file: the script writes it as soon as the task is fitted, so a
      // run cut short (or one that fails late) keeps the peers fitted so far.
      const withFiles = fit.map((j) => ({
        ...j,
        file: join(CACHE, `${hashOf(j)}.json`),
        ...(cachedBefore.has(j.key) ? { cached: cachedBefore.get(j.key) } : {}),
      }));
      writeFileSync(join(dir, 'job.json'), JSON.stringify({ tasks: withFiles }));
      const r = spawnSync(PYTHON, [STATSMODELS_SCRIPT, 'fit', join(dir, 'job.json')], {
        encoding: 'utf8',
        maxBuffer: 1 << 28,
        stdio: ['ignore', 'pipe', 'inherit'],
        // The pool's workers would print statsmodels' KPSS look-up warnings beside the progress.
        env: { ...process.env, PYTHONWARNINGS: 'ignore' },
      });
      if (r.status !== 0) throw new Error(`statsmodels_peer.py fit: exit ${r.status}`);
      const res = JSON.parse(r.stdout) as Record<string, PeerResult>;
      for (const j of fit) out.set(j.key, res[j.key]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return out;
}

/**
 * How many origins a set is cut at: its own count, or TIMESERIES_ORIGINS (for measuring coverage
 * with more independent windows than the set's few; with TIMESERIES_PEERS=cached the peers of the
 * extra origins print -), at most as many as leave four WINDOWs of rows before the earliest.
 */
function originCount(s: SeriesSet, times: number): number {
  const asked = Number(process.env.TIMESERIES_ORIGINS);
  if (!(asked >= 1)) return s.origins;
  return Math.max(1, Math.min(Math.floor(asked), Math.floor((times - 4 * s.window) / s.horizon)));
}

/** The origins of a set: per origin, the cut timestamp and the rows before it. */
export function originsOf(s: SeriesSet, d: Dataset) {
  const jt = d.columns.indexOf(s.orderBy);
  const numeric = typeof d.rows[0][jt] === 'number';
  const times = [...new Set(d.rows.map((r) => r[jt]))].sort((a, b) =>
    numeric ? Number(a) - Number(b) : String(a) < String(b) ? -1 : 1,
  );
  const out: { origin: number; before: (v: CellValue) => boolean; rows: CellValue[][] }[] = [];
  for (let o = originCount(s, times.length); o >= 1; o--) {
    const cut = times[times.length - o * s.horizon];
    const before = (v: CellValue) => (numeric ? Number(v) < Number(cut) : String(v) < String(cut));
    out.push({ origin: o, before, rows: d.rows.filter((r) => before(r[jt])) });
  }
  return out;
}

/** The tasks of a set: per origin and series with enough history, its training rows and truth. */
export function tasksOf(s: SeriesSet, d: Dataset): Task[] {
  const all = seriesOf(d, s);
  const tasks: Task[] = [];
  for (const { origin, before } of originsOf(s, d)) {
    for (const [key, x] of all) {
      const n = x.t.findIndex((v) => !before(v));
      if (n < 0 || n < 2 * s.window) continue;
      const h = Math.min(s.horizon, x.t.length - n);
      tasks.push({
        set: s.name,
        origin,
        key,
        train: x.y.slice(0, n),
        truth: x.y.slice(n, n + h),
        times: x.t.slice(n, n + h).map(String),
      });
    }
  }
  return tasks;
}

/** The history of the series with a task in `here` (one origin's), as columns. */
function historyOf(s: SeriesSet, d: Dataset, rows: CellValue[][], here: Task[]) {
  // The groups with a task (enough history at this origin): an earlier origin than the set's
  // own (TIMESERIES_ORIGINS) may come before a group has WINDOW rows, which forecast refuses.
  const jg = s.groupBy.map((g) => d.columns.indexOf(g));
  const keyOf = (r: CellValue[]) => jg.map((j) => String(r[j])).join('|');
  const tasked = new Set(here.map((t) => t.key));
  const history = rows.filter((r) => tasked.has(keyOf(r)));
  const cols: Record<string, CellValue[]> = {};
  d.columns.forEach((c, j) => (cols[c] = history.map((r) => r[j])));
  return { cols, rows: history.length };
}

/** A trained artifact's forecasts of a set's tasks at origin `o` (keyed `origin#series`), every level's band. */
export function forecastOrigin(
  s: SeriesSet,
  d: Dataset,
  artifact: TimeSeriesArtifact,
  o: number,
  rows: CellValue[][],
  tasks: Task[],
): Forecasts {
  const here = tasks.filter((t) => t.origin === o);
  const h = historyOf(s, d, rows, here);
  const out: Forecasts = new Map();
  for (const [key, f] of forecastTasks(s, artifact, h.cols, h.rows, here))
    out.set(`${o}#${key}`, f);
  return out;
}

/** The engine on one set: a training per origin, forecasts with intervals at every level. */
function engineRuns(s: SeriesSet, d: Dataset) {
  const tasks = tasksOf(s, d);
  const forecasts: Forecasts = new Map();
  let trainSeconds = 0;
  const selected = new Map<string, number>();
  /** Per origin and series: the engine's candidate and fitted model (TIMESERIES_DETAIL). */
  const models = new Map<string, string>();
  /** Per origin: DESCRIBE's validation coverage at each level. */
  const claimed = new Map<number, number[]>();
  /** The forecasts of the model trained one origin earlier: recalibrated, and with fixed widths. */
  const later: Forecasts = new Map();
  const laterFixed: Forecasts = new Map();
  let previous: TimeSeriesArtifact | null = null;
  for (const { origin: o, rows } of originsOf(s, d)) {
    const t0 = performance.now();
    const artifact = trainForecaster(
      { columns: d.columns, rows },
      {
        target: s.target,
        orderBy: s.orderBy,
        groupBy: s.groupBy,
        window: s.window,
        horizon: s.horizon,
        ...(process.env.TIMESERIES_MODEL ? { using: { model: process.env.TIMESERIES_MODEL } } : {}),
      },
    );
    trainSeconds += (performance.now() - t0) / 1000;
    for (const r of artifact.description.timeseries!.leaderboard ?? []) {
      if (r.groups > 0) selected.set(r.name, (selected.get(r.name) ?? 0) + r.groups);
    }
    for (const c of artifact.description.timeseries!.choices ?? []) {
      models.set(`${o}#${c.group.map(String).join('|')}`, `${c.candidate}: ${c.model}`);
    }
    const cov = artifact.description.timeseries!.coverage ?? [];
    claimed.set(
      o,
      LEVELS.map((l) => cov.find((c) => c.level === l)?.coverage ?? NaN),
    );
    const here = tasks.filter((t) => t.origin === o);
    const h = historyOf(s, d, rows, here);
    const at = (a: typeof artifact) => forecastTasks(s, a, h.cols, h.rows, here);
    for (const [key, f] of at(artifact)) forecasts.set(`${o}#${key}`, f);
    if (previous) {
      // The model trained one origin (HORIZON rows) earlier, used here: its intervals
      // recalibrated on the HORIZON outcomes since its training (recalibrate.ts), and as trained.
      const fixed = { ...previous, calibration: { ...previous.calibration, online: undefined } };
      for (const [key, f] of at(previous)) later.set(`${o}#${key}`, f);
      for (const [key, f] of at(fixed)) laterFixed.set(`${o}#${key}`, f);
    }
    previous = artifact;
  }
  const top = [...selected.entries()].sort((a, b) => b[1] - a[1]);
  return {
    tasks,
    forecasts,
    trainSeconds,
    selected: top.map(([n, c]) => `${n} ${c}`).join(', '),
    models,
    claimed,
    later,
    laterFixed,
  };
}

/** Per origin and series (`origin#key`): the forecast and its intervals at LEVELS per step. */
type Forecasts = Map<string, Forecast>;

/** The forecasts of `artifact` from the history `cols` for `tasks` (one origin's), by series key. */
function forecastTasks(
  s: SeriesSet,
  artifact: TimeSeriesArtifact,
  cols: Record<string, CellValue[]>,
  rows: number,
  tasks: Task[],
): Map<string, Forecast> {
  const f = loadPredictor(artifact);
  if (!('forecast' in f)) throw new Error('not a forecaster');
  const out = f.forecast(cols, rows, { levels: LEVELS });
  const ot = out.columns.indexOf(s.orderBy);
  const oy = out.columns.indexOf(s.target);
  const og = s.groupBy.map((g) => out.columns.indexOf(g));
  const byKey = new Map<string, number[]>();
  out.rows.forEach((r, i) => {
    const key = og.map((j) => String(r[j])).join('|');
    if (!byKey.has(key)) byKey.set(key, []);
    byKey.get(key)!.push(i);
  });
  const result = new Map<string, Forecast>();
  for (const task of tasks) {
    const idx = byKey.get(task.key);
    if (!idx) throw new Error(`${s.name}: no forecast for ${task.key}`);
    const value: number[] = [];
    const lo: number[][] = LEVELS.map(() => []);
    const hi: number[][] = LEVELS.map(() => []);
    task.truth.forEach((_, k) => {
      const i = idx[k];
      // The forecast's timestamps follow the series' own steps; they must be the truth's.
      if (String(out.rows[i][ot]) !== task.times[k]) {
        throw new Error(
          `${s.name} ${task.key}: forecast step ${k + 1} at ${String(out.rows[i][ot])}, truth at ${task.times[k]}`,
        );
      }
      value.push(Number(out.rows[i][oy]));
      out.intervals!.forEach((iv, l) => {
        lo[l].push(Number(iv.lower[i]));
        hi[l].push(Number(iv.upper[i]));
      });
    });
    result.set(task.key, { value, lo, hi });
  }
  return result;
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const pos = q * (sorted.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

function score(
  s: SeriesSet,
  run: ReturnType<typeof engineRuns>,
  peers: Map<string, PeerResult> | null,
): SetResult {
  const sums = Object.fromEntries(METHODS.map((m) => [m, 0])) as Record<Method, number>;
  let n = 0;
  const inside = LEVELS.map(() => 0);
  let points = 0;
  let ratioSum = 0;
  let ratioN = 0;
  const errors: number[] = [];
  const stepErrors: number[] = [];
  const refused: string[] = [];
  // Per origin: its points and, per level, how many fell inside.
  const byOrigin = new Map<number, { n: number; inside: number[] }>();
  for (const t of run.tasks) {
    const f = run.forecasts.get(`${t.origin}#${t.key}`)!;
    const scale = maseScale(t.train, s.period);
    const sn = seasonalNaive(t.train, s.period, t.truth.length);
    const peer = peers?.get(`${t.set}#${t.origin}#${t.key}`);
    const mase = (pred: number[]) =>
      t.truth.reduce((a, y, k) => a + Math.abs(y - pred[k]), 0) / t.truth.length / scale;
    sums.engine += mase(f.value);
    sums.seasonal_naive += mase(sn);
    for (const p of PEERS) sums[p] += peer ? mase(peer[p]) : NaN;
    for (const [p, why] of Object.entries(peer?.failed ?? {})) {
      refused.push(`${p}, origin ${t.origin}${t.key ? `, ${t.key}` : ''}: ${why}`);
    }
    n++;
    let win = byOrigin.get(t.origin);
    if (!win) byOrigin.set(t.origin, (win = { n: 0, inside: LEVELS.map(() => 0) }));
    win.n += t.truth.length;
    t.truth.forEach((y, k) => {
      points++;
      LEVELS.forEach((_, l) => {
        if (y >= f.lo[l][k] && y <= f.hi[l][k]) {
          inside[l]++;
          win.inside[l]++;
        }
      });
      const w80 = f.hi[1][k] - f.lo[1][k];
      const w90 = f.hi[2][k] - f.lo[2][k];
      if (w90 > 0) {
        ratioSum += w80 / w90;
        ratioN++;
      }
      errors.push(Math.abs(y - f.value[k]) / scale);
      if (w90 > 0) stepErrors.push((2 * Math.abs(y - f.value[k])) / w90);
    });
  }
  const mase = Object.fromEntries(METHODS.map((m) => [m, sums[m] / n])) as Record<Method, number>;
  const rank = 1 + METHODS.filter((m) => m !== 'engine' && mase[m] < mase.engine).length;
  errors.sort((a, b) => a - b);
  stepErrors.sort((a, b) => a - b);
  const coverage = inside.map((x) => x / points);
  const sortedOrigins = [...byOrigin.entries()].sort((a, b) => b[0] - a[0]);
  const origins = sortedOrigins.map(([, w]) => w);
  const claimedByOrigin = LEVELS.map((_, l) =>
    sortedOrigins.map(([o]) => run.claimed.get(o)?.[l] ?? NaN),
  );
  const m = origins.length;
  const coverageSe = coverage.map((c, l) => {
    let ss = 0;
    for (const w of origins) ss += (w.inside[l] - c * w.n) ** 2;
    return m > 1 ? (Math.sqrt(ss) / points) * Math.sqrt(m / (m - 1)) : NaN;
  });
  const coveredBy = (m: Forecasts) => {
    const inside = LEVELS.map(() => 0);
    let n = 0;
    for (const t of run.tasks) {
      const f = m.get(`${t.origin}#${t.key}`);
      if (!f) continue;
      t.truth.forEach((y, k) => {
        n++;
        LEVELS.forEach((_, l) => (inside[l] += y >= f.lo[l][k] && y <= f.hi[l][k] ? 1 : 0));
      });
    }
    return { coverage: inside.map((x) => x / n), n };
  };
  const later = coveredBy(run.later);
  return {
    set: s,
    mase,
    rank,
    laterCoverage: later.coverage,
    laterFixedCoverage: coveredBy(run.laterFixed).coverage,
    laterPoints: later.n,
    coverage,
    originCoverage: LEVELS.map((_, l) => origins.map((w) => w.inside[l] / w.n)),
    coverageSe,
    widthRatio: ratioSum / ratioN,
    errorRatio: quantile(errors, 0.8) / quantile(errors, 0.9),
    stepErrorRatio: quantile(stepErrors, 0.8) / quantile(stepErrors, 0.9),
    claimedByOrigin,
    claimed: claimedByOrigin.map((c) => c.reduce((a, b) => a + b, 0) / c.length),
    points,
    trainSeconds: run.trainSeconds,
    selected: run.selected,
    refused,
  };
}

/** A MindsDB identifier, quoted. */
const ident = (name: string) => '`' + name.replace(/`/g, '``') + '`';

/**
 * The last origin of a set through the path users take, over HTTP to a real instance: its
 * training rows uploaded as a CSV file (PUT /api/files/<name>), CREATE MODEL over SQL, the forecast
 * by `JOIN ... WHERE t.<order> > LATEST`. MASE on the same series and steps as the in-process
 * run's last origin, beside that run's.
 */
async function httpMase(
  h: Harness,
  s: SeriesSet,
  d: Dataset,
  run: ReturnType<typeof engineRuns>,
  id: number,
): Promise<{ http: number; inProcess: number }> {
  const { rows } = originsOf(s, d).at(-1)!;
  const name = `ts_bench_${id}`;
  const put = await fetch(`${h.url}/api/files/${name}`, {
    method: 'PUT',
    headers: { 'content-type': 'text/csv' },
    body: Papa.unparse({ fields: d.columns, data: rows }),
  });
  if (!put.ok) throw new Error(`${s.name}: upload ${put.status} ${await put.text()}`);
  const ok = async (query: string) => {
    const r = await h.sql(query);
    if (r.type === 'error') throw new Error(`${s.name}: ${r.error_message}\n in: ${query}`);
    return r as { column_names: string[]; data: CellValue[][] };
  };
  const groupBy = s.groupBy.length ? ` GROUP BY ${s.groupBy.map(ident).join(', ')}` : '';
  await ok(
    `CREATE MODEL mindsdb.${name} FROM files (SELECT * FROM ${name}) PREDICT ${ident(s.target)} ` +
      `ORDER BY ${ident(s.orderBy)}${groupBy} WINDOW ${s.window} HORIZON ${s.horizon}`,
  );
  const trained = await waitForModel(h, name);
  if (trained.status !== 'complete')
    throw new Error(`${s.name}: training over HTTP failed: ${trained.error}`);
  const out = await ok(
    `SELECT m.* FROM files.${name} AS t JOIN mindsdb.${name} AS m WHERE t.${ident(s.orderBy)} > LATEST`,
  );
  const oy = out.column_names.indexOf(s.target);
  const og = s.groupBy.map((g) => out.column_names.indexOf(g));
  // Rows come group by group, in time order (docs/forecasting.md).
  const byKey = new Map<string, number[]>();
  for (const r of out.data) {
    const key = og.map((j) => String(r[j])).join('|');
    if (!byKey.has(key)) byKey.set(key, []);
    byKey.get(key)!.push(Number(r[oy]));
  }
  let http = 0;
  let inProcess = 0;
  let n = 0;
  for (const t of run.tasks.filter((x) => x.origin === 1)) {
    const pred = byKey.get(t.key);
    if (!pred) throw new Error(`${s.name}: no forecast over HTTP for ${t.key}`);
    const scale = maseScale(t.train, s.period);
    const mase = (p: number[]) =>
      t.truth.reduce((a, y, k) => a + Math.abs(y - p[k]), 0) / t.truth.length / scale;
    http += mase(pred);
    inProcess += mase(run.forecasts.get(`1#${t.key}`)!.value);
    n++;
  }
  await ok(`DROP MODEL mindsdb.${name}`);
  return { http: http / n, inProcess: inProcess / n };
}

/**
 * A set's coverage at level index l against the nominal level: its standard error (over the
 * origins, never below the binomial one of its points at the nominal level: with 2-8 origins the
 * spread over them can come out near 0, as 1.00 at each) and how many of them it is off.
 */
function missOf(r: SetResult, l: number): { se: number; z: number } {
  const nominal = LEVELS[l];
  const binomial = Math.sqrt((nominal * (1 - nominal)) / r.points);
  const se = Number.isFinite(r.coverageSe[l]) ? Math.max(r.coverageSe[l], binomial) : binomial;
  return { se, z: (r.coverage[l] - nominal) / se };
}

/** Pearson's correlation of pairs (NaN under three). */
function correlation(pairs: readonly (readonly [number, number])[]): number {
  const n = pairs.length;
  if (n < 3) return NaN;
  const mx = pairs.reduce((a, p) => a + p[0], 0) / n;
  const my = pairs.reduce((a, p) => a + p[1], 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (const [x, y] of pairs) {
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) ** 2;
    syy += (y - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}

function line(name: string, value: number, unit: string, target: string, pass: boolean): BenchLine {
  return { name, value: Math.round(value * 10000) / 10000, unit, target, pass };
}

/**
 * 1,000 daily series of 200 steps: level, trend, a weekly season and AR(1) noise, all per group.
 * `later` more steps per group continue each series after all groups' first `steps` are drawn, so
 * the first `steps` rows of every group are the same whatever `later` is.
 */
export function speedData(groups = 1000, steps = 200, seed = 7, later = 0): Dataset {
  let s = seed >>> 0;
  const rand = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const gauss = () =>
    Math.sqrt(-2 * Math.log(Math.max(rand(), 1e-12))) * Math.cos(2 * Math.PI * rand());
  const rows: CellValue[][] = [];
  const day0 = Date.UTC(2023, 0, 1);
  const params: { level: number; trend: number; amp: number; week: number[]; e: number }[] = [];
  const step = (g: number, i: number) => {
    const p = params[g];
    p.e = 0.6 * p.e + 0.03 * p.level * gauss();
    const y = p.level + p.trend * i + p.amp * p.week[i % 7] + p.e;
    rows.push([`store_${g}`, new Date(day0 + i * 86_400_000).toISOString().slice(0, 10), y]);
  };
  for (let g = 0; g < groups; g++) {
    const level = 50 + 950 * rand();
    const trend = (rand() - 0.4) * 0.004 * level;
    const amp = rand() * 0.15 * level;
    const week = Array.from({ length: 7 }, () => gauss());
    params.push({ level, trend, amp, week, e: 0 });
    for (let i = 0; i < steps; i++) step(g, i);
  }
  for (let g = 0; g < groups; g++) for (let i = steps; i < steps + later; i++) step(g, i);
  return { columns: ['store', 'day', 'sales'], rows };
}

/** CPU milliseconds of this process (its threads included): the cost, whatever else runs. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function columnsOf(d: Dataset): Record<string, CellValue[]> {
  const cols: Record<string, CellValue[]> = {};
  d.columns.forEach((c, j) => (cols[c] = d.rows.map((r) => r[j])));
  return cols;
}

/** Median CPU and wall milliseconds of 3 runs of `run` after a warm-up, and its last result. */
function timed<T>(run: () => T): { cpu: number; wall: number; result: T } {
  let result = run();
  const cpu: number[] = [];
  const wall: number[] = [];
  for (let i = 0; i < 3; i++) {
    const w1 = performance.now();
    const c1 = cpuMs();
    result = run();
    cpu.push(cpuMs() - c1);
    wall.push(performance.now() - w1);
  }
  cpu.sort((a, b) => a - b);
  wall.sort((a, b) => a - b);
  return { cpu: cpu[1], wall: wall[1], result };
}

function speedLines(): BenchLine[] {
  // 12 more days per group than training sees: the forecast from the longer history recalibrates
  // its intervals on the outcomes after the training data (server/automl/timeseries/recalibrate.ts).
  const full = speedData(1000, 200, 7, 12);
  const d: Dataset = { columns: full.columns, rows: full.rows.slice(0, 200_000) };
  progress(`speed: training on ${d.rows.length} rows (1000 groups x 200 steps)`);
  const w0 = performance.now();
  const c0 = cpuMs();
  const artifact = trainForecaster(d, {
    target: 'sales',
    orderBy: 'day',
    groupBy: ['store'],
    window: 14,
    horizon: 12,
  });
  const trainCpu = cpuMs() - c0;
  const trainWall = performance.now() - w0;
  const f = loadPredictor(artifact);
  if (!('forecast' in f)) throw new Error('not a forecaster');
  const cd = columnsOf(d);
  const cf = columnsOf(full);
  const plain = timed(() => f.forecast(cd, d.rows.length).rows.length);
  const later = timed(() => f.forecast(cf, full.rows.length).rows.length);
  const ts0 = artifact.description.timeseries!;
  progress(
    `speed: selected ${ts0.selected} (${(ts0.leaderboard ?? [])
      .filter((r) => r.groups > 0)
      .map((r) => `${r.name} ${r.groups}`)
      .join(
        ', ',
      )}), MASE ${artifact.description.accuracies.mase}, ${plain.result} forecast rows; wall clock: train ${Math.round(trainWall)} ms, forecast ${Math.round(plain.wall)} ms, forecast 12 steps after training (recalibrated) ${Math.round(later.wall)} ms`,
  );
  return [
    line(
      'timeseries train 1000 groups x 200 steps (CPU)',
      trainCpu,
      'ms',
      '< 30000',
      trainCpu < 30_000,
    ),
    line(
      'timeseries forecast 1000 groups, horizon 12 (CPU, median of 3)',
      plain.cpu,
      'ms',
      '< 2000',
      plain.cpu < 2000,
    ),
    line(
      'timeseries forecast 1000 groups, 12 steps after training, recalibrated (CPU)',
      later.cpu,
      'ms',
      '< 2000',
      later.cpu < 2000,
    ),
  ];
}

/**
 * Every series-origin of the run as JSON lines (TIMESERIES_DETAIL=<file>): its training values,
 * truth, the engine's forecast and fitted model, the peers' forecasts, each method's MASE. Where a
 * set's figure comes from, series by series.
 */
function writeDetail(
  file: string,
  runs: { set: SeriesSet; run: ReturnType<typeof engineRuns> }[],
  peers: Map<string, PeerResult> | null,
): void {
  const lines: string[] = [];
  for (const { set, run } of runs) {
    for (const t of run.tasks) {
      const id = `${t.origin}#${t.key}`;
      const f = run.forecasts.get(id)!;
      const peer = peers?.get(`${t.set}#${id}`);
      const scale = maseScale(t.train, set.period);
      const mase = (pred: number[]) =>
        t.truth.reduce((a, y, k) => a + Math.abs(y - pred[k]), 0) / t.truth.length / scale;
      const forecasts: Record<string, number[]> = {
        engine: f.value,
        seasonal_naive: seasonalNaive(t.train, set.period, t.truth.length),
      };
      for (const p of PEERS) if (peer) forecasts[p] = peer[p];
      lines.push(
        JSON.stringify({
          set: set.name,
          origin: t.origin,
          key: t.key,
          period: set.period,
          model: run.models.get(id) ?? null,
          mase: Object.fromEntries(Object.entries(forecasts).map(([m, v]) => [m, mase(v)])),
          failed: peer?.failed ?? {},
          train: t.train,
          truth: t.truth,
          forecasts,
          // The engine's intervals at 50/80/90/95 % per step.
          lower: f.lo,
          upper: f.hi,
        }),
      );
    }
  }
  writeFileSync(file, lines.join('\n') + '\n');
  progress(`per series-origin detail written to ${file}`);
}

const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '  -  ');

/** The table of the set results, as docs/benchmarks.md shows it. */
function table(results: SetResult[]): string {
  const head = `| set | engine | seasonal-naive | ETS | SARIMAX | Theta | rank | coverage 50/80/90/95 % (validation's 80/90) | 80 / 90 % per origin; standard error | 80/90 width (errors' pooled / per step) | engine's candidates (groups x origins) | 80 / 90 % a HORIZON after training: recalibrated (fixed) |`;
  const sep = '|---|---|---|---|---|---|---|---|---|---|---|---|';
  const rows = results.map(
    (r) =>
      `| ${r.set.name} | ${f3(r.mase.engine)} | ${f3(r.mase.seasonal_naive)} | ${f3(r.mase.ets)} | ${f3(r.mase.sarimax)} | ${f3(r.mase.theta)} | ${r.rank} | ${r.coverage.map((c) => c.toFixed(2)).join(' / ')} (${r.claimed[1].toFixed(2)} / ${r.claimed[2].toFixed(2)}) | ${[1, 2].map((l) => `${r.originCoverage[l].map((c) => c.toFixed(2)).join(', ')} ±${f3(r.coverageSe[l])}`).join(' / ')} | ${r.widthRatio.toFixed(2)} (${r.errorRatio.toFixed(2)} / ${r.stepErrorRatio.toFixed(2)}) | ${r.selected} | ${r.laterPoints > 0 ? `${[1, 2].map((l) => r.laterCoverage[l].toFixed(2)).join(' / ')} (${[1, 2].map((l) => r.laterFixedCoverage[l].toFixed(2)).join(' / ')})` : '-'} |`,
  );
  return [head, sep, ...rows].join('\n');
}

export async function runTimeseriesBench(): Promise<BenchLine[]> {
  const out: BenchLine[] = [];
  const hasPeers = statsmodelsAvailable();
  // `holdout` picks the hold-out sets (no choosing rule was tuned on them) instead of the 13,
  // `fresh` the fresh ones (none run before session 16); further words narrow any.
  const { pool, words } = askedPool();
  const sets = pool.filter(
    (s) =>
      (hasPeers || s.source !== 'statsmodels') &&
      (words.length === 0 || words.some((w) => s.name.toLowerCase().includes(w.toLowerCase()))),
  );
  // A word that names no set is said (`airports` is "airport departures"); a run of the speed
  // figures alone names none on purpose.
  for (const w of words)
    if (!pool.some((s) => s.name.toLowerCase().includes(w.toLowerCase())))
      progress(
        `TIMESERIES_SETS: "${w}" names no set (sets: ${pool.map((s) => s.name).join('; ')})`,
      );
  progress(
    `machine: ${cpus().length} cores, load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(
        ' ',
      )}${hasPeers ? '' : '; python3-statsmodels not installed: no peers, no statsmodels sets'}`,
  );
  if (process.env.TIMESERIES_PEERS_ONLY === '1') {
    // Fills the peers' cache (e.g. in the background while the engine is being worked on).
    const tasks: Task[] = [];
    for (const s of sets) tasks.push(...tasksOf(s, await s.data()));
    peerForecasts(tasks, sets);
    return [];
  }
  const runs: { set: SeriesSet; run: ReturnType<typeof engineRuns> }[] = [];
  for (const s of sets) {
    const data = await s.data();
    progress(`${s.name}: ${originsOf(s, data).length} origins, training and forecasting`);
    const run = engineRuns(s, data);
    progress(
      `${s.name}: trained in ${run.trainSeconds.toFixed(1)} s; candidates used: ${run.selected}`,
    );
    runs.push({ set: s, run });
  }
  const peers = hasPeers
    ? peerForecasts(
        runs.flatMap((r) => r.run.tasks),
        sets,
      )
    : null;
  const results = runs.map(({ set, run }) => score(set, run, peers));
  if (process.env.TIMESERIES_DETAIL) writeDetail(process.env.TIMESERIES_DETAIL, runs, peers);
  // The same forecasts through SQL over HTTP (the last origin of each set): the figure a user gets.
  const viaHttp = new Map<string, { http: number; inProcess: number }>();
  if (process.env.TIMESERIES_HTTP !== '0') {
    const h = await startHarness();
    try {
      for (const [i, { set, run }] of runs.entries()) {
        progress(`${set.name}: the last origin through SQL over HTTP`);
        viaHttp.set(set.name, await httpMase(h, set, await set.data(), run, i));
      }
    } finally {
      await h.close();
    }
  }
  for (const r of results) {
    const name = `timeseries ${r.set.name}`;
    const bestPeer = Math.min(r.mase.ets, r.mase.sarimax, r.mase.theta);
    out.push(
      line(
        `${name} MASE (rank ${r.rank} of 5)`,
        r.mase.engine,
        'MASE',
        peers ? `<= ${f3(bestPeer)}` : '-',
        peers ? r.mase.engine <= bestPeer + 1e-9 : true,
      ),
      line(
        `${name} MASE / seasonal-naive`,
        r.mase.engine / r.mase.seasonal_naive,
        'ratio',
        '< 1.0',
        r.mase.engine < r.mase.seasonal_naive,
      ),
    );
    const web = viaHttp.get(r.set.name);
    if (web) {
      out.push(
        line(
          `${name} MASE at the last origin, SQL over HTTP (in-process ${web.inProcess.toFixed(4)})`,
          web.http,
          'MASE',
          'same',
          Math.abs(web.http - web.inProcess) <= 1e-6 * Math.max(1, web.inProcess),
        ),
      );
    }
    [1, 2].forEach((l) => {
      const nominal = LEVELS[l];
      const { se, z } = missOf(r, l);
      const verdict =
        Math.abs(r.coverage[l] - nominal) <= 0.03
          ? 'within 3 points'
          : Math.abs(z) <= 2
            ? `a miss within sampling error, ${z.toFixed(1)} standard errors`
            : `a real miss, ${z.toFixed(1)} standard errors`;
      out.push(
        line(
          `${name} ${nominal * 100}% coverage (${r.points} points; per origin ${r.originCoverage[l].map((c) => c.toFixed(2)).join(', ')}; standard error ${f3(se)}: ${verdict})`,
          r.coverage[l],
          'frac',
          `${(nominal - 0.03).toFixed(2)}-${(nominal + 0.03).toFixed(2)}`,
          Math.abs(r.coverage[l] - nominal) <= 0.03,
        ),
      );
    });
    out.push(
      line(
        `${name} 80/90 width ratio (errors' ${r.errorRatio.toFixed(3)})`,
        r.widthRatio,
        'ratio',
        `${(r.errorRatio - 0.05).toFixed(2)}-${(r.errorRatio + 0.05).toFixed(2)}`,
        Math.abs(r.widthRatio - r.errorRatio) <= 0.05,
      ),
      line(
        `${name} 80/90 width ratio (errors' over their own 90% width ${r.stepErrorRatio.toFixed(3)})`,
        r.widthRatio,
        'ratio',
        `${(r.stepErrorRatio - 0.05).toFixed(2)}-${(r.stepErrorRatio + 0.05).toFixed(2)}`,
        Math.abs(r.widthRatio - r.stepErrorRatio) <= 0.05,
      ),
    );
  }
  if (results.length > 1) {
    // Over the sets: each set's coverage weighs alike; its standard error from the sets' (their
    // origins are independent of each other's), a resolution no single set of 2-8 origins has.
    [1, 2].forEach((l) => {
      const nominal = LEVELS[l];
      const mean = results.reduce((a, r) => a + r.coverage[l], 0) / results.length;
      const known = results.filter((r) => Number.isFinite(r.coverageSe[l]));
      const se = Math.sqrt(known.reduce((a, r) => a + r.coverageSe[l] ** 2, 0)) / known.length;
      out.push(
        line(
          `timeseries ${nominal * 100}% coverage, mean over the ${results.length} sets (standard error ${f3(se)})`,
          mean,
          'frac',
          `${(nominal - 0.03).toFixed(2)}-${(nominal + 0.03).toFixed(2)}`,
          Math.abs(mean - nominal) <= 0.03,
        ),
      );
    });
  }
  if (results.length > 1) {
    // Which sets miss beyond their sampling error: more than 3 points and 2 standard errors from
    // the nominal level at 80 or 90 % (a set of 2-8 origins moves 5-15 points by chance).
    const real = results.filter((r) =>
      [1, 2].some(
        (l) => Math.abs(r.coverage[l] - LEVELS[l]) > 0.03 && Math.abs(missOf(r, l).z) > 2,
      ),
    );
    const near = results.filter((r) =>
      [1, 2].every((l) => Math.abs(r.coverage[l] - LEVELS[l]) <= 0.03),
    ).length;
    out.push(
      line(
        `timeseries sets whose 80 or 90 % coverage misses beyond 3 points and 2 standard errors (within 3 points at both: ${near} of ${results.length})${real.length ? `: ${real.map((r) => r.set.name.replace(/ \(.*/, '')).join(', ')}` : ''}`,
        real.length,
        'sets',
        '0',
        real.length === 0,
      ),
    );
  }
  if (results.length > 1) {
    // DESCRIBE's validation coverage is a claim about the test's: per set-origin, how well it
    // follows the coverage the same training's bands then achieved (correlation over all
    // set-origins, and the mean |claimed - achieved| over the sets).
    [1, 2].forEach((l) => {
      const pairs = results.flatMap((r) =>
        r.originCoverage[l]
          .map((c, i) => [r.claimedByOrigin[l][i], c] as const)
          .filter(([a]) => Number.isFinite(a)),
      );
      const gap = results.reduce((a, r) => a + Math.abs(r.claimed[l] - r.coverage[l]), 0);
      out.push(
        line(
          `timeseries ${LEVELS[l] * 100}% coverage: DESCRIBE's against the test's over ${pairs.length} set-origins, correlation (mean |difference| per set ${f3(gap / results.length)})`,
          correlation(pairs),
          'r',
          '> 0',
          correlation(pairs) > 0,
        ),
      );
    });
    // Intervals in use one HORIZON after training: the model trained one origin earlier,
    // recalibrated on the outcomes since (and fixed as trained), mean over the sets that have them.
    const used = results.filter((r) => r.laterPoints > 0);
    [1, 2].forEach((l) => {
      const mean = (f: (r: SetResult) => number) =>
        used.reduce((a, r) => a + f(r), 0) / used.length;
      out.push(
        line(
          `timeseries ${LEVELS[l] * 100}% coverage one HORIZON after training, recalibrated (fixed widths ${f3(mean((r) => r.laterFixedCoverage[l]))}), mean over ${used.length} sets`,
          mean((r) => r.laterCoverage[l]),
          'frac',
          `${(LEVELS[l] - 0.03).toFixed(2)}-${(LEVELS[l] + 0.03).toFixed(2)}`,
          Math.abs(mean((r) => r.laterCoverage[l]) - LEVELS[l]) <= 0.03,
        ),
      );
    });
    // The band's shape pooled over the sets: one set's reference (the 80th over the 90th
    // percentile of a few dozen errors) varies by 0.06-0.08 from chance alone.
    const gaps = results.map((r) => r.widthRatio - r.stepErrorRatio);
    const meanGap = gaps.reduce((a, b) => a + b, 0) / gaps.length;
    const sdGap = Math.sqrt(gaps.reduce((a, g) => a + (g - meanGap) ** 2, 0) / (gaps.length - 1));
    out.push(
      line(
        `timeseries 80/90 width ratio minus the errors' per step, mean over the ${results.length} sets (standard error ${f3(sdGap / Math.sqrt(gaps.length))}; within 0.05 on ${gaps.filter((g) => Math.abs(g) <= 0.05).length})`,
        meanGap,
        'ratio',
        '-0.05-0.05',
        Math.abs(meanGap) <= 0.05,
      ),
    );
  }
  process.stderr.write(
    `\nMASE per set (mean over series and origins; lower is better):\n\n${table(results)}\n\n`,
  );
  const refused = results.filter((r) => r.refused.length > 0);
  if (refused.length > 0) {
    // A peer fit whose forecast was not finite or ran away is refused as its user would refuse
    // it (bench/statsmodels_peer.py): the next model by AICc, or the last value, forecast instead.
    process.stderr.write(
      `Peer fits refused (non-finite or runaway forecasts; the peer's figure uses the next model by AICc, or the last value):\n${refused
        .map(
          (r) =>
            `- ${r.set.name}: ${r.refused.length}\n${r.refused.map((x) => `  - ${x}`).join('\n')}`,
        )
        .join('\n')}\n\n`,
    );
  }
  if (process.env.TIMESERIES_BENCH_SPEED !== '0') out.push(...speedLines());
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  void runTimeseriesBench().then((lines) => {
    for (const l of lines) {
      console.log(
        `${l.name.padEnd(96)} ${String(l.value).padStart(10)} ${l.unit.padEnd(6)} ${l.target.padEnd(11)} ${l.pass ? 'ok' : 'MISS'}`,
      );
    }
  });
}
