// Interval rules replayed offline (issue 29): a bench run takes 3-10 minutes per set collection,
// most of it training, while the intervals are a function of each training's rolling-origin
// residuals. `capture` trains every set and origin once as bench/timeseries.ts does and writes,
// per set-origin, the calibration residuals (calibration.ts's compositeResiduals: per step, each
// residual's series, fold and age) and the test errors in the same units (|error| over the
// origin's scale, with their series and step). `replay` then runs calibration.ts as it is now
// (bandsOf) on those residuals and counts the bands on the test errors: coverage per set and
// level, per origin, DESCRIBE's out-of-fold figure beside it, and the means and verdicts the bench
// prints, in seconds for all 24 sets. A rule that changes only how residuals become bands is
// judged by replaying the same capture before and after; one that changes the residuals or the
// forecasts needs a new capture (or the bench).
//   TIMESERIES_SETS=... npx tsx bench/timeseries-intervals.ts capture out.json
//   npx tsx bench/timeseries-intervals.ts replay out.json [more.json ...]
//   npx tsx bench/timeseries-intervals.ts shared out.json [...]   (misses shared across series)
// (INTERVALS_RESIDUALS=fold-out or hybrid replays each fold's residuals from the candidate chosen
// without that fold: timeseries-coverage.ts's foldOutResiduals, a diagnostic; INTERVALS_STANDINS=keep
// replays with the stand-in residuals kept, as before session 18: calibration.ts's ownResiduals;
// INTERVALS_TIMES=drop without the residuals' times, as before session 19: no design effect of
// misses shared across series at the same dates, calibration.ts's sharedMisses.)
// (TIMESERIES_SETS and TIMESERIES_ORIGINS as for the bench; `holdout` captures the hold-out sets.)
// `replay` also prints, per set, the series' coverage at 80 / 90 % against what exchangeable
// series allow (perSeriesCoverage: the dispersion of their miss counts over its permutation
// null) and the mean interval score; on the simulated sets (`sim`), whose generating models are
// known, each series' bands against the oracle (oracleOf: the true predictive distribution from
// each origin's own state, drawn by replaying the set's draws with fresh innovations after the
// origin): their true coverage per series and their width over the ideal one, which no sampling
// error of the test blurs. INTERVALS_SUMMARY=prefix writes each file's per-set figures as JSON
// (prefix.<file>), for comparing two rules set by set.

import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import {
  type StepResiduals,
  bandsOf,
  compositeResiduals,
  levelWidths,
  ownResiduals,
  sharedMisses,
} from '../server/automl/timeseries/calibration';
import { Rng } from '../server/automl/prng';
import { selectCandidates } from '../server/automl/timeseries/selection';
import { finishTraining } from '../server/automl/timeseries/train';
import type { Dataset } from '../server/automl/index';
import { type Task, forecastOrigin, originsOf, tasksOf } from './timeseries';
import { validateOrigin } from './timeseries-origins';
import { foldOutResiduals, replayedResiduals } from './timeseries-coverage';
import { type SeriesSet, askedSets } from './timeseries-sets';

const LEVELS = [0.5, 0.8, 0.9, 0.95];
/** The model's confidence level (the default USING confidence, as the bench trains). */
const CONFIDENCE = 0.9;

/** One set-origin's training: its calibration residuals and its test errors in their units. */
interface Captured {
  set: string;
  origin: number;
  nSeries: number;
  res: StepResiduals;
  /** Each fold's residuals from the candidate chosen without it (a diagnostic). */
  resFoldOut?: StepResiduals;
  /**
   * Per test point: its series, step (0-based) and |error| / origin scale; on a simulated set
   * also the oracle (oracleOf): the true predictive distribution's |value - forecast| in the same
   * units (ORACLE_SKETCH quantiles) and its own equal-tailed half-widths at 80 and 90 %.
   */
  test: {
    g: number;
    k: number;
    r: number;
    oracle?: number[];
    oracleHalf?: number[];
  }[];
}

/** Paths the oracle draws per origin, and the quantiles of |path - forecast| a point keeps. */
const ORACLE_PATHS = 400;
const ORACLE_SKETCH = 200;

/**
 * The true predictive distribution of a simulated set's test rows (SeriesSet.simulate): the set's
 * random draws recorded once, then replayed with each series' innovations from the origin's
 * first test row on drawn afresh, ORACLE_PATHS times: every path has the series' own model,
 * parameters and state at the origin, so the sample is the true conditional distribution of its
 * next rows (no sampling error of one realisation, only the paths' Monte Carlo). Per task key:
 * per path, the values at the task's test rows.
 */
