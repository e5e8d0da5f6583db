// Interval coverage as a property (issue 29): series whose forecast errors are known, generated
// as a tester would (seeds, lengths, group counts, levels and scales), each draw trained once by
// the engine and scored on the next HORIZON points drawn from the same process. Per case, pooled
// over the draws: coverage at 50/80/90/95 % per step, the 80/90 and 50/90 width ratios beside the
// errors' own (each test error over its band's 90 % half-width) and the true distribution's, the
// 90 % width's growth with the step beside the true h-step error sd's, and DESCRIBE's claimed
// coverage per level and step beside the achieved. As bench/timeseries-intervals.ts does for the
// bench's sets, `capture` trains every draw once and writes its calibration residuals
// (compositeResiduals) and test errors in their units; `replay` runs calibration.ts's bandsOf as
// it is now on them, so a rule that changes only how residuals become bands is judged in seconds.
//   npx tsx bench/timeseries-coverage.ts capture DIR draws ['random walk|AR(1) 0.9, 50']
//   npx tsx bench/timeseries-coverage.ts replay DIR ['random walk']   (or `table`: one line per case)
// (INTERVALS_RESIDUALS=fold-out or hybrid replays each fold's residuals from the candidate
// chosen without that fold instead: foldOutResiduals, a diagnostic.)

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CellValue, isForecaster, loadPredictor } from '../server/automl/index';
import { tableFromDataset } from '../server/automl/data/table';
import { DEFAULT_SETTINGS } from '../server/automl/options';
import { Rng } from '../server/automl/prng';
import {
  type StepResiduals,
  bandsOf,
  compositeResiduals,
} from '../server/automl/timeseries/calibration';
import { checkOptions, forcedCandidate, tsSettings } from '../server/automl/timeseries/options';
import { selectCandidates } from '../server/automl/timeseries/selection';
import type { Selection } from '../server/automl/timeseries/selection';
import {
  type Validated,
  finishTraining,
  validateCandidates,
} from '../server/automl/timeseries/train';

const LEVELS = [0.5, 0.8, 0.9, 0.95];

function gauss(rng: Rng): number {
  let u = 0;
  while (u === 0) u = rng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
}
/** Student-t with `nu` degrees of freedom, scaled to unit variance (nu > 2). */
function studentT(rng: Rng, nu: number): number {
  let chi = 0;
  for (let i = 0; i < nu; i++) chi += gauss(rng) ** 2;
  return gauss(rng) / Math.sqrt(chi / nu) / Math.sqrt(nu / (nu - 2));
}

/**
 * A process: `n` values of one series (unit innovation scale; the caller adds a level and
 * scale), the true h-step forecast error sd (in innovation units) and its 80/90 and 50/90
 * quantile ratios of |error| at step h (the optimal forecast's).
 */
interface Process {
  draw(rng: Rng, n: number, cut: number): number[];
  sd(h: number): number;
  /** |error| quantile ratios 80/90 and 50/90 at step h (Gaussian unless given). */
  ratios?(h: number): [number, number];
  seasonal?: boolean;
}
const GAUSS_RATIOS: [number, number] = [1.2816 / 1.6449, 0.6745 / 1.6449];
// Student-t(3): |t| quantiles 0.75 / 0.9 / 0.95 are 0.7649 / 1.6377 / 2.3534.
const T3_RATIOS: [number, number] = [1.6377 / 2.3534, 0.7649 / 2.3534];

const ar = (phi: number): Process => ({
  draw: (rng, n) => {
    let x = gauss(rng) / Math.sqrt(1 - phi * phi);
    return Array.from({ length: n }, () => (x = phi * x + gauss(rng)));
  },
  sd: (h) => Math.sqrt((1 - phi ** (2 * h)) / (1 - phi * phi)),
});

