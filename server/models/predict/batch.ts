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
  type PredictionColumns,
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
  /**
   * Keep each prediction cell's JSON text (`texts`) for an answer written as text (REST,
   * predict/json-rows.ts): the numbers are then turned into text once, for the column and the
   * `_explain` text alike, and `_explain` is built as the JSON string it is sent as (its `values`
   * are left null). Formatting the numbers twice cost more than predicting them. A batch
   * predicted on the prediction thread then comes back with its text only (all `values` null).
   */
  texts?: boolean;
}

export interface ColumnarPrediction {
  record: ModelVersionRecord;
  description: ModelDescription;
  /**
   * The cast input columns (model inputs, null when not supplied); a Float64Array is a column of
   * numbers the request sent that the cast left as they were (the prediction thread's answer).
   */
  inputs: Record<string, CellValue[] | Float64Array>;
  /** `<target>`, `<target>_confidence`, ... (see `predictionColumns`) and their values. */
  columns: OutputColumn[];
  values: JsonValue[][];
  /** With `texts`: each prediction cell as JSON text (`_explain` as a JSON string), by column. */
  texts?: string[][];
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
  columns: Record<string, ArrayLike<unknown>>,
  n: number,
  opts: PredictOptions = {},
): ColumnarPrediction {
  const desc = predictor.description;
  if ((opts.unknownColumns ?? 'error') === 'error') {
    assertKnownColumns(label(record), desc, Object.keys(columns));
  }
  const { inputs, truth } = castColumns(desc, canonicalColumns(desc, columns), n);
  const engineCols: Record<string, CellValue[]> = { ...inputs };
  if (truth) engineCols[desc.target] = truth;
  let preds: PredictionColumns;
  let explained: Explanation[] | null = null;
  try {
    if (predictor.predictTable) preds = predictor.predictTable(engineCols, n);
    else if (predictor.predictColumns) preds = tableOf(predictor.predictColumns(engineCols, n));
    else {
      const rows: Record<string, CellValue>[] = new Array(n);
      const names = Object.keys(engineCols);
      for (let i = 0; i < n; i++) {
        const o: Record<string, CellValue> = {};
        for (const c of names) o[c] = engineCols[c][i];
        rows[i] = o;
      }
      preds = tableOf(predictor.predict(rows));
    }
    if (opts.explain && predictor.explainColumns) explained = predictor.explainColumns(inputs, n);
  } catch (err) {
    if (err instanceof AutoMLError) throw badInput(err.message);
    throw err;
  }
  const outputs = predictionColumns(desc, record.targetAlias);
  const unread = new Set(opts.unread ?? []);
  const built = predictionValues(desc, preds, n, truth, {
    explained,
    withExplain: !unread.has(outputs.at(-1)!.name),
    texts: opts.texts === true,
  });
  const none = (j: number) => unread.has(outputs[j].name);
  return {
    record,
    description: desc,
    inputs,
    columns: outputs,
    values: built.values.map((v, j) => (none(j) ? new Array<JsonValue>(n).fill(null) : v)),
    ...(built.texts
      ? { texts: built.texts.map((t, j) => (none(j) ? new Array<string>(n).fill('null') : t)) }
      : {}),
    explained: explained !== null,
  };
}

/**
 * The columns of a batch a model reads (its inputs and target), keyed by the model's own names:
 * `columns` may spell them in any case.
 */
export function canonicalColumns<T extends ArrayLike<unknown>>(
  desc: ModelDescription,
  columns: Record<string, T>,
): Record<string, T> {
  const byLower = new Map(Object.keys(columns).map((k) => [k.toLowerCase(), k]));
  const canonical: Record<string, T> = {};
  for (const c of [...desc.inputs, desc.target]) {
    const k = byLower.get(c.toLowerCase());
    if (k !== undefined) canonical[c] = columns[k];
  }
  return canonical;
}

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Rows given as objects (the HTTP predict body, a SQL WHERE) as columns keyed by their names.
 * Rows of one shape list their keys in one order, so each key is first compared with the name
 * that followed the previous key (one comparison of interned strings) and looked up only when it
 * differs: a 10k-row body of 64 inputs spent most of its conversion looking keys up.
 */