function oracleOf(s: SeriesSet, tasks: Task[], o: number): Map<string, number[][]> {
  type Call = { kind: 'uniform' | 'int' | 'normal'; v: number };
  const calls: Call[] = [];
  const base = s.simulate!((r) => ({
    uniform: (a, b) => rec(calls, 'uniform', r.uniform(a, b)),
    int: (a, b) => rec(calls, 'int', r.int(a, b)),
    normal: () => rec(calls, 'normal', r.normal()),
  }));
  // Per series (each starts with its length's int draw): its normal draws' call positions.
  const starts = calls.flatMap((c, i) => (c.kind === 'int' ? [i] : []));
  const normals = starts.map((from, j) =>
    calls
      .slice(from, starts[j + 1] ?? calls.length)
      .flatMap((c, i) => (c.kind === 'normal' ? [from + i] : [])),
  );
  const lengths = starts.map((i) => calls[i].v);
  const offsets = lengths.map((_, j) => lengths.slice(0, j).reduce((a, b) => a + b, 0));
  const yAt = (d: Dataset, j: number, t: number) => d.rows[offsets[j] + t][2] as number;
  const replay = (fresh: Map<number, () => number>) => {
    let at = 0;
    const next = (kind: Call['kind']) => {
      const c = calls[at];
      if (!c || c.kind !== kind) throw new Error(`${s.name}: the draws left the recorded path`);
      const f = fresh.get(at++);
      return f ? f() : c.v;
    };
    return s.simulate!(() => ({
      uniform: () => next('uniform'),
      int: () => next('int'),
      normal: () => next('normal'),
    }));
  };
  // Which of a series' normal draws is row t's innovation: the last n of them, or the n before
  // a season drawn after the rows (an integrated seasonal ARIMA's), found by changing the draw
  // of the series' last row and seeing that row alone move.
  const rowDraw = lengths.map((n, j) => {
    for (const tail of [0, 1, 4, 7, 12, 52]) {
      const pos = normals[j][normals[j].length - tail - 1];
      if (pos === undefined) break;
      const d = replay(new Map([[pos, () => calls[pos].v + 1]]));
      const moved = (t: number) => yAt(d, j, t) !== yAt(base, j, t);
      if (moved(n - 1) && !Array.from({ length: n - 1 }, (_, t) => t).some(moved))
        return (t: number) => normals[j][normals[j].length - tail - n + t];
    }
    throw new Error(`${s.name}: series ${j + 1}'s innovations not found`);
  });
  const here = tasks.filter((t) => t.origin === o);
  const index = (key: string) => Number(key.replace(/^s/, '')) - 1;
  const rng = new Rng(1000 + o);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
  const out = new Map<string, number[][]>(here.map((t) => [t.key, []]));
  for (let p = 0; p < ORACLE_PATHS; p++) {
    const fresh = new Map<number, () => number>();
    for (const t of here) {
      const j = index(t.key);
      for (let k = 0; k < t.truth.length; k++) fresh.set(rowDraw[j](t.train.length + k), gauss);
    }
    let d: Dataset;
    try {
      d = replay(fresh);
    } catch {
      continue; // a multiplicative draw that reached 0 and was drawn again: not this model's path
    }
    for (const t of here) {
      const j = index(t.key);
      out.get(t.key)!.push(t.truth.map((_, k) => yAt(d, j, t.train.length + k)));
    }
  }
  return out;
}

function rec(
  calls: { kind: 'uniform' | 'int' | 'normal'; v: number }[],
  kind: 'uniform' | 'int' | 'normal',
  v: number,
) {
  calls.push({ kind, v });
  return v;
}

