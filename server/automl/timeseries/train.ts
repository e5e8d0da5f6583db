// Training a forecaster: rows -> series (series.ts) -> frequency, season and feature spec -> a
// time-ordered split -> candidates (seasonal-naive, naive, drift, a direct multi-horizon GBM, a
// recursive one-step GBM) scored on the same validation origins -> the best one, conformal
// half-widths per step from its validation errors -> refit on all examples -> the artifact.

import type {
  ColumnarData,
  Dataset,
  FeatureInfo,
  ModelDescription,
  ResolvedSettings,
} from '../api';
import { fitBinThresholds } from '../data/binning';
import { type Table, tableFromDataset, validateTable } from '../data/table';
import { AutoMLError } from '../errors';
import { trainGBM } from '../gbm/boost';
import { DEFAULT_GBM_PARAMS, type GBMParams } from '../gbm/model';
import { serializeGBM } from '../gbm/serialize';
import { toBase64 } from '../base64';
import { DEFAULT_SETTINGS, resolveSettings } from '../options';
import { now, progress } from '../pipeline/progress';
import { round } from '../pipeline/describe';
import { Rng } from '../prng';
import { addLinear, fitLinearPart, serializeLinearPart } from './linear';
import {
  type FeatureLayout,
  MAX_LAGS,
  featureLayout,
  groupCodes,
  writeOriginFeatures,
  writeStepFeatures,
} from './features';
import {
  type InferredFrequency,
  calendarParts,
  frequencyLabel,
  inferFrequency,
  seasonalPeriod,
  writeCalendar,
} from './frequency';
import {
  type Candidate,
  type GbmPart,
  type OriginSource,
  type Origins,
  binRows,
  packOrigins,
  runCandidate,
} from './model';
import {
  type Calibration,
  ageWeight,
  calibrationSketch,
  chooseHalfLife,
  trainingSpan,
  weightedConformalQuantile,
} from './intervals';
import { recalibrationRows } from './recalibrate';
import { type Series, type SeriesSet, buildSeries, findColumn } from './series';
import type {
  CandidateName,
  FeatureSpec,
  ForecastTrainOptions,
  Frequency,
  TimeSeriesArtifact,
  TimeSeriesDescription,
} from './types';

/** Largest WINDOW / HORIZON accepted (a forecast reads WINDOW rows and writes HORIZON per group). */
const MAX_STEPS = 10_000;
/** A GROUP BY column with more values than this is no categorical feature (bins are one byte). */
const MAX_GROUP_CATS = 253;
/** Training examples per GBM (a seeded uniform sample beyond): bounds time and memory. */
const DIRECT_MAX_EXAMPLES = 240_000;
const RECURSIVE_MAX_EXAMPLES = 200_000;
/** Validation origins scored for every candidate (a seeded sample beyond). */
const VAL_MAX_ORIGINS = 6_000;
/** Below this many training examples a GBM cannot beat the baselines reliably: not tried. */
const MIN_GBM_EXAMPLES = 40;
/** Past this many training examples each boosting iteration grows on a sample of GBM_SAMPLE_ROWS. */
const GBM_SAMPLE_MIN_ROWS = 60_000;
const GBM_SAMPLE_ROWS = 40_000;
/** Refit on train + validation examples up to this size (beyond, the validated model is kept). */
const REFIT_MAX_EXAMPLES = 150_000;
const LARGE_MAX_ITERATIONS = 400;
/**
 * Rolling-origin calibration: earlier time cuts whose next segment of history is forecast by a
 * model that saw only the rows before it (the main validation split is the last of these folds).
 */
const CALIBRATION_FOLDS = 2;
/** Training examples of a calibration fold's GBM (a seeded sample beyond). */
const FOLD_MAX_EXAMPLES = 80_000;
/** The least a fold's residuals are scaled by for its model's lesser skill (see calibrationResiduals). */
const FOLD_SKILL_MIN = 0.8;
/** Origins scored per calibration fold (a seeded sample beyond). */
const FOLD_MAX_ORIGINS = 6_000;

export interface TsColumns {
  target: string;
  orderBy: string;
  groupBy: string[];
  window: number;
  horizon: number;
}

function intOption(name: string, v: unknown, dflt?: number): number {
  if (v === undefined && dflt !== undefined) return dflt;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_STEPS) {
    throw new AutoMLError(
      `${name} must be an integer from 1 to ${MAX_STEPS}, got ${JSON.stringify(v)}`,
    );
  }
  return v;
}

/** Validates the time-series clauses. */
export function checkOptions(opts: ForecastTrainOptions): TsColumns {
  if (!opts || typeof opts.target !== 'string' || opts.target === '') {
    throw new AutoMLError('a target column is required (PREDICT <column>)');
  }
  if (typeof opts.orderBy !== 'string' || opts.orderBy === '') {
    throw new AutoMLError('a time-series model needs an ORDER BY column');
  }
  const groupBy = opts.groupBy ?? [];
  if (!Array.isArray(groupBy) || groupBy.some((g) => typeof g !== 'string' || g === '')) {
    throw new AutoMLError('GROUP BY must be a list of column names');
  }
  const lower = (s: string) => s.toLowerCase();
  const seen = new Set<string>();
  for (const g of groupBy) {
    if (seen.has(lower(g))) throw new AutoMLError(`GROUP BY names column '${g}' twice`);
    seen.add(lower(g));
  }
  if (lower(opts.orderBy) === lower(opts.target)) {
    throw new AutoMLError(`ORDER BY column '${opts.orderBy}' cannot also be the target`);
  }
  for (const g of groupBy) {
    if (lower(g) === lower(opts.target) || lower(g) === lower(opts.orderBy)) {
      throw new AutoMLError(
        `GROUP BY column '${g}' cannot also be the target or the ORDER BY column`,
      );
    }
  }
  return {
    target: opts.target,
    orderBy: opts.orderBy,
    groupBy: [...groupBy],
    window: intOption('WINDOW', opts.window),
    horizon: intOption('HORIZON', opts.horizon, 1),
  };
}

