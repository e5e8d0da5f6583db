// Training a forecaster: rows -> series (series.ts) -> frequency, season and feature spec -> a
// time-ordered split and earlier folds -> candidates (baselines, Theta, ETS, seasonal ARIMA, their
// combination, a direct and a recursive GBM; a daily series' statistical models also carry its
// yearly season) forecasting the same origins of every fold -> the ensemble of the candidates
// validation cannot tell apart -> each series' choice (selection.ts) -> conformal half-widths
// per step and level from the chosen candidates' residuals -> local models refitted on each whole
// series, the GBM on all examples -> the artifact.

import type { ColumnarData, Dataset, ResolvedSettings } from '../api';
import { type Table, tableFromDataset, validateTable } from '../data/table';
import { AutoMLError } from '../errors';
import { DEFAULT_SETTINGS } from '../options';
import { now, progress } from '../pipeline/progress';
import { Rng } from '../prng';
import { assembleArtifact } from './artifact';
import { calibrateIntervals } from './calibration';
import {
  type ValidationContext,
  buildFolds,
  ensembleOf,
  namesIn,
  refitForCalibration,
  scoreCandidates,
} from './candidates';
import { type ExampleContext, calendarRows, originsFrom, timeSplit } from './examples';
import { walkVerdict } from './evidence';
import { MAX_LAGS, featureLayout, groupCodes } from './features';
import { calendarParts, inferFrequency, seasonalPeriod, yearlyStep } from './frequency';
import { refitGbm } from './gbm-fit';
import { type GbmPart, type OriginSource, isGbm, isLocal } from './model';
import { type TsColumns, checkOptions, forcedCandidate, tsSettings } from './options';
import { type Selection, selectCandidates, tiedCandidates } from './selection';
import { type Series, buildSeries, findColumn } from './series';
import {
  type LocalFit,
  type LocalHint,
  type LocalName,
  fitLocal,
  localLabel,
  refitForm,
  sameForm,
} from './stat/local';
import type { EtsForm } from './stat/ets';
import type { ArimaOrder } from './stat/arima';
import { periodFromData } from './stat/season';
import type { CandidateName, FeatureSpec, ForecastTrainOptions, TimeSeriesArtifact } from './types';

/** A GROUP BY column with more values than this is no categorical feature (bins are one byte). */
const MAX_GROUP_CATS = 253;
/** Validation origins scored for every candidate (a seeded sample beyond). */
const VAL_MAX_ORIGINS = 6_000;
/** Refit on train + validation examples up to this size (beyond, the validated model is kept). */
const REFIT_MAX_EXAMPLES = 150_000;
/**
 * Rows before an origin the statistical models filter over (fewer when the series is shorter):
 * enough for a slowly forgetting filter (an airline model's seasonal MA of -0.9 forgets its start
 * within 30 seasons of monthly data) while a forecast still reads a bounded history.
 */
const LOCAL_LOOKBACK = 400;
/** Rows the origin's scale is measured over, at least (and at least three seasons, and WINDOW). */
const SCALE_ROWS = 30;
/**
 * A GBM origin's scale is at least this share of the series' mean step over SCALE_ROWS rows: a
 * window may be ten times calmer than the series' long run, not a thousand (features.ts scaleFloor).
 */
const SCALE_FLOOR = 0.1;
/**
 * Series whose statistical models are fitted and validated one by one; a larger set validates a
 * seeded sample and fits the others with the forms and orders found on it (50: a set-level choice
 * rests on 50 series' windows of every fold; the bench's largest set, 50 airports, is validated
 * whole). 100 made the order search a third of a 1,000-group set's training.
 */
const VALIDATE_MAX_SERIES = 50;
/** Forms / orders of the sample's fits a large set's other series (and new groups) choose from. */
const HINT_FORMS = 3;