async function capture(file: string) {
  const sets = askedSets();
  const out: Captured[] = [];
  for (const s of sets) {
    const d = await s.data();
    const tasks = tasksOf(s, d);
    for (const { origin: o, rows } of originsOf(s, d)) {
      const v = validateOrigin(s, d.columns, rows);
      const { scored, folds, validation, forced } = v;
      const sel = selectCandidates(
        scored,
        folds,
        v.set.series.length,
        validation.validated,
        forced,
        v.walk,
      );
      const artifact = finishTraining(v, sel);
      // After finishTraining: a GBM chosen on the main split alone has its earlier folds' runs.
      const res = compositeResiduals(scored, sel, folds, folds[0].packed.H, v.set.series);
      const resFoldOut = foldOutResiduals(v, sel);
      const f = forecastOrigin(s, d, artifact, o, rows, tasks);
      const keys = v.set.series.map((x) => x.key.split('\u0001').join('|'));
      const widthFactor = artifact.model.perSeries?.widthFactor ?? [];
      const at90 = artifact.calibration.levels!.find((l) => l.level === 0.9)!.halfWidths;
      const test: Captured['test'] = [];
      const oracle = s.simulate ? oracleOf(s, tasks, o) : null;
      for (const t of tasks.filter((x) => x.origin === o)) {
        const fc = f.get(`${o}#${t.key}`)!;
        const g = keys.length === 1 ? 0 : keys.indexOf(t.key);
        if (g < 0) throw new Error(`${s.name}: no training series ${t.key}`);
        t.truth.forEach((y, k) => {
          // The 90 % half-width is the origin's scale x the series' width factor x the trained
          // width at the step (a forecast right after training is not recalibrated).
          // From the upper end: the lower one may be floored (at 0 for a TSB fit).
          const hw = fc.hi[2][k] - fc.value[k];
          const unit = hw > 0 ? (at90[k] * (widthFactor[g] ?? 1)) / hw : NaN;
          const err = Math.abs(y - fc.value[k]);
          const r = hw > 0 ? err * unit : err > 0 ? 1e300 : 0;
          const paths = oracle?.get(t.key)?.map((p) => p[k]);
          if (!paths?.length || !(hw > 0)) return test.push({ g, k, r });
          const dev = paths.map((v) => Math.abs(v - fc.value[k]) * unit).sort((a, b) => a - b);
          const at = (x: number[], q: number) =>
            x[Math.min(x.length - 1, Math.floor(q * x.length))];
          const sorted = [...paths].sort((a, b) => a - b);
          const oracleHalf = [0.8, 0.9].map(
            (l) => ((at(sorted, 1 - (1 - l) / 2) - at(sorted, (1 - l) / 2)) / 2) * unit,
          );
          const sketch = Array.from({ length: ORACLE_SKETCH }, (_, j) =>
            at(dev, (j + 0.5) / ORACLE_SKETCH),
          );
          test.push({ g, k, r, oracle: sketch, oracleHalf });
        });
      }
      out.push({ set: s.name, origin: o, nSeries: v.set.series.length, res, resFoldOut, test });
      process.stderr.write(`${s.name} origin ${o}\n`);
    }
  }
  writeFileSync(file, JSON.stringify(out));
}

const f2 = (x: number) => x.toFixed(2);
const f3 = (x: number) => x.toFixed(3);

