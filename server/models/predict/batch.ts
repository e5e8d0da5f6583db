/**
 * Prediction with a complete model version, in the shape of the wire (docs/DESIGN.md 3.2), shared
 * by SQL (single and batch SELECT) and the HTTP predict route: the engine's `Prediction`s turned
 * into the `<target>`, `<target>_confidence`, ... columns. Columnar on purpose: batch prediction
 * moves hundreds of thousands of rows and per-row objects would dominate.
 */
import {
  AutoMLError,
  type CellValue,
  type Explanation,
  type ModelDescription,
  type Prediction,
  type Predictor,
} from '../../automl/index';
import { badInput } from '../../errors';
import { heavyTurn } from '../../engine/turns';
import type { JsonValue } from '../../engine/values';
import type { ModelVersionRecord } from '../store';
import { assertKnownColumns, castColumns } from './casting';
import { inputColumns, predictionColumns, type OutputColumn } from './columns';

export interface PredictOptions {
  /**
   * What to do with columns the model does not know. `error` (default) catches typos such as
   * `sqfeet = 823`, which would otherwise silently predict from a missing value; batch joins pass
   * `ignore` because a table naturally has other columns.
   */
  unknownColumns?: 'error' | 'ignore';
  /**
   * Add each row's feature contributions to `<target>_explain` (base_value,
   * feature_contributions, explained_value, explained_class). Off by default: explaining costs
   * far more than predicting (exact TreeSHAP walks every tree once per leaf path), so SQL asks
   * only when the query reads the column and REST only with `params.explain`.
   */
  explain?: boolean;
  /**
   * Prediction columns (by name) the caller will not read: answered as nulls, never built (SQL
   * passes those its statement cannot reference; `_explain`'s text is the costly one).
   */
  unread?: readonly string[];
  /**
   * The statement's signal: a cancelled or timed-out statement stops predicting at the next slice
   * (`predictInSlices`) with the signal's reason, instead of predicting the rest for no one.
   */
  signal?: AbortSignal;
}

export interface ColumnarPrediction {
  record: ModelVersionRecord;
  description: ModelDescription;
  /** The cast input columns (model inputs, null when not supplied). */
  inputs: Record<string, CellValue[]>;
  /** `<target>`, `<target>_confidence`, ... (see `predictionColumns`) and their values. */
  columns: OutputColumn[];
  values: JsonValue[][];
  /** Whether `<target>_explain` carries the feature contributions. */
  explained: boolean;
}

const label = (r: ModelVersionRecord) => `${r.project}.${r.name}`;

/**
 * Predicts a columnar batch with a complete version's predictor. `columns` are keyed by any
 * spelling of the model's column names (matched case-insensitively); values are cast to the
 * training types first.
 */
export function predictBatch(
  record: ModelVersionRecord,
  predictor: Predictor,
  columns: Record<string, readonly unknown[]>,
  n: number,
  opts: PredictOptions = {},
): ColumnarPrediction {
  const desc = predictor.description;
  if ((opts.unknownColumns ?? 'error') === 'error') {
    assertKnownColumns(label(record), desc, Object.keys(columns));
  }
  const byLower = new Map(Object.keys(columns).map((k) => [k.toLowerCase(), k]));
  const canonical: Record<string, readonly unknown[]> = {};
  for (const c of [...desc.inputs, desc.target]) {
    const k = byLower.get(c.toLowerCase());
    if (k !== undefined) canonical[c] = columns[k];
  }
  const { inputs, truth } = castColumns(desc, canonical, n);
  const engineCols: Record<string, CellValue[]> = { ...inputs };
  if (truth) engineCols[desc.target] = truth;
  let preds;
  let explained: Explanation[] | null = null;
  try {
    if (predictor.predictColumns) preds = predictor.predictColumns(engineCols, n);
    else {
      const rows: Record<string, CellValue>[] = new Array(n);
      const names = Object.keys(engineCols);
      for (let i = 0; i < n; i++) {
        const o: Record<string, CellValue> = {};
        for (const c of names) o[c] = engineCols[c][i];
        rows[i] = o;
      }
      preds = predictor.predict(rows);
    }
    if (opts.explain && predictor.explainColumns) explained = predictor.explainColumns(inputs, n);
  } catch (err) {
    if (err instanceof AutoMLError) throw badInput(err.message);
    throw err;
  }
  const outputs = predictionColumns(desc, record.targetAlias);
  const unread = new Set(opts.unread ?? []);
  return {
    record,
    description: desc,
    inputs,
    columns: outputs,
    values: predictionValues(desc, preds, truth, explained, !unread.has(outputs.at(-1)!.name)).map(
      (v, j) => (unread.has(outputs[j].name) ? new Array<JsonValue>(n).fill(null) : v),
    ),
    explained: explained !== null,
  };
}

