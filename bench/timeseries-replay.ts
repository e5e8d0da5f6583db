// Choosing rules replayed on bench/timeseries-choices.ts's JSON (issue 29): each rule picks, per set
// and origin, what forecasts every series from the recorded validation folds (every candidate's
// forecasts of them), and is scored on the test windows with the forecasts each candidate made
// when forced (the peers' from the cache beside them). No training: all 24 sets in seconds.
// `npx tsx bench/timeseries-replay.ts bench13.json holdout.json` prints, per rule, each set's MASE
// and rank among seasonal-naive and statsmodels' ETS, SARIMAX and Theta, and the geometric mean of
// MASE over the sets of each file and over all, as a share of the engine's recorded forecasts
// (which its own rule, replayed through selection.ts, reproduces).
// `TIMESERIES_REPLAY_DETAIL=1` adds each set's choices per origin.

import { readFileSync } from 'node:fs';
import { type Fold, type Scored, ensembleOf } from '../server/automl/timeseries/candidates';
import { advantage } from '../server/automl/timeseries/evidence';
import { selectCandidates, tiedCandidates } from '../server/automl/timeseries/selection';
import type { CandidateName } from '../server/automl/timeseries/types';

interface ValFold {
  index: number;
  g: number[];
  steps: number[];
  err: number[][];
  pred: ((number | null)[] | null)[];
  truth: (number | null)[];
}
interface Task {
  key: string;
  truth: number[];
  scale: number;
  seasonal_naive: number[];
  engine: { value: number[] };
  peers: { ets: number[]; sarimax: number[]; theta: number[] } | null;
  candidates: Record<string, number[] | undefined>;
}
interface Rec {
  set: string;
  period: number;
  horizon: number;
  origin: number;
  series: string[];
  validated: number[];
  candidates: { name: string; members: string[] | null; partial: boolean }[];
  val: ValFold[];
  choice: { set: string; series: string[] };
  tasks: Task[];
}

/** What forecasts one series: a candidate's forecast, or the mean / median of several. */
type Pick = { of: string[]; how: 'mean' | 'median' | 'weights'; w?: number[] };
type Rule = (r: Replay) => Pick[];

const BASELINES = new Set(['seasonal_naive', 'naive', 'drift']);
const LOCALS = ['theta', 'ets', 'arima'];

/** One set-origin's folds and candidates, ready for selection.ts and for rules of our own. */
class Replay {
  scored: Scored[];
  readonly folds: Fold[];
  names: string[];
  readonly H: number;
  private memo = new Map<string, number>();
  constructor(readonly rec: Rec) {
    const H = rec.horizon;
    this.H = H;
    this.names = rec.candidates.map((c) => c.name);
    const num = (x: number | null | undefined) => (x === null || x === undefined ? NaN : x);
    this.folds = rec.val.map((v) => ({
      index: v.index,
      cut: new Int32Array(0),
      origins: v.g.map((g): [number, number] => [g, 0]),
      packed: { n: v.g.length, H } as Fold['packed'],
      truth: (i: number, k: number) => num(v.truth[i * H + k - 1]),
      age: new Float64Array(v.g.length),
    }));
    this.scored = rec.candidates.map((c, ci) => ({
      name: c.name as CandidateName,
      candidate: { name: c.name } as Scored['candidate'],
      trainingTime: 0,
      ...(c.members ? { members: c.members as CandidateName[] } : {}),
      runs: rec.val.map((v) => {
        const p = v.pred[ci];
        if (!p) return null;
        return {
          pred: Float64Array.from(p, num),
          scale: new Float64Array(v.g.length).fill(1),
          factor: 1,
        };
      }),
    }));
  }
  /** A candidate's (or a combination's) validation predictions per fold (null: not run there). */
  valPred(p: Pick, f: number): Float64Array | null {
    const runs = p.of.map((n) => this.scored[this.names.indexOf(n)]?.runs[f] ?? null);
    if (runs.some((r) => !r)) return null;
    return combine(
      runs.map((r) => r!.pred),
      p,
    );
  }
  /** Pooled validation MASE of a pick over the folds all its members ran on. */
  valMase(p: Pick, folds?: number[]): number {
    const key = `${p.how}:${p.of.join(',')}:${p.w?.join(',') ?? ''}:${folds?.join(',') ?? ''}`;
    const hit = this.memo.get(key);
    if (hit !== undefined) return hit;
    const sn = this.names.indexOf('seasonal_naive');
    let e = 0;
    let b = 0;
    this.rec.val.forEach((v, f) => {
      if (folds && !folds.includes(f)) return;
      const pred = this.valPred(p, f);
      if (!pred) return;
      const snp = this.scored[sn].runs[f]!.pred;
      for (let i = 0; i < v.g.length; i++) {
        for (let k = 1; k <= v.steps[i]; k++) {
          const y = this.folds[f].truth(i, k);
          e += Math.abs(y - pred[i * this.H + k - 1]);
          b += Math.abs(y - snp[i * this.H + k - 1]);
        }
      }
    });
    const m = b > 0 ? e / b : Infinity;
    this.memo.set(key, m);
    return m;
  }
  /** Candidates every fold scored (no GBM scored on the last fold alone), by validation MASE. */
  ranked(filter: (n: string) => boolean): string[] {
    return this.names
      .filter((n, c) => filter(n) && this.scored[c].runs.every((r) => r))
      .filter((n) => Number.isFinite(this.valMase(one(n))))
      .sort((a, b) => this.valMase(one(a)) - this.valMase(one(b)));
  }
}