function replay(files: string[]) {
  for (const file of files) {
    const data = JSON.parse(readFileSync(file, 'utf8')) as Captured[];
    const bySet = new Map<string, Captured[]>();
    for (const x of data) bySet.set(x.set, [...(bySet.get(x.set) ?? []), x]);
    const mean = LEVELS.map(() => 0);
    const claimMean = LEVELS.map(() => 0);
    const dev = LEVELS.map(() => 0);
    const honest = LEVELS.map(() => 0);
    let within = 0;
    const real: string[] = [];
    const gaps: number[] = [];
    const summary: SeriesSummary[] = [];
    for (const [set, xs] of bySet) {
      // Per origin and level: points inside; DESCRIBE's figure per level, averaged over origins.
      const perOrigin = xs.map((x) => {
        const b = bandsOf(replayedResiduals(x.res, x.resFoldOut), x.nSeries, CONFIDENCE);
        const widths = LEVELS.map((l) => b.levels.find((z) => z.level === l)!.halfWidths);
        const inside = LEVELS.map((_, li) =>
          x.test.reduce((a, t) => a + (t.r <= widths[li][t.k] * b.widthFactor[t.g] ? 1 : 0), 0),
        );
        const claim = LEVELS.map((l) => b.coverage.find((c) => c.level === l)!.coverage);
        // The 80/90 width ratio per point, and each error over its point's 90 % half-width.
        const ratio = x.test.reduce((a, t) => a + widths[1][t.k] / widths[2][t.k], 0);
        // The residuals' own: the widths at the nominal 80 and 90 % (no level check), per point.
        const own = levelWidths(b.u, b.weights, [0.8, 0.9]);
        const ownRatio = x.test.reduce((a, t) => a + own[0][t.k] / own[1][t.k], 0);
        const over = x.test.map((t) => t.r / (widths[2][t.k] * b.widthFactor[t.g]));
        // Per test point at 80 and 90 %: its series, whether inside, its interval score.
        const points = x.test.map((t) => {
          const hw = [1, 2].map((li) => widths[li][t.k] * b.widthFactor[t.g]);
          // Against the oracle: the share of the true predictive distribution inside, the width
          // over the oracle's own equal-tailed band's.
          const sketch = t.oracle;
          const oracle = sketch && {
            cover: hw.map((w) => sketch.filter((v) => v <= w).length / sketch.length),
            // The ideal half-width about this forecast: the level's quantile of |path - forecast|.
            width: hw.map(
              (w, j) =>
                w / sketch[Math.min(sketch.length - 1, Math.floor(LEVELS[j + 1] * sketch.length))],
            ),
          };
          return {
            g: t.g,
            k: t.k,
            late: t.k >= x.res.r.length / 2,
            inside: hw.map((w) => t.r <= w),
            score: hw.map((w, j) => 2 * w + (2 / (1 - LEVELS[j + 1])) * Math.max(0, t.r - w)),
            ...(oracle ? { oracle } : {}),
          };
        });
        return {
          ...{ n: x.test.length, inside, claim, ratio, ownRatio, over, points },
          standIns: b.standIns,
        };
      });
      const points = perOrigin.reduce((a, o) => a + o.n, 0);
      const m = perOrigin.length;
      const cov = LEVELS.map((_, li) => perOrigin.reduce((a, o) => a + o.inside[li], 0) / points);
      const claim = LEVELS.map((_, li) => perOrigin.reduce((a, o) => a + o.claim[li], 0) / m);
      // As the bench: the bands' 80/90 width ratio minus the errors' per step.
      const over = perOrigin.flatMap((o) => o.over).sort((a, b) => a - b);
      const q = (p: number) => over[Math.min(over.length - 1, Math.floor(p * over.length))];
      const gap = perOrigin.reduce((a, o) => a + o.ratio, 0) / points - q(0.8) / q(0.9);
      gaps.push(gap);
      // The errors' ratio's sampling spread: origins resampled with replacement (an origin's
      // points share one path and its series one calendar), its 5th and 95th percentiles.
      const rng = new Rng(17);
      const boot = Array.from({ length: 400 }, () => {
        const pick = perOrigin.map(() => perOrigin[Math.floor(rng.next() * m)]);
        const u = pick.flatMap((o) => o.over).sort((a, b) => a - b);
        const at = (p: number) => u[Math.min(u.length - 1, Math.floor(p * u.length))];
        return at(0.9) > 0 ? at(0.8) / at(0.9) : 0;
      }).sort((a, b) => a - b);
      const perStep =
        xs.reduce((a, x) => a + x.res.r.reduce((b, r) => b + r.length, 0) / x.res.r.length, 0) / m;
      // How alike one origin's errors are (their intra-origin correlation, one-way ANOVA on the
      // errors over their 90 % widths): near 1, a set's few origins are its few independent errors.
      const icc = (() => {
        const all = perOrigin.flatMap((o) => o.over);
        const mean = all.reduce((a, b) => a + b, 0) / all.length;
        let ssb = 0;
        let ssw = 0;
        let n0 = all.length;
        for (const o of perOrigin) {
          const m0 = o.over.reduce((a, b) => a + b, 0) / o.over.length;
          ssb += o.over.length * (m0 - mean) ** 2;
          for (const v of o.over) ssw += (v - m0) ** 2;
          n0 -= o.over.length ** 2 / all.length;
        }
        if (m < 2 || all.length <= m) return 0;
        const msb = ssb / (m - 1);
        const msw = ssw / (all.length - m);
        const b = Math.max(0, (msb - msw) / (n0 / (m - 1)));
        return b / (b + msw);
      })();
      const bandRatio = perOrigin.reduce((a, o) => a + o.ratio, 0) / points;
      const ownRatio = perOrigin.reduce((a, o) => a + o.ownRatio, 0) / points;
      const spread = `bands ${f2(bandRatio)}, residuals' own ${f2(ownRatio)}; icc ${f2(icc)}; errors' ${f2(q(0.8) / q(0.9))} [${f2(boot[20])}, ${f2(boot[379])}] of ${points} points, ${m} origins, zero ${f2(over.filter((x) => x === 0).length / points)}; ${Math.round(perStep)} residuals a step`;
      // As the bench: the standard error over origins (cluster-robust), never below the binomial.
      const verdict = LEVELS.map((l, li) => {
        let ss = 0;
        for (const o of perOrigin) ss += (o.inside[li] - cov[li] * o.n) ** 2;
        const cluster = m > 1 ? (Math.sqrt(ss) / points) * Math.sqrt(m / (m - 1)) : 0;
        const se = Math.max(cluster, Math.sqrt((l * (1 - l)) / points));
        const off = Math.abs(cov[li] - l);
        return off <= 0.03 ? 'ok' : off / se > 2 ? 'REAL' : 'se';
      });
      LEVELS.forEach((l, li) => {
        mean[li] += cov[li] / bySet.size;
        claimMean[li] += claim[li] / bySet.size;
        dev[li] += Math.abs(cov[li] - l) / bySet.size;
        honest[li] += Math.abs(claim[li] - cov[li]) / bySet.size;
      });
      if (verdict[1] === 'ok' && verdict[2] === 'ok') within++;
      if (verdict[1] === 'REAL' || verdict[2] === 'REAL') real.push(set);
      const origins = perOrigin
        .map((o) => `${f2(o.inside[1] / o.n)}/${f2(o.inside[2] / o.n)}`)
        .join(' ');
      // Stand-in residuals (a local model unfitted before a fold's cut), left out / kept, over all.
      const total = xs.reduce((a, x) => a + x.res.r.reduce((b, r) => b + r.length, 0), 0);
      const left = perOrigin.reduce((a, o) => a + o.standIns.left, 0);
      const kept = perOrigin.reduce((a, o) => a + o.standIns.kept, 0);
      const stood = left + kept > 0 ? `  stand-ins ${left}+${kept} of ${total}` : '';
      const ps = perSeriesCoverage(perOrigin.map((o) => o.points));
      const oracle = oracleSummary(perOrigin.map((o) => o.points));
      summary.push({ set, points, cov, ...ps, oracle });
      console.log(
        `${set.slice(0, 44).padEnd(44)} ${cov.map(f3).join(' ')}  ${verdict[1]}/${verdict[2]}  DESCRIBE ${claim.map(f2).join(' ')}  80/90 gap ${f3(gap)} (${spread})  per origin ${origins}${stood}`,
      );
    }
    console.log(
      `${file}: mean coverage ${mean.map(f3).join(' ')} (DESCRIBE ${claimMean.map(f3).join(' ')}), ` +
        `mean |coverage - nominal| ${dev.map(f3).join(' ')}, mean |DESCRIBE - coverage| ${honest.map(f3).join(' ')}, ` +
        `within 3 points at 80 and 90 %: ${within} of ${bySet.size}, real misses: ${real.length ? real.join('; ') : 'none'}, ` +
        `80/90 width ratio minus the errors' ${f3(gaps.reduce((a, g) => a + g, 0) / gaps.length)} (within 0.05 on ${gaps.filter((g) => Math.abs(g) <= 0.05).length})`,
    );
    printPerSeries(summary);
    if (process.env.INTERVALS_SUMMARY) {
      writeFileSync(`${process.env.INTERVALS_SUMMARY}.${basename(file)}`, JSON.stringify(summary));
    }
  }
}

