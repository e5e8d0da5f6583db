// Training a forecaster: rows -> series (series.ts) -> frequency, season and feature spec -> a
// time-ordered split -> candidates (seasonal-naive, naive, drift, a direct multi-horizon GBM, a
// recursive one-step GBM) scored on the same validation origins -> the best one, conformal
// half-widths per step from its validation errors -> refit on all examples -> the artifact.

import type { ColumnarData, Dataset, ResolvedSettings } from '../api';
import { type Table, tableFromDataset, validateTable } from '../data/table';
import { AutoMLError } from '../errors';
import { DEFAULT_SETTINGS } from '../options';
import { now, progress } from '../pipeline/progress';
import { Rng } from '../prng';
import { assembleArtifact } from './artifact';
import { calibrateIntervals } from './calibration';
import { type ValidationContext, scoreCandidates, selectCandidate } from './candidates';
import { type ExampleContext, calendarRows, originsFrom, timeSplit } from './examples';
import { MAX_LAGS, featureLayout, groupCodes } from './features';
import { calendarParts, inferFrequency, seasonalPeriod } from './frequency';
import { refitGbm } from './gbm-fit';
import { type GbmPart, type OriginSource, packOrigins } from './model';
import { type TsColumns, checkOptions, tsSettings } from './options';
import { type Series, buildSeries, findColumn } from './series';
import type { FeatureSpec, ForecastTrainOptions, TimeSeriesArtifact } from './types';

/** A GROUP BY column with more values than this is no categorical feature (bins are one byte). */
const MAX_GROUP_CATS = 253;
/** Validation origins scored for every candidate (a seeded sample beyond). */
const VAL_MAX_ORIGINS = 6_000;
/** Refit on train + validation examples up to this size (beyond, the validated model is kept). */
const REFIT_MAX_EXAMPLES = 150_000;

/** Trains a forecaster on row-major or columnar data. */
export function trainForecaster(
  data: ColumnarData | Dataset,
  opts: ForecastTrainOptions,
): TimeSeriesArtifact {
  const cols = checkOptions(opts);
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
  const cols: TsColumns = { target: base.target, ...base.timeseries };
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
  const validation: ValidationContext = { ctx, cut, valOrigins, origins, truth, settings, rng };
  const scored = scoreCandidates(validation);
  const best = selectCandidate(scored, settings);

  progress(onProgress, 4);
  const { halfWidths, halfLife, horizonAccuracy, online } = calibrateIntervals(best, scored[0], {
    ...validation,
    sourceOf,
    truthOf,
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
    best,
    part,
    halfWidths,
    halfLife,
    online,
    horizonAccuracy,
    table,
  });
  artifact.description.trainingTimeMs = Math.round(now() - t0);
  return artifact;
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
