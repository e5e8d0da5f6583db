// The candidates of a forecaster, scored by rolling-origin validation: the baselines
// (seasonal-naive, naive, drift), the statistical models fitted per series (Theta, ETS, seasonal
// ARIMA) and their combination, and the pooled GBMs (direct, recursive). Every candidate forecasts
// the same origins of every fold: the main (last) validation split and up to two earlier ones,
// each from models fitted only on the rows before the fold's cut. selection.ts then chooses per
// series from these forecasts, calibration.ts calibrates the intervals on them.

import type { ResolvedSettings } from '../api';
import { now } from '../pipeline/progress';
import type { Rng } from '../prng';
import {
  type ExampleContext,
  examplesOfOrigins,
  originsBetween,
  timeSplit,
  trainingExamples,
} from './examples';
import { advantage } from './evidence';
import { type GbmFit, MIN_GBM_EXAMPLES, fitGbm } from './gbm-fit';
import {
  type Candidate,
  type LocalCandidate,
  type OriginSource,
  type Origins,
  packOrigins,
  runCandidate,
} from './model';
import {
  LOCAL_NAMES,
  type LocalFit,
  type LocalHint,
  type LocalName,
  fitLocal,
  sameForm,
} from './stat/local';
import { isIntermittent } from './stat/tsb';
import type { CandidateName } from './types';

/** Calibration and selection folds before the main split (each a model refitted before its cut). */
const EARLIER_FOLDS = 2;
/** Training examples of an earlier fold's GBM (a seeded sample beyond). */
const FOLD_MAX_EXAMPLES = 80_000;
/**
 * A set of more series than the validated sample (train.ts) validates on a sample throughout:
 * its GBMs on at most this many training examples, an earlier fold's on SAMPLE_FOLD_EXAMPLES
 * (the winner is refitted on training + validation examples). 1,000 groups x 200 steps spent
 * 23 s of their 75 s of CPU on GBMs fitted on 240k and 200k examples that lost to ARIMA.
 */
const SAMPLE_MAX_EXAMPLES = 80_000;
const SAMPLE_FOLD_EXAMPLES = 20_000;
/** Origins scored per earlier fold (a seeded sample beyond). */
const FOLD_MAX_ORIGINS = 6_000;
/**
 * Standard errors by which the main split must show a GBM worse than the best candidate for it
 * not to be refitted on the earlier folds: as clear as a series' own evidence must be to leave
 * the set's choice (selection.ts, EVIDENCE_Z).
 */
const OUTCLASS_Z = 3;
/** The least an earlier fold's GBM residuals are scaled by for its model's lesser skill. */
const FOLD_SKILL_MIN = 0.8;

/** One fold: its cut, its origins (series, row) packed, their truth and age. */
export interface Fold {
  /** 0: the main validation split; 1, 2: earlier ones. */
  index: number;
  cut: Int32Array;
  origins: [number, number][];
  packed: Origins;
  truth: (i: number, k: number) => number;
  /** Per origin: how long before the main split it is, in validation periods (0 on the main split). */
  age: Float64Array;
}

/** A candidate's forecasts of one fold's origins. */
interface FoldRun {
  pred: Float64Array;
  scale: Float64Array;
  /** Its residuals count this much in the interval calibration (an earlier fold's GBM: < 1). */
  factor: number;
  /**
   * A local model (and the combination, the ensemble: all their local members), per origin: 0
   * where its series' model could not be fitted before the fold's cut, so it forecast
   * seasonal-naive there (calibration.ts leaves those residuals out of its bands).
   */
  fitted?: Uint8Array;
}