const one = (n: string): Pick => ({ of: [n], how: 'mean' });
/** The engine's own forecast as recorded (what the rules are compared with). */
const RECORDED = '(recorded)';

function combine(parts: ArrayLike<number>[], p: Pick): Float64Array {
  const n = parts[0].length;
  const out = new Float64Array(n);
  const buf = new Float64Array(parts.length);
  for (let j = 0; j < n; j++) {
    if (p.how === 'median') {
      for (let m = 0; m < parts.length; m++) buf[m] = parts[m][j];
      buf.sort();
      const h = parts.length >> 1;
      out[j] = parts.length % 2 ? buf[h] : (buf[h - 1] + buf[h]) / 2;
    } else {
      let s = 0;
      let ws = 0;
      for (let m = 0; m < parts.length; m++) {
        const w = p.w?.[m] ?? 1;
        s += w * parts[m][j];
        ws += w;
      }
      out[j] = s / ws;
    }
  }
  return out;
}

/** The engine's rule (selection.ts): the set's choice and each series' departures from it. */
function engineSelection(r: Replay) {
  return selectCandidates(r.scored, r.folds, r.rec.series.length, r.rec.validated, null);
}

/** A pick as forecast: the ensemble's and the combination's members, arima / ets swapped. */
function expand(p: Pick, r: Replay, swap: Record<string, string>): Pick {
  const of: string[] = [];
  const w: number[] = [];
  p.of.forEach((n, m) => {
    const c = r.scored.find((x) => x.name === n);
    const inner = n === 'combination' ? LOCALS : n === 'ensemble' ? c!.members! : null;
    if (!inner) {
      of.push(n);
      w.push(p.w?.[m] ?? 1);
      return;
    }
    const sub = expand({ of: inner, how: 'mean' }, r, swap);
    for (const s of sub.of) {
      of.push(s);
      w.push((p.w?.[m] ?? 1) / sub.of.length);
    }
  });
  if (p.how === 'median') return { of: of.map((n) => swap[n] ?? n), how: 'median' };
  return { of: of.map((n) => swap[n] ?? n), how: 'weights', w };
}

// ------------------------------------------------------------------------------------------
// The rules.

const RULES: Record<string, Rule> = {};

RULES['engine'] = (r) => {
  const sel = engineSelection(r);
  return [...sel.choice].map((c) => one(r.names[c]));
};
RULES['set choice only'] = (r) => {
  const sel = engineSelection(r);
  return r.rec.series.map(() => one(r.names[sel.setChoice]));
};
RULES['combination (theta, ets, arima) always'] = (r) => r.rec.series.map(() => one('combination'));
RULES['median of theta, ets, arima always'] = (r) =>
  r.rec.series.map(() => ({ of: LOCALS, how: 'median' }));
RULES['ets always'] = (r) => r.rec.series.map(() => one('ets'));
RULES['arima always'] = (r) => r.rec.series.map(() => one('arima'));

/** The engine without the ensemble of tied candidates (session 13's rule before it). */
RULES['engine without the ensemble'] = (r) => {
  const scored = r.scored.filter((s) => s.name !== 'ensemble');
  const sel = selectCandidates(scored, r.folds, r.rec.series.length, r.rec.validated, null);
  return [...sel.choice].map((c) => one(scored[c].name));
};
/** The ensemble whenever validation ties candidates (forecast pooling), whatever the pick's score. */
RULES['the ensemble whenever there is one'] = (r) => {
  const sel = engineSelection(r);
  if (r.names.includes('ensemble')) return r.rec.series.map(() => one('ensemble'));
  return [...sel.choice].map((c) => one(r.names[c]));
};

