// What each candidate would have scored on the bench's test windows (issue 29's selection work):
// per set and origin, the engine is validated once (train.ts, validateCandidates), then finished
// once with its own choice and once with every candidate forced on every series, and each is
// forecast on the same test windows as bench/timeseries.ts. Written as JSON with the validation
// folds' per-origin errors of every candidate, so that a selection rule can be replayed offline
// against the test errors it would have led to (and the peers' forecasts from the cache).
// `TIMESERIES_PEERS=cached npx tsx bench/timeseries-choices.ts out.json` (TIMESERIES_SETS and
// TIMESERIES_ORIGINS as for the bench; TIMESERIES_SETS=holdout replays the hold-out sets instead).
// Beside the candidates, `arima_all` and `ets_all`: ARIMA and ETS forced, their final fit's order or
// form searched again on all of each series' rows (every order or form, as R's auto.arima and ets
// fit a series) instead of the validated one refitted; TIMESERIES_CHOICES_RESEARCH=0 skips them.
// bench/timeseries-replay.ts scores choosing rules on the JSON.

import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { selectCandidates } from '../server/automl/timeseries/selection';
import { type LocalName, fitLocal } from '../server/automl/timeseries/stat/local';
import { finishTraining } from '../server/automl/timeseries/train';
import {
  forecastOrigin,
  maseScale,
  originsOf,
  peerForecasts,
  seasonalNaive,
  tasksOf,
} from './timeseries';
import { validateOrigin } from './timeseries-origins';
import { type SeriesSet, askedSets } from './timeseries-sets';

const round = (x: number) => (Number.isFinite(x) ? Math.round(x * 1e5) / 1e5 : null);

/** What the choices JSON's readers use of each record (one per set and origin). */
export interface ChoicesRecord {
  set: string;
  origin: number;
  tasks: {
    key: string;
    truth: number[];
    scale: number;
    seasonal_naive: number[];
    engine: { value: number[] };
    peers: Record<'ets' | 'sarimax' | 'theta', number[]> | null;
    candidates: Record<string, number[] | undefined>;
  }[];
}

const meanOf = (x: number[]) => x.reduce((a, b) => a + b, 0) / x.length;

/**
 * Per method of the records of `set` (`engine`, `seasonal_naive`, `peer ets` / `sarimax` /
 * `theta`, each forced candidate), per series: its MASE at each origin.
 */