/** Trains a forecaster on row-major or columnar data. */
export function trainForecaster(
  data: ColumnarData | Dataset,
  opts: ForecastTrainOptions,
): TimeSeriesArtifact {
  const cols = checkOptions(opts);
  const settings = tsSettings(opts.using, DEFAULT_SETTINGS, opts.seed);
  return trainWith(toTable(data), cols, settings, opts.onProgress);
}

/** USING settings of a time-series model: the common ones, minus a linear-only model. */
function tsSettings(
  using: Record<string, unknown> | undefined,
  base: ResolvedSettings,
  seed: number | undefined,
): ResolvedSettings {
  const s = resolveSettings(using, base, seed);
  if (s.model === 'linear') {
    throw new AutoMLError(
      "USING model = 'linear' does not apply to time-series models; use 'auto' or 'gbm'",
    );
  }
  return s;
}

/**
 * RETRAIN / FINETUNE of a time-series model: trains again on `data` with the base model's
 * target, ORDER BY, GROUP BY, WINDOW, HORIZON and USING settings (USING given here overrides).
 * Boosting more trees onto lag features of another period buys nothing over a fresh fit, and the
 * rows must carry the history the lags read anyway.
 */
export function retrainForecaster(
  base: TimeSeriesArtifact,
  data: ColumnarData | Dataset,
  opts: Partial<Pick<ForecastTrainOptions, 'seed' | 'using' | 'onProgress'>> = {},
): TimeSeriesArtifact {
  const settings = tsSettings(opts.using, base.settings, opts.seed);
  const cols: TsColumns = { target: base.target, ...base.timeseries };
  return trainWith(toTable(data), cols, settings, opts.onProgress);
}

export function toTable(data: ColumnarData | Dataset): Table {
  if (data && Array.isArray((data as Dataset).rows) && Array.isArray(data.columns)) {
    return tableFromDataset(data as Dataset);
  }
  validateTable(data);
  return data;
}

/** One candidate's validation errors. */
interface Scored {
  name: CandidateName;
  candidate: Candidate;
  /** Mean |error| / origin scale over all validated (origin, step) pairs, and per step. */
  score: number;
  stepScore: number[];
  stepMae: number[];
  /** |error| / scale per step (for the conformal quantiles of the selected one). */
  residuals: number[][];
  trainingTime: number;
  /** Examples the GBM was fitted on and the iterations it kept (for the refit). */
  fit?: GbmFit;
}