/** Trains a forecaster on row-major or columnar data. */
export function trainForecaster(
  data: ColumnarData | Dataset,
  opts: ForecastTrainOptions,
): TimeSeriesArtifact {
  const candidate = forcedCandidate(opts.using);
  const cols: TsColumns = { ...checkOptions(opts), ...(candidate ? { candidate } : {}) };
  const settings = tsSettings(opts.using, DEFAULT_SETTINGS, opts.seed);
  return trainWith(toTable(data), cols, settings, opts.onProgress);
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
  const given = forcedCandidate(opts.using);
  const explicit = opts.using && Object.keys(opts.using).some((k) => k.toLowerCase() === 'model');
  const cols: TsColumns = { target: base.target, ...base.timeseries };
  // A USING model given now replaces the base's forced candidate ('auto' lifts it).
  if (explicit) delete cols.candidate;
  if (given) cols.candidate = given;
  return trainWith(toTable(data), cols, settings, opts.onProgress);
}

function toTable(data: ColumnarData | Dataset): Table {
  if (data && Array.isArray((data as Dataset).rows) && Array.isArray(data.columns)) {
    return tableFromDataset(data as Dataset);
  }
  validateTable(data);
  return data;
}

function trainWith(
  table: Table,
  cols: TsColumns,
  settings: ResolvedSettings,
  onProgress?: ForecastTrainOptions['onProgress'],
): TimeSeriesArtifact {
  const v = validateCandidates(table, cols, settings, onProgress);
  const { scored, folds, validation, forced } = v;
  return finishTraining(
    v,
    selectCandidates(scored, folds, v.set.series.length, validation.validated, forced, v.walk),
  );
}

/**
 * A training up to its choice: the series, their frequency and feature spec, the folds and every
 * candidate scored on them (with the ensemble of the tied ones). finishTraining fits what a
 * selection chooses; bench/timeseries-choices.ts finishes one validation once per candidate.
 */
export function validateCandidates(
  table: Table,
  cols: TsColumns,
  settings: ResolvedSettings,
  onProgress?: ForecastTrainOptions['onProgress'],
) {
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
  const cut = timeSplit(series, W, settings.validationFraction);
  const period =
    seasonalPeriod(freq) > 1 || freq.unit !== 'number'
      ? seasonalPeriod(freq)
      : foundPeriod(series, cut);
  const lookback = Math.max(W, period > 1 ? period * Math.ceil(H / period) + 1 : 1);
  const statLookback = Math.max(lookback, Math.min(maxN, Math.max(W, LOCAL_LOOKBACK)));
  const spec: FeatureSpec = {
    window: W,
    horizon: H,
    lookback,
    lags: Math.min(W - 1, MAX_LAGS),
    period,
    calendar: calendarParts(freq),
    groupCats: groupCategories(series, groupBy.length),
    statLookback,
    ...(yearlyStep(freq) ? { yearStep: yearlyStep(freq) } : {}),
    scaleRows: Math.min(statLookback, Math.max(W, 3 * period, SCALE_ROWS)),
    scaleFloor: SCALE_FLOOR,
    scaleFloorRows: statLookback,
  };
  const layout = featureLayout(spec);
  const codes = series.map((s) => groupCodes(s.key, spec, layout));

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
    slot: g,
  });
  const { validated, sample } = validatedSeries(series, W, settings.seed);
  const folds = buildFolds(ctx, cut, validated, settings, sourceOf, VAL_MAX_ORIGINS);

  progress(onProgress, 3);
  const validation: ValidationContext = {
    ctx,
    cut,
    valOrigins,
    folds,
    validated,
    sample,
    sourceOf,
    settings,
    rng,
    hint: {},
  };
  const scored = scoreCandidates(validation);
  const forced: 'gbm' | CandidateName | null =
    cols.candidate ?? (settings.model === 'gbm' ? 'gbm' : null);
  // Whether the validated series are random walks, from their differences (selection.ts).
  const walk = walkVerdict(
    validated.map((g) => series[g].y),
    period,
  );
  if (!forced) {
    const tied = tiedCandidates(scored, folds, series.length, validated);
    if (tied.length >= 2)
      scored.push(
        ensembleOf(
          tied.map((c) => scored[c]),
          folds,
        ),
      );
  }
  return {
    ...{ table, cols, settings, onProgress, t0, set, orderBy, target, groupBy },
    ...{ inferred, model, freq, period, spec, layout, folds, validation, scored, forced, walk },
  };
}