const hasOwn = Object.prototype.hasOwnProperty;

/** Rows given as objects (the HTTP predict body, a SQL WHERE) as columns keyed by their names. */
export function columnsOfRows(rows: readonly unknown[]): Record<string, unknown[]> {
  const n = rows.length;
  const columns: Record<string, unknown[]> = {};
  rows.forEach((row, i) => {
    if (row === null || typeof row !== 'object' || Array.isArray(row)) {
      throw badInput(`Row ${i + 1} is not an object of column values`);
    }
    // for...in, not Object.entries: no pair arrays per cell (a 10k-row body took 19 ms here).
    for (const k in row) {
      if (hasOwn.call(row, k))
        (columns[k] ??= new Array(n).fill(null))[i] = (row as Record<string, unknown>)[k];
    }
  });
  return columns;
}

/**
 * A columnar prediction as row objects: each model input (null when not supplied), the prediction
 * columns, `__service_row_id`, `select_data_query` and `when_data` (docs/DESIGN.md 3.2).
 */
export function predictionRows(p: ColumnarPrediction, n: number): Record<string, JsonValue>[] {
  const inCols = inputColumns(p.description);
  const out: Record<string, JsonValue>[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const o: Record<string, JsonValue> = {};
    for (const c of inCols) o[c.name] = p.inputs[c.name][i];
    p.columns.forEach((c, j) => (o[c.name] = p.values[j][i]));
    o.__service_row_id = i;
    o.select_data_query = null;
    o.when_data = null;
    out[i] = o;
  }
  return out;
}

/** JSON text of a scalar (numbers are finite here: `finite` ran first). */
const json = (v: JsonValue): string =>
  v === null
    ? 'null'
    : typeof v === 'number' || typeof v === 'boolean'
      ? String(v)
      : JSON.stringify(v);

export const finite = (x: number | null | undefined) =>
  typeof x === 'number' && Number.isFinite(x) ? x : null;

/**
 * Builds the prediction columns' values (aligned with `predictionColumns`). `_anomaly` falls back
 * to "truth outside the interval" when the engine left it null but a numeric truth is known.
 */
function predictionValues(
  desc: ModelDescription,
  preds: Prediction[],
  truth: CellValue[] | null,
  explained: Explanation[] | null = null,
  withExplain = true,
): JsonValue[][] {
  const n = preds.length;
  const regression = desc.task === 'regression';
  const value: JsonValue[] = new Array(n);
  const conf: JsonValue[] = new Array(n);
  const lo: JsonValue[] = new Array(n);
  const hi: JsonValue[] = new Array(n);
  const anomaly: JsonValue[] = new Array(n);
  const original: JsonValue[] = new Array(n);
  const explain: JsonValue[] = new Array(n);
  // `"column":` of each input, made once per batch.
  const keys = explained ? desc.inputs.map((c) => [c, `${JSON.stringify(c)}:`] as const) : null;
  for (let i = 0; i < n; i++) {
    const p = preds[i];
    const tr = truth ? truth[i] : null;
    const lower = finite(p.lower);
    const upper = finite(p.upper);
    let an = p.anomaly;
    if (an == null && regression && typeof tr === 'number' && lower !== null && upper !== null) {
      an = tr < lower || tr > upper;
    }
    const v = typeof p.value === 'number' ? finite(p.value) : p.value;
    value[i] = v;
    conf[i] = finite(p.confidence);
    lo[i] = lower;
    hi[i] = upper;
    anomaly[i] = an ?? null;
    original[i] = tr;
    if (!withExplain) {
      explain[i] = null;
      continue;
    }
    // Built as text directly: JSON.stringify of a fresh object per row was the largest cost of
    // batch prediction after the engine itself. Same bytes as JSON.stringify would produce.
    let ex = `{"predicted_value":${json(v)},"confidence":${json(conf[i])},"anomaly":${json(an ?? null)},"truth":${json(tr)},"confidence_lower_bound":${json(lower)},"confidence_upper_bound":${json(upper)}`;
    if (p.probabilities) {
      for (const cls in p.probabilities)
        ex += `,${JSON.stringify(`probability_class_${cls}`)}:${json(finite(p.probabilities[cls]))}`;
    }
    if (explained) ex += contributionsJson(explained[i], keys!, regression);
    explain[i] = ex + '}';
  }
  return regression
    ? [value, conf, lo, hi, anomaly, original, explain]
    : [value, conf, anomaly, original, explain];
}