export function trainWith(
  table: Table,
  cols: TsColumns,
  settings: ResolvedSettings,
  onProgress?: ForecastTrainOptions['onProgress'],
): TimeSeriesArtifact {
  const t0 = now();
  const { window: W, horizon: H } = cols;
  const rng = new Rng(settings.seed);
  progress(onProgress, 1);
  const set = buildSeries(table, cols, 'training data');
  // Column names as the table spells them.
  const orderBy = table.columns[findColumn(table.columns, cols.orderBy)];
  const target = table.columns[findColumn(table.columns, cols.target)];
  const groupBy = cols.groupBy.map((g) => table.columns[findColumn(table.columns, g)]);
  const series = set.series;
  if (series.length === 0) {
    throw new AutoMLError(
      `no training row has both an ORDER BY value ('${orderBy}') and a target value ('${target}')`,
    );
  }
  const inferred = series.map((s) => inferFrequency(s.t, set.orderFormat));
  const longest = longestIndex(series);
  const maxN = series[longest].t.length;
  if (maxN < W + 2) {
    const who = groupBy.length
      ? `the longest group has ${maxN} rows`
      : `the series has ${maxN} rows`;
    throw new AutoMLError(
      `WINDOW ${W} is larger than the history allows: ${who}, and training needs at least WINDOW + 2 rows (WINDOW for the features, one to learn from, one to validate on)`,
    );
  }
  const model = inferred[longest]!;
  const freq = model.freq;
  const period = seasonalPeriod(freq);
  const spec: FeatureSpec = {
    window: W,
    horizon: H,
    lookback: Math.max(W, period > 1 ? period * Math.ceil(H / period) + 1 : 1),
    lags: Math.min(W - 1, MAX_LAGS),
    period,
    calendar: calendarParts(freq),
    groupCats: groupCategories(series, groupBy.length),
  };
  const layout = featureLayout(spec);
  const codes = series.map((s) => groupCodes(s.key, spec, layout));
  const cut = timeSplit(series, W, settings.validationFraction);

  progress(onProgress, 2);
  const cal = series.map((s) => calendarRows(s.t, spec));
  const ctx: ExampleContext = { series, spec, layout, cal, codes };
  const valOrigins = originsFrom(series, (g) => cut[g] - 1, W, VAL_MAX_ORIGINS, settings.seed);
  const sourceOf = ([g, t]: [number, number]): OriginSource => ({
    y: series[g].y,
    t: series[g].t,
    end: t,
    freq: inferred[g]?.freq ?? freq,
    codes: codes[g],
  });
  const truthOf =
    (list: [number, number][]) =>
    (i: number, k: number): number => {
      const [g, t] = list[i];
      return t + k < series[g].y.length ? series[g].y[t + k] : NaN;
    };
  const G = layout.groupColumns.length;
  const origins = packOrigins(valOrigins.map(sourceOf), spec, H, G);
  const truth = truthOf(valOrigins);

  progress(onProgress, 3);
  const names: CandidateName[] = [
    'seasonal_naive',
    ...(period > 1 ? ['naive' as const] : []),
    'drift',
  ];
  const scored: Scored[] = names.map((name) => {
    const c0 = now();
    const s = evaluate(name, { name } as Candidate, spec, layout, origins, truth);
    s.trainingTime = (now() - c0) / 1000;
    return s;
  });
  // With HORIZON 1 the recursive model would be the direct one trained twice.
  const strategies = H > 1 ? (['direct', 'recursive'] as const) : (['direct'] as const);
  for (const strategy of strategies) {
    const c0 = now();
    const train = trainingExamples(series, cut, W, strategy === 'direct' ? H : 1, rng, strategy);
    if (train.n < MIN_GBM_EXAMPLES) continue;
    const val = examplesOfOrigins(series, valOrigins, strategy === 'direct' ? H : 1);
    const fit = fitGbm(ctx, train, val, settings, rng);
    const name = strategy === 'direct' ? 'gbm_direct' : 'gbm_recursive';
    const s = evaluate(name, { name, part: fit.part }, spec, layout, origins, truth);
    s.trainingTime = (now() - c0) / 1000;
    s.fit = fit;
    scored.push(s);
  }
  // Lowest validation error wins; a tie goes to the simpler (earlier) candidate. USING model =
  // 'gbm' picks the better GBM when there is one.
  const pool =
    settings.model === 'gbm' && scored.some((s) => s.fit) ? scored.filter((s) => s.fit) : scored;
  let best = pool[0];
  for (const s of pool) if (s.score < best.score - 1e-12) best = s;

  progress(onProgress, 4);
  const level = settings.confidence;
  const pooled = calibrationResiduals(best, {
    ctx,
    valOrigins,
    origins,
    truth,
    cut,
    settings,
    rng,
    sourceOf,
    truthOf,
  });
  const halfLife = chooseHalfLife(pooled, level);
  const halfWidths: number[] = [];
  const weights: number[][] = [];
  let widest = 0;
  for (let k = 0; k < H; k++) {
    const r = pooled.residuals[k];
    const w = pooled.ages[k].map((a) => ageWeight(a, halfLife));
    weights.push(w);
    // Wider with the step (never narrower than an earlier step's), the usual fan of a forecast.
    if (r.length > 0) widest = Math.max(widest, weightedConformalQuantile(r, w, level));
    halfWidths.push(widest);
  }
  const snaive = scored[0];
  const horizonAccuracy = halfWidths.map((hw, k) => {
    const r = best.residuals[k];
    let inside = 0;
    for (const x of r) if (x <= hw) inside++;
    return {
      step: k + 1,
      mase: round(ratio(best.stepScore[k], snaive.stepScore[k]), 6),
      mae: round(best.stepMae[k], 6),
      coverage: round(r.length ? inside / r.length : 0, 6),
    };
  });

  progress(onProgress, 5);
  let part: GbmPart | null = null;
  if (best.candidate.name === 'gbm_direct' || best.candidate.name === 'gbm_recursive') {
    part = best.candidate.part;
    const fit = best.fit!;
    if (settings.refit && fit.nTrain + fit.nVal <= REFIT_MAX_EXAMPLES && fit.iterations > 0) {
      part = refitGbm(fit, settings);
    }
  }
  const artifact = assemble({
    set,
    cols: { ...cols, target, orderBy, groupBy },
    settings,
    spec,
    layout,
    freq,
    inferred,
    model,
    scored,
    best,
    part,
    halfWidths,
    halfLife,
    pooled,
    weights,
    horizonAccuracy,
    table,
  });
  artifact.description.trainingTimeMs = Math.round(now() - t0);
  return artifact;
}

interface CalibrationContext {
  ctx: ExampleContext;
  /** The main validation origins (best.residuals are theirs), packed, and their truth. */
  valOrigins: [number, number][];
  origins: Origins;
  truth: (i: number, k: number) => number;
  /** The main (last) validation split. */
  cut: Int32Array;
  settings: ResolvedSettings;
  rng: Rng;
  sourceOf: (o: [number, number]) => OriginSource;
  truthOf: (list: [number, number][]) => (i: number, k: number) => number;
}

/**
 * The scale-free residuals (|error| / origin scale, per step) the intervals are calibrated on:
 * the selected candidate's on the main validation split, plus those of earlier stretches of the
 * history, each forecast without having seen it. One validation period is a single market regime
 * (a calm year, say); the quantile of residuals pooled over several rolling origins reflects how
 * forecasts of this series fail over its history, which is what a 90 % interval must cover.
 * Baselines learn nothing, so every origin before the main split is out-of-sample for them; a
 * GBM is refitted per fold on the examples before the fold's cut (for the iterations early
 * stopping kept on the main split) and scored on the origins up to the next cut.
 */
