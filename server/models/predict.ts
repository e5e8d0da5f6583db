/**
 * Prediction with a complete model version, in the shape of the wire (docs/DESIGN.md 3.2), shared by SQL
 * (single and batch SELECT) and the HTTP predict route: loading a version's predictor once,
 * casting input values to the types the model was trained on, and turning the engine's
 * `Prediction`s into the `<target>`, `<target>_confidence`, ... columns. Columnar on purpose:
 * batch prediction moves hundreds of thousands of rows and per-row objects would dominate.
 */
import fs from 'node:fs';
import {
  AutoMLError,
  deserializeArtifact,
  loadPredictor,
  type CellValue,
  type Forecaster,
  type Explanation,
  type ModelDescription,
  type Prediction,
  type Predictor,
} from '../automl/index';
import { ERROR_CODES, ServiceError, badInput } from '../errors';
import type { JsonValue } from '../engine/values';
import type { ModelVersionRecord } from './store';

type ValueKind = 'number' | 'boolean' | 'string';

/** The SQL types of the columns the model layer produces. */
type ColumnType = 'VARCHAR' | 'BIGINT' | 'DOUBLE' | 'BOOLEAN' | 'TIMESTAMP' | 'JSON';

export interface OutputColumn {
  name: string;
  type: ColumnType;
}

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
const cacheKey = (r: ModelVersionRecord) => `${r.project}/${r.name}/${r.version}`.toLowerCase();

/** The predictors of complete versions, each artifact read once, on first use. */
export class PredictorCache {
  private readonly predictors = new Map<string, Promise<Predictor>>();

  get(rec: ModelVersionRecord, artifactFile: string): Promise<Predictor> {
    const key = cacheKey(rec);
    let p = this.predictors.get(key);
    if (!p) {
      p = fs.promises
        .readFile(artifactFile, 'utf8')
        .then((s) => loadPredictor(deserializeArtifact(s)))
        .catch((err: unknown) => {
          this.predictors.delete(key);
          throw new ServiceError(
            ERROR_CODES.INTERNAL,
            `The artifact of model '${label(rec)}' version ${rec.version} cannot be loaded: ${err instanceof Error ? err.message : String(err)}`,
          );
        });
      this.predictors.set(key, p);
    }
    return p;
  }

  delete(rec: ModelVersionRecord): void {
    this.predictors.delete(cacheKey(rec));
  }
}

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
    const unknown = unknownColumns(desc, Object.keys(columns));
    if (unknown.length > 0) {
      throw badInput(
        `Model '${label(record)}' has no input column ${unknown.map((c) => `'${c}'`).join(', ')}; its inputs are: ${desc.inputs.join(', ')}`,
      );
    }
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
  return {
    record,
    description: desc,
    inputs,
    columns: predictionColumns(desc),
    values: predictionValues(desc, preds, truth, explained),
    explained: explained !== null,
  };
}

