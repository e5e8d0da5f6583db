// The artifact of a trained forecaster: each group's candidate and models serialised, the
// calibration, the groups' frequencies, and the description DESCRIBE shows (features,
// importances, the candidates' leaderboard, each group's choice and why, accuracy and coverage).

import type { FeatureInfo, ModelDescription, ModelWarning, ResolvedSettings } from '../api';
import { toBase64 } from '../base64';
import type { Table } from '../data/table';
import { serializeGBM } from '../gbm/serialize';
import { round } from '../pipeline/describe';
import type { Intervals } from './calibration';
import { type Scored, boundedTsAccuracy } from './candidates';
import type { FeatureLayout } from './features';
import { type InferredFrequency, formatOrder, frequencyLabel, missingSteps } from './frequency';
import { serializeLinearPart } from './linear';
import { type GbmPart, isGbm, packRows } from './model';
import type { TsColumns } from './options';
import { recalibrationRows } from './recalibrate';
import type { Selection } from './selection';
import type { Series, SeriesSet } from './series';
import { type LocalFit, type LocalHint, type LocalName, localLabel } from './stat/local';
import type {
  CandidateName,
  FeatureSpec,
  ForecastChoice,
  ForecastLeaderboardRow,
  Frequency,
  OrderFormat,
  TimeSeriesArtifact,
  TimeSeriesDescription,
} from './types';

/** Groups DESCRIBE lists with their choice (the rest are counted in the leaderboard). */
const MAX_CHOICES = 200;

/** What each candidate is, in words (the leaderboard's label). */
const CANDIDATE_LABELS: Record<CandidateName, string> = {
  seasonal_naive: 'seasonal-naive: the value one season earlier',
  naive: 'naive: the last value',
  drift: 'drift: the last value plus the average step',
  theta: 'Theta method: exponential smoothing plus half the trend line',
  ets: 'exponential smoothing (ETS), its form chosen per series by AICc',
  arima: 'seasonal ARIMA, its order chosen per series by AICc',
  tsb: 'intermittent demand (TSB: demand probability and size smoothed), only on series mostly zero',
  combination: 'combination: the mean of Theta, ETS and ARIMA',
  ensemble: 'ensemble: the mean of the candidates the validation could not tell apart',
  gbm_direct: 'gradient-boosted trees on lags, one model per step ahead',
  gbm_recursive: 'gradient-boosted trees on lags, one step at a time',
};

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