const PROCESSES: Record<string, Process> = {
  'random walk': {
    draw: (rng, n) => {
      let x = 0;
      return Array.from({ length: n }, () => (x += gauss(rng)));
    },
    sd: (h) => Math.sqrt(h),
  },
  'AR(1) 0.5': ar(0.5),
  'AR(1) 0.9': ar(0.9),
  'season + noise': {
    draw: (rng, n) => {
      const amp = 2 + 4 * rng.next();
      const phase = 2 * Math.PI * rng.next();
      return Array.from(
        { length: n },
        (_, i) => amp * Math.sin((2 * Math.PI * i) / 12 + phase) + gauss(rng),
      );
    },
    sd: () => 1,
    seasonal: true,
  },
  'line + season': {
    // A line and a monthly season plus noise (1 sd): short series lose ETS and ARIMA on the
    // earlier folds (too few rows there for the seasonal form the main split chose).
    draw: (rng, n) => {
      const slope = 0.5 + rng.next();
      const amp = 3 + 3 * rng.next();
      const phase = 2 * Math.PI * rng.next();
      return Array.from(
        { length: n },
        (_, i) => slope * i + amp * Math.sin((2 * Math.PI * i) / 12 + phase) + gauss(rng),
      );
    },
    sd: () => 1,
    seasonal: true,
  },
  'line + noise': {
    draw: (rng, n) => {
      const slope = (rng.next() - 0.5) * 0.4;
      return Array.from({ length: n }, (_, i) => slope * i + gauss(rng));
    },
    sd: () => 1,
  },
  't(3) noise': {
    draw: (rng, n) => Array.from({ length: n }, () => studentT(rng, 3)),
    sd: () => 1,
    ratios: () => T3_RATIOS,
  },
  'log-normal noise': {
    // A level times exp(0.25 z), z standard normal, in units of the level's 0.25: errors about the
    // median skewed (the symmetric band's |error| quantiles computed by simulation below).
    draw: (rng, n) => Array.from({ length: n }, () => 4 * Math.exp(0.25 * gauss(rng))),
    sd: () => 1,
    ratios: () => LOGNORMAL_RATIOS,
  },
  // Daily, a weekly season (session 18): shaped like the airports' 50 daily series (HORIZON 14).
  'weekly season + t(3)': {
    draw: (rng, n) => {
      const week = weekOf(rng);
      return Array.from({ length: n }, (_, i) => week[i % 7] + studentT(rng, 3));
    },
    sd: () => 1,
    ratios: () => T3_RATIOS,
    seasonal: true,
  },
  'weekly season, mixed groups': {
    // Half the groups Gaussian, half Student-t(3); each group's noise sd growing 1 -> 1-3 times
    // over its rows (heteroscedastic); the truth's ratios are the Gaussian ones (a mixture's
    // are the errors' own, which the report prints beside them).
    draw: (rng, n, cut) => {
      const week = weekOf(rng);
      const heavy = rng.next() < 0.5;
      const grow = 2 * rng.next();
      return Array.from(
        { length: n },
        (_, i) =>
          week[i % 7] +
          (1 + (grow * Math.min(i, cut)) / cut) * (heavy ? studentT(rng, 3) : gauss(rng)),
      );
    },
    sd: () => 1,
    seasonal: true,
  },
  'weekly season + holidays': {
    // Gaussian noise, and on four calendar days of the training (the same rows in every group,
    // as a holiday is) the value falls by 4-8 sds; none in the HORIZON after it.
    draw: (rng, n, cut) => {
      const week = weekOf(rng);
      const days = [0.35, 0.6, 0.85, 0.93].map((f) => Math.floor(f * cut));
      return Array.from(
        { length: n },
        (_, i) => week[i % 7] + gauss(rng) - (days.includes(i) ? 4 + 4 * rng.next() : 0),
      );
    },
    sd: () => 1,
    seasonal: true,
  },
  // Shocks shared by every group at the same dates (session 19): transient ones (a holiday, a
  // strike: 3-6 sds on four dates of the training, two of them in its last fifth, none after) and
  // a persistent one (a recession: the noise's sd triples from 88 % of the training on, into the
  // test). The rows are the same in every group; each group's size of a shock its own.
  'shared shocks': {
    draw: (rng, n, cut) => {
      const days = [0.4, 0.65, 0.85, 0.93].map((f) => Math.floor(f * cut));
      return Array.from({ length: n }, (_, i) => {
        const j = days.indexOf(i);
        return gauss(rng) + (j < 0 ? 0 : (j % 2 ? -1 : 1) * (3 + 3 * rng.next()));
      });
    },
    sd: () => 1,
  },
  'shared volatility rise': {
    draw: (rng, n, cut) =>
      Array.from({ length: n }, (_, i) => (i >= Math.floor(0.88 * cut) ? 3 : 1) * gauss(rng)),
    sd: () => 3,
  },
  'level shift': {
    // White noise whose level jumps by 3-6 sds at a random point of the training's second half.
    draw: (rng, n, cut) => {
      const at = Math.floor(cut * (0.5 + 0.4 * rng.next()));
      const jump = (3 + 3 * rng.next()) * (rng.next() < 0.5 ? -1 : 1);
      return Array.from({ length: n }, (_, i) => (i >= at ? jump : 0) + gauss(rng));
    },
    sd: () => 1,
  },
};

