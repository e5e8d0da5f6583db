/**
 * DESCRIBE of a model (docs/DESIGN.md 3.3): `progress` of any version, and `info` / `features` / `model`
 * (or everything) of a complete one, read from its predictor's description. Values are JSON
 * values: objects and arrays stay structured.
 */
import {
  descriptionWarnings,
  type ModelDescription,
  type TimeSeriesDescription,
} from '../automl/index';
import type { JsonValue } from '../engine/values';
import { badInput } from '../errors';
import { metricsSentences, warningLines } from './metrics-text';
import type { ModelVersionRecord } from './store';

const DESCRIBE_ATTRIBUTES = ['info', 'features', 'model', 'progress'] as const;

/** The attribute in lower case ('' for none), or a BAD_INPUT naming the allowed ones. */
export function describeAttribute(attribute?: string | null): string {
  const attr = attribute ? attribute.toLowerCase() : '';
  if (attr !== '' && !(DESCRIBE_ATTRIBUTES as readonly string[]).includes(attr)) {
    throw badInput(
      `Unknown attribute '${attribute}' to describe; allowed: ${DESCRIBE_ATTRIBUTES.join(', ')}`,
    );
  }
  return attr;
}

/** `DESCRIBE ... .progress`: works in any status. */
export function describeProgress(r: ModelVersionRecord): Record<string, JsonValue>[] {
  const done = r.status === 'complete';
  // A finished training reports its last phase as done, named by the outcome.
  const total = r.phase?.total ?? (done ? 1 : null);
  return [
    {
      current: done ? total : (r.phase?.current ?? null),
      total,
      name: done || r.status === 'error' ? r.status : (r.phase?.name ?? r.status),
    },
  ];
}

/** How DESCRIBE's extensions are shown: structured (REST) or as sentences (a SQL grid cell). */
export type DescribeForm = 'json' | 'text';

/**
 * Every other form, from a complete model's description (`attr` as `describeAttribute` gives).
 * `text` shows `metrics` and `warnings` as plain sentences, for SQL clients' grids.
 */
export function describeModel(
  d: ModelDescription,
  attr: string,
  form: DescribeForm = 'json',
  /** `PREDICT target AS alias`: the output column's name. */
  targetAlias?: string | null,
): Record<string, JsonValue>[] {
  if (attr === 'features') {
    // MindsDB names an input's role `feature` (Lightwood's word); the engine says `input`.
    return d.features.map((f) => ({
      column: f.column,
      type: f.type,
      encoder: f.encoder,
      role: f.role === 'input' ? 'feature' : f.role,
    }));
  }
  if (attr === 'model') {
    return d.candidates.map((c) => ({
      name: c.name,
      performance: c.performance,
      training_time: c.training_time,
      selected: c.selected,
      accuracy_functions: c.accuracy_functions,
    }));
  }
  const info: Record<string, JsonValue> = {
    accuracies: d.accuracies,
    column_importances: d.columnImportances,
    inputs: d.inputs,
    outputs: [targetAlias || d.target],
  };
  if (attr === '') info.model = d.summary;
  if (d.timeseries) info.timeseries = timeseriesInfo(d.timeseries);
  // This instance's extensions (contract: DescribeSummaryRow): null / derived for older models.
  const warnings = descriptionWarnings(d);
  if (form === 'text') {
    info.metrics = d.metrics ? metricsSentences(d.metrics).join(' ') : null;
    info.warnings = warnings.length > 0 ? warningLines(warnings).join('\n') : null;
  } else {
    info.metrics = (d.metrics ?? null) as unknown as JsonValue;
    info.warnings = warnings as unknown as JsonValue;
  }
  return [info];
}

/** A time-series model's clauses, frequency, selected candidate and accuracy per step (snake_case). */
function timeseriesInfo(t: TimeSeriesDescription): Record<string, JsonValue> {
  return {
    order_by: t.orderBy,
    group_by: t.groupBy,
    window: t.window,
    horizon: t.horizon,
    frequency: t.frequency,
    seasonality: t.seasonality,
    history_rows: t.historyRows,
    selected: t.selected,
    // The candidates' leaderboard, each group's choice and why, coverage per nominal level
    // (absent for models trained before them).
    leaderboard: (t.leaderboard ?? []).map((r) => ({
      name: r.name,
      label: r.label,
      mase: r.mase,
      mae: r.mae,
      training_time: r.trainingTime,
      groups: r.groups,
      selected: r.selected,
    })),
    choices: (t.choices ?? []).map((c) => ({ ...c, group: c.group })),
    coverage: (t.coverage ?? []).map((c) => ({ ...c })),
    worse_than_seasonal_naive: t.worseThanSeasonalNaive ?? null,
    horizon_accuracy: t.horizonAccuracy.map((h) => ({ ...h })),
    calibration_half_life: t.calibrationHalfLife ?? null,
    calibration_stand_ins: t.calibrationStandIns ? { ...t.calibrationStandIns } : null,
    groups: t.groups,
    short_groups: t.shortGroups,
    duplicate_timestamps: t.duplicateTimestamps,
    dropped_rows: t.droppedRows,
    interpolated_targets: t.interpolatedTargets ?? 0,
    missing_periods: t.missingPeriods ?? null,
  };
}