/** A test point at 80 and 90 %: its series, whether its band holds it, its interval score. */
interface Point {
  g: number;
  k: number;
  /** In the later half of the horizon. */
  late: boolean;
  inside: boolean[];
  score: number[];
  /** On a simulated set: the true coverage of its bands and their width over the oracle's. */
  oracle?: { cover: number[]; width: number[] };
}

/**
 * Against the oracle (a simulated set): per series, its bands' true coverage at 80 and 90 % (the
 * share of its true predictive distribution inside, averaged over its test points) and their
 * width over the oracle's equal-tailed band's (geometric mean); per set their mean, the series'
 * sd, range and how many are more than 5 points off nominal.
 */
function oracleSummary(origins: Point[][]) {
  const all = origins.flat().filter((p) => p.oracle);
  if (all.length === 0) return null;
  const G = 1 + Math.max(...all.map((p) => p.g));
  return [0, 1].map((j) => {
    const nominal = [0.8, 0.9][j];
    const cover = new Float64Array(G);
    const logWidth = new Float64Array(G);
    const n = new Float64Array(G);
    // Per series: its mean log width in the horizon's later half minus the earlier half's.
    const half = [
      new Float64Array(G),
      new Float64Array(G),
      new Float64Array(G),
      new Float64Array(G),
    ];
    for (const p of all) {
      cover[p.g] += p.oracle!.cover[j];
      logWidth[p.g] += Math.log(p.oracle!.width[j]);
      n[p.g]++;
      half[p.late ? 1 : 0][p.g] += Math.log(p.oracle!.width[j]);
      half[p.late ? 3 : 2][p.g]++;
    }
    const shape: number[] = [];
    for (let g = 0; g < G; g++) {
      if (half[2][g] && half[3][g]) shape.push(half[1][g] / half[3][g] - half[0][g] / half[2][g]);
    }
    const c: number[] = [];
    const w: number[] = [];
    for (let g = 0; g < G; g++) {
      if (!n[g]) continue;
      c.push(cover[g] / n[g]);
      w.push(Math.exp(logWidth[g] / n[g]));
    }
    const mean = (x: number[]) => x.reduce((a, b) => a + b, 0) / x.length;
    const sd = (x: number[]) =>
      Math.sqrt(x.reduce((a, b) => a + (b - mean(x)) ** 2, 0) / Math.max(1, x.length - 1));
    return {
      cover: mean(c),
      sd: sd(c),
      min: Math.min(...c),
      max: Math.max(...c),
      off: c.filter((x) => Math.abs(x - nominal) > 0.05).length,
      series: c.length,
      width: Math.exp(mean(w.map(Math.log))),
      widthSd: sd(w.map(Math.log)),
      mad: mean(c.map((x) => Math.abs(x - nominal))),
      shape: shape.length > 1 ? sd(shape) : NaN,
      shapeMean: shape.length ? mean(shape) : NaN,
    };
  });
}

