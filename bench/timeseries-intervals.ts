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

import { readFileSync, writeFileSync } from 'node:fs';
import {
  type StepResiduals,
  bandsOf,
  compositeResiduals,
  ownResiduals,
  sharedMisses,
} from '../server/automl/timeseries/calibration';
import { Rng } from '../server/automl/prng';
import { selectCandidates } from '../server/automl/timeseries/selection';
import { finishTraining } from '../server/automl/timeseries/train';
import { forecastOrigin, originsOf, tasksOf } from './timeseries';
import { validateOrigin } from './timeseries-origins';
import { foldOutResiduals, replayedResiduals } from './timeseries-coverage';
import { askedSets } from './timeseries-sets';

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
  /** Per test point: its series, step (0-based) and |error| / origin scale. */
  test: { g: number; k: number; r: number }[];
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
      for (const t of tasks.filter((x) => x.origin === o)) {
        const fc = f.get(`${o}#${t.key}`)!;
        const g = keys.length === 1 ? 0 : keys.indexOf(t.key);
        if (g < 0) throw new Error(`${s.name}: no training series ${t.key}`);
        t.truth.forEach((y, k) => {
          // The 90 % half-width is the origin's scale x the series' width factor x the trained
          // width at the step (a forecast right after training is not recalibrated).
          // From the upper end: the lower one may be floored (at 0 for a TSB fit).
          const hw = fc.hi[2][k] - fc.value[k];
          const err = Math.abs(y - fc.value[k]);
          const r = hw > 0 ? (err / hw) * at90[k] * (widthFactor[g] ?? 1) : err > 0 ? 1e300 : 0;
          test.push({ g, k, r });
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
        const over = x.test.map((t) => t.r / (widths[2][t.k] * b.widthFactor[t.g]));
        return { n: x.test.length, inside, claim, ratio, over, standIns: b.standIns };
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
      const spread = `errors' ${f2(q(0.8) / q(0.9))} [${f2(boot[20])}, ${f2(boot[379])}] of ${points} points, ${m} origins, zero ${f2(over.filter((x) => x === 0).length / points)}; ${Math.round(perStep)} residuals a step`;
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
  }
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