function calibrationResiduals(best: Scored, c: CalibrationContext): Calibration {
  const { ctx, cut, settings } = c;
  const { series, spec, layout } = ctx;
  const W = spec.window;
  const H = spec.horizon;
  const G = layout.groupColumns.length;
  const ageOf = (g: number, t: number): number => {
    const s = series[g].t;
    const ref = s[Math.min(cut[g], s.length - 1)];
    const span = (s[s.length - 1] - s[0]) * settings.validationFraction;
    const age = ref - s[t];
    return age <= 0 || !(span > 0) ? 0 : age / span;
  };
  const out: Calibration = {
    residuals: Array.from({ length: H }, () => []),
    ages: Array.from({ length: H }, () => []),
    main: Array.from({ length: H }, () => []),
  };
  let isMain = true;
  const push = (list: [number, number][], residuals: number[][]) => {
    const truth = c.truthOf(list);
    for (let k = 1; k <= H; k++) {
      let j = 0;
      const r = residuals[k - 1];
      for (let i = 0; i < list.length && j < r.length; i++) {
        if (Number.isNaN(truth(i, k))) continue;
        out.residuals[k - 1].push(r[j++]);
        out.ages[k - 1].push(isMain ? 0 : ageOf(list[i][0], list[i][1]));
        out.main[k - 1].push(isMain);
      }
    }
  };
  const add = (candidate: Candidate, list: [number, number][], factor = 1) => {
    if (list.length === 0) return;
    const origins = packOrigins(list.map(c.sourceOf), spec, H, G);
    const r = evaluate(best.name, candidate, spec, layout, origins, c.truthOf(list)).residuals;
    push(list, factor === 1 ? r : r.map((x) => x.map((v) => v * factor)));
  };
  push(c.valOrigins, best.residuals);
  isMain = false;
  // Origins with the full lookback where the series has it (what a forecast reads).
  const first = Math.max(W - 1, spec.lookback - 1);
  if (!best.fit) {
    const list = originsBetween(
      series,
      (g) => (cut[g] - 2 >= first ? first : W - 1),
      (g) => cut[g] - 2,
      FOLD_MAX_ORIGINS * CALIBRATION_FOLDS,
      settings.seed,
    );
    add(best.candidate, list);
    return out;
  }
  const fit = best.fit;
  const strategy = best.name === 'gbm_direct' ? 'direct' : 'recursive';
  let next = cut;
  for (let j = 1; j <= CALIBRATION_FOLDS; j++) {
    const fraction = Math.min(0.9, settings.validationFraction * (1 + j));
    const foldCut = timeSplit(series, W, fraction);
    let earlier = false;
    series.forEach((_, g) => (earlier ||= foldCut[g] < next[g]));
    if (!earlier) break;
    const train = trainingExamples(
      series,
      foldCut,
      W,
      strategy === 'direct' ? H : 1,
      c.rng,
      strategy,
      FOLD_MAX_EXAMPLES,
    );
    if (train.n < MIN_GBM_EXAMPLES) break;
    const until = next;
    const list = originsBetween(
      series,
      (g) => Math.max(W - 1, foldCut[g] - 1),
      (g) => Math.min(until[g], series[g].t.length) - 2,
      FOLD_MAX_ORIGINS,
      settings.seed + j,
    );
    const foldFit = fitGbm(ctx, train, null, settings, c.rng, Math.max(1, fit.iterations));
    const candidate: Candidate = {
      name: best.name as 'gbm_direct' | 'gbm_recursive',
      part: foldFit.part,
    };
    // A fold's model learned from fewer rows than the validated one and errs more for that alone;
    // its residuals are scaled by how much more it errs on the main validation origins, so they
    // carry how hard their stretch of history was, not how much less the model knew (clamped:
    // the correction only narrows, and at most by FOLD_SKILL_MIN).
    const onMain = evaluate(best.name, candidate, spec, layout, c.origins, c.truth);
    const skill = onMain.score > 0 ? best.score / onMain.score : 1;
    add(candidate, list, Math.min(1, Math.max(FOLD_SKILL_MIN, skill)));
    next = foldCut;
  }
  return out;
}