/**
 * Per series coverage at 80 and 90 % against what exchangeable series allow. The statistic is the
 * dispersion of the series' miss counts, D = sum over series of (x - n p)^2 / (n p (1 - p)) (p
 * the set's pooled coverage); under the binomial with independent points its mean is G - 1, but
 * one window's steps share a path, so its null here is the permutation one: at each origin, the
 * series' windows are given to the series at random (each keeps one window per origin, every
 * window's own run of hits and misses), 400 times. `excess` is D over the null's mean (1: series
 * alike), `p` the share of permutations at least as dispersed, `sd` the series' coverage sd beyond
 * the null's (the root of the variance difference, 0 when below), `wide`/`narrow` the series above
 * / below their set's coverage by more than the null's 95 % range of one series.
 */
function perSeriesCoverage(origins: Point[][]) {
  const G = 1 + Math.max(...origins.flatMap((o) => o.map((p) => p.g)));
  // Per origin: its points' interval scores summed at 80 and 90 %, and their count (a paired
  // comparison of two rules resamples the origins).
  const originScores = origins.map((o) => [
    o.reduce((a, p) => a + p.score[0], 0),
    o.reduce((a, p) => a + p.score[1], 0),
    o.length,
  ]);
  const score = [0, 1].map((j) => {
    const all = origins.flat();
    return all.reduce((a, p) => a + p.score[j], 0) / all.length;
  });
  if (G < 2) {
    return {
      score,
      originScores,
      series: G,
      excess: [NaN, NaN],
      p: [NaN, NaN],
      sd: [0, 0],
      off: [],
    };
  }
  // Windows per origin and series: their hits at each level and their size.
  const windows = origins.map((o) => {
    const by = new Map<number, { hit: number[]; n: number }>();
    for (const p of o) {
      const w = by.get(p.g) ?? { hit: [0, 0], n: 0 };
      w.n++;
      p.inside.forEach((x, j) => (w.hit[j] += x ? 1 : 0));
      by.set(p.g, w);
    }
    return [...by.entries()];
  });
  const stat = (assign: (o: number, i: number) => number, j: number) => {
    const x = new Float64Array(G);
    const n = new Float64Array(G);
    windows.forEach((ws, o) =>
      ws.forEach(([, w], i) => {
        const g = assign(o, i);
        x[g] += w.hit[j];
        n[g] += w.n;
      }),
    );
    let hits = 0;
    let total = 0;
    for (let g = 0; g < G; g++) {
      hits += x[g];
      total += n[g];
    }
    const p = hits / total;
    let d = 0;
    let v = 0;
    let counted = 0;
    const share: number[] = [];
    for (let g = 0; g < G; g++) {
      if (!n[g]) continue;
      if (p > 0 && p < 1) d += (x[g] - n[g] * p) ** 2 / (n[g] * p * (1 - p));
      v += (x[g] / n[g] - p) ** 2;
      counted++;
      share.push(x[g] / n[g] - p);
    }
    return { d, v: v / Math.max(1, counted - 1), share };
  };
  const rng = new Rng(29);
  const own = (o: number, i: number) => windows[o][i][0];
  return [0, 1].reduce(
    (acc, j) => {
      const obs = stat(own, j);
      const nulls = Array.from({ length: 400 }, () => {
        const perm = windows.map((ws) => {
          const g = ws.map(([s]) => s);
          for (let i = g.length - 1; i > 0; i--) {
            const r = Math.floor(rng.next() * (i + 1));
            [g[i], g[r]] = [g[r], g[i]];
          }
          return g;
        });
        return stat((o, i) => perm[o][i], j);
      });
      const meanD = nulls.reduce((a, x) => a + x.d, 0) / nulls.length;
      const meanV = nulls.reduce((a, x) => a + x.v, 0) / nulls.length;
      const spread = nulls.flatMap((x) => x.share.map(Math.abs)).sort((a, b) => a - b);
      const range = spread[Math.floor(0.95 * (spread.length - 1))];
      acc.excess[j] = meanD > 0 ? obs.d / meanD : NaN;
      acc.p[j] = nulls.filter((x) => x.d >= obs.d).length / nulls.length;
      acc.sd[j] = Math.sqrt(Math.max(0, obs.v - meanV));
      acc.off.push(
        `${obs.share.filter((s) => s > range).length}+/${obs.share.filter((s) => s < -range).length}-`,
      );
      return acc;
    },
    { score, originScores, series: G, excess: [0, 0], p: [0, 0], sd: [0, 0], off: [] as string[] },
  );
}

