/**
 * The row format of `<project>.models` / `models_versions` (docs/DESIGN.md 3.5): its 19 columns in
 * MindsDB's order and one row per model version. The SQL models tables and the REST listings both
 * print from here, so they agree on every value (CREATED_AT above all).
 */
import type { JsonValue } from '../engine/values';
import type { OutputColumn } from './predict/columns';
import type { ModelVersionRecord } from './store';

/**
 * What the ENGINE column says. The models come from our own AutoML engine, but MindsDB clients
 * (the JS SDK, the real editor) know 'lightwood' as the default engine and branch on it.
 */
export const ENGINE_NAME = 'lightwood';

/** The 19 columns of `<project>.models` / `models_versions` (docs/DESIGN.md 3.5), in MindsDB's order. */
export const MODEL_COLUMNS: OutputColumn[] = [
  { name: 'NAME', type: 'VARCHAR' },
  { name: 'ENGINE', type: 'VARCHAR' },
  { name: 'PROJECT', type: 'VARCHAR' },
  { name: 'ACTIVE', type: 'BOOLEAN' },
  { name: 'VERSION', type: 'BIGINT' },
  { name: 'STATUS', type: 'VARCHAR' },
  { name: 'ACCURACY', type: 'DOUBLE' },
  { name: 'PREDICT', type: 'VARCHAR' },
  { name: 'UPDATE_STATUS', type: 'VARCHAR' },
  { name: 'MINDSDB_VERSION', type: 'VARCHAR' },
  { name: 'ERROR', type: 'VARCHAR' },
  { name: 'SELECT_DATA_QUERY', type: 'VARCHAR' },
  { name: 'TRAINING_OPTIONS', type: 'JSON' },
  { name: 'CURRENT_TRAINING_PHASE', type: 'BIGINT' },
  { name: 'TOTAL_TRAINING_PHASES', type: 'BIGINT' },
  { name: 'TRAINING_PHASE_NAME', type: 'VARCHAR' },
  { name: 'TAG', type: 'VARCHAR' },
  { name: 'CREATED_AT', type: 'TIMESTAMP' },
  { name: 'TRAINING_TIME', type: 'DOUBLE' },
];

/**
 * An ISO instant as DuckDB prints a TIMESTAMP ("2026-01-02 03:04:05.63": trailing zeros of the
 * fraction dropped), so the REST listings and the SQL models table show the same text.
 */
export function timestampText(iso: string): string {
  return iso
    .replace('T', ' ')
    .replace('Z', '')
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '');
}

/** One row of the models table (aligned with MODEL_COLUMNS); `version` goes in MINDSDB_VERSION. */
export function modelRow(r: ModelVersionRecord, version: string): JsonValue[] {
  const options: Record<string, JsonValue> = { target: r.target, using: r.using as JsonValue };
  // MindsDB's key and field names: {'is_timeseries': True, 'order_by': ..., 'group_by': [...], ...}.
  if (r.timeseries) {
    options.timeseries_settings = {
      is_timeseries: true,
      order_by: r.timeseries.orderBy,
      group_by: r.timeseries.groupBy,
      window: r.timeseries.window,
      horizon: r.timeseries.horizon,
    };
  }
  if (r.mode === 'finetune') options.finetuned_from_version = r.baseVersion;
  return [
    r.name,
    ENGINE_NAME,
    r.project,
    r.active,
    r.version,
    r.status,
    r.accuracy,
    r.target,
    'up_to_date',
    version,
    r.error,
    r.selectQuery,
    JSON.stringify(options),
    r.phase?.current ?? null,
    r.phase?.total ?? null,
    r.phase?.name ?? null,
    r.tag,
    timestampText(r.createdAt),
    r.trainingTime,
  ];
}