/** Rows given as objects (the HTTP predict body, a SQL WHERE) as columns keyed by their names. */
export function columnsOfRows(rows: readonly unknown[]): Record<string, unknown[]> {
  const n = rows.length;
  const columns: Record<string, unknown[]> = {};
  rows.forEach((row, i) => {
    if (row === null || typeof row !== 'object' || Array.isArray(row)) {
      throw badInput(`Row ${i + 1} is not an object of column values`);
    }
    for (const [k, v] of Object.entries(row)) (columns[k] ??= new Array(n).fill(null))[i] = v;
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

/** How the values of a list of labels are typed: all numbers, all booleans, or anything else. */
function kindOf(values: readonly unknown[] | undefined): ValueKind {
  if (!values || values.length === 0) return 'string';
  if (values.every((v) => typeof v === 'number')) return 'number';
  if (values.every((v) => typeof v === 'boolean')) return 'boolean';
  return 'string';
}

const sqlTypeOfKind = (k: ValueKind): ColumnType =>
  k === 'number' ? 'DOUBLE' : k === 'boolean' ? 'BOOLEAN' : 'VARCHAR';

/** The value kind of an input column, from its training type and (for categories) its labels. */
function inputKind(desc: ModelDescription, column: string): ValueKind {
  const t = desc.inputTypes[column];
  if (t === 'integer' || t === 'float') return 'number';
  if (t === 'binary' || t === 'categorical') return kindOf(desc.categories[column]);
  return 'string';
}

function targetKind(desc: ModelDescription): ValueKind {
  return desc.task === 'regression' ? 'number' : kindOf(desc.classes);
}

const MISSING = new Set(['', 'nan', 'null', 'none', 'na', 'n/a']);

function fail(value: unknown, column: string, row: number, what: string): never {
  throw badInput(
    `Cannot use ${JSON.stringify(value)} for column '${column}' in row ${row + 1}: the model was trained on ${what}`,
  );
}

/**
 * Casts one cell to a kind: `"1000"` -> 1000 for numeric columns, `"true"` -> true for boolean
 * ones. NULL, blanks and the usual missing tokens become null (the model handles missing values);
 * anything else that does not fit is the caller's mistake and names the column and row.
 */
function castCell(
  v: unknown,
  kind: ValueKind,
  column: string,
  row: number,
  what: string,
): CellValue {
  if (v === null || v === undefined) return null;
  if (kind === 'number') {
    if (typeof v === 'number') return Number.isFinite(v) ? v : null;
    if (typeof v === 'bigint') return Number(v);
    if (typeof v === 'string') {
      const s = v.trim();
      if (MISSING.has(s.toLowerCase())) return null;
      const x = Number(s);
      if (Number.isFinite(x)) return x;
    }
    return fail(v, column, row, what);
  }
  if (kind === 'boolean') {
    if (typeof v === 'boolean') return v;
    if (v === 1 || v === 0) return v === 1;
    if (typeof v === 'string') {
      const s = v.trim().toLowerCase();
      if (MISSING.has(s)) return null;
      if (['true', 't', 'yes', 'y', '1'].includes(s)) return true;
      if (['false', 'f', 'no', 'n', '0'].includes(s)) return false;
    }
    return fail(v, column, row, what);
  }
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (typeof v === 'bigint') return v.toString();
  return JSON.stringify(v);
}

const describeType = (desc: ModelDescription, column: string) => {
  const t = desc.inputTypes[column];
  const k = inputKind(desc, column);
  if (t === 'integer' || t === 'float') return `${t} values`;
  if (k === 'number') return `${t} numeric values`;
  if (k === 'boolean') return `${t} true/false values`;
  return `${t} values`;
};

/**
 * Casts the model's input columns (and the target, when given, as the truth for `_anomaly` and
 * `_original`) of a columnar batch. Columns the model does not use are dropped here; whether they
 * are an error is the caller's decision (see `unknownColumns`).
 */
function castColumns(
  desc: ModelDescription,
  columns: Record<string, readonly unknown[]>,
  n: number,
): { inputs: Record<string, CellValue[]>; truth: CellValue[] | null } {
  const inputs: Record<string, CellValue[]> = {};
  for (const col of desc.inputs) {
    const src = columns[col];
    const out = new Array<CellValue>(n);
    if (!src) out.fill(null);
    else {
      const kind = inputKind(desc, col);
      const what = describeType(desc, col);
      for (let i = 0; i < n; i++) out[i] = castCell(src[i], kind, col, i, what);
    }
    inputs[col] = out;
  }
  let truth: CellValue[] | null = null;
  const t = columns[desc.target];
  if (t) {
    const kind = targetKind(desc);
    truth = new Array<CellValue>(n);
    for (let i = 0; i < n; i++) {
      try {
        truth[i] = castCell(t[i], kind, desc.target, i, `${desc.targetType} values`);
      } catch {
        // A truth that does not fit the target type cannot be compared; it only loses `_anomaly`.
        truth[i] = null;
      }
    }
  }
  return { inputs, truth };
}

/**
 * Names of the columns a model never saw, for errors. Columns it saw and set aside (identifiers
 * such as customerID, constants) are known: sending them is normal and harmless.
 */
function unknownColumns(desc: ModelDescription, names: Iterable<string>): string[] {
  const known = new Set(
    [...desc.inputs, desc.target, ...desc.features.map((f) => f.column)].map((c) =>
      c.toLowerCase(),
    ),
  );
  return [...names].filter((n) => !known.has(n.toLowerCase()));
}

/** The prediction columns (`<target>`, `_confidence`, ...), in the order the real service uses. */
export function predictionColumns(desc: ModelDescription): OutputColumn[] {
  const t = desc.target;
  const tt = sqlTypeOfKind(targetKind(desc));
  const cols: OutputColumn[] = [
    { name: t, type: tt },
    { name: `${t}_confidence`, type: 'DOUBLE' },
  ];
  // Intervals exist only for numeric targets (docs/DESIGN.md 3.2).
  if (desc.task === 'regression') {
    cols.push({ name: `${t}_min`, type: 'DOUBLE' }, { name: `${t}_max`, type: 'DOUBLE' });
  }
  cols.push(
    { name: `${t}_anomaly`, type: 'BOOLEAN' },
    { name: `${t}_original`, type: tt },
    { name: `${t}_explain`, type: 'VARCHAR' },
  );
  return cols;
}

/** SQL types of the input columns as they appear in prediction results. */
export function inputColumns(desc: ModelDescription): OutputColumn[] {
  return desc.inputs.map((c) => ({ name: c, type: sqlTypeOfKind(inputKind(desc, c)) }));
}

/** JSON text of a scalar (numbers are finite here: `finite` ran first). */
const json = (v: JsonValue): string =>
  v === null
    ? 'null'
    : typeof v === 'number' || typeof v === 'boolean'
      ? String(v)
      : JSON.stringify(v);

const finite = (x: number | null | undefined) =>
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

// ---- time-series models ------------------------------------------------------------------------

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
  const preds = predictionColumns(desc);
  const orderType: ColumnType = predictor.orderFormat === 'number' ? 'DOUBLE' : 'VARCHAR';
  const outColumns: OutputColumn[] = [
    { name: predictor.orderBy, type: orderType },
    ...predictor.groupBy.map((g) => ({ name: g, type: sqlTypeOfKind(inputKind(desc, g)) })),
    ...preds,
  ];
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