/** A weekly profile: weekdays 0-2 sds apart, the weekend 3-6 sds below them. */
function weekOf(rng: Rng): number[] {
  const base = Array.from({ length: 5 }, () => 2 * rng.next());
  const weekend = 3 + 3 * rng.next();
  return [...base, base[4] - weekend, base[4] - weekend + rng.next()];
}

/** |error| quantile ratios of 4 exp(0.25 z) about its median 4, by simulation (seeded). */
const LOGNORMAL_RATIOS: [number, number] = (() => {
  const rng = new Rng(7);
  const e = Array.from({ length: 200000 }, () => Math.abs(4 * Math.exp(0.25 * gauss(rng)) - 4));
  e.sort((a, b) => a - b);
  const q = (p: number) => e[Math.floor(p * (e.length - 1))];
  return [q(0.8) / q(0.9), q(0.5) / q(0.9)];
})();

const pad = (x: number) => String(x).padStart(2, '0');
const monthStart = (i: number) => `${2000 + Math.floor(i / 12)}-${pad((i % 12) + 1)}-01`;
const dayStart = (i: number) => new Date(Date.UTC(2001, 0, 1 + i)).toISOString().slice(0, 10);

export interface Case {
  name: string;
  process: string;
  groups: number;
  rows: number;
  horizon: number;
  window: number;
  /** Daily rows (a weekly season) instead of monthly ones. */
  daily?: boolean;
  /** USING clauses (e.g. a forced candidate: `{ model: 'ets' }`). */
  using?: Record<string, unknown>;
}