export function assembleArtifact(p: {
  set: SeriesSet;
  cols: TsColumns;
  settings: ResolvedSettings;
  spec: FeatureSpec;
  layout: FeatureLayout;
  freq: Frequency;
  inferred: (InferredFrequency | null)[];
  model: InferredFrequency;
  scored: Scored[];
  sel: Selection;
  /** Indexes into `scored` of the candidates some group uses (ascending). */
  used: number[];
  local: Partial<Record<LocalName, (LocalFit | null)[]>>;
  hint: LocalHint;
  part: GbmPart | null;
  gbmKind: 'gbm_direct' | 'gbm_recursive' | undefined;
  intervals: Intervals;
  table: Table;
}): TimeSeriesArtifact {
  const { set, cols, settings, spec, layout, freq, part, scored, sel, intervals } = p;
  const { target, orderBy, groupBy, window: W, horizon: H } = cols;
  const best = scored[sel.setChoice];
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
  // The model's MASE: each group's chosen candidate, pooled over the validated groups.
  const mase = compositeMase(sel);
  const accuracy = (c: number) => round(boundedTsAccuracy(sel.shownMase[c]), 6);
  const groupsOf = scored.map(() => 0);
  for (const c of sel.choice) groupsOf[c]++;
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
  const usedNames = p.used.map((c) => scored[c].name);
  const ensemble = scored.find((s) => s.name === 'ensemble')?.members ?? [];
  const candidatesStage = usedNames
    .map((n) => {
      const k = groupsOf[scored.findIndex((s) => s.name === n)];
      if (n === 'ensemble') return `ensemble (mean of ${ensemble.join(', ')}): ${k}`;
      if (n === 'gbm_direct' || n === 'gbm_recursive') {
        return `GBM ${n === 'gbm_direct' ? 'direct' : 'recursive'} (${trees} trees, ${part ? part.gbm.maxLeaves : 0} leaves): ${k}`;
      }
      return `${n}: ${k}`;
    })
    .join(', ');
  const stages = [
    `TimeSeries(${freqLabel}, window ${W}, horizon ${H}, season ${spec.period})`,
    `Features(${spec.lags} lags, window stats, seasonal, calendar[${spec.calendar.join(', ')}], groups[${layout.groupColumns.map((c) => groupBy[c]).join(', ')}])`,
    `Candidates per series by rolling-origin MASE(${candidatesStage})`,
    `Conformal per step and level(${settings.confidence}, rolling origins, ${intervals.halfLife === Infinity ? 'equal weights' : `half-life ${intervals.halfLife} validation periods`})`,
  ];
  // A GBM not refitted before the earlier folds' cuts (too few rows, or not worth it) is scored on the last fold
  // alone: its figure is not comparable with the others' (said in its label, listed last), and it
  // is chosen only when it beats the set's pick on that fold's windows (selection.ts).
  const partial = (s: Scored) => isGbm(s.name) && s.runs.some((r) => r === null);
  const leaderboard: ForecastLeaderboardRow[] = scored
    .map((s, c) => ({
      name: s.name,
      label: partial(s)
        ? `${CANDIDATE_LABELS[s.name]}; scored on the last validation fold only (${s.mainOnly ?? 'not refitted before the earlier ones'}), so not comparable with the others' figures; chosen only if it beats the set's pick on that fold's windows`
        : s.name === 'ensemble'
          ? `${CANDIDATE_LABELS.ensemble}: ${ensemble.join(', ')}`
          : CANDIDATE_LABELS[s.name],
      mase: Number.isFinite(sel.shownMase[c]) ? round(sel.shownMase[c], 6) : null,
      mae: round(sel.mae[c], 6),
      trainingTime: round(s.trainingTime, 3),
      groups: groupsOf[c],
      selected: groupsOf[c] > 0,
      partial: partial(s),
    }))
    .sort(
      (a, b) =>
        Number(a.partial) - Number(b.partial) || (a.mase ?? Infinity) - (b.mase ?? Infinity) || 0,
    )
    .map(({ partial: _, ...row }) => row);
  const choices: ForecastChoice[] = set.series.slice(0, MAX_CHOICES).map((s, g) => {
    const c = sel.choice[g];
    const name = scored[c].name;
    return {
      group: s.labels,
      candidate: name,
      model: modelLabel(name, g, p.local, ensemble),
      mase: Number.isFinite(sel.ownMase[g]) ? round(sel.ownMase[g], 4) : null,
      reason: sel.reason[g],
    };
  });
  const warnings: ModelWarning[] = [];
  if (!Number.isFinite(mase)) {
    warnings.push({
      kind: 'weak_model',
      column: null,
      message: `On validation seasonal-naive (repeating the last season) was exact and these forecasts were not (mean absolute error ${round(sel.mae[sel.setChoice], 6)}), so their MASE is not defined: the series may be a pure season, which seasonal-naive forecasts exactly.`,
    });
  } else if (!(mase < 1)) {
    warnings.push({
      kind: 'weak_model',
      column: null,
      message: `On validation the forecasts are no better than seasonal-naive (repeating the last season): MASE ${round(mase, 3)}. Consider a longer history, another WINDOW or HORIZON, or the seasonal-naive forecast itself.`,
    });
  }
  const missing = missingPeriods(
    set.series,
    p.inferred.map((inf) => inf?.freq ?? freq),
    set.orderFormat,
    groupBy,
  );
  if (missing.count > 0) {
    warnings.push({
      kind: 'missing_periods',
      column: orderBy,
      message: `${missing.count} ${missing.count === 1 ? 'period has' : 'periods have'} no row in ${missing.groups} ${missing.groups === 1 ? 'group' : 'groups'} (the first: ${missing.where}): consecutive rows are read as consecutive steps, so the season before a gap is read a step off. If those values are unknown rather than zero, add the rows with a NULL ${target}: their values are then filled in their place.`,
    });
  }
  if (sel.worse > 0) {
    warnings.push({
      kind: 'below_seasonal_naive',
      column: null,
      message: `${sel.worse} of ${sel.choice.length} groups forecast with a candidate that did worse than seasonal-naive on that group's own validation windows (chosen on the evidence of the other groups, as too few windows tell candidates apart); DESCRIBE lists each group's choice and why.`,
    });
  }
  const timeseries: TimeSeriesDescription = {
    orderBy,
    groupBy,
    window: W,
    horizon: H,
    frequency: freqLabel,
    seasonality: spec.period,
    historyRows: packRows(spec),
    recalibrationRows: recalibrationRows(spec),
    selected: best.name,
    leaderboard,
    choices,
    coverage: intervals.coverage,
    worseThanSeasonalNaive: sel.worse,
    horizonAccuracy: intervals.horizonAccuracy,
    calibrationHalfLife: intervals.halfLife === Infinity ? null : intervals.halfLife,
    calibrationStandIns: intervals.standIns,
    groups: set.series.length,
    shortGroups: set.series.filter((s) => s.t.length < W + 1).length,
    duplicateTimestamps: set.duplicates,
    droppedRows: set.dropped,
    interpolatedTargets: set.interpolated,
    missingPeriods: missing.count,
  };
  let trainRows = 0;
  for (const s of set.series) trainRows += s.t.length;
  const description: ModelDescription = {
    task: 'regression',
    target,
    targetType,
    inputs: [orderBy, ...groupBy],
    accuracies: {
      bounded_ts_accuracy: round(boundedTsAccuracy(mase), 6),
      // Not defined (seasonal-naive exact, the model not): left out rather than a non-JSON Infinity.
      ...(Number.isFinite(mase) ? { mase: round(mase, 6) } : {}),
    },
    columnImportances: importances(part, layout, spec, target, orderBy, groupBy),
    features,
    candidates: scored.map((s, c) => ({
      name: s.name,
      performance: accuracy(c),
      training_time: round(s.trainingTime, 3),
      selected: groupsOf[c] > 0,
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
    warnings,
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
      ...(p.gbmKind ? { gbmKind: p.gbmKind } : {}),
      ...(usedNames.includes('ensemble') ? { ensemble } : {}),
      zScale: part ? part.zScale : { mean: 0, std: 1 },
      linear: part?.linear ? serializeLinearPart(part.linear) : null,
      thresholds: part ? part.thresholds.map((t) => (t ? toBase64(t) : null)) : [],
      perSeries: {
        names: usedNames,
        choice: Array.from(sel.choice, (c) => usedNames.indexOf(scored[c].name)),
        local: p.local,
        widthFactor: Array.from(intervals.widthFactor, (f) => round(f, 6)),
        hint: p.hint,
      },
    },
    calibration: {
      level: settings.confidence,
      halfWidths: intervals.halfWidths,
      levels: intervals.levels,
      online: intervals.online,
    },
    groups: { keys: set.series.map((s) => s.key), frequency: groupFreq, frequencies },
    settings,
    timeseries: {
      orderBy,
      groupBy,
      window: W,
      horizon: H,
      ...(cols.candidate ? { candidate: cols.candidate } : {}),
    },
    description,
  };
}

/** MASE of each validated group's chosen candidate, pooled (errors over seasonal-naive's). */
function compositeMase(sel: Selection): number {
  let e = 0;
  let b = 0;
  for (let g = 0; g < sel.choice.length; g++) {
    const base = sel.baseError[g];
    if (!(base > 0) || !Number.isFinite(sel.ownMase[g])) continue;
    e += sel.ownMase[g] * base;
    b += base;
  }
  return b > 0 ? e / b : sel.shownMase[sel.setChoice];
}

/** A group's model in statistics' words: the fitted local model's name, else the candidate's. */
function modelLabel(
  name: CandidateName,
  g: number,
  local: Partial<Record<LocalName, (LocalFit | null)[]>>,
  ensemble: CandidateName[],
): string {
  if (name === 'ensemble') {
    return `mean of ${ensemble.map((n) => modelLabel(n, g, local, [])).join('; ')}`;
  }
  if (name === 'ets' || name === 'theta' || name === 'arima' || name === 'tsb') {
    const f = local[name]?.[g];
    if (f) return localLabel(f);
    return name === 'tsb'
      ? 'tsb (not intermittent: seasonal-naive)'
      : `${name} (too short to fit: seasonal-naive)`;
  }
  if (name === 'combination') {
    const parts = (['theta', 'ets', 'arima'] as const)
      .map((l) => local[l]?.[g])
      .filter((f): f is LocalFit => !!f)
      .map(localLabel);
    return `mean of ${parts.join(', ')}`;
  }
  return name;
}

/** The calendar steps no group has a row for (frequency.ts missingSteps), and where the first is. */
function missingPeriods(
  series: readonly Series[],
  freqs: readonly Frequency[],
  format: OrderFormat,
  groupBy: readonly string[],
): { count: number; groups: number; where: string } {
  let count = 0;
  let groups = 0;
  let where = '';
  for (const [g, s] of series.entries()) {
    const m = missingSteps(s.t, freqs[g]);
    if (m.count === 0) continue;
    count += m.count;
    groups++;
    if (m.first && !where) {
      const group = groupBy.length
        ? `group (${groupBy.map((g, i) => `${g} = ${JSON.stringify(s.labels[i])}`).join(', ')}) `
        : '';
      where = `${group}between ${formatOrder(m.first[0], format)} and ${formatOrder(m.first[1], format)}`;
    }
  }
  return { count, groups, where };
}
