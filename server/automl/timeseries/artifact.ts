// The artifact of a trained forecaster: the selected model serialised, the calibration, the groups'
// frequencies, and the description DESCRIBE shows (features, importances, candidates, accuracy).

import type { FeatureInfo, ModelDescription, ResolvedSettings } from '../api';
import { toBase64 } from '../base64';
import type { Table } from '../data/table';
import { serializeGBM } from '../gbm/serialize';
import { round } from '../pipeline/describe';
import { type Scored, boundedTsAccuracy, ratio } from './candidates';
import type { FeatureLayout } from './features';
import { type InferredFrequency, frequencyLabel } from './frequency';
import { serializeLinearPart } from './linear';
import type { GbmPart } from './model';
import type { TsColumns } from './options';
import { recalibrationRows } from './recalibrate';
import type { SeriesSet } from './series';
import type { FeatureSpec, Frequency, TimeSeriesArtifact, TimeSeriesDescription } from './types';

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
  best: Scored;
  part: GbmPart | null;
  halfWidths: number[];
  halfLife: number;
  online: NonNullable<TimeSeriesArtifact['calibration']['online']>;
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
    calibration: { level: settings.confidence, halfWidths: p.halfWidths, online: p.online },
    groups: { keys: set.series.map((s) => s.key), frequency: groupFreq, frequencies },
    settings,
    timeseries: { orderBy, groupBy, window: W, horizon: H },
    description,
  };
}