export function columnsOfRows(rows: readonly unknown[]): Record<string, unknown[]> {
  const same = columnsOfSameRows(rows);
  if (same) return same;
  const n = rows.length;
  const names: string[] = [];
  const values: unknown[][] = [];
  const index = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const row = rows[i];
    if (row === null || typeof row !== 'object' || Array.isArray(row)) {
      throw badInput(`Row ${i + 1} is not an object of column values`);
    }
    let next = 0;
    // for...in, not Object.entries: no pair arrays per cell.
    for (const k in row) {
      if (!hasOwn.call(row, k)) continue;
      let c = names[next] === k ? next : index.get(k);
      if (c === undefined) {
        c = names.length;
        names.push(k);
        index.set(k, c);
        values.push(new Array(n).fill(null));
      }
      values[c][i] = (row as Record<string, unknown>)[k];
      next = c + 1;
    }
  }
  // No prototype: a column may be called anything, `__proto__` included.
  const columns: Record<string, unknown[]> = Object.create(null);
  names.forEach((k, c) => (columns[k] = values[c]));
  return columns;
}

/**
 * Slices' input columns joined: arrays by the engine's concat, numbers the request sent as they
 * were (Float64Arrays: ColumnarPrediction.inputs) into one Float64Array (the request's own when
 * the slices are its consecutive parts), a mix into an array.
 */