type SeriesSummary = ReturnType<typeof perSeriesCoverage> & {
  set: string;
  points: number;
  cov: number[];
  oracle: ReturnType<typeof oracleSummary>;
};

/** Per set: the series' coverage dispersion and the mean interval score at 80 and 90 %. */
function printPerSeries(summary: SeriesSummary[]) {
  console.log(
    "per series, 80 / 90 %: dispersion over its permutation null (p), sd beyond it, series off by more than one series' null 95 % range (+ wide / - narrow); mean interval score",
  );
  for (const s of summary) {
    const disp = [0, 1]
      .map((j) => `${f2(s.excess[j])} (p ${f2(s.p[j])}) sd ${f3(s.sd[j])} ${s.off[j] ?? ''}`)
      .join(' | ');
    console.log(
      `  ${s.set.slice(0, 44).padEnd(44)} G ${String(s.series).padStart(2)}  ${s.series > 1 ? disp : '-'.padEnd(20)}  score ${s.score.map(f3).join(' / ')}`,
    );
  }
  const many = summary.filter((s) => s.series > 1);
  const at = (j: number) => many.filter((s) => s.p[j] < 0.05).length;
  const gm = (j: number) =>
    Math.exp(summary.reduce((a, s) => a + Math.log(s.score[j]), 0) / summary.length);
  const oracle = summary.filter((s) => s.oracle);
  if (oracle.length > 0) {
    console.log(
      "against the oracle, 80 / 90 %: true coverage (series sd, min-max, series > 5 points off nominal, mean |series - nominal|); width over the oracle's (geometric mean, series sd of its log)",
    );
    for (const s of oracle) {
      const o = s.oracle!;
      console.log(
        `  ${s.set.slice(0, 44).padEnd(44)} ${o.map((x) => `${f3(x.cover)} (sd ${f3(x.sd)}, ${f2(x.min)}-${f2(x.max)}, ${x.off} of ${x.series}, ${f3(x.mad)})`).join(' | ')}  width ${o.map((x) => `${f3(x.width)} (${f2(x.widthSd)})`).join(' / ')}  late - early log width ${f2(o[1].shapeMean)} (series sd ${f2(o[1].shape)})`,
      );
    }
    const m = (f: (x: NonNullable<SeriesSummary['oracle']>[number]) => number, j: number) =>
      oracle.reduce((a, s) => a + f(s.oracle![j]), 0) / oracle.length;
    const off = (j: number) => oracle.reduce((a, s) => a + s.oracle![j].off, 0);
    const count = oracle.reduce((a, s) => a + s.oracle![0].series, 0);
    console.log(
      `  oracle mean over sets: true coverage ${f3(m((x) => x.cover, 0))} / ${f3(m((x) => x.cover, 1))}, series sd ${f3(m((x) => x.sd, 0))} / ${f3(m((x) => x.sd, 1))}, mean |series - nominal| ${f3(m((x) => x.mad, 0))} / ${f3(m((x) => x.mad, 1))}, series > 5 points off ${off(0)} / ${off(1)} of ${count}, width ${f3(Math.exp(m((x) => Math.log(x.width), 0)))} / ${f3(Math.exp(m((x) => Math.log(x.width), 1)))} (series sd ${f2(m((x) => x.widthSd, 0))} / ${f2(m((x) => x.widthSd, 1))})`,
    );
  }
  console.log(
    `  series dispersed beyond chance (p < 0.05) at 80 / 90 %: ${at(0)} / ${at(1)} of ${many.length} sets; mean excess ${f2(many.reduce((a, s) => a + s.excess[0], 0) / many.length)} / ${f2(many.reduce((a, s) => a + s.excess[1], 0) / many.length)}; geometric mean interval score ${f3(gm(0))} / ${f3(gm(1))}`,
  );
}