function ratio(a: number, b: number): number {
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

function longestIndex(series: Series[]): number {
  let best = 0;
  for (let g = 1; g < series.length; g++) if (series[g].t.length > series[best].t.length) best = g;
  return best;
}

/**
 * The categories of each GROUP BY column (in first-appearance order), or null where the column
 * has a single value or more than fit a one-byte bin.
 */
function groupCategories(series: Series[], nCols: number): (string[] | null)[] {
  const out: (string[] | null)[] = [];
  for (let c = 0; c < nCols; c++) {
    const seen = new Set<string>();
    for (const s of series) seen.add(s.key.split('\u0001')[c]);
    out.push(seen.size >= 2 && seen.size <= MAX_GROUP_CATS ? [...seen] : null);
  }
  return out;
}

/** Calendar parts of every timestamp of a series (n x parts). */
function calendarRows(t: Float64Array, spec: FeatureSpec): Float64Array {
  const C = spec.calendar.length;
  const out = new Float64Array(t.length * C);
  if (C > 0) for (let i = 0; i < t.length; i++) writeCalendar(t[i], spec.calendar, out, i * C);
  return out;
}

/**
 * The time-ordered split: `cut[g]` is the first row of series g whose target is validation-only.
 * One global timestamp splits every series (the last `fraction` of all rows in time), so no
 * training target is later than the validation period of any other series; if that leaves no
 * training or no validation examples (very uneven series), each series is split at its own last
 * `fraction` instead. Training examples have targets before the cut; validation origins sit at or
 * after cut - 1 and forecast targets from the cut on.
 */
export function timeSplit(series: Series[], W: number, fraction: number): Int32Array {
  const all: number[] = [];
  for (const s of series) if (s.t.length >= W + 1) for (const x of s.t) all.push(x);
  all.sort((a, b) => a - b);
  const tCut = all[Math.min(all.length - 1, Math.floor((1 - fraction) * all.length))];
  const cut = new Int32Array(series.length);
  let nTrain = 0;
  let nVal = 0;
  series.forEach((s, g) => {
    let lo = 0;
    let hi = s.t.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (s.t[mid] < tCut) lo = mid + 1;
      else hi = mid;
    }
    cut[g] = lo;
    nTrain += Math.max(0, lo - W);
    nVal += Math.max(0, s.t.length - Math.max(W, lo));
  });
  if (nTrain > 0 && nVal > 0) return cut;
  series.forEach((s, g) => {
    const n = s.t.length;
    cut[g] = Math.max(W + 1, n - Math.max(1, Math.round(fraction * n)));
  });
  return cut;
}

/**
 * Origins [series, row] from row max(W - 1, from(series)) to the second last (every one with a
 * full window and a next row), a seeded sample of `cap` beyond that, in order.
 */
function originsFrom(
  series: Series[],
  from: (g: number) => number,
  W: number,
  cap: number,
  seed: number,
): [number, number][] {
  return originsBetween(
    series,
    (g) => Math.max(W - 1, from(g)),
    (g) => series[g].t.length - 2,
    cap,
    seed,
  );
}

/** Origins [series, row] from row from(series) to row to(series), a seeded sample of `cap` beyond. */
function originsBetween(
  series: Series[],
  from: (g: number) => number,
  to: (g: number) => number,
  cap: number,
  seed: number,
): [number, number][] {
  const out: [number, number][] = [];
  series.forEach((s, g) => {
    const last = Math.min(to(g), s.t.length - 2);
    for (let t = Math.max(0, from(g)); t <= last; t++) out.push([g, t]);
  });
  if (out.length <= cap) return out;
  const rng = new Rng(seed ^ 0x7a11d);
  const keep = new Uint8Array(out.length);
  let left = cap;
  // Selection sampling (Knuth's algorithm S): exactly the cap, in order.
  for (let i = 0; i < out.length && left > 0; i++) {
    if (rng.next() * (out.length - i) < left) {
      keep[i] = 1;
      left--;
    }
  }
  return out.filter((_, i) => keep[i]);
}

/** Examples as parallel arrays, grouped by origin: series, origin row, step. */
export interface Examples {
  n: number;
  g: Int32Array;
  t: Int32Array;
  k: Int32Array;
}

/**
 * Training examples (series g, origin t, step k): the origin has a full window (t >= W - 1) and
 * the target row t + k is before the series' cut, so no training example reads or predicts a row
 * of the validation period. A seeded uniform sample beyond the cap.
 */
export function trainingExamples(
  series: Series[],
  cut: Int32Array,
  W: number,
  H: number,
  rng: Rng,
  strategy: 'direct' | 'recursive',
  maxExamples = strategy === 'direct' ? DIRECT_MAX_EXAMPLES : RECURSIVE_MAX_EXAMPLES,
): Examples {
  let total = 0;
  series.forEach((_, g) => {
    for (let t = W - 1; t <= cut[g] - 2; t++) total += Math.min(H, cut[g] - 1 - t);
  });
  const p = Math.min(1, maxExamples / Math.max(1, total));
  const g: number[] = [];
  const t: number[] = [];
  const k: number[] = [];
  series.forEach((_, s) => {
    for (let o = W - 1; o <= cut[s] - 2; o++) {
      const kMax = Math.min(H, cut[s] - 1 - o);
      for (let j = 1; j <= kMax; j++) {
        if (p < 1 && rng.next() >= p) continue;
        g.push(s);
        t.push(o);
        k.push(j);
      }
    }
  });
  return { n: g.length, g: Int32Array.from(g), t: Int32Array.from(t), k: Int32Array.from(k) };
}

/** Examples of validation origins: steps 1..H while the series has the target row. */
function examplesOfOrigins(series: Series[], origins: [number, number][], H: number): Examples {
  const g: number[] = [];
  const t: number[] = [];
  const k: number[] = [];
  for (const [s, o] of origins) {
    const kMax = Math.min(H, series[s].t.length - 1 - o);
    for (let j = 1; j <= kMax; j++) {
      g.push(s);
      t.push(o);
      k.push(j);
    }
  }
  return { n: g.length, g: Int32Array.from(g), t: Int32Array.from(t), k: Int32Array.from(k) };
}

export interface ExampleContext {
  series: Series[];
  spec: FeatureSpec;
  layout: FeatureLayout;
  /** Calendar rows per series (see calendarRows). */
  cal: Float64Array[];
  codes: Int32Array[];
}

/**
 * Feature rows (n x F) and targets z = (y[t+k] - y[t]) / scale of examples. Reads each series
 * only from max(0, t - lookback + 1) to t, like a forecast from the last `lookback` rows; the
 * origin part is computed once per origin.
 */