/** One candidate: its forecasts of every fold (null where it could not run) and its cost. */
export interface Scored {
  name: CandidateName;
  /** The candidate as fitted on the main split (for the GBM, before its refit). */
  candidate: Candidate;
  runs: (FoldRun | null)[];
  /** Seconds spent fitting and running it. */
  trainingTime: number;
  /** Examples the GBM was fitted on and the iterations it kept (for the refit). */
  fit?: GbmFit;
  /** Local models: per series, the main split's fit (its form or order, for later refits). */
  mainFits?: (LocalFit | null)[];
  /** Per fold: that fold's models forecasting the main split's origins (for the skill factor). */
  onMain?: (FoldRun | null)[];
  /** The ensemble: the candidates it averages. */
  members?: CandidateName[];
  /** A GBM not refitted before the earlier folds' cuts (so scored on the main split alone): why. */
  mainOnly?: string;
  /**
   * Such a GBM once chosen: its runs with the earlier folds refitted where it has the rows, for
   * the interval calibration only (its validation score stays the main split's).
   */
  calibrationRuns?: (FoldRun | null)[];
}

/** The validation set-up every candidate is scored on. */
export interface ValidationContext {
  ctx: ExampleContext;
  /** The main (last) validation split. */
  cut: Int32Array;
  /** The GBMs' early-stopping origins (every series). */
  valOrigins: [number, number][];
  folds: Fold[];
  /** Series whose local models are fitted and validated (all of them, or a seeded sample). */
  validated: number[];
  /** Whether `validated` is a sample (a large set): its GBMs are fitted on fewer examples too. */
  sample: boolean;
  sourceOf: (o: [number, number]) => OriginSource;
  settings: ResolvedSettings;
  rng: Rng;
  /** Restricts the local models' forms and orders on the series (a large set's sample search). */
  hint: LocalHint;
}

/**
 * The folds: the main split from `cut`, then earlier cuts at 2 and 3 times the validation
 * fraction while they move some series' cut earlier. Each fold's origins run from its cut - 1 to
 * the next fold's cut - 2 (the main's to each series' second last row), over the validated series.
 */
export function buildFolds(
  ctx: ExampleContext,
  cut: Int32Array,
  validated: number[],
  settings: ResolvedSettings,
  sourceOf: (o: [number, number]) => OriginSource,
  mainCap: number,
): Fold[] {
  const { series, spec, layout } = ctx;
  const W = spec.window;
  const H = spec.horizon;
  const G = layout.groupColumns.length;
  const keep = new Uint8Array(series.length);
  for (const g of validated) keep[g] = 1;
  const ageOf = (g: number, t: number): number => {
    const s = series[g].t;
    const ref = s[Math.min(cut[g], s.length - 1)];
    const span = (s[s.length - 1] - s[0]) * settings.validationFraction;
    const age = ref - s[t];
    return age <= 0 || !(span > 0) ? 0 : age / span;
  };
  const make = (index: number, foldCut: Int32Array, origins: [number, number][]): Fold => ({
    index,
    cut: foldCut,
    origins,
    packed: packOrigins(origins.map(sourceOf), spec, H, G),
    truth: (i, k) => {
      const [g, t] = origins[i];
      return t + k < series[g].y.length ? series[g].y[t + k] : NaN;
    },
    age: Float64Array.from(origins, ([g, t]) => (index === 0 ? 0 : ageOf(g, t))),
  });
  const mainOrigins = originsBetween(
    series,
    (g) => (keep[g] ? Math.max(W - 1, cut[g] - 1) : Infinity),
    (g) => series[g].t.length - 2,
    mainCap,
    settings.seed,
  );
  const folds = [make(0, cut, mainOrigins)];
  let next = cut;
  for (let j = 1; j <= EARLIER_FOLDS; j++) {
    const fraction = Math.min(0.9, settings.validationFraction * (1 + j));
    const foldCut = timeSplit(series, W, fraction);
    let earlier = false;
    series.forEach((_, g) => (earlier ||= keep[g] === 1 && foldCut[g] < next[g]));
    if (!earlier) break;
    const until = next;
    const list = originsBetween(
      series,
      (g) => (keep[g] ? Math.max(W - 1, foldCut[g] - 1) : Infinity),
      (g) => Math.min(until[g], series[g].t.length) - 2,
      FOLD_MAX_ORIGINS,
      settings.seed + j,
    );
    if (list.length === 0) break;
    folds.push(make(j, foldCut, list));
    next = foldCut;
  }
  return folds;
}