/** Mean (or median) of validation's best k (no floors, no combination; GBMs on every fold). */
for (const k of [2, 3, 4]) {
  for (const how of ['mean', 'median'] as const) {
    if (how === 'median' && k === 2) continue;
    RULES[`${how} of the best ${k}`] = (r) => {
      const best = r.ranked((n) => !BASELINES.has(n) && n !== 'combination' && n !== 'ensemble');
      const of = best.slice(0, k);
      return r.rec.series.map(() => ({ of, how }));
    };
  }
}
RULES['inverse-MASE weights, best 3'] = (r) => {
  const best = r.ranked((n) => !BASELINES.has(n) && n !== 'combination' && n !== 'ensemble');
  const of = best.slice(0, 3);
  const w = of.map((n) => 1 / r.valMase(one(n)));
  return r.rec.series.map(() => ({ of, how: 'weights', w }));
};
RULES['median of every model on all folds (no floors)'] = (r) => {
  const of = r.ranked((n) => !BASELINES.has(n) && n !== 'combination' && n !== 'ensemble');
  return r.rec.series.map(() => ({ of, how: 'median' }));
};
/** The engine's rule on the latest folds alone (fewer windows, more recent ones). */
for (const n of [1, 2]) {
  RULES[`engine on the latest ${n} fold${n > 1 ? 's' : ''} only`] = (r) => {
    const folds = r.folds.slice(0, n);
    const sel = selectCandidates(r.scored, folds, r.rec.series.length, r.rec.validated, null);
    return [...sel.choice].map((c) => one(r.names[c]));
  };
}
/** The best of theta, ets, arima or their mean / median, whichever validates best (one set pick). */
RULES['best of locals, their mean and median'] = (r) => {
  const picks: Pick[] = [...LOCALS.map(one), one('combination'), { of: LOCALS, how: 'median' }];
  const best = picks.reduce((a, b) => (r.valMase(b) < r.valMase(a) ? b : a));
  return r.rec.series.map(() => best);
};
/** The engine's choice, but the median of the three locals is a candidate beside the others. */
RULES['engine + median of locals as a candidate'] = (r) => {
  const sel = engineSelection(r);
  const med: Pick = { of: LOCALS, how: 'median' };
  const pickM = r.valMase(one(r.names[sel.setChoice]));
  if (r.valMase(med) * 1.01 < pickM && !r.scored[sel.setChoice].runs.some((x) => !x))
    return r.rec.series.map(() => med);
  return [...sel.choice].map((c) => one(r.names[c]));
};

/**
 * The engine's rule on `scored` (no ensemble among them), the ensemble of the candidates they tie
 * built again as validateCandidates builds it (with selection.ts's constants as they are now).
 */
function withEnsembleTiedAgain(r: Replay, scored: Scored[]): Pick[] {
  const n = r.rec.series.length;
  const tied = tiedCandidates(scored, r.folds, n, r.rec.validated);
  if (tied.length >= 2)
    scored.push(
      ensembleOf(
        tied.map((c) => scored[c]),
        r.folds,
      ),
    );
  const sel = selectCandidates(scored, r.folds, n, r.rec.validated, null);
  r.scored = scored;
  r.names = scored.map((s) => s.name);
  return [...sel.choice].map((c) => one(r.names[c]));
}

/**
 * The engine's rule with every series weighted alike: each series' errors over its own
 * seasonal-naive validation error (the mean of the series' relative MAE, where the engine pools
 * errors, so that the series with the largest seasonal-naive errors weigh most). The ensemble's
 * members are tied again under that weighting.
 */
RULES['engine, series weighted alike'] = (r) => {
  const sn = r.names.indexOf('seasonal_naive');
  const b = new Float64Array(r.rec.series.length);
  r.rec.val.forEach((v) => v.g.forEach((g, i) => (b[g] += v.err[sn][i])));
  const scored: Scored[] = r.scored
    .filter((s) => s.name !== 'ensemble')
    .map((s) => ({
      ...s,
      runs: s.runs.map(
        (run, f) =>
          run && { ...run, scale: Float64Array.from(r.rec.val[f].g, (g) => (b[g] > 0 ? b[g] : 1)) },
      ),
    }));
  return withEnsembleTiedAgain(r, scored);
};