export function exampleFeatures(
  ctx: ExampleContext,
  ex: Examples,
): { X: Float64Array; z: Float64Array } {
  const { series, spec, layout, cal, codes } = ctx;
  const F = layout.F;
  const C = spec.calendar.length;
  const X = new Float64Array(ex.n * F);
  const z = new Float64Array(ex.n);
  let lastG = -1;
  let lastT = -1;
  let originRow = -1;
  let scale = 1;
  for (let i = 0; i < ex.n; i++) {
    const g = ex.g[i];
    const t = ex.t[i];
    const k = ex.k[i];
    const y = series[g].y;
    const r = i * F;
    if (g !== lastG || t !== lastT) {
      scale = writeOriginFeatures(y, t, ctx.spec, X, r);
      originRow = r;
      lastG = g;
      lastT = t;
    } else {
      X.copyWithin(r, originRow, originRow + layout.stepOffset);
    }
    const start = Math.max(0, t - spec.lookback + 1);
    writeStepFeatures(y, start, t, k, scale, spec, layout, cal[g], (t + k) * C, codes[g], 0, X, r);
    z[i] = (y[t + k] - y[t]) / scale;
  }
  return { X, z };
}

interface GbmFit {
  part: GbmPart;
  iterations: number;
  /** The binned rows (training first, then validation) and standardized targets, for the refit. */
  bins: Uint8Array;
  nBins: Int32Array;
  isCat: Uint8Array;
  y: Float64Array;
  nTrain: number;
  nVal: number;
  params: GBMParams;
}

function gbmParamsFor(s: ResolvedSettings, nTrain: number): GBMParams {
  const minLeaf = Math.max(1, Math.min(s.minSamplesLeaf, Math.floor(nTrain / 10)));
  const large = nTrain > GBM_SAMPLE_MIN_ROWS;
  return {
    ...DEFAULT_GBM_PARAMS,
    learningRate: s.learningRate,
    maxIterations: large ? Math.min(s.maxIterations, LARGE_MAX_ITERATIONS) : s.maxIterations,
    maxLeaves: s.maxLeaves > 0 ? s.maxLeaves : nTrain < 10_000 ? 15 : 31,
    minSamplesLeaf: minLeaf,
    l2: s.l2,
    earlyStoppingRounds: s.earlyStoppingRounds,
    minDataPerCat: Math.min(DEFAULT_GBM_PARAMS.minDataPerCat, minLeaf),
    ...(large ? { subsampleRows: GBM_SAMPLE_ROWS, seed: s.seed, minRelImprovement: 1e-3 } : {}),
  };
}

/** The q-quantile of a sorted copy (nearest rank). */
function quantile(sorted: Float64Array, q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.floor(q * sorted.length)))];
}

/**
 * Fits a GBM on the training examples with early stopping on the validation examples. Targets are
 * winsorized at the 0.1 % / 99.9 % quantiles of the training targets (a jump after a flat window
 * divides by a tiny scale and would otherwise dominate the squared error) and standardized.
 */
function fitGbm(
  ctx: ExampleContext,
  train: Examples,
  val: Examples | null,
  settings: ResolvedSettings,
  rng: Rng,
  /** Without validation examples: boost exactly this many iterations. */
  fixedIterations?: number,
): GbmFit {
  const { layout } = ctx;
  const F = layout.F;
  const tr = exampleFeatures(ctx, train);
  const va = val ? exampleFeatures(ctx, val) : { X: new Float64Array(0), z: new Float64Array(0) };
  const nT = train.n;
  const nV = val ? val.n : 0;
  const sorted = Float64Array.from(tr.z).sort();
  const lo = nT >= 1000 ? quantile(sorted, 0.001) : -Infinity;
  const hi = nT >= 1000 ? quantile(sorted, 0.999) : Infinity;
  const clip = (v: number) => (v < lo ? lo : v > hi ? hi : v);
  let mean = 0;
  for (let i = 0; i < nT; i++) mean += clip(tr.z[i]);
  mean /= nT;
  let ss = 0;
  for (let i = 0; i < nT; i++) ss += (clip(tr.z[i]) - mean) ** 2;
  const std = Math.sqrt(ss / nT) || 1;
  const y = new Float64Array(nT + nV);
  for (let i = 0; i < nT; i++) y[i] = (clip(tr.z[i]) - mean) / std;
  for (let i = 0; i < nV; i++) y[nT + i] = (clip(va.z[i]) - mean) / std;

  // The linear part first (fitted on the training rows); the trees model its residuals.
  const linear = fitLinearPart(
    tr.X,
    F,
    Int32Array.from({ length: nT }, (_, i) => i),
    y,
    layout,
  );
  const lt = new Float64Array(nT);
  addLinear(linear, tr.X, nT, F, lt);
  const lv = new Float64Array(nV);
  addLinear(linear, va.X, nV, F, lv);
  for (let i = 0; i < nT; i++) y[i] -= lt[i];
  for (let i = 0; i < nV; i++) y[nT + i] -= lv[i];
  const thresholds: (Float64Array | null)[] = [];
  const col = new Float64Array(nT);
  for (let f = 0; f < F; f++) {
    if (layout.isCat[f]) {
      thresholds.push(null);
      continue;
    }
    for (let i = 0; i < nT; i++) col[i] = tr.X[i * F + f];
    thresholds.push(Float64Array.from(fitBinThresholds(col, rng)));
  }
  const bins = new Uint8Array((nT + nV) * F);
  // The binning forecasts use (model.ts), so a value lands in the same bin in both.
  bins.set(binRows(tr.X, nT, layout, thresholds), 0);
  bins.set(binRows(va.X, nV, layout, thresholds), nT * F);
  const nBins = Int32Array.from({ length: F }, (_, f) =>
    layout.isCat[f] ? layout.nCats[f] + 2 : thresholds[f]!.length + 2,
  );
  const params = gbmParamsFor(settings, nT);
  if (fixedIterations !== undefined) params.maxIterations = fixedIterations;
  const result = trainGBM({
    data: { n: nT + nV, F, bins, nBins, isCat: layout.isCat },
    target: { objective: 'regression', K: 1, y, weight: null },
    trainRows: Int32Array.from({ length: nT }, (_, i) => i),
    valRows: Int32Array.from({ length: nV }, (_, i) => nT + i),
    params,
  });
  return {
    part: { gbm: result.model, thresholds, zScale: { mean, std }, linear },
    iterations: result.iterations,
    bins,
    nBins,
    isCat: layout.isCat,
    y,
    nTrain: nT,
    nVal: nV,
    params,
  };
}