/** Series read to find the period of a numeric ORDER BY (the first ones: the test is pooled). */
const PERIOD_SERIES = 200;

/**
 * The seasonal period of series ordered by a number (an index, no calendar): found in their
 * training rows (before the validation cut, so the folds judge it honestly), 1 unless clear
 * (stat/season.ts, periodFromData).
 */
function foundPeriod(series: Series[], cut: Int32Array): number {
  const ys = series.slice(0, PERIOD_SERIES).map((s, g) => s.y.subarray(0, Math.max(0, cut[g])));
  return periodFromData(ys);
}

export type Validated = ReturnType<typeof validateCandidates>;

/** The artifact of a validated training with the candidates `sel` chose. */
export function finishTraining(v: Validated, sel: Selection): TimeSeriesArtifact {
  const { table, cols, settings, onProgress, t0, set, orderBy, target, groupBy } = v;
  const { inferred, model, freq, period, spec, layout, folds, validation, scored } = v;
  const series = set.series;
  for (const c of new Set([...sel.choice, sel.setChoice])) {
    if (isGbm(scored[c].name)) refitForCalibration(scored[c], validation);
  }

  progress(onProgress, 4);
  const intervals = calibrateIntervals(
    scored,
    sel,
    folds,
    series,
    settings.confidence,
    settings.validationFraction,
  );

  progress(onProgress, 5);
  // The candidates some series uses, refitted for forecasting: local models on each whole series
  // (the form or order validated on it, its ETS error type and ARIMA constant and drift trend
  // chosen again by AICc on the whole series: refitForm; or the sample's for series outside the
  // sample), the GBM on training + validation examples.
  const hint = sampleHint(scored);
  const used = [...new Set([...sel.choice, sel.setChoice])].sort((a, b) => a - b);
  const needLocal = new Set<LocalName>();
  for (const c of used) for (const n of namesIn(scored[c])) if (isLocal(n)) needLocal.add(n);
  const local: Partial<Record<LocalName, (LocalFit | null)[]>> = {};
  // DESCRIBE's reasons say where a group forecasts in another form than it was validated in.
  const reason = [...sel.reason];
  for (const name of needLocal) {
    const mainFits = scored.find((s) => s.name === name)!.mainFits!;
    local[name] = series.map((s, g) => {
      if (!namesIn(scored[sel.choice[g]]).includes(name)) return null;
      const main = mainFits[g];
      const clock = spec.yearStep ? { t: s.t, step: spec.yearStep } : undefined;
      const h = main ? refitForm(main) : hint;
      const fit = fitLocal(name, s.y, 0, s.y.length - 1, period, h, clock, s.t);
      const note = main && fit ? refitNote(main, fit) : '';
      if (note) reason[g] += `; ${note}`;
      return fit;
    });
  }
  let part: GbmPart | null = null;
  let gbmKind: 'gbm_direct' | 'gbm_recursive' | undefined;
  const gbmName = used.flatMap((c) => namesIn(scored[c])).find((n) => isGbm(n));
  if (gbmName !== undefined) {
    const g = scored.find((s) => s.name === gbmName)!;
    gbmKind = g.name as 'gbm_direct' | 'gbm_recursive';
    part = (g.candidate as { part: GbmPart }).part;
    const fit = g.fit!;
    if (settings.refit && fit.nTrain + fit.nVal <= REFIT_MAX_EXAMPLES && fit.iterations > 0) {
      part = refitGbm(fit, settings);
    }
  }
  const artifact = assembleArtifact({
    set,
    cols: { ...cols, target, orderBy, groupBy },
    settings,
    spec,
    layout,
    freq,
    inferred,
    model,
    scored,
    sel: { ...sel, reason },
    used,
    local,
    hint,
    part,
    gbmKind,
    intervals,
    table,
  });
  artifact.description.trainingTimeMs = Math.round(now() - t0);
  return artifact;
}