RULES['engine, the ensemble tied again'] = (r) =>
  withEnsembleTiedAgain(
    r,
    r.scored.filter((s) => s.name !== 'ensemble'),
  );

/** Series' departures from the set's choice under other evidence thresholds. */
function departures(r: Replay, z: number, minWindows: number): Pick[] {
  const sel = engineSelection(r);
  const set = sel.setChoice;
  const C = r.scored.length;
  const H = r.H;
  // Per origin (all folds in a row): each candidate's mean error, and the origin's series.
  const per: Float64Array[] = Array.from({ length: C }, () => new Float64Array(0));
  const series: number[] = [];
  const windows = new Float64Array(r.rec.series.length);
  const rows: number[][] = Array.from({ length: C }, () => []);
  const folds = r.scored[set].runs.map((x, f) => (x ? f : -1)).filter((f) => f >= 0);
  r.rec.val.forEach((v, f) => {
    if (!folds.includes(f)) return;
    for (let i = 0; i < v.g.length; i++) {
      series.push(v.g[i]);
      windows[v.g[i]] += v.steps[i] / H;
      for (let c = 0; c < C; c++) rows[c].push(v.err[c][i] / v.steps[i]);
    }
  });
  for (let c = 0; c < C; c++) per[c] = Float64Array.from(rows[c], (x) => x ?? NaN);
  const originsOf = r.rec.series.map(() => [] as number[]);
  series.forEach((g, i) => originsOf[g].push(i));
  const own = (c: number, g: number) => {
    let s = 0;
    for (const i of originsOf[g]) s += per[c][i];
    return s;
  };
  return r.rec.series.map((_, g) => {
    // Consecutive origins share all but one of their H targets: H of them are one window.
    const w = windows[g] / H;
    let c = set;
    if (w >= minWindows && r.rec.validated.includes(g)) {
      let best = -1;
      for (let x = 0; x < C; x++) {
        if (x === set || r.names[x] === 'ensemble' || r.scored[x].runs.some((u) => !u)) continue;
        const a = advantage(per[x], per[set], originsOf[g], w);
        if (!(a > z)) continue;
        if (best < 0 || own(x, g) < own(best, g)) best = x;
      }
      if (best >= 0) c = best;
    }
    return one(r.names[c]);
  });
}
for (const [z, mw] of [
  [3, 3],
  [2, 3],
  [4, 3],
  [3, 6],
  [3, 10],
]) {
  RULES[`departures z ${z}, ${mw} windows`] = (r) => departures(r, z, mw);
}

/**
 * Shrinkage: each series scores every candidate by its own validation MASE shrunk towards the
 * set's pooled one, weighted by its windows against k pseudo-windows of the set's; the lowest wins.
 */
function shrunk(r: Replay, k: number): Pick[] {
  const sel = engineSelection(r);
  const C = r.scored.length;
  const ok = (c: number) => r.names[c] !== 'ensemble' && r.scored[c].runs.every((u) => u);
  const set = sel.setChoice;
  if (!ok(set)) return r.rec.series.map(() => one(r.names[set]));
  const err = Array.from({ length: C }, () => new Float64Array(r.rec.series.length));
  const base = new Float64Array(r.rec.series.length);
  const windows = new Float64Array(r.rec.series.length);
  const sn = r.names.indexOf('seasonal_naive');
  r.rec.val.forEach((v) => {
    for (let i = 0; i < v.g.length; i++) {
      windows[v.g[i]] += v.steps[i] / r.H;
      base[v.g[i]] += v.err[sn][i];
      for (let c = 0; c < C; c++) err[c][v.g[i]] += v.err[c][i];
    }
  });
  return r.rec.series.map((_, g) => {
    if (!r.rec.validated.includes(g) || !(base[g] > 0)) return one(r.names[set]);
    const w = windows[g] / r.H;
    const score = (c: number) => (w * (err[c][g] / base[g]) + k * sel.mase[c]) / (w + k);
    let best = set;
    for (let c = 0; c < C; c++) if (ok(c) && score(c) < score(best) * 0.99) best = c;
    return one(r.names[best]);
  });
}
for (const k of [3, 10, 30])
  RULES[`shrinkage towards the set's, k = ${k} windows`] = (r) => shrunk(r, k);

// ------------------------------------------------------------------------------------------
// Scoring.