/** Runs a candidate on a fold's origins. */
function runFold(c: Candidate, v: ValidationContext, fold: Fold, factor = 1): FoldRun {
  const { pred, scale } = runCandidate(c, v.ctx.spec, v.ctx.layout, fold.packed);
  return { pred, scale, factor };
}

/**
 * Scores every candidate on every fold: baselines as they are; local models fitted per validated
 * series on the rows before each fold's cut (the form or order searched on the main split's rows,
 * refitted on the earlier folds'); their combination; each GBM fitted on the main split (early
 * stopping on `valOrigins`), and the better one refitted before each earlier cut.
 */
export function scoreCandidates(v: ValidationContext): Scored[] {
  const { ctx, folds, settings } = v;
  const { spec } = ctx;
  const { period, horizon: H } = spec;
  const names: CandidateName[] = [
    'seasonal_naive',
    ...(period > 1 ? ['naive' as const] : []),
    'drift',
  ];
  const scored: Scored[] = names.map((name) => {
    const c0 = now();
    const candidate = { name } as Candidate;
    const runs = folds.map((f) => runFold(candidate, v, f));
    return { name, candidate, runs, trainingTime: (now() - c0) / 1000 };
  });
  const locals = scoreLocals(v, LOCAL_NAMES);
  scored.push(...locals);
  if (locals.length === LOCAL_NAMES.length) scored.push(combine(locals, v));
  // Intermittent demand (stat/tsb.ts): offered only when some validated series is intermittent
  // on the main split's rows (on the others it forecasts seasonal-naive, as a local model that
  // could not be fitted does).
  if (v.validated.some((g) => isIntermittent(ctx.series[g].y, 0, v.cut[g] - 1))) {
    scored.push(...scoreLocals(v, ['tsb']));
  }
  const gbms: Scored[] = [];
  // With HORIZON 1 the recursive model would be the direct one trained twice.
  const strategies = H > 1 ? (['direct', 'recursive'] as const) : (['direct'] as const);
  for (const strategy of strategies) {
    const c0 = now();
    const steps = strategy === 'direct' ? H : 1;
    const train = trainingExamples(
      ctx.series,
      v.cut,
      spec.window,
      steps,
      v.rng,
      strategy,
      ...(v.sample ? [SAMPLE_MAX_EXAMPLES] : []),
    );
    if (train.n < MIN_GBM_EXAMPLES) continue;
    const val = examplesOfOrigins(ctx.series, v.valOrigins, steps);
    const fit = fitGbm(ctx, train, val, settings, v.rng);
    const name = strategy === 'direct' ? 'gbm_direct' : 'gbm_recursive';
    const candidate: Candidate = { name, part: fit.part };
    const runs: (FoldRun | null)[] = [runFold(candidate, v, folds[0])];
    gbms.push({ name, candidate, runs, trainingTime: (now() - c0) / 1000, fit });
  }
  // The earlier folds refit only the GBM that did better on the main split: fitting both would
  // double the most expensive part of training, and only one GBM is kept. Nor that one when the
  // main split already rules it out (refitting it twice and running it over every fold's origins
  // was a fifth of a 1,000-group set's training, for a GBM ARIMA beat by 4.3 standard errors).
  let best: Scored | null = null;
  for (const s of gbms) if (!best || foldError(s, folds[0]) < foldError(best, folds[0])) best = s;
  const why = best && folds.length > 1 ? outclassed(best, scored, folds[0]) : null;
  for (const s of gbms) {
    if (s !== best || why) {
      s.mainOnly =
        s !== best
          ? `the other GBM erred less on the last validation fold, so only that one was refitted before the earlier ones`
          : why!;
      for (let j = 1; j < folds.length; j++) s.runs.push(null);
      continue;
    }
    const c0 = now();
    for (let j = 1; j < folds.length; j++) {
      const run = gbmFold(s, folds[j], v);
      if (!run) s.mainOnly = 'too few rows to refit it before the earlier validation folds';
      s.runs.push(run);
    }
    s.trainingTime += (now() - c0) / 1000;
  }
  scored.push(...gbms);
  return scored;
}

