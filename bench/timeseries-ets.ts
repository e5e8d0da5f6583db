// Our ETS alone beside statsmodels' ETSModel (the bench's ETS peer) on the bench's series-origins
// (issue 29): per set and origin, `fitEts` searches its form by AICc on each series' training rows
// (all of them, as the peer does; the engine's own ETS is validated on the rows before its cut and
// refitted) and forecasts the held-out HORIZON rows, scored by MASE as bench/timeseries.ts scores
// them. Seconds instead of the bench's minutes for judging a change to stat/ets.ts before the
// engine runs it: the peers come from the bench's cache, so run the bench (or TIMESERIES_PEERS=
// fresh there) once first. Daily series are fitted without the yearly season the engine adds.
// `npx tsx bench/timeseries-ets.ts` (TIMESERIES_SETS as for the bench, `holdout` for the hold-out
// sets; TIMESERIES_ETS_DETAIL=1 prints each series-origin: our form, parameters and MASE beside
// the peer's MASE). TIMESERIES_ETS_FORMS=1 compares the two form by form instead (below;
// TIMESERIES_ETS_FIT=1 fits statsmodels' forms where they are not cached).

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type EtsFit,
  type EtsForm,
  etsFits,
  etsForecast,
  etsLikelihood,
  etsName,
  fitEts,
} from '../server/automl/timeseries/stat/ets';
import { maseScale, peerForecasts, tasksOf } from './timeseries';
import { PYTHON, STATSMODELS_SCRIPT, askedSets } from './timeseries-sets';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

process.env.TIMESERIES_PEERS ??= 'cached';
const sets = askedSets();
const detail = process.env.TIMESERIES_ETS_DETAIL === '1';
async function searchReport() {
  let logRatio = 0;
  let compared = 0;
  console.log('set | ours | statsmodels ETS | series-origins | CPU s | our forms');
  for (const s of sets) {
    const d = await s.data();
    const tasks = tasksOf(s, d);
    const peers = peerForecasts(tasks, [s]);
    let ours = 0;
    let peer = 0;
    let withPeer = 0;
    let cpu = 0;
    const forms = new Map<string, number>();
    for (const t of tasks) {
      const y = Float64Array.from(t.train);
      const h = t.truth.length;
      const c0 = process.cpuUsage();
      const fit = fitEts(y, 0, y.length - 1, s.period);
      const out = new Float64Array(h).fill(y[y.length - 1]);
      if (fit) etsForecast(fit, y, 0, y.length - 1, h, out, 0);
      const c1 = process.cpuUsage(c0);
      cpu += (c1.user + c1.system) / 1e6;
      const scale = maseScale(t.train, s.period);
      const mase = (f: ArrayLike<number>) => {
        let e = 0;
        for (let k = 0; k < h; k++) e += Math.abs(f[k] - t.truth[k]);
        return e / h / scale;
      };
      const m = mase(out);
      ours += m;
      const name = fit ? etsName(fit) : 'none (last value)';
      forms.set(name, (forms.get(name) ?? 0) + 1);
      const p = peers?.get(`${t.set}#${t.origin}#${t.key}`);
      const pm = p ? mase(p.ets) : NaN;
      if (p) {
        peer += pm;
        withPeer++;
      }
      if (detail) {
        const par = fit
          ? `alpha ${fit.alpha.toFixed(3)} beta ${fit.beta.toFixed(3)} gamma ${fit.gamma.toFixed(3)} phi ${fit.phi.toFixed(3)}`
          : '';
        console.log(
          `  origin ${t.origin} ${t.key}: ${name} ${par} MASE ${m.toFixed(3)}, peer ${pm.toFixed(3)}`,
        );
      }
    }
    const n = tasks.length;
    const peerMean = withPeer === n && n > 0 ? peer / n : NaN;
    if (Number.isFinite(peerMean)) {
      logRatio += Math.log(ours / n / peerMean);
      compared++;
    }
    const used = [...forms].sort((a, b) => b[1] - a[1]).map(([f, c]) => `${f} ${c}`);
    console.log(
      `${s.name} | ${(ours / n).toFixed(4)} | ${Number.isFinite(peerMean) ? peerMean.toFixed(4) : '-'} | ${n} | ${cpu.toFixed(2)} | ${used.join(', ')}`,
    );
  }
  if (compared > 0) {
    console.log(
      `geometric mean of ours over statsmodels' ETS, ${compared} sets: ${Math.exp(logRatio / compared).toFixed(4)}`,
    );
  }
}