const files = process.argv.slice(2);
if (files.length === 0) throw new Error('usage: tsx bench/timeseries-replay.ts a.json [b.json]');
const recs = files.map((f) => JSON.parse(readFileSync(f, 'utf8')) as Rec[]);
const swaps: Record<string, Record<string, string>> = {
  '': {},
  ' [arima searched on all rows]': { arima: 'arima_all' },
  ' [ets searched on all rows]': { ets: 'ets_all' },
  ' [both]': { arima: 'arima_all', ets: 'ets_all' },
};
const wantSwaps = (process.env.TIMESERIES_REPLAY_SWAPS ?? '').split(',').filter(Boolean);
const wantRules = (process.env.TIMESERIES_REPLAY_RULES ?? '').split(',').filter(Boolean);
const detail = process.env.TIMESERIES_REPLAY_DETAIL === '1';

interface SetScore {
  set: string;
  mase: number;
  peers: Record<string, number>;
  choices: string[];
}

function taskMase(t: Task, pred: ArrayLike<number>): number {
  let s = 0;
  for (let k = 0; k < t.truth.length; k++) s += Math.abs(t.truth[k] - pred[k]);
  return s / t.truth.length / t.scale;
}

function scoreRule(rule: Rule, swap: Record<string, string>, file: Rec[]): SetScore[] {
  const bySet = new Map<
    string,
    { sum: number; n: number; peers: Record<string, number>; choices: string[] }
  >();
  for (const rec of file) {
    const r = new Replay(rec);
    const picks = rule(r);
    let s = bySet.get(rec.set);
    if (!s) {
      s = { sum: 0, n: 0, peers: { seasonal_naive: 0, ets: 0, sarimax: 0, theta: 0 }, choices: [] };
      bySet.set(rec.set, s);
    }
    const tally = new Map<string, number>();
    for (const t of rec.tasks) {
      const g = rec.series.indexOf(t.key);
      if (g < 0) throw new Error(`${rec.set}: task ${t.key} is no series of the engine's`);
      const p = expand(picks[g], r, swap);
      const parts = p.of.map((n) =>
        n === RECORDED
          ? t.engine.value
          : (t.candidates[n] ?? t.candidates[n.replace(/_all$/, '')]!),
      );
      const pred = parts.length === 1 ? parts[0] : combine(parts, p);
      s.sum += taskMase(t, pred);
      s.n++;
      s.peers.seasonal_naive += taskMase(t, t.seasonal_naive);
      for (const q of ['ets', 'sarimax', 'theta'] as const)
        s.peers[q] += t.peers ? taskMase(t, t.peers[q]) : NaN;
      const label = picks[g].of.join('+') + (picks[g].how === 'mean' ? '' : ` (${picks[g].how})`);
      tally.set(label, (tally.get(label) ?? 0) + 1);
    }
    s.choices.push(`o${rec.origin}: ${[...tally].map(([k, v]) => `${k} ${v}`).join(', ')}`);
  }
  return [...bySet].map(([set, s]) => ({
    set,
    mase: s.sum / s.n,
    peers: Object.fromEntries(Object.entries(s.peers).map(([k, v]) => [k, v / s.n])),
    choices: s.choices,
  }));
}

const rank = (s: SetScore) => 1 + Object.values(s.peers).filter((p) => p < s.mase).length;
/** The geometric mean's standard error over the sets (of its log, times the mean: the delta method). */
const geoSe = (xs: number[]) => {
  const l = xs.map(Math.log);
  const m = l.reduce((a, x) => a + x, 0) / l.length;
  const v = l.reduce((a, x) => a + (x - m) ** 2, 0) / Math.max(1, l.length - 1);
  return Math.exp(m) * Math.sqrt(v / l.length);
};
const geo = (xs: number[]) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);