/**
 * What DESCRIBE adds to a group's reason when its local model forecasts in another form than the
 * one validated (whose figures the leaderboard and the group's MASE are): refitForm chose ETS's
 * error type (its whole form when the validation rows were too few for its parameters), or
 * ARIMA's constant and drift trend, again by AICc on the whole series (Theta's season tested
 * again when its validation rows were too few for the test). Empty when the form is the
 * validated one.
 */
export function refitNote(main: LocalFit, final: LocalFit): string {
  const was = localLabel(main);
  const now = localLabel(final);
  if (was === now) return '';
  const what =
    main.kind === 'ets' && main.seasonless
      ? 'its form, the validation rows too few for a seasonal form,'
      : main.kind === 'ets' && main.short
        ? 'its form, the validation rows too few for its parameters,'
        : final.kind === 'ets'
          ? 'its error type'
          : final.kind === 'theta'
            ? 'its season, the validation rows too few for the seasonal test,'
            : 'its constant and drift trend';
  const how = final.kind === 'theta' ? 'tested again' : 'chosen again by AICc';
  return `validated as ${was}, forecasts as ${now} (${what} ${how} on all rows; the validation MASE is the validated form's)`;
}

/** Every series with a validation origin, or a seeded sample of VALIDATE_MAX_SERIES of them. */
function validatedSeries(
  series: Series[],
  W: number,
  seed: number,
): { validated: number[]; sample: boolean } {
  const usable = series.map((s, g) => (s.t.length >= W + 2 ? g : -1)).filter((g) => g >= 0);
  if (usable.length <= VALIDATE_MAX_SERIES) return { validated: usable, sample: false };
  const rng = new Rng(seed ^ 0x5e7);
  rng.shuffle(usable);
  return { validated: usable.slice(0, VALIDATE_MAX_SERIES).sort((a, b) => a - b), sample: true };
}

/**
 * The ETS forms and ARIMA orders the validated series' main fits chose most often (HINT_FORMS of
 * each): what series outside a large set's sample, and new groups, are fitted with.
 */
function sampleHint(scored: ReturnType<typeof scoreCandidates>): LocalHint {
  const top = <T>(
    fits: (LocalFit | null)[] | undefined,
    key: (f: LocalFit) => string,
    of: (f: LocalFit) => T,
  ): T[] => {
    const count = new Map<string, { n: number; v: T }>();
    for (const f of fits ?? []) {
      if (!f) continue;
      const k = key(f);
      const c = count.get(k);
      if (c) c.n++;
      else count.set(k, { n: 1, v: of(f) });
    }
    return [...count.entries()]
      .sort((a, b) => b[1].n - a[1].n || (a[0] < b[0] ? -1 : 1))
      .slice(0, HINT_FORMS)
      .map(([, c]) => c.v);
  };
  const ets = scored.find((s) => s.name === 'ets')?.mainFits;
  const arima = scored.find((s) => s.name === 'arima')?.mainFits;
  const etsForms = top<EtsForm>(
    ets,
    (f) => JSON.stringify(sameForm(f)),
    (f) => sameForm(f).etsForms![0],
  );
  const arimaOrders = top<ArimaOrder>(
    arima,
    (f) => JSON.stringify(sameForm(f)),
    (f) => sameForm(f).arimaOrders![0],
  );
  return {
    ...(etsForms.length ? { etsForms } : {}),
    ...(arimaOrders.length ? { arimaOrders } : {}),
  };
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