// TIMESERIES_ETS_FORMS=1: our ETS beside statsmodels' ETSModel form by form (session 20). Per
// series-origin, statsmodels fits every admissible form twice (initialization_method 'estimated',
// its default and the peer's, and 'heuristic'; bench/statsmodels_peer.py etsforms, cached in
// node_modules/.cache/timeseries-ets-forms), and each side's log-likelihood is evaluated at the
// other's parameters and starting states (ours in our filter at its estimated ones; its in its
// filter at ours: etsat). What it separates, per set:
//   - the form: the MASE of the form each AICc picks against the MASE of each side forced to the
//     other's form (ours at statsmodels' form, statsmodels' at ours);
//   - the fit at the same form: -2 log L ours minus its at its form (its states estimated), split
//     into what its states give (ours at its parameters from its states, against ours at its
//     parameters from our heuristic start) and the optimiser (ours at its parameters from our
//     start below our optimum: our optimiser stopped at a worse point; its at ours below its
//     optimum: its optimiser did);
//   - the parameter count: the form AICc would pick with the heuristic start counted as
//     statsmodels counts it under 'heuristic' (smoothing parameters and the variance only).
interface SmFit {
  aicc: number;
  llf: number;
  k: number;
  params: [number, number, number, number];
  l: number;
  b: number;
  s: number[];
  forecast: number[];
}
type SmForms = Record<'estimated' | 'heuristic', Record<string, SmFit>>;
const FORMS_CACHE = join(ROOT, 'node_modules', '.cache', 'timeseries-ets-forms');

function runPeer(cmd: string, tasks: object[]): Record<string, unknown> {
  const dir = mkdtempSync(join(tmpdir(), 'ts-ets-'));
  try {
    writeFileSync(join(dir, 'job.json'), JSON.stringify({ tasks }));
    const r = spawnSync(PYTHON, [STATSMODELS_SCRIPT, cmd, join(dir, 'job.json')], {
      encoding: 'utf8',
      maxBuffer: 1 << 28,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, PYTHONWARNINGS: 'ignore' },
    });
    if (r.status !== 0) throw new Error(`statsmodels_peer.py ${cmd}: exit ${r.status}`);
    return JSON.parse(r.stdout) as Record<string, unknown>;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function smFormsOf(jobs: { key: string; y: number[]; m: number; h: number }[]) {
  mkdirSync(FORMS_CACHE, { recursive: true });
  const file = (j: (typeof jobs)[number]) =>
    join(
      FORMS_CACHE,
      `${createHash('sha256')
        .update(JSON.stringify([j.y, j.m, j.h]))
        .digest('hex')
        .slice(0, 32)}.json`,
    );
  const out = new Map<string, SmForms>();
  const todo = jobs.filter((j) => {
    if (!existsSync(file(j))) return true;
    out.set(j.key, JSON.parse(readFileSync(file(j), 'utf8')) as SmForms);
    return false;
  });
  // Only the series-origins fitted before unless TIMESERIES_ETS_FIT=1, which fits the rest
  // (statsmodels' ETS at every form twice: minutes for a daily set).
  if (todo.length > 0 && process.env.TIMESERIES_ETS_FIT === '1') {
    const res = runPeer(
      'etsforms',
      todo.map((j) => ({ ...j, file: file(j) })),
    ) as Record<string, SmForms>;
    for (const j of todo) out.set(j.key, res[j.key]);
  }
  return out;
}

const formKey = (f: EtsForm) => `${f.error},${f.trend},${f.season}`;
const formOf = (k: string): EtsForm => {
  const [error, trend, season] = k.split(',');
  return { error, trend, season } as EtsForm;
};
/**
 * The fit with the lowest AICc whose forecast is sane, as the peer script's guard refuses a
 * runaway (beyond the training values' range by more than that range).
 */
const bestOf = (r: Record<string, SmFit>, y: ArrayLike<number>): [string, SmFit] | null => {
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < y.length; i++) {
    lo = Math.min(lo, y[i]);
    hi = Math.max(hi, y[i]);
  }
  const range = hi > lo ? hi - lo : Math.max(Math.abs(hi), 1);
  const sane = (f: number[]) =>
    f.every((v) => Number.isFinite(v) && v >= lo - range && v <= hi + range);
  const sorted = Object.entries(r).sort((a, b) => a[1].aicc - b[1].aicc);
  return sorted.find(([, f]) => sane(f.forecast)) ?? null;
};