/** The cases: every process at 1 and 10 groups, and a few shapes more (50 groups, 60-500 rows). */
export const CASES: Case[] = [
  ...Object.keys(PROCESSES)
    .filter((p) => !p.startsWith('weekly') && !p.startsWith('shared'))
    .flatMap((p) => [
      { name: `${p}, 1 x 120, H 6`, process: p, groups: 1, rows: 120, horizon: 6, window: 12 },
      { name: `${p}, 10 x 200, H 12`, process: p, groups: 10, rows: 200, horizon: 12, window: 24 },
    ]),
  {
    name: 'random walk, 1 x 60, H 1',
    process: 'random walk',
    groups: 1,
    rows: 60,
    horizon: 1,
    window: 12,
  },
  {
    name: 'random walk, 1 x 500, H 24',
    process: 'random walk',
    groups: 1,
    rows: 500,
    horizon: 24,
    window: 24,
  },
  {
    name: 'AR(1) 0.9, 50 x 100, H 8',
    process: 'AR(1) 0.9',
    groups: 50,
    rows: 100,
    horizon: 8,
    window: 12,
  },
  {
    name: 'season + noise, 50 x 80, H 12',
    process: 'season + noise',
    groups: 50,
    rows: 80,
    horizon: 12,
    window: 12,
  },
  // Shaped like the airports (session 18): 50 daily series of half a year, WINDOW 28.
  ...['weekly season + t(3)', 'weekly season, mixed groups', 'weekly season + holidays'].flatMap(
    (p) =>
      [14, 28].map((h) => ({
        name: `${p}, 50 x 180 daily, H ${h}`,
        process: p,
        groups: 50,
        rows: 180,
        horizon: h,
        window: 28,
        daily: true,
      })),
  ),
  // Shared shocks (session 19): 20 monthly series, transient or persistent.
  ...['shared shocks', 'shared volatility rise'].map((p) => ({
    name: `${p}, 20 x 120, H 6`,
    process: p,
    groups: 20,
    rows: 120,
    horizon: 6,
    window: 12,
  })),
  // Short series and long seasons (session 18): local models that cannot be fitted before an
  // earlier fold's cut, where seasonal-naive stands in for them.
  {
    name: 'line + season, 1 x 30, H 6',
    process: 'line + season',
    groups: 1,
    rows: 30,
    horizon: 6,
    window: 6,
  },
  {
    name: 'line + season, 5 x 40, H 6',
    process: 'line + season',
    groups: 5,
    rows: 40,
    horizon: 6,
    window: 6,
  },
  // The same with the local models forced (USING model = ...): their stand-ins in the bands.
  ...(['ets', 'arima', 'theta'] as const).map((m) => ({
    name: `line + season, 3 x 30, H 6, ${m} forced`,
    process: 'line + season',
    groups: 3,
    rows: 30,
    horizon: 6,
    window: 6,
    using: { model: m },
  })),
  {
    name: 'season + noise, 3 x 36, H 12',
    process: 'season + noise',
    groups: 3,
    rows: 36,
    horizon: 12,
    window: 12,
  },
];

/** One draw: the training rows and each group's next `horizon` values, levels and scales per group. */
export function drawCase(c: Case, seed: number) {
  const rng = new Rng(seed);
  const proc = PROCESSES[c.process];
  const rows: CellValue[][] = [];
  const future: number[][] = [];
  const scales: number[] = [];
  for (let g = 0; g < c.groups; g++) {
    // A tester's series: a level anywhere from 0 to 1,000 and a scale from 0.1 to 100.
    const level = 1000 * rng.next();
    const scale = 10 ** (-1 + 3 * rng.next());
    const y = proc.draw(rng, c.rows + c.horizon, c.rows).map((v) => level + scale * v);
    const at = c.daily ? dayStart : monthStart;
    for (let i = 0; i < c.rows; i++) rows.push([at(i), `g${g}`, y[i]]);
    future.push(y.slice(c.rows));
    scales.push(scale);
  }
  return { data: { columns: ['month', 'grp', 'y'], rows }, future, scales };
}

/** One draw's training: its calibration residuals, test errors in their units and scales. */
export interface Drawn {
  nSeries: number;
  res: StepResiduals;
  /** Each fold's residuals from the candidate chosen without it (foldOutResiduals). */
  resFoldOut: StepResiduals;
  /** Per test point: its series, step (0-based) and |error| / origin scale. */
  test: { g: number; k: number; r: number }[];
  /** Per series: the forecast origin's scale over the series' true innovation scale. */
  originScale: number[];
  selected: string;
}