/** The validated GBM refitted on training + validation examples for the iterations it kept. */
function refitGbm(fit: GbmFit, settings: ResolvedSettings): GbmPart {
  const n = fit.nTrain + fit.nVal;
  const result = trainGBM({
    data: { n, F: fit.nBins.length, bins: fit.bins, nBins: fit.nBins, isCat: fit.isCat },
    target: { objective: 'regression', K: 1, y: fit.y, weight: null },
    trainRows: Int32Array.from({ length: n }, (_, i) => i),
    valRows: new Int32Array(0),
    params: { ...fit.params, maxIterations: fit.iterations, seed: settings.seed },
  });
  return { ...fit.part, gbm: result.model, compiled: null };
}

/** Scores a candidate on the validation origins. */
function evaluate(
  name: CandidateName,
  candidate: Candidate,
  spec: FeatureSpec,
  layout: FeatureLayout,
  origins: Origins,
  truth: (i: number, k: number) => number,
): Scored {
  const H = origins.H;
  const { pred, scale } = runCandidate(candidate, spec, layout, origins);
  const residuals: number[][] = Array.from({ length: H }, () => []);
  const stepSum = new Float64Array(H);
  const stepAbs = new Float64Array(H);
  let sum = 0;
  let count = 0;
  for (let i = 0; i < origins.n; i++) {
    for (let k = 1; k <= H; k++) {
      const y = truth(i, k);
      if (Number.isNaN(y)) break;
      const e = Math.abs(y - pred[i * H + k - 1]);
      const s = e / scale[i];
      residuals[k - 1].push(s);
      stepSum[k - 1] += s;
      stepAbs[k - 1] += e;
      sum += s;
      count++;
    }
  }
  return {
    name,
    candidate,
    score: count ? sum / count : Infinity,
    stepScore: Array.from(stepSum, (v, k) => (residuals[k].length ? v / residuals[k].length : 0)),
    stepMae: Array.from(stepAbs, (v, k) => (residuals[k].length ? v / residuals[k].length : 0)),
    residuals,
    trainingTime: 0,
  };
}

/** Split counts per input column: history features -> the target, calendar -> ORDER BY, groups. */
function importances(
  part: GbmPart | null,
  layout: FeatureLayout,
  spec: FeatureSpec,
  target: string,
  orderBy: string,
  groupBy: string[],
): Record<string, number> {
  const out: Record<string, number> = { [target]: 0, [orderBy]: 0 };
  for (const g of groupBy) out[g] = 0;
  if (!part) {
    out[target] = 1;
    return out;
  }
  const calStart = layout.stepOffset + 4;
  const calEnd = calStart + spec.calendar.length;
  let total = 0;
  const feat = part.gbm.feat;
  for (let i = 0; i < feat.length; i++) {
    const f = feat[i];
    if (f < 0) continue;
    total++;
    if (f >= layout.groupOffset) out[groupBy[layout.groupColumns[f - layout.groupOffset]]]++;
    else if (f >= calStart && f < calEnd) out[orderBy]++;
    else out[target]++;
  }
  if (total === 0) out[target] = 1;
  else for (const k of Object.keys(out)) out[k] = round(out[k] / total, 6);
  return out;
}

function freqKey(f: Frequency): string {
  return JSON.stringify(f);
}