/**
 * A GBM scored on the main split alone and chosen there (selection.ts): refitted before each
 * earlier fold's cut where it has the rows, so that its intervals are calibrated on forecasts
 * made before the period they cover too, not only on the main split's windows, on which its
 * iterations were early-stopped (those alone gave bands that held 0.74 / 0.83 of the demo
 * house_sales' outcomes at 80 / 90 %).
 */
export function refitForCalibration(s: Scored, v: ValidationContext): void {
  if (!s.fit || s.calibrationRuns) return;
  s.calibrationRuns = s.runs.map((run, j) => run ?? gbmFold(s, v.folds[j], v));
}

/** Per origin of a fold: a run's mean |error| / scale over the steps with a truth (NaN: none). */
function originErrors(run: FoldRun, fold: Fold): Float64Array {
  const H = fold.packed.H;
  const out = new Float64Array(fold.packed.n);
  for (let i = 0; i < fold.packed.n; i++) {
    let sum = 0;
    let steps = 0;
    for (let k = 1; k <= H; k++) {
      const y = fold.truth(i, k);
      if (Number.isNaN(y)) break;
      sum += Math.abs(y - run.pred[i * H + k - 1]) / run.scale[i];
      steps++;
    }
    out[i] = steps > 0 ? sum / steps : NaN;
  }
  return out;
}

/**
 * Why the main split already rules a GBM out (null: it does not): the candidate with the least
 * error on it (among those scored on every fold) beats the GBM by more than OUTCLASS_Z standard
 * errors of their paired per-origin difference (H consecutive origins counted as one window).
 * Such a GBM could be neither the set's choice nor a member of an ensemble (which needs a gap
 * under two standard errors), and is not worth refitting before the earlier folds' cuts.
 */
export function outclassed(gbm: Scored, scored: Scored[], main: Fold): string | null {
  let best: Scored | null = null;
  for (const s of scored) {
    if (s.runs.length < 1 || s.runs.some((r) => r === null)) continue;
    if (!best || foldError(s, main) < foldError(best, main)) best = s;
  }
  if (!best) return null;
  const mine = foldError(gbm, main);
  const theirs = foldError(best, main);
  if (!(mine > theirs)) return null;
  const a = originErrors(gbm.runs[0]!, main);
  const b = originErrors(best.runs[0]!, main);
  const idx = Array.from({ length: a.length }, (_, i) => i);
  const z = advantage(b, a, idx, Math.max(2, a.length / main.packed.H));
  if (!(z > OUTCLASS_Z)) return null;
  const more =
    theirs > 0
      ? `${Math.round((mine / theirs - 1) * 100)} % more than ${best.name}`
      : `where ${best.name} was exact`;
  return `it erred ${more} on the last validation fold (${z.toFixed(1)} standard errors), so it could not be chosen and was not refitted before the earlier ones`;
}

/** Sum of |error| / scale of a candidate over a fold (Infinity when it did not run). */
function foldError(s: Scored, fold: Fold): number {
  const run = s.runs[fold.index];
  if (!run) return Infinity;
  const H = fold.packed.H;
  let sum = 0;
  for (let i = 0; i < fold.packed.n; i++) {
    for (let k = 1; k <= H; k++) {
      const y = fold.truth(i, k);
      if (Number.isNaN(y)) break;
      sum += Math.abs(y - run.pred[i * H + k - 1]) / run.scale[i];
    }
  }
  return sum;
}