/**
 * Per set: how the bands' misses at 80 / 90 % cluster on dates across series (calibration.ts
 * sharedMisses: intra-date correlation, cluster size, persistence, design effect) on the main
 * split's residuals and on the earlier folds', each level's checked quantile, and the test's own
 * misses (their rate and intra-date correlation, one cluster per origin and step).
 */
function shared(files: string[]) {
  for (const file of files) {
    const data = JSON.parse(readFileSync(file, 'utf8')) as Captured[];
    const bySet = new Map<string, Captured[]>();
    for (const x of data) bySet.set(x.set, [...(bySet.get(x.set) ?? []), x]);
    for (const [set, xs] of bySet) {
      const parts = { main: [] as string[], early: [] as string[], test: [] as string[] };
      const q: string[] = [];
      [0.8, 0.9].forEach((l) => {
        const mainMiss: boolean[][] = [];
        const mainAt: number[][] = [];
        const earlyMiss: boolean[][] = [];
        const earlyAt: number[][] = [];
        const testMiss: boolean[] = [];
        const testAt: number[] = [];
        let quantile = 0;
        xs.forEach((x, o) => {
          const own = ownResiduals(x.res).res;
          const b = bandsOf(x.res, x.nSeries, CONFIDENCE);
          const lv = b.levels.find((z) => z.level === l)!;
          quantile += lv.quantile / xs.length;
          if (!own.target) throw new Error(`${file}: captured without residual times`);
          b.u.forEach((u, k) => {
            const sel = (main: boolean) =>
              u.flatMap((_, i) => (own.main[k][i] === main ? [i] : []));
            const m = sel(true);
            const e = sel(false);
            mainMiss.push(m.map((i) => u[i] > lv.halfWidths[k]));
            mainAt.push(m.map((i) => own.target![k][i]));
            earlyMiss.push(e.map((i) => u[i] > lv.halfWidths[k]));
            earlyAt.push(e.map((i) => own.target![k][i]));
          });
          for (const t of x.test) {
            testMiss.push(t.r > lv.halfWidths[t.k] * b.widthFactor[t.g]);
            testAt.push(o * 1e6 + t.k);
          }
        });
        const fmt = (s: ReturnType<typeof sharedMisses>) =>
          `${f3(s.rate)} rho ${f3(s.rho)} n0 ${s.size.toFixed(1)} pers ${f2(s.persistence)} deff ${s.design.toFixed(1)}`;
        parts.main.push(fmt(sharedMisses(mainMiss, mainAt)));
        parts.early.push(fmt(sharedMisses(earlyMiss, earlyAt)));
        const t = sharedMisses([testMiss], [testAt]);
        parts.test.push(`${f3(t.rate)} rho ${f3(t.rho)}`);
        q.push(f3(quantile));
      });
      console.log(
        `${set.slice(0, 44).padEnd(44)} G ${xs[0].nSeries} quantile 80/90 ${q.join('/')}`,
      );
      console.log(`    main  80: ${parts.main[0]} | 90: ${parts.main[1]}`);
      console.log(`    early 80: ${parts.early[0]} | 90: ${parts.early[1]}`);
      console.log(`    test miss 80: ${parts.test[0]} | 90: ${parts.test[1]}`);
    }
  }
}

const [mode, ...files] = process.argv.slice(2);
if (mode === 'capture' && files.length === 1) await capture(files[0]);
else if (mode === 'replay' && files.length > 0) replay(files);
else if (mode === 'shared' && files.length > 0) shared(files);
else {
  console.error('usage: timeseries-intervals.ts capture out.json | replay file.json [...]');
  process.exit(2);
}