/** Trains each draw of case `c` as `trainForecaster` does and captures its residuals and test. */
export function captureCase(c: Case, draws: number, seed0 = 1000): Drawn[] {
  const H = c.horizon;
  const out: Drawn[] = [];
  for (let d = 0; d < draws; d++) {
    const { data, future, scales } = drawCase(c, seed0 + d);
    const candidate = forcedCandidate(c.using);
    const cols = {
      ...checkOptions({
        target: 'y',
        orderBy: 'month',
        groupBy: ['grp'],
        window: c.window,
        horizon: H,
      }),
      ...(candidate ? { candidate } : {}),
    };
    const v = validateCandidates(
      tableFromDataset(data),
      cols,
      tsSettings(c.using, DEFAULT_SETTINGS, undefined),
    );
    const sel = selectCandidates(
      v.scored,
      v.folds,
      v.set.series.length,
      v.validation.validated,
      v.forced,
      v.walk,
    );
    const a = finishTraining(v, sel);
    // After finishTraining: a GBM chosen on the main split alone has its earlier folds' runs.
    const res = compositeResiduals(v.scored, sel, v.folds, H, v.set.series);
    const resFoldOut = foldOutResiduals(v, sel);
    const columns: Record<string, CellValue[]> = {};
    data.columns.forEach((name, j) => (columns[name] = data.rows.map((r) => r[j])));
    const f = loadPredictor(a);
    if (!isForecaster(f)) throw new Error('not a forecaster');
    const fc = f.forecast(columns, data.rows.length);
    const widthFactor = a.model.perSeries?.widthFactor ?? [];
    const at90 = a.calibration.levels!.find((l) => l.level === 0.9)!.halfWidths;
    const again = bandsOf(res, v.set.series.length, 0.9).halfWidths;
    if (again.some((w, k) => Math.abs(w - at90[k]) > 1e-9 * Math.max(1, w))) {
      throw new Error(`${c.name} draw ${d}: the replayed widths are not the trained ones`);
    }
    const keys = v.set.series.map((x) => x.key);
    const test: Drawn['test'] = [];
    const originScale: number[] = [];
    fc.rows.forEach((row, i) => {
      const g = keys.indexOf(String(row[1]));
      const k = i % H;
      const value = row[2] as number;
      // The 90 % half-width is the origin's scale x the series' width factor x the trained width
      // at the step (a forecast right after training is not recalibrated).
      const hw = (row[4] as number) - value;
      const unit = at90[k] * (widthFactor[g] ?? 1);
      const gi = Number(String(row[1]).slice(1));
      if (k === 0) originScale[g] = hw / unit / scales[gi];
      const err = Math.abs(future[gi][k] - value);
      test.push({ g, k, r: hw > 0 ? (err / hw) * unit : err > 0 ? 1e300 : 0 });
    });
    out.push({
      nSeries: keys.length,
      res,
      resFoldOut,
      test,
      originScale,
      selected: v.scored[sel.setChoice].name,
    });
  }
  return out;
}

export interface CaseResult {
  name: string;
  draws: number;
  /** Per level: coverage pooled over draws, per step, and the standard error over the draws. */
  coverage: number[];
  steps: number[][];
  se: number[];
  /** DESCRIBE's claimed coverage per level (mean over the draws) and per step. */
  claimed: number[];
  claimedSteps: number[][];
  /** The bands' 80/90 and 50/90 width ratios (mean), the errors' own, and the true ones. */
  ratio8090: { bands: number; errors: number; truth: number };
  ratio5090: { bands: number; errors: number; truth: number };
  /** Per step: the 90 % width over step 1's (mean over draws and groups) and the truth's. */
  growth: { bands: number[]; truth: number[] };
  /** The 90 % half-width over the true h-step error sd (in the series' units), mean per step. */
  widthOverSd: number[];
  picks: Record<string, number>;
  /** Stand-in residuals left out and kept (calibration.ts ownResiduals), and all residuals. */
  standIns: { left: number; kept: number; total: number; draws: number };
}

const quantile = (xs: number[], p: number) => {
  const s = Float64Array.from(xs).sort();
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
};

/** The bands calibration.ts makes of each draw's residuals, counted on its test errors. */
/**
 * A diagnostic (docs/forecasting.md, "Session 17 (intervals)"; not how training calibrates):
 * each fold's residuals from the candidate the selection chooses on the other folds alone, so
 * that the residuals are of the whole procedure, choosing included, on windows the choice did not
 * see (cross-validation with the choice inside each fold: Varma & Simon 2006). Where the
 * fold-out choice has no run on the fold (a GBM scored on the main split alone), the fold's own.
 */