function joinCells(parts: (CellValue[] | Float64Array)[]): CellValue[] | Float64Array {
  const total = parts.reduce((s, p) => s + p.length, 0);
  if (parts.every((p) => p instanceof Float64Array)) {
    const typed = parts;
    let next = typed[0].byteOffset;
    const whole = typed.every((p) => {
      const ok = p.buffer === typed[0].buffer && p.byteOffset === next;
      next += p.byteLength;
      return ok;
    });
    if (whole) return new Float64Array(typed[0].buffer, typed[0].byteOffset, total);
    const out = new Float64Array(total);
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
  if (parts.every((p) => Array.isArray(p))) return parts[0].concat(...parts.slice(1));
  const out = new Array<CellValue>(total);
  let k = 0;
  for (const part of parts) for (let i = 0; i < part.length; i++) out[k++] = part[i];
  return out;
}

/** Columns that may be Float64Arrays as arrays (for code that reads arrays only: forecasts). */
export function cellArrays(
  columns: Record<string, InputCells>,
): Record<string, readonly unknown[]> {
  const out: Record<string, readonly unknown[]> = Object.create(null);
  for (const c of Object.keys(columns)) {
    const col = columns[c];
    out[c] = Array.isArray(col) ? col : Array.from(col);
  }
  return out;
}

/**
 * A column of input cells: an array, or the numbers of a column that has a number in every row
 * (an HTTP body read into columns: http/row-columns.ts).
 */
export type InputCells = readonly unknown[] | Float64Array;

/** Rows from which `columnsOfSameRows` is tried first. */
const SAME_ROWS_MIN = 32;

/**
 * `columnsOfRows` when every row is an object with the same keys in the same order (a batch of
 * one shape, as JSON bodies and callers' rows are): each key's cells read by a generated function
 * that names them (one property load each), after a check of each row's keys; null otherwise, and
 * the generic walk answers (with its errors). The 10-class 64-input model's 10k rows: 7 ms
 * against 69 ms walked key by key.
 */
function columnsOfSameRows(rows: readonly unknown[]): Record<string, unknown[]> | null {
  const n = rows.length;
  const first = rows[0];
  if (n < SAME_ROWS_MIN || first === null || typeof first !== 'object' || Array.isArray(first))
    return null;
  const names = Object.keys(first);
  const K = names.length;
  if (K === 0) return null;
  for (let i = 1; i < n; i++) {
    const r = rows[i];
    if (r === null || typeof r !== 'object' || Array.isArray(r)) return null;
    const keys = Object.keys(r);
    if (keys.length !== K) return null;
    for (let j = 0; j < K; j++) if (keys[j] !== names[j]) return null;
  }
  const read = generated<(rows: readonly unknown[], n: number, cols: unknown[][]) => void>(
    'cells',
    names,
    ['rows', 'n', 'cols'],
    () =>
      `${names.map((_, j) => `const c${j} = cols[${j}];`).join(' ')}
  for (let i = 0; i < n; i++) {
    const r = rows[i];
    ${names.map((k, j) => `c${j}[i] = r[${JSON.stringify(k)}];`).join(' ')}
  }`,
  );
  if (!read) return null;
  const values = names.map(() => new Array<unknown>(n));
  read(rows, n, values);
  const columns: Record<string, unknown[]> = Object.create(null);
  names.forEach((k, c) => (columns[k] = values[c]));
  return columns;
}

/** Rows as columns: `columnsOfRows` of n rows, or the same made another way (an HTTP body). */
export interface RowsAsColumns {
  columns: Record<string, InputCells>;
  n: number;
  /** Where a cell's JSON text is in `body` (see predict/json-rows.ts, `InputText`). */
  text?: InputText;
}

/**
 * The JSON text of the input cells as the request sent them: per column, where each cell's text
 * starts in `body` when it is a number written as JSON.stringify writes that number, else -1.
 * `rows`, per row: where its `}` is, and how many keys it has when it is written as the answer
 * echoes it (its keys those of `columns` in their order, each once, in JSON.stringify's
 * text, no white space, every cell in JSON.stringify's text of its value), else -1; per column,
 * where the opening quote of its key is in each row that has it.
 */
export interface InputText {
  body: Uint8Array;
  at: Record<string, ArrayLike<number>>;
  rows?: {
    close: Int32Array;
    keys: Int32Array;
    keyAt: Record<string, Int32Array>;
  };
}

export const isRowArray = (rows: readonly unknown[] | RowsAsColumns): rows is readonly unknown[] =>
  Array.isArray(rows);

/**
 * A columnar prediction as row objects: each model input (null when not supplied), the prediction
 * columns, `__service_row_id`, `select_data_query` and `when_data` (docs/DESIGN.md 3.2).
 */
export function predictionRows(p: ColumnarPrediction, n: number): Record<string, JsonValue>[] {
  const inCols = inputColumns(p.description);
  const names = [...inCols.map((c) => c.name), ...p.columns.map((c) => c.name)];
  const cols: ArrayLike<JsonValue>[] = [...inCols.map((c) => p.inputs[c.name]), ...p.values];
  const build = rowBuilder(names);
  if (build) return build(cols, n);
  const out: Record<string, JsonValue>[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const o: Record<string, JsonValue> = {};
    for (let j = 0; j < names.length; j++) o[names[j]] = cols[j][i];
    o.__service_row_id = i;
    o.select_data_query = null;
    o.when_data = null;
    out[i] = o;
  }
  return out;
}

type RowBuilder = (cols: ArrayLike<JsonValue>[], n: number) => Record<string, JsonValue>[];

/**
 * A function building `predictionRows`' objects with one object literal of the row's keys (the
 * keys in JSON string literals, so any name is safe): keyed stores of the names one by one went
 * through V8's generic property path, 113 ms for the 10-class 64-input model's 10k rows. The same
 * objects: a repeated key keeps its first place and its last value, as assignments do.
 */
const rowBuilder = (names: string[]) =>
  generated<RowBuilder>('rows', names, ['cols', 'n'], () => {
    const fields = names.map((k, j) => `${JSON.stringify(k)}: c${j}[i]`);
    return `${names.map((_, j) => `const c${j} = cols[${j}];`).join(' ')}
  const out = new Array(n);
  for (let i = 0; i < n; i++)
    out[i] = { ${fields.join(', ')}, "__service_row_id": i, "select_data_query": null, "when_data": null };
  return out;`;
  });

/** Generated functions by what they are for and their keys (a model's columns), the last few. */
const generatedKept = new Map<string, unknown>();
const GENERATED_KEPT = 64;

/**
 * A function of `params` generated from `source` for a list of keys, made once per list. Null
 * (the caller's loop instead) for a `__proto__` key, which a literal or a property read by name
 * would take for the prototype, and where the runtime forbids code generation.
 */
function generated<F>(
  what: string,
  names: string[],
  params: string[],
  source: () => string,
): F | null {
  const key = `${what}\u0000${names.join('\u0000')}`;
  let f = generatedKept.get(key) as F | null | undefined;
  if (f !== undefined) {
    generatedKept.delete(key);
    generatedKept.set(key, f);
    return f;
  }
  f = null;
  if (!names.includes('__proto__')) {
    try {
      f = new Function(...params, source()) as F;
    } catch {
      f = null;
    }
  }
  generatedKept.set(key, f);
  if (generatedKept.size > GENERATED_KEPT) generatedKept.delete(generatedKept.keys().next().value!);
  return f;
}

/** Strings up to this length are quoted once per batch and reused (labels, categories). */
const CACHED_STRING = 64;
const CACHE_LIMIT = 4096;

/**
 * A writer of JSON text for scalar cells, as JSON.stringify writes them inside an object or array
 * (non-finite numbers as null); short strings are quoted once per writer, since a batch repeats
 * its labels and categories.
 */
export function jsonCells(): (v: JsonValue) => string {
  const quoted = new Map<string, string>();
  return (v) => {
    if (v === null) return 'null';
    switch (typeof v) {
      case 'number':
        return Number.isFinite(v) ? '' + v : 'null';
      case 'boolean':
        return v ? 'true' : 'false';
      case 'string': {
        if (v.length > CACHED_STRING) return JSON.stringify(v);
        let q = quoted.get(v);
        if (q === undefined) {
          q = JSON.stringify(v);
          if (quoted.size < CACHE_LIMIT) quoted.set(v, q);
        }
        return q;
      }
      default:
        return JSON.stringify(v) ?? 'null';
    }
  };
}

export const finite = (x: number | null | undefined) =>
  typeof x === 'number' && Number.isFinite(x) ? x : null;

/**
 * JSON text as the content of a JSON string (quotes and backslashes escaped; JSON text holds no
 * raw control characters or lone surrogates): the same as JSON.stringify(text) without its quotes.
 */
const escapeJsonText = (text: string) => text.replace(/[\\"]/g, '\\$&');

/**
 * A predictor's `Prediction` objects as columns (predictors without `predictTable`). The class
 * probabilities are keyed by the keys of the rows' objects, in the order they first appear.
 */
function tableOf(preds: Prediction[]): PredictionColumns {
  const num = (x: number | null | undefined) => (typeof x === 'number' ? x : NaN);
  const names = new Set<string>();
  for (const p of preds) if (p.probabilities) for (const k in p.probabilities) names.add(k);
  const classes = [...names];
  return {
    value: preds.map((p) => p.value),
    confidence: Float64Array.from(preds, (p) => num(p.confidence)),
    lower: Float64Array.from(preds, (p) => num(p.lower)),
    upper: Float64Array.from(preds, (p) => num(p.upper)),
    anomaly: Int8Array.from(preds, (p) => (p.anomaly == null ? -1 : p.anomaly ? 1 : 0)),
    probabilities: preds.some((p) => p.probabilities)
      ? {
          names: classes,
          columns: classes.map((c) => Float64Array.from(preds, (p) => num(p.probabilities?.[c]))),
        }
      : null,
  };
}

/**
 * Builds the prediction columns' values (aligned with `predictionColumns`), and with `texts`
 * their JSON text (see PredictOptions.texts). `_anomaly` falls back to "truth outside the
 * interval" when the engine left it null but a numeric truth is known.
 */
function predictionValues(
  desc: ModelDescription,
  preds: PredictionColumns,
  n: number,
  truth: CellValue[] | null,
  o: { explained: Explanation[] | null; withExplain: boolean; texts: boolean },
): { values: JsonValue[][]; texts: string[][] | null } {
  const { explained, withExplain } = o;
  const regression = desc.task === 'regression';
  const value: JsonValue[] = new Array(n);
  const conf: JsonValue[] = new Array(n);
  const lo: JsonValue[] = new Array(n);
  const hi: JsonValue[] = new Array(n);
  const anomaly: JsonValue[] = new Array(n);
  const original: JsonValue[] = new Array(n);
  const explain: JsonValue[] = new Array(n);
  const json = jsonCells();
  // The `_explain` text is built once, either as itself or (texts) as the JSON string it is sent
  // as: then its quotes are written escaped and the strings in it escaped once per distinct value.
  const q = o.texts ? '\\"' : '"';
  const escaped = new Map<string, string>();
  const inner = o.texts
    ? (t: string) => {
        if (t.charCodeAt(0) !== 34) return t;
        let e = escaped.get(t);
        if (e === undefined) escaped.set(t, (e = escapeJsonText(t)));
        return e;
      }
    : (t: string) => t;
  const texts = o.texts ? Array.from({ length: 7 }, () => new Array<string>(n)) : null;
  // `"column":` of each input and `,"probability_class_<c>":` of each class, made once per batch.
  const keys = explained
    ? desc.inputs.map((c) => [c, `${inner(JSON.stringify(c))}:`] as const)
    : null;
  const probs = preds.probabilities;
  const classKeys = probs
    ? probs.names.map((c) => `,${inner(JSON.stringify(`probability_class_${c}`))}:`)
    : [];
  const { lower: lows, upper: highs, anomaly: flags } = preds;
  for (let i = 0; i < n; i++) {
    const tr = truth ? truth[i] : null;
    const lower = lows ? finite(lows[i]) : null;
    const upper = highs ? finite(highs[i]) : null;
    let an: boolean | null = flags[i] < 0 ? null : flags[i] === 1;
    if (an === null && regression && typeof tr === 'number' && lower !== null && upper !== null) {
      an = tr < lower || tr > upper;
    }
    const pv = preds.value[i];
    const v = typeof pv === 'number' ? finite(pv) : pv;
    value[i] = v;
    conf[i] = finite(preds.confidence[i]);
    lo[i] = lower;
    hi[i] = upper;
    anomaly[i] = an;
    original[i] = tr;
    explain[i] = null;
    // The cells' JSON text is for `texts` and `_explain` only: a join that reads neither (a big
    // table scored into another) skips it (number-to-text was most of this loop's time).
    if (!texts && !withExplain) continue;
    const tv = json(v);
    const tc = json(conf[i]);
    const ta = json(an);
    const tt = json(tr);
    const tl = json(lower);
    const tu = json(upper);
    if (texts) {
      texts[0][i] = tv;
      texts[1][i] = tc;
      texts[2][i] = tl;
      texts[3][i] = tu;
      texts[4][i] = ta;
      texts[5][i] = tt;
    }
    if (!withExplain) {
      if (texts) texts[6][i] = 'null';
      continue;
    }
    // Built as text directly: JSON.stringify of a fresh object per row was the largest cost of
    // batch prediction after the engine itself. Same bytes as JSON.stringify would produce.
    let ex = `{${q}predicted_value${q}:${inner(tv)},${q}confidence${q}:${tc},${q}anomaly${q}:${ta},${q}truth${q}:${inner(tt)},${q}confidence_lower_bound${q}:${tl},${q}confidence_upper_bound${q}:${tu}`;
    if (probs) {
      const cols = probs.columns;
      for (let j = 0; j < cols.length; j++) ex += classKeys[j] + json(finite(cols[j][i]));
    }
    if (explained) ex += contributionsJson(explained[i], keys!, regression, json, q, inner);
    if (texts) texts[6][i] = `"${ex}}"`;
    else explain[i] = ex + '}';
  }
  const pick = <T>(cols: T[]) =>
    regression ? cols : [cols[0], cols[1], cols[4], cols[5], cols[6]];
  return {
    values: pick([value, conf, lo, hi, anomaly, original, explain]),
    texts: texts ? pick(texts) : null,
  };
}

/**
 * The explanation keys of one row (L-CONTRACT 1): every input has a contribution (0 when it did
 * not matter), `base_value + sum = explained_value`; `explained_class` is null for regression.
 */
function contributionsJson(
  e: Explanation,
  keys: readonly (readonly [string, string])[],
  regression: boolean,
  json: (v: JsonValue) => string,
  q: string,
  inner: (text: string) => string,
): string {
  let fc = '';
  for (const [c, key] of keys) {
    const v = finite(e.contributions[c]) ?? 0;
    fc += `${fc === '' ? '' : ','}${key}${v}`;
  }
  const cls = regression || e.class === undefined ? null : e.class;
  return `,${q}base_value${q}:${json(finite(e.baseValue))},${q}feature_contributions${q}:{${fc}},${q}explained_value${q}:${json(finite(e.value))},${q}explained_class${q}:${inner(json(cls))}`;
}

/**
 * Rows predicted between two turns of the event loop (`predictInSlices`, which waits for its turn
 * behind short requests: engine/turns.ts): ~20-60 ms of predicting,
 * so a status call or a `SELECT 1` beside a model join over a million rows waits that long, not
 * the whole join's prediction (seconds: the process's one JavaScript thread serves every request).
 */
export const PREDICT_SLICE_ROWS = 4096;

/**
 * Slices of one batch sent to the prediction thread before the first comes back: two, so each
 * thread works while the other does its part of a slice (memory: two slices, not the batch).
 */
const SLICES_IN_FLIGHT = 2;

/** Predicts one slice as `predictBatch` does, somewhere else (models/predict-thread). */
export type SlicePredictor = (
  columns: Record<string, InputCells>,
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
  columns: Record<string, InputCells>,
  n: number,
  opts: PredictOptions = {},
  elsewhere?: SlicePredictor,
): Promise<ColumnarPrediction> {
  const predictSlice =
    elsewhere ??
    ((cols: Record<string, InputCells>, m: number) =>
      predictBatch(record, predictor, cols, m, opts));
  if (n <= PREDICT_SLICE_ROWS) return predictSlice(columns, n);
  const names = Object.keys(columns);
  const parts: ColumnarPrediction[] = [];
  // Elsewhere, the next slice is sent before this one comes back (SLICES_IN_FLIGHT): this thread
  // cuts and sends it, and reads the one before, while that thread predicts.
  const inFlight: Promise<ColumnarPrediction>[] = [];
  const depth = elsewhere ? SLICES_IN_FLIGHT : 1;
  for (let start = 0; start < n; start += PREDICT_SLICE_ROWS) {
    if (inFlight.length >= depth) parts.push(await inFlight.shift()!);
    if (start > 0) {
      if (!elsewhere) await heavyTurn();
      opts.signal?.throwIfAborted();
    }
    const end = Math.min(n, start + PREDICT_SLICE_ROWS);
    const slice: Record<string, InputCells> = {};
    // A Float64Array's slice is a view (the prediction thread gets its own copy: wireColumns).
    for (const c of names) {
      const col = columns[c];
      slice[c] = col instanceof Float64Array ? col.subarray(start, end) : col.slice(start, end);
    }
    const p = Promise.resolve(predictSlice(slice, end - start));
    // Awaited in turn; one failing while an earlier one is awaited is not left unhandled.
    p.catch(() => undefined);
    inFlight.push(p);
  }
  while (inFlight.length > 0) parts.push(await inFlight.shift()!);
  // Joined once per column by the engine's own concat (a loop of pushes held the event loop's
  // thread 0.3 s beside eight model joins).
  const [first, ...rest] = parts;
  const inputs: ColumnarPrediction['inputs'] = {};
  for (const c of Object.keys(first.inputs)) inputs[c] = joinCells(parts.map((p) => p.inputs[c]));
  return {
    ...first,
    inputs,
    values: first.values.map((v, i) => v.concat(...rest.map((p) => p.values[i]))),
    ...(first.texts
      ? { texts: first.texts.map((t, i) => t.concat(...rest.map((p) => p.texts![i]))) }
      : {}),
    explained: parts.some((p) => p.explained),
  };
}