/**
 * The explanation keys of one row (L-CONTRACT 1): every input has a contribution (0 when it did
 * not matter), `base_value + sum = explained_value`; `explained_class` is null for regression.
 */
function contributionsJson(
  e: Explanation,
  keys: readonly (readonly [string, string])[],
  regression: boolean,
): string {
  let fc = '';
  for (const [c, key] of keys) {
    const v = finite(e.contributions[c]) ?? 0;
    fc += `${fc === '' ? '' : ','}${key}${v}`;
  }
  const cls = regression || e.class === undefined ? null : e.class;
  return `,"base_value":${json(finite(e.baseValue))},"feature_contributions":{${fc}},"explained_value":${json(finite(e.value))},"explained_class":${json(cls)}`;
}

/**
 * Rows predicted between two turns of the event loop (`predictInSlices`, which waits for its turn
 * behind short requests: engine/turns.ts): ~20-60 ms of predicting,
 * so a status call or a `SELECT 1` beside a model join over a million rows waits that long, not
 * the whole join's prediction (seconds: the process's one JavaScript thread serves every request).
 */
export const PREDICT_SLICE_ROWS = 4096;

/** Predicts one slice as `predictBatch` does, somewhere else (models/predict-thread). */
export type SlicePredictor = (
  columns: Record<string, readonly unknown[]>,
  n: number,
) => Promise<ColumnarPrediction>;

/**
 * `predictBatch` over big batches in slices of PREDICT_SLICE_ROWS rows. In this thread (no
 * `elsewhere`) it yields to the event loop between slices, waiting for its turn behind short
 * requests; with `elsewhere` each slice is predicted there while this thread serves others.
 * Tabular predictions are row by row, so the slices put together equal one batch.
 */
export async function predictInSlices(
  record: ModelVersionRecord,
  predictor: Predictor,
  columns: Record<string, readonly unknown[]>,
  n: number,
  opts: PredictOptions = {},
  elsewhere?: SlicePredictor,
): Promise<ColumnarPrediction> {
  const predictSlice =
    elsewhere ??
    ((cols: Record<string, readonly unknown[]>, m: number) =>
      predictBatch(record, predictor, cols, m, opts));
  if (n <= PREDICT_SLICE_ROWS) return predictSlice(columns, n);
  const names = Object.keys(columns);
  const parts: ColumnarPrediction[] = [];
  for (let start = 0; start < n; start += PREDICT_SLICE_ROWS) {
    if (start > 0) {
      if (!elsewhere) await heavyTurn();
      opts.signal?.throwIfAborted();
    }
    const end = Math.min(n, start + PREDICT_SLICE_ROWS);
    const slice: Record<string, readonly unknown[]> = {};
    for (const c of names) slice[c] = columns[c].slice(start, end);
    parts.push(await predictSlice(slice, end - start));
  }
  // Joined once per column by the engine's own concat (a loop of pushes held the event loop's
  // thread 0.3 s beside eight model joins).
  const [first, ...rest] = parts;
  const inputs: Record<string, CellValue[]> = {};
  for (const c of Object.keys(first.inputs))
    inputs[c] = first.inputs[c].concat(...rest.map((p) => p.inputs[c]));
  return {
    ...first,
    inputs,
    values: first.values.map((v, i) => v.concat(...rest.map((p) => p.values[i]))),
    explained: parts.some((p) => p.explained),
  };
}