function assemble(p: {
  set: SeriesSet;
  cols: TsColumns;
  settings: ResolvedSettings;
  spec: FeatureSpec;
  layout: FeatureLayout;
  freq: Frequency;
  inferred: (InferredFrequency | null)[];
  model: InferredFrequency;
  scored: Scored[];
  best: Scored;
  part: GbmPart | null;
  halfWidths: number[];
  halfLife: number;
  pooled: Calibration;
  weights: number[][];
  horizonAccuracy: TimeSeriesDescription['horizonAccuracy'];
  table: Table;
}): TimeSeriesArtifact {
  const { set, cols, settings, spec, layout, freq, best, part, scored } = p;
  const { target, orderBy, groupBy, window: W, horizon: H } = cols;
  const snaive = scored[0];
  const frequencies: Frequency[] = [];
  const fIndex = new Map<string, number>();
  const groupFreq = p.inferred.map((inf) => {
    const f = inf?.freq ?? freq;
    const key = freqKey(f);
    let i = fIndex.get(key);
    if (i === undefined) {
      i = frequencies.length;
      fIndex.set(key, i);
      frequencies.push(f);
    }
    return i;
  });
  const mase = ratio(best.score, snaive.score);
  const accuracy = (s: Scored) => round(boundedTsAccuracy(ratio(s.score, snaive.score)), 6);
  const strategy =
    best.name === 'gbm_direct'
      ? 'direct'
      : best.name === 'gbm_recursive'
        ? 'recursive'
        : 'baseline';
  const freqLabel = frequencyLabel(p.model);
  const orderType = set.orderFormat === 'number' ? 'integer' : 'datetime';
  const targetType = set.integerTarget ? 'integer' : 'float';
  const used = new Set([target, orderBy, ...groupBy]);
  const features: FeatureInfo[] = [
    { column: orderBy, type: orderType, encoder: `TimeSeriesOrder(${freqLabel})`, role: 'input' },
    ...groupBy.map((g): FeatureInfo => ({
      column: g,
      type: 'categorical',
      encoder: 'TimeSeriesGroup',
      role: 'input',
    })),
    {
      column: target,
      type: targetType,
      encoder: `TimeSeriesTarget(window ${W}, horizon ${H})`,
      role: 'target',
    },
    ...p.table.columns
      .filter((c) => !used.has(c))
      .map((c): FeatureInfo => ({ column: c, type: 'unused', encoder: 'none', role: 'ignored' })),
  ];
  const categories: Record<string, (string | number | boolean)[]> = {};
  groupBy.forEach((g, c) => {
    const seen = new Map<string, string | number | boolean>();
    for (const s of set.series) {
      const v = s.labels[c];
      if (v !== null && seen.size < 100) seen.set(s.key.split('\u0001')[c], v);
    }
    categories[g] = [...seen.values()];
  });
  const trees = part ? part.gbm.nTrees : 0;
  const stages = [
    `TimeSeries(${freqLabel}, window ${W}, horizon ${H}, season ${spec.period})`,
    `Features(${spec.lags} lags, window stats, seasonal, calendar[${spec.calendar.join(', ')}], groups[${layout.groupColumns.map((c) => groupBy[c]).join(', ')}])`,
    part
      ? `GBM ${strategy} (${trees} trees, ${part.gbm.maxLeaves} leaves)`
      : `Baseline(${best.name})`,
    `Conformal per step(${settings.confidence}, rolling origins, ${p.halfLife === Infinity ? 'equal weights' : `half-life ${p.halfLife} validation periods`})`,
  ];
  const timeseries: TimeSeriesDescription = {
    orderBy,
    groupBy,
    window: W,
    horizon: H,
    frequency: freqLabel,
    seasonality: spec.period,
    historyRows: spec.lookback,
    recalibrationRows: recalibrationRows(spec),
    selected: best.name,
    horizonAccuracy: p.horizonAccuracy,
    calibrationHalfLife: p.halfLife === Infinity ? null : p.halfLife,
    groups: set.series.length,
    shortGroups: set.series.filter((s) => s.t.length < W + 1).length,
    duplicateTimestamps: set.duplicates,
    droppedRows: set.dropped,
  };
  let trainRows = 0;
  for (const s of set.series) trainRows += s.t.length;
  const description: ModelDescription = {
    task: 'regression',
    target,
    targetType,
    inputs: [orderBy, ...groupBy],
    accuracies: { bounded_ts_accuracy: round(boundedTsAccuracy(mase), 6), mase: round(mase, 6) },
    columnImportances: importances(part, layout, spec, target, orderBy, groupBy),
    features,
    candidates: scored.map((s) => ({
      name: s.name,
      performance: accuracy(s),
      training_time: round(s.trainingTime, 3),
      selected: s === best,
      accuracy_functions: ['bounded_ts_accuracy'],
    })),
    summary: stages.join(' --> '),
    inputTypes: {
      [orderBy]: orderType,
      ...Object.fromEntries(groupBy.map((g) => [g, 'categorical' as const])),
    },
    categories,
    numericRanges: {},
    confidenceLevel: settings.confidence,
    trainRows,
    trainingTimeMs: 0,
    timeseries,
  };
  return {
    format: 'automl/1',
    kind: 'timeseries',
    target,
    orderFormat: set.orderFormat,
    frequency: freq,
    spec,
    model: {
      selected: best.name,
      gbm: part ? serializeGBM(part.gbm) : null,
      zScale: part ? part.zScale : { mean: 0, std: 1 },
      linear: part?.linear ? serializeLinearPart(part.linear) : null,
      thresholds: part ? part.thresholds.map((t) => (t ? toBase64(t) : null)) : [],
    },
    calibration: {
      level: settings.confidence,
      halfWidths: p.halfWidths,
      online: {
        halfLife: p.halfLife === Infinity ? null : p.halfLife,
        ...trainingSpan(set.series, settings.validationFraction),
        ...calibrationSketch(p.pooled.residuals, p.weights),
      },
    },
    groups: { keys: set.series.map((s) => s.key), frequency: groupFreq, frequencies },
    settings,
    timeseries: { orderBy, groupBy, window: W, horizon: H },
    description,
  };
}