/** The GBM `s` refitted on the examples before an earlier fold's cut, run on its origins. */
function gbmFold(s: Scored, fold: Fold, v: ValidationContext): FoldRun | null {
  const { ctx, settings } = v;
  const fit = s.fit!;
  const strategy = s.name === 'gbm_direct' ? 'direct' : 'recursive';
  const steps = strategy === 'direct' ? ctx.spec.horizon : 1;
  const train = trainingExamples(
    ctx.series,
    fold.cut,
    ctx.spec.window,
    steps,
    v.rng,
    strategy,
    v.sample ? SAMPLE_FOLD_EXAMPLES : FOLD_MAX_EXAMPLES,
  );
  if (train.n < MIN_GBM_EXAMPLES) return null;
  const foldFit = fitGbm(ctx, train, null, settings, v.rng, Math.max(1, fit.iterations));
  const candidate: Candidate = {
    name: s.name as 'gbm_direct' | 'gbm_recursive',
    part: foldFit.part,
  };
  // A fold's model learned from fewer rows than the validated one and errs more for that alone;
  // in the interval calibration its residuals are scaled by how much more it erred on the main
  // split's origins, so they carry how hard their stretch of history was, not how much less the
  // model knew (clamped: the correction only narrows, and at most by FOLD_SKILL_MIN).
  const main = v.folds[0];
  const onMain = runFold(candidate, v, main);
  const mine = foldError(s, main);
  const theirs = foldError({ ...s, runs: [onMain] }, main);
  const skill = theirs > 0 ? mine / theirs : 1;
  return runFold(candidate, v, fold, Math.min(1, Math.max(FOLD_SKILL_MIN, skill)));
}

/**
 * The local candidates: per validated series and fold, each model fitted on the rows before the
 * fold's cut. The main fold searches the form (ETS) or order (ARIMA); earlier folds refit it.
 * An earlier fold's fits also forecast the main split's origins, for their skill factor.
 */
function scoreLocals(v: ValidationContext, names: readonly LocalName[]): Scored[] {
  const { ctx, folds, validated } = v;
  const { series, spec } = ctx;
  const out: Scored[] = [];
  for (const name of names) {
    const c0 = now();
    const mainFits: (LocalFit | null)[] = series.map(() => null);
    const runs: FoldRun[] = [];
    const onMain: (FoldRun | null)[] = [];
    for (const fold of folds) {
      const fits: (LocalFit | null)[] = series.map(() => null);
      for (const g of validated) {
        const end = fold.cut[g] - 1;
        if (end < 0) continue;
        const main = mainFits[g];
        const hint = fold.index === 0 ? v.hint : main ? sameForm(main) : null;
        if (hint === null) continue;
        const clock = spec.yearStep ? { t: series[g].t, step: spec.yearStep } : undefined;
        fits[g] = fitLocal(name, series[g].y, 0, end, spec.period, hint, clock, series[g].t);
        if (fold.index === 0) mainFits[g] = fits[g];
      }
      const candidate = { name, fits };
      const run = runFold(candidate, v, fold);
      run.fitted = Uint8Array.from(fold.origins, ([g]) => (fits[g] ? 1 : 0));
      runs.push(run);
      onMain.push(fold.index === 0 ? null : runFold(candidate, v, folds[0]));
    }
    out.push({
      name,
      candidate: { name, fits: mainFits },
      runs,
      trainingTime: (now() - c0) / 1000,
      mainFits,
      onMain,
    });
  }
  for (const s of out) setSkill(s, folds);
  return out;
}

/**
 * An earlier fold's models learned from fewer rows than the main split's and err more for that
 * alone: in the interval calibration their residuals are scaled by how much more they erred on
 * the main split's origins, so they carry how hard their stretch of history was, not how much
 * less the models knew (clamped: the correction only narrows, and at most by FOLD_SKILL_MIN).
 */
function setSkill(s: Scored, folds: Fold[]): void {
  const mine = foldError(s, folds[0]);
  for (let j = 1; j < folds.length; j++) {
    const run = s.runs[j];
    const other = s.onMain?.[j];
    if (!run || !other) continue;
    const theirs = foldError({ ...s, runs: [other] }, folds[0]);
    const skill = theirs > 0 ? mine / theirs : 1;
    run.factor = Math.min(1, Math.max(FOLD_SKILL_MIN, skill));
  }
}