// The engine's own forecasts against the replay of its rule: how faithful the replay is.
for (const file of recs) {
  for (const rec of file) {
    const r = new Replay(rec);
    const sel = engineSelection(r);
    const mine = [...sel.choice].map((c) => r.names[c]);
    if (mine.join() !== rec.choice.series.join())
      console.log(
        `replay differs: ${rec.set} origin ${rec.origin}: ${rec.choice.series.join()} -> ${mine.join()}`,
      );
  }
}
// Rules are measured against the engine's recorded forecasts (its rule replayed equals them).
const base = recs.map((f) => scoreRule((r) => r.rec.series.map(() => one(RECORDED)), {}, f));
const engineOwn = recs.map((file) => {
  const m = new Map<string, { s: number; n: number }>();
  for (const rec of file)
    for (const t of rec.tasks) {
      const x = m.get(rec.set) ?? { s: 0, n: 0 };
      x.s += taskMase(t, t.engine.value);
      x.n++;
      m.set(rec.set, x);
    }
  return m;
});
console.log(
  '| set | engine (recorded) | engine (replayed) | seasonal-naive | ETS | SARIMAX | Theta | rank |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
base.forEach((sets, fi) => {
  for (const s of sets) {
    const own = engineOwn[fi].get(s.set)!;
    const p = s.peers;
    console.log(
      `| ${s.set} | ${(own.s / own.n).toFixed(4)} | ${s.mase.toFixed(4)} | ${p.seasonal_naive.toFixed(3)} | ${p.ets.toFixed(3)} | ${p.sarimax.toFixed(3)} | ${p.theta.toFixed(3)} | ${rank(s)} |`,
    );
  }
});
// Each candidate forced on every series at every origin (the rule "always c").
const forcedNames = [
  ...new Set(recs.flat().flatMap((r) => Object.keys(r.tasks[0]?.candidates ?? {}))),
];
console.log();
console.log(`| set | ${forcedNames.join(' | ')} |`);
console.log(`| --- | ${forcedNames.map(() => '---').join(' | ')} |`);
for (const file of recs) {
  const sets = [...new Set(file.map((r) => r.set))];
  for (const set of sets) {
    const cells = forcedNames.map((n) => {
      let sum = 0;
      let k = 0;
      for (const rec of file.filter((r) => r.set === set))
        for (const t of rec.tasks) {
          const f = t.candidates[n];
          sum += f ? taskMase(t, f) : NaN;
          k++;
        }
      return Number.isFinite(sum) ? (sum / k).toFixed(3) : '-';
    });
    console.log(`| ${short(set)} | ${cells.join(' | ')} |`);
  }
}
console.log();
console.log(
  `| rule | ${recs.map((_, i) => `geo mean, file ${i + 1}`).join(' | ')} | geo mean, all | its standard error | sets better / worse | rank 1 on | ranks moved | sets > 1 % worse | sets > 1 % better |`,
);
console.log(
  `| --- | ${recs.map(() => '---').join(' | ')} | --- | --- | --- | --- | --- | --- | --- |`,
);
for (const [swapName, swap] of Object.entries(swaps)) {
  if (
    wantSwaps.length &&
    !wantSwaps.some((w) => swapName.includes(w) || (w === 'none' && !swapName))
  )
    continue;
  for (const [name, rule] of Object.entries(RULES)) {
    if (wantRules.length && !wantRules.some((w) => name.includes(w))) continue;
    const got = recs.map((f) => scoreRule(rule, swap, f));
    const ratios = got.map((sets, fi) => sets.map((s, i) => s.mase / base[fi][i].mase));
    const all = ratios.flat();
    const flat = got.flat();
    const worse = flat
      .map((s, i) => [s, all[i]] as const)
      .filter(([, x]) => x > 1.01)
      .map(([s, x]) => `${short(s.set)} ${(100 * (x - 1)).toFixed(1)} %`);
    const better = flat
      .map((s, i) => [s, all[i]] as const)
      .filter(([, x]) => x < 0.99)
      .map(([s, x]) => `${short(s.set)} ${(100 * (x - 1)).toFixed(1)} %`);
    const baseFlat = base.flat();
    const moved = flat
      .map((s, i) => [s, rank(baseFlat[i]), rank(s)] as const)
      .filter(([, a, b]) => a !== b)
      .map(([s, a, b]) => `${short(s.set)} ${a} -> ${b}`);
    console.log(
      `| ${name}${swapName} | ${ratios.map((r) => geo(r).toFixed(4)).join(' | ')} | ${geo(all).toFixed(4)} | ${geoSe(all).toFixed(4)} | ${all.filter((x) => x < 1 - 1e-9).length} / ${all.filter((x) => x > 1 + 1e-9).length} | ${flat.filter((s) => rank(s) === 1).length} of ${flat.length} | ${moved.join(', ')} | ${worse.join(', ')} | ${better.join(', ')} |`,
    );
    if (detail) {
      for (const s of flat)
        console.log(
          `    ${short(s.set)} ${s.mase.toFixed(4)} rank ${rank(s)}: ${s.choices.join('; ')}`,
        );
    }
  }
}

function short(set: string): string {
  return set.replace(/^holdout: /, 'H:').replace(/ \(.*$/, '');
}