async function formsReport() {
  const detailF = process.env.TIMESERIES_ETS_DETAIL === '1';
  const totals = new Map<string, number[]>();
  const add = (k: string, v: number) => {
    const a = totals.get(k) ?? [];
    a.push(v);
    totals.set(k, a);
  };
  console.log(
    'set | SO | ours | sm est | sm heur | ours at sm form | sm at our form | same form | at sm form: -2logL ours - sm | of it sm states (ours at sm params: our start - sm start) | our opt worse | sm opt worse | ours, heuristic count | forms ours / sm',
  );
  for (const set of sets) {
    const d = await set.data();
    const tasks = tasksOf(set, d);
    const jobs = tasks.map((t) => ({
      key: `${t.set}#${t.origin}#${t.key}`,
      y: t.train.slice(-(set.peerRows ?? t.train.length)),
      m: set.period,
      h: t.truth.length,
    }));
    const sm = smFormsOf(jobs);
    const rows: {
      key: string;
      mOurs: number;
      mSm: number;
      mHeur: number;
      mOursAtSm: number;
      mSmAtOurs: number;
      same: boolean;
      gap: number;
      states: number;
      ourOpt: boolean;
      smOpt: boolean;
      mCount: number;
      fo: string;
      fs: string;
      at: { form: string; params: number[]; l: number; b: number; s: number[] };
      oursM2ll: number;
      smM2ll: number;
    }[] = [];
    for (let i = 0; i < tasks.length; i++) {
      const t = tasks[i];
      const j = jobs[i];
      const r = sm.get(j.key);
      if (!r) continue;
      const y = Float64Array.from(j.y);
      const n = y.length;
      const h = t.truth.length;
      const scale = maseScale(t.train, set.period);
      const mase = (f: ArrayLike<number>) => {
        let e = 0;
        for (let k = 0; k < h; k++) e += Math.abs(f[k] - t.truth[k]);
        return e / h / scale;
      };
      const fc = (fit: EtsFit | null) => {
        const out = new Float64Array(h).fill(y[n - 1]);
        if (fit) etsForecast(fit, y, 0, n - 1, h, out, 0);
        return out;
      };
      const all = etsFits(y, 0, n - 1, set.period);
      const ours = fitEts(y, 0, n - 1, set.period);
      const sBest = bestOf(r.estimated, y);
      const hBest = bestOf(r.heuristic, y);
      if (!ours || !sBest) continue;
      const fo = formKey(ours);
      const fs = sBest[0];
      const oursAtSm =
        fs === fo
          ? ours
          : (all.find((f) => formKey(f) === fs) ?? fitEts(y, 0, n - 1, set.period, [formOf(fs)]));
      const smAtOurs = r.estimated[fo];
      // The heuristic start counted as statsmodels counts it under 'heuristic'.
      const counted = all.reduce<EtsFit | null>((b, f) => {
        const mm = f.season !== 'N' ? f.m : 1;
        const states = 1 + (f.trend !== 'N' ? 1 : 0) + (f.season !== 'N' ? mm - 1 : 0);
        const k0 =
          1 +
          (f.trend !== 'N' ? 1 : 0) +
          (f.season !== 'N' ? 1 : 0) +
          (f.trend === 'Ad' ? 1 : 0) +
          states +
          1;
        const k = k0 - states;
        const m2 = f.aicc - 2 * k0 - (2 * k0 * (k0 + 1)) / Math.max(1, n - k0 - 1);
        const a = m2 + 2 * k + (2 * k * (k + 1)) / Math.max(1, n - k - 1);
        return b && b.aicc <= a ? b : { ...f, aicc: a };
      }, null);
      let gap = NaN;
      let states = NaN;
      let ourOpt = false;
      if (oursAtSm) {
        const p = sBest[1].params;
        const atSm = { ...oursAtSm, alpha: p[0], beta: p[1], gamma: p[2], phi: p[3] };
        const own = etsLikelihood(oursAtSm, y, 0, n - 1).m2ll;
        const smStart = etsLikelihood(atSm, y, 0, n - 1, sBest[1]).m2ll;
        const ourStart = etsLikelihood(atSm, y, 0, n - 1).m2ll;
        gap = own - -2 * sBest[1].llf;
        states = ourStart - smStart;
        ourOpt = ourStart < own - 0.01;
      }
      const oursLik = etsLikelihood(ours, y, 0, n - 1);
      rows.push({
        key: j.key,
        mOurs: mase(fc(ours)),
        mSm: mase(sBest[1].forecast),
        mHeur: hBest ? mase(hBest[1].forecast) : NaN,
        mOursAtSm: mase(fc(oursAtSm)),
        mSmAtOurs: smAtOurs ? mase(smAtOurs.forecast) : NaN,
        same: fo === fs,
        gap,
        states,
        ourOpt,
        smOpt: false,
        mCount: mase(fc(counted)),
        fo,
        fs,
        at: {
          form: fo,
          params: [ours.alpha, ours.beta, ours.gamma, ours.phi],
          l: oursLik.l,
          b: oursLik.b,
          s: oursLik.s,
        },
        oursM2ll: oursLik.m2ll,
        smM2ll: smAtOurs ? -2 * smAtOurs.llf : NaN,
      });
    }
    if (rows.length === 0) {
      console.log(`${set.name} | 0 (statsmodels' forms not cached: TIMESERIES_ETS_FIT=1)`);
      continue;
    }
    // Its log-likelihood at our parameters and states, at our form: its optimiser below ours?
    const at = runPeer(
      'etsat',
      rows.map((x) => ({
        key: x.key,
        y: jobs.find((j) => j.key === x.key)!.y,
        m: set.period,
        at: [x.at],
      })),
    ) as Record<string, (number | null)[]>;
    let filterGap = 0;
    for (const x of rows) {
      const v = at[x.key]?.[0];
      if (v == null) continue;
      filterGap = Math.max(filterGap, Math.abs(-2 * v - x.oursM2ll));
      x.smOpt = -2 * v < x.smM2ll - 0.01;
    }
    const mean = (f: (x: (typeof rows)[number]) => number) => {
      const v = rows.map(f).filter(Number.isFinite);
      return v.reduce((a, b) => a + b, 0) / Math.max(1, v.length);
    };
    const fmt = (v: number, d = 4) => (Number.isFinite(v) ? v.toFixed(d) : '-');
    const count = (f: (x: (typeof rows)[number]) => boolean) => rows.filter(f).length;
    const cols = {
      ours: mean((x) => x.mOurs),
      sm: mean((x) => x.mSm),
      heur: mean((x) => x.mHeur),
      oursAtSm: mean((x) => x.mOursAtSm),
      smAtOurs: mean((x) => x.mSmAtOurs),
      counted: mean((x) => x.mCount),
    };
    for (const [k, v] of Object.entries(cols)) add(k, v);
    const forms = (pick: (x: (typeof rows)[number]) => string) => {
      const c = new Map<string, number>();
      for (const x of rows) c.set(pick(x), (c.get(pick(x)) ?? 0) + 1);
      return [...c]
        .sort((a, b) => b[1] - a[1])
        .map(([f, k]) => `${f} ${k}`)
        .join(' ');
    };
    console.log(
      `${set.name} | ${rows.length} | ${fmt(cols.ours)} | ${fmt(cols.sm)} | ${fmt(cols.heur)} | ${fmt(cols.oursAtSm)} | ${fmt(cols.smAtOurs)} | ${count((x) => x.same)} | ${fmt(
        mean((x) => x.gap),
        2,
      )} | ${fmt(
        mean((x) => x.states),
        2,
      )} | ${count((x) => x.ourOpt)} | ${count((x) => x.smOpt)} | ${fmt(cols.counted)} | ${forms((x) => x.fo)} / ${forms((x) => x.fs)} (filter check: ${filterGap.toExponential(1)})`,
    );
    if (detailF) {
      for (const x of rows) {
        console.log(
          `  ${x.key}: ours ${x.fo} ${x.mOurs.toFixed(3)}, sm ${x.fs} ${x.mSm.toFixed(3)}, heur ${x.mHeur.toFixed(3)}, ours at sm form ${x.mOursAtSm.toFixed(3)}, sm at ours ${x.mSmAtOurs.toFixed(3)}; -2logL gap ${x.gap.toFixed(2)}, states ${x.states.toFixed(2)}${x.ourOpt ? ', our optimiser worse' : ''}${x.smOpt ? ', its optimiser worse' : ''}`,
        );
      }
    }
  }
  const g = (k: string) => {
    const v = totals.get(k) ?? [];
    return Math.exp(v.reduce((a, b) => a + Math.log(b), 0) / Math.max(1, v.length));
  };
  console.log(
    `geometric means: ours ${g('ours').toFixed(4)}, sm estimated ${g('sm').toFixed(4)}, sm heuristic ${g('heur').toFixed(4)}, ours at sm's form ${g('oursAtSm').toFixed(4)}, sm at our form ${g('smAtOurs').toFixed(4)}, ours with the heuristic's count ${g('counted').toFixed(4)}`,
  );
}

if (process.env.TIMESERIES_ETS_FORMS === '1') await formsReport();
else await searchReport();