export function foldOutResiduals(v: Validated, sel: Selection): StepResiduals {
  const { scored, folds, set, validation, forced } = v;
  const H = folds[0].packed.H;
  const out: StepResiduals = { r: [], age: [], main: [], series: [], fold: [] };
  const keys = ['r', 'age', 'main', 'series', 'fold'] as const;
  for (const key of keys) for (let k = 0; k < H; k++) (out[key] as unknown[][]).push([]);
  for (const fold of folds) {
    const others = folds.filter((f) => f !== fold);
    const choice = Int32Array.from(sel.choice);
    if (others.length > 0) {
      const without = selectCandidates(
        scored,
        others,
        set.series.length,
        validation.validated,
        forced,
        v.walk,
      );
      without.choice.forEach((c, g) => {
        if ((scored[c].calibrationRuns ?? scored[c].runs)[fold.index]) choice[g] = c;
      });
    }
    const part = compositeResiduals(scored, { ...sel, choice }, [fold], H);
    for (const key of keys) {
      for (let k = 0; k < H; k++) (out[key][k] as unknown[]).push(...part[key][k]);
    }
  }
  return out;
}

/**
 * The residuals a replay calibrates on (INTERVALS_RESIDUALS): as trained (`res`), `fold-out`
 * (foldOutResiduals) or `hybrid` (the main split's as trained, the earlier folds' fold-out).
 */
export function replayedResiduals(all: StepResiduals, foldOut?: StepResiduals): StepResiduals {
  // INTERVALS_STANDINS=keep: the stand-in residuals kept (before session 18; ownResiduals).
  // INTERVALS_TIMES=drop: without the residuals' times, no design effect of shared misses
  // (before session 19; calibration.ts sharedMisses).
  let res = process.env.INTERVALS_STANDINS === 'keep' ? { ...all, stood: undefined } : all;
  if (process.env.INTERVALS_TIMES === 'drop') res = { ...res, target: undefined };
  const mode = process.env.INTERVALS_RESIDUALS;
  if (!foldOut || (mode !== 'fold-out' && mode !== 'hybrid')) return res;
  if (mode === 'fold-out') return foldOut;
  const out: StepResiduals = { r: [], age: [], main: [], series: [], fold: [] };
  res.r.forEach((_, k) => {
    const at = (x: StepResiduals, keep: (f: number) => boolean) =>
      x.fold[k].flatMap((f, i) => (keep(f) ? [i] : []));
    const a = at(res, (f) => f === 0);
    const b = at(foldOut, (f) => f !== 0);
    for (const key of ['r', 'age', 'main', 'series', 'fold'] as const) {
      (out[key] as unknown[][]).push([
        ...a.map((i) => res[key][k][i]),
        ...b.map((i) => foldOut[key][k][i]),
      ]);
    }
  });
  return out;
}