/** The mean of runs' forecasts (each origin-step's finite ones). */
function meanRun(runs: FoldRun[]): FoldRun {
  const len = runs[0].pred.length;
  const pred = new Float64Array(len);
  const count = new Float64Array(len);
  for (const r of runs) {
    for (let j = 0; j < len; j++) {
      if (Number.isFinite(r.pred[j])) {
        pred[j] += r.pred[j];
        count[j]++;
      }
    }
  }
  for (let j = 0; j < len; j++) pred[j] = count[j] > 0 ? pred[j] / count[j] : NaN;
  let fitted: Uint8Array | undefined;
  for (const r of runs) {
    if (!r.fitted) continue;
    fitted ??= new Uint8Array(r.fitted.length).fill(1);
    for (let i = 0; i < fitted.length; i++) fitted[i] &= r.fitted[i];
  }
  return { pred, scale: runs[0].scale, factor: 1, ...(fitted ? { fitted } : {}) };
}

/** The combination: the mean of the local models' forecasts, fold by fold. */
function combine(locals: Scored[], v: ValidationContext): Scored {
  const runs = v.folds.map((fold) => meanRun(locals.map((s) => s.runs[fold.index]!)));
  const onMain = v.folds.map((fold) =>
    fold.index === 0 ? null : meanRun(locals.map((s) => s.onMain![fold.index]!)),
  );
  const trainingTime = locals.reduce((a, s) => a + s.trainingTime, 0);
  const s: Scored = {
    name: 'combination',
    candidate: { name: 'combination', members: locals.map((l) => l.candidate as LocalCandidate) },
    runs,
    trainingTime,
    onMain,
  };
  setSkill(s, v.folds);
  return s;
}

/**
 * The ensemble of candidates the validation windows cannot tell apart: the mean of their
 * forecasts, fold by fold (an earlier fold's residuals scaled by the mean of the members' skill
 * factors). Every member ran on every fold (selection.ts only ties eligible candidates).
 */
export function ensembleOf(members: Scored[], folds: Fold[]): Scored {
  const runs = folds.map((fold) => {
    const parts = members.map((m) => m.runs[fold.index]!);
    const run = meanRun(parts);
    run.factor = parts.reduce((a, r) => a + r.factor, 0) / parts.length;
    return run;
  });
  return {
    name: 'ensemble',
    candidate: { name: 'ensemble', members: members.map((m) => m.candidate) },
    runs,
    trainingTime: 0,
    members: members.map((m) => m.name),
  };
}

/** The candidates `s` forecasts with: itself, its members, and theirs (the combination's locals). */
export function namesIn(s: Pick<Scored, 'name' | 'members'>): CandidateName[] {
  if (s.name === 'combination') return ['combination', ...LOCAL_NAMES];
  if (s.name === 'ensemble') {
    const inner = (s.members ?? []).flatMap((n) => namesIn({ name: n }));
    return ['ensemble', ...new Set(inner)];
  }
  return [s.name];
}

export function ratio(a: number, b: number): number {
  return b > 0 ? a / b : a > 0 ? Infinity : 1;
}

/**
 * Lightwood's 0..1 view of MASE against seasonal-naive (r = 1 / MASE): no better than
 * seasonal-naive scales linearly to 0.5, 10x better is 0.99, and logarithmic squashing beyond.
 */
export function boundedTsAccuracy(mase: number): number {
  if (!(mase >= 0)) return 0;
  const r = mase === 0 ? 1e4 : 1 / mase;
  if (r <= 1) return 0.5 * r;
  if (r <= 10) return 0.5 + 0.49 * Math.log10(r);
  return Math.min(1, 0.99 + (0.01 * Math.log(r / 10)) / Math.log(1e3));
}
