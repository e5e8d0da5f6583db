/**
 * Forecasts with a complete time-series model version, in columns (SQL plans its forecast
 * queries over them) and as row objects (the REST predict answer of a time-series model).
 */
import {
  AutoMLError,
  type CellValue,
  type Forecaster,
  type ModelDescription,
} from '../../automl/index';
import { badInput } from '../../errors';
import type { JsonValue } from '../../engine/values';
import type { ModelVersionRecord } from '../store';
import { finite } from './batch';
import { inputKind } from './casting';
import { predictionColumns, sqlTypeOfKind, type OutputColumn } from './columns';

export interface ForecastRequest {
  /** Steps per group, 1 to the model's HORIZON (default: HORIZON). */
  horizon?: number;
  /** Also answer every history row with its one-step backtest (MindsDB's rows of known times). */
  history?: boolean;
}

/**
 * A forecast in columns: `columns` are the ORDER BY column, the GROUP BY columns and the
 * prediction columns (`predictionColumns`), `values` column-major; `horizon` rows per group, groups
 * in first-appearance order. `history` (on request) has the prediction columns for every input row.
 */
export interface ColumnarForecast {
  record: ModelVersionRecord;
  description: ModelDescription;
  orderBy: string;
  groupBy: string[];
  columns: OutputColumn[];
  values: JsonValue[][];
  n: number;
  /** Per output row: its group (index into `groupRows`). */
  group: number[];
  /** Per group: the input row its forecast continues (the group's latest row). */
  groupRows: number[];
  history?: { values: JsonValue[][]; group: number[] };
  /** GROUP BY values training never saw (forecast by the pooled model). */
  unseenGroups: CellValue[][];
  /** Input rows merged into another row of the same group and timestamp. */
  duplicates: number;
}

const toNumber = (v: unknown): number | null => {
  const x = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(x) ? x : null;
};

/** The `_explain` text of one forecast or backtest value (docs/DESIGN.md 3.2's keys, plus the step). */
function forecastExplain(
  v: number | null,
  conf: number | null,
  anomaly: boolean | null,
  truth: number | null,
  lo: number | null,
  hi: number | null,
  step: number,
): string {
  return JSON.stringify({
    predicted_value: v,
    confidence: conf,
    anomaly,
    truth,
    confidence_lower_bound: lo,
    confidence_upper_bound: hi,
    horizon_step: step,
  });
}

/** A forecast's columns: the ORDER BY column, the GROUP BY columns, the prediction columns. */
export function forecastColumns(record: ModelVersionRecord, predictor: Forecaster): OutputColumn[] {
  const desc = predictor.description;
  const orderType: OutputColumn['type'] = predictor.orderFormat === 'number' ? 'DOUBLE' : 'VARCHAR';
  return [
    { name: predictor.orderBy, type: orderType },
    ...predictor.groupBy.map((g) => ({ name: g, type: sqlTypeOfKind(inputKind(desc, g)) })),
    ...predictionColumns(desc, record.targetAlias),
  ];
}

/**
 * Forecasts with a complete time-series version: `columns` hold history rows (the ORDER BY, GROUP
 * BY and target columns, keyed by any spelling; others are ignored), the answer `horizon` rows
 * per group after its latest row. The engine's refusals (a group shorter than WINDOW, a target
 * that is not a number, an ORDER BY that cannot be sorted, ...) are the caller's 400.
 */
export function forecastBatch(
  record: ModelVersionRecord,
  predictor: Forecaster,
  columns: Record<string, readonly unknown[]>,
  n: number,
  opts: ForecastRequest = {},
): ColumnarForecast {
  const desc = predictor.description;
  let out;
  try {
    out = predictor.forecast(columns, n, { horizon: opts.horizon, history: opts.history });
  } catch (err) {
    if (err instanceof AutoMLError) throw badInput(err.message);
    throw err;
  }
  const h = opts.horizon ?? predictor.horizon;
  const G = predictor.groupBy.length;
  const preds = predictionColumns(desc, record.targetAlias);
  const outColumns = forecastColumns(record, predictor);
  const rows = out.rows;
  const m = rows.length;
  const values: JsonValue[][] = outColumns.map(() => new Array<JsonValue>(m));
  const group = new Array<number>(m);
  for (let i = 0; i < m; i++) {
    const r = rows[i];
    const v = finite(r[G + 1] as number | null);
    const lo = finite(r[G + 2] as number | null);
    const hi = finite(r[G + 3] as number | null);
    const conf = finite(r[G + 4] as number | null);
    const cells: JsonValue[] = [
      r[0],
      ...r.slice(1, G + 1),
      v,
      conf,
      lo,
      hi,
      null,
      null,
      forecastExplain(v, conf, null, null, lo, hi, (i % h) + 1),
    ];
    cells.forEach((c, j) => (values[j][i] = c));
    group[i] = Math.floor(i / h);
  }
  const result: ColumnarForecast = {
    record,
    description: desc,
    orderBy: predictor.orderBy,
    groupBy: predictor.groupBy,
    columns: outColumns,
    values,
    n: m,
    group,
    groupRows: out.groupRows,
    unseenGroups: out.unseenGroups,
    duplicates: out.duplicates,
  };
  if (out.history) {
    const hist = out.history;
    const targetKey = Object.keys(columns).find(
      (k) => k.toLowerCase() === desc.target.toLowerCase(),
    );
    const truthCol = targetKey === undefined ? null : columns[targetKey];
    const hv: JsonValue[][] = preds.map(() => new Array<JsonValue>(n));
    for (let i = 0; i < n; i++) {
      const v = hist.value[i];
      const lo = hist.lower[i];
      const hi = hist.upper[i];
      const truth = truthCol ? toNumber(truthCol[i]) : null;
      const conf = v === null ? null : hist.confidence;
      const anomaly =
        truth === null || lo === null || hi === null ? null : truth < lo || truth > hi;
      const cells: JsonValue[] = [
        v,
        conf,
        lo,
        hi,
        anomaly,
        truth,
        forecastExplain(v, conf, anomaly, truth, lo, hi, 0),
      ];
      cells.forEach((c, j) => (hv[j][i] = c));
    }
    result.history = { values: hv, group: hist.group };
  }
  return result;
}

/** A forecast as row objects (the REST predict answer of a time-series model). */
export function forecastRows(p: ColumnarForecast): Record<string, JsonValue>[] {
  const out: Record<string, JsonValue>[] = new Array(p.n);
  for (let i = 0; i < p.n; i++) {
    const o: Record<string, JsonValue> = {};
    p.columns.forEach((c, j) => (o[c.name] = p.values[j][i]));
    o.__service_row_id = i;
    o.select_data_query = null;
    o.when_data = null;
    out[i] = o;
  }
  return out;
}