export function replayCase(c: Case, drawn: Drawn[], bands = bandsOf): CaseResult {
  const proc = PROCESSES[c.process];
  const H = c.horizon;
  const draws = drawn.length;
  const inside = LEVELS.map(() => new Array<number>(H).fill(0));
  const perDraw = LEVELS.map(() => [] as number[]);
  const claimed = LEVELS.map(() => 0);
  const claimedSteps = LEVELS.map(() => new Array<number>(H).fill(0));
  const u: number[] = [];
  let r80 = 0;
  let r50 = 0;
  const growth = new Array<number>(H).fill(0);
  const widthOverSd = new Array<number>(H).fill(0);
  let points = 0;
  const picks: Record<string, number> = {};
  const standIns = { left: 0, kept: 0, total: 0, draws: 0 };
  for (const x of drawn) {
    picks[x.selected] = (picks[x.selected] ?? 0) + 1;
    const b = bands(replayedResiduals(x.res, x.resFoldOut), x.nSeries, 0.9);
    standIns.left += b.standIns.left;
    standIns.kept += b.standIns.kept;
    standIns.total += x.res.r.reduce((a, r) => a + r.length, 0);
    if (b.standIns.left + b.standIns.kept > 0) standIns.draws++;
    const hw = LEVELS.map((l) => b.levels.find((z) => z.level === l)!.halfWidths);
    LEVELS.forEach((l, li) => {
      const cv = b.coverage.find((z) => z.level === l)!;
      claimed[li] += cv.coverage / draws;
      cv.steps.forEach((s, k) => (claimedSteps[li][k] += (s ?? NaN) / draws));
    });
    const drawInside = LEVELS.map(() => 0);
    for (const t of x.test) {
      const f = b.widthFactor[t.g];
      LEVELS.forEach((_, li) => {
        if (t.r <= hw[li][t.k] * f) {
          inside[li][t.k]++;
          drawInside[li]++;
        }
      });
      u.push(t.r / (hw[2][t.k] * f));
      r80 += hw[1][t.k] / hw[2][t.k];
      r50 += hw[0][t.k] / hw[2][t.k];
      growth[t.k] += hw[2][t.k] / hw[2][0];
      widthOverSd[t.k] += (hw[2][t.k] * f * x.originScale[t.g]) / proc.sd(t.k + 1);
      points++;
    }
    LEVELS.forEach((_, li) => perDraw[li].push(drawInside[li] / x.test.length));
  }
  const perStep = points / H;
  const coverage = LEVELS.map((_, li) => inside[li].reduce((a, b) => a + b, 0) / points);
  const se = LEVELS.map((_, li) => {
    const m = coverage[li];
    const v = perDraw[li].reduce((a, y) => a + (y - m) ** 2, 0) / Math.max(1, draws - 1);
    return Math.sqrt(v / draws);
  });
  const q90 = quantile(u, 0.9);
  const truthRatios = proc.ratios?.(1) ?? GAUSS_RATIOS;
  return {
    name: c.name,
    draws,
    coverage,
    steps: inside.map((s) => s.map((y) => y / perStep)),
    se,
    claimed,
    claimedSteps,
    ratio8090: { bands: r80 / points, errors: quantile(u, 0.8) / q90, truth: truthRatios[0] },
    ratio5090: { bands: r50 / points, errors: quantile(u, 0.5) / q90, truth: truthRatios[1] },
    growth: {
      bands: growth.map((g) => g / perStep),
      truth: growth.map((_, k) => proc.sd(k + 1) / proc.sd(1)),
    },
    widthOverSd: widthOverSd.map((w) => w / perStep),
    picks,
    standIns,
  };
}

const f3 = (x: number) => x.toFixed(3);
const f2 = (x: number) => x.toFixed(2);

function report(c: Case, r: CaseResult) {
  const H = c.horizon;
  const thirds = [0, Math.floor(H / 3), Math.floor((2 * H) / 3), H - 1].filter(
    (k, i, a) => a.indexOf(k) === i,
  );
  const picks = Object.entries(r.picks)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  console.log(`${r.name} (${r.draws} draws; ${picks})`);
  const st = r.standIns;
  if (st.left + st.kept > 0) {
    console.log(
      `  stand-in residuals: ${st.left} left out, ${st.kept} kept, of ${st.total} (${st.draws} draws)`,
    );
  }
  console.log(
    `  coverage 50/80/90/95: ${r.coverage.map(f3).join(' / ')}  (se ${r.se.map(f3).join(' / ')})` +
      `  DESCRIBE ${r.claimed.map(f3).join(' / ')}`,
  );
  console.log(
    `  per step ${thirds.map((k) => k + 1).join(',')} at 80 / 90: ` +
      thirds.map((k) => `${f2(r.steps[1][k])}/${f2(r.steps[2][k])}`).join('  ') +
      `  DESCRIBE ` +
      thirds.map((k) => `${f2(r.claimedSteps[1][k])}/${f2(r.claimedSteps[2][k])}`).join('  '),
  );
  console.log(
    `  ratio 80/90 bands ${f3(r.ratio8090.bands)} errors ${f3(r.ratio8090.errors)} truth ${f3(r.ratio8090.truth)};` +
      ` 50/90 bands ${f3(r.ratio5090.bands)} errors ${f3(r.ratio5090.errors)} truth ${f3(r.ratio5090.truth)}`,
  );
  console.log(
    `  90 % width growth ${thirds.map((k) => f2(r.growth.bands[k])).join(' ')} (truth ${thirds
      .map((k) => f2(r.growth.truth[k]))
      .join(' ')}); width / true sd ${thirds.map((k) => f2(r.widthOverSd[k])).join(' ')}`,
  );
}