export function maseBySeries(runs: ChoicesRecord[], set: string) {
  const out = new Map<string, Map<string, number[]>>();
  const add = (method: string, key: string, v: number) => {
    if (!out.has(method)) out.set(method, new Map());
    const m = out.get(method)!;
    m.set(key, [...(m.get(key) ?? []), v]);
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

/**
 * The engine's MASE minus `method`'s, each series' origins averaged first (the series are the
 * independent draws), as "mean ± its standard error over the series".
 */
export function gapOverSeries(m: Map<string, Map<string, number[]>>, method: string): string {
  const d = [...m.get('engine')!.entries()].map(([k, v]) =>
    meanOf(v.map((x, i) => x - m.get(method)!.get(k)![i])),
  );
  const sd = Math.sqrt(d.reduce((a, x) => a + (x - meanOf(d)) ** 2, 0) / (d.length - 1));
  return `${meanOf(d) >= 0 ? '+' : ''}${meanOf(d).toFixed(3)} ± ${(sd / Math.sqrt(d.length)).toFixed(3)}`;
}

/** The choices JSON's records (one per set and origin) of `sets`. */
export async function recordChoices(sets: SeriesSet[]): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const s of sets) {
    const d = await s.data();
    const tasks = tasksOf(s, d);
    const peers = peerForecasts(tasks, [s]);
    for (const { origin: o, rows } of originsOf(s, d)) {
      const v = validateOrigin(s, d.columns, rows);
      const { scored, folds } = v;
      const nSeries = v.set.series.length;
      const validated = v.validation.validated;
      // Per fold and origin: its series, its steps with a truth, each candidate's error sum.
      const val = folds.map((fold) => {
        const { n, H } = fold.packed;
        const g: number[] = [];
        const steps: number[] = [];
        const err = scored.map(() => [] as number[]);
        // Each candidate's forecasts over the origin's scale, and the truth's (NaN past the end).
        const pred = scored.map((c) => {
          const run = c.runs[fold.index];
          return run
            ? Array.from(run.pred, (p, j) => round(p / run.scale[Math.floor(j / H)]))
            : null;
        });
        const scale = scored[0].runs[fold.index]!.scale;
        const truth = Array.from({ length: n * H }, (_, j) =>
          round(fold.truth(Math.floor(j / H), (j % H) + 1) / scale[Math.floor(j / H)]),
        );
        for (let i = 0; i < n; i++) {
          g.push(fold.origins[i][0]);
          let k = 0;
          while (k < H && !Number.isNaN(fold.truth(i, k + 1))) k++;
          steps.push(k);
          scored.forEach((c, ci) => {
            const run = c.runs[fold.index];
            if (!run) return void err[ci].push(NaN);
            let e = 0;
            for (let j = 1; j <= k; j++) e += Math.abs(fold.truth(i, j) - run.pred[i * H + j - 1]);
            err[ci].push(e / run.scale[i]);
          });
        }
        return { index: fold.index, g, steps, err, pred, truth };
      });
      const finish = (forced: Parameters<typeof selectCandidates>[4]) => {
        const sel = selectCandidates(scored, folds, nSeries, validated, forced, v.walk);
        const fc = forecastOrigin(s, d, finishTraining(v, sel), o, rows, tasks);
        return { sel, fc };
      };
      const own = finish(v.forced);
      const test: Record<string, Record<string, number[]>> = {};
      for (const c of scored) {
        const { fc } = finish(c.name);
        test[c.name] = Object.fromEntries([...fc].map(([k, f]) => [k, f.value]));
      }
      // The final fit searched again on all rows: each validated fit swapped for a fresh search on
      // the whole series (refitForm then refits that order or form, on the same rows), then restored.
      const research = process.env.TIMESERIES_CHOICES_RESEARCH !== '0';
      for (const name of research ? (['arima', 'ets'] as LocalName[]) : []) {
        const c = scored.find((x) => x.name === name);
        if (!c?.mainFits) continue;
        const saved = c.mainFits.slice();
        v.set.series.forEach((x, g) => {
          if (!saved[g]) return;
          const clock = v.spec.yearStep ? { t: x.t, step: v.spec.yearStep } : undefined;
          const all = fitLocal(name, x.y, 0, x.y.length - 1, v.period, {}, clock, x.t);
          c.mainFits![g] = all ?? saved[g];
        });
        const { fc } = finish(name);
        test[`${name}_all`] = Object.fromEntries([...fc].map(([k, f]) => [k, f.value]));
        saved.forEach((f, g) => (c.mainFits![g] = f));
      }
      const mine = tasks.filter((t) => t.origin === o);
      out.push({
        set: s.name,
        period: s.period,
        horizon: s.horizon,
        origin: o,
        series: v.set.series.map((x) => x.key.split('\u0001').join('|')),
        validated,
        candidates: scored.map((c) => ({
          name: c.name,
          members: c.members ?? null,
          partial: c.runs.some((r) => r === null),
        })),
        val,
        choice: {
          set: scored[own.sel.setChoice].name,
          series: [...own.sel.choice].map((c) => scored[c].name),
        },
        tasks: mine.map((t) => {
          const k = `${o}#${t.key}`;
          const p = peers?.get(`${t.set}#${o}#${t.key}`);
          return {
            key: t.key,
            truth: t.truth,
            scale: maseScale(t.train, s.period),
            seasonal_naive: seasonalNaive(t.train, s.period, t.truth.length),
            engine: own.fc.get(k),
            peers: p ? { ets: p.ets, sarimax: p.sarimax, theta: p.theta } : null,
            candidates: Object.fromEntries(Object.entries(test).map(([n, f]) => [n, f[k]])),
          };
        }),
      });
      process.stderr.write(`${s.name} origin ${o}: ${scored.length} candidates\n`);
    }
  }
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const out = await recordChoices(askedSets());
  writeFileSync(process.argv[2] ?? 'timeseries-choices.json', JSON.stringify(out));
}