/**
 * One line per case (coverage at 50/80/90/95 %, DESCRIBE's, the 80/90 and 50/90 width ratios
 * beside the true ones, the last step's growth beside the truth's) and the means over the cases.
 */
function table(rows: CaseResult[]) {
  const mean = (f: (r: CaseResult) => number) => rows.reduce((a, r) => a + f(r), 0) / rows.length;
  for (const r of rows) {
    const H = r.growth.bands.length;
    console.log(
      `| ${r.name} | ${r.draws} | ${r.coverage.map(f3).join(' / ')} | ${r.claimed.map(f3).join(' / ')} | ` +
        `${f3(r.ratio8090.bands)} (${f3(r.ratio8090.truth)}) | ${f3(r.ratio5090.bands)} (${f3(r.ratio5090.truth)}) | ` +
        `${f2(r.growth.bands[H - 1])} (${f2(r.growth.truth[H - 1])}) |`,
    );
  }
  if (rows.length === 0) return;
  console.log(
    `mean over ${rows.length} cases: coverage ${LEVELS.map((_, l) => f3(mean((r) => r.coverage[l]))).join(' / ')}, ` +
      `mean |coverage - nominal| ${LEVELS.map((x, l) => f3(mean((r) => Math.abs(r.coverage[l] - x)))).join(' / ')}, ` +
      `DESCRIBE - achieved ${LEVELS.map((_, l) => f3(mean((r) => r.claimed[l] - r.coverage[l]))).join(' / ')}, ` +
      `80/90 ratio - truth ${f3(mean((r) => r.ratio8090.bands - r.ratio8090.truth))}, ` +
      `50/90 ${f3(mean((r) => r.ratio5090.bands - r.ratio5090.truth))}, ` +
      `last step's growth / truth's ${f3(mean((r) => r.growth.bands[r.growth.bands.length - 1] / r.growth.truth[r.growth.truth.length - 1]))}`,
  );
}

/** Cases whose name holds one of `pick`'s |-separated words (all without). */
const casesOf = (pick?: string) =>
  pick ? CASES.filter((c) => pick.split('|').some((p) => c.name.includes(p))) : CASES;

function main() {
  const [mode, ...args] = process.argv.slice(2);
  if (mode === 'capture') {
    // capture DIR draws [cases]: one JSON file per case.
    const [dir, draws, pick] = args;
    mkdirSync(dir, { recursive: true });
    for (const c of casesOf(pick)) {
      const t0 = process.cpuUsage();
      const drawn = captureCase(c, Number(draws));
      const cpu = process.cpuUsage(t0);
      writeFileSync(join(dir, `${fileOf(c)}.json`), JSON.stringify(drawn));
      console.log(`${c.name}: ${draws} draws, ${((cpu.user + cpu.system) / 1e6).toFixed(1)} CPU-s`);
      report(c, replayCase(c, drawn));
    }
  } else if (mode === 'replay' || mode === 'table') {
    const [dir, pick] = args;
    const rows: CaseResult[] = [];
    for (const c of casesOf(pick)) {
      const file = join(dir, `${fileOf(c)}.json`);
      if (!existsSync(file)) continue;
      const r = replayCase(c, JSON.parse(readFileSync(file, 'utf8')) as Drawn[]);
      if (mode === 'replay') report(c, r);
      rows.push(r);
    }
    table(rows);
  } else {
    console.error(
      'usage: timeseries-coverage.ts capture DIR draws [a|b] | replay DIR [a|b] | table DIR [a|b]',
    );
    process.exit(2);
  }
}

const fileOf = (c: Case) => c.name.replace(/[^A-Za-z0-9]+/g, '-');

if (process.argv[1]?.endsWith('timeseries-coverage.ts')) main();
