/**
 * The REST predict answer as JSON text written straight from a columnar prediction: the same
 * bytes as JSON.stringify of `predictionRows` with MindsDB's `__mindsdb_row_id` added, without a
 * row object per row. Each row's keys are quoted once per answer, repeated strings (categories,
 * class labels) once per distinct value, and the text comes in pieces of about `PIECE`
 * characters, so a big answer is never one string.
 */
import type { JsonValue } from '../../engine/values';
import {
  canonicalColumns,
  jsonCells,
  predictionRows,
  type ColumnarPrediction,
  type InputText,
  type RowsAsColumns,
} from './batch';
import { inputColumns } from './columns';

/** About how many bytes one piece holds (a socket write). */
const PIECE = 256 * 1024;

/** Text up to this length is copied by hand, longer text by Buffer.write. */
const SHORT_TEXT = 48;

/**
 * Whether objects keep `names` in this order with each key once: JavaScript puts array-index
 * keys ("7", "2020") first and `__proto__` is no key, so such a model's rows take the object
 * path to stay byte for byte what JSON.stringify of the row object gives.
 */
function plainKeys(names: readonly string[]): boolean {
  if (new Set(names).size !== names.length) return false;
  return names.every((k) => k !== '__proto__' && !/^(0|[1-9]\d*)$/.test(k));
}

const utf8 = (t: string) => Buffer.from(t, 'utf8');

/**
 * `[row, row, ...]` of a tabular prediction in pieces of UTF-8: each row the model's inputs, the
 * prediction columns, `__service_row_id`, `select_data_query`, `when_data` and
 * `__mindsdb_row_id` (the row's index, as MindsDB names it). With `sent` (the rows as the request
 * sent them, and where their numbers' text is), an input cell the cast left as it came is
 * copied from the request's text when that text is what JSON.stringify writes.
 */
export function* predictionJsonPieces(
  p: ColumnarPrediction,
  n: number,
  sent?: InputText & { input: RowsAsColumns },
): Generator<Uint8Array | string> {
  const inputs = inputColumns(p.description).map((c) => ({
    name: c.name,
    values: p.inputs[c.name],
  }));
  const cols = [...inputs, ...p.columns.map((c, j) => ({ name: c.name, values: p.values[j] }))];
  // Prediction cells whose text predictBatch kept (PredictOptions.texts) are written as they are.
  const texts: (readonly string[] | undefined)[] = [
    ...inputs.map(() => undefined),
    ...p.columns.map((_, j) => p.texts?.[j]),
  ];
  const service = ['__service_row_id', 'select_data_query', 'when_data', '__mindsdb_row_id'];
  if (!plainKeys([...cols.map((c) => c.name), ...service])) {
    yield* objectPieces(p, n);
    return;
  }
  const keys = cols.map((c, j) => utf8(`${j === 0 ? '{' : ','}${JSON.stringify(c.name)}:`));
  const body = sent?.body;
  const given = sent ? canonicalColumns(p.description, sent.input.columns) : {};
  const givenAt = sent ? canonicalColumns(p.description, sent.at) : {};
  const echo = cols.map((c, j) =>
    j < inputs.length && given[c.name] && givenAt[c.name]
      ? { values: given[c.name], at: givenAt[c.name] }
      : null,
  );
  const values = cols.map((c) => c.values);
  const cell = jsonCells();
  const m = cols.length;
  const serviceKey = utf8(`${m === 0 ? '{' : ','}"__service_row_id":`);
  const mindsdbKey = utf8(',"select_data_query":null,"when_data":null,"__mindsdb_row_id":');
  let predBound = serviceKey.length + mindsdbKey.length + 2 * 16 + 2;
  for (let j = inputs.length; j < m; j++) predBound += keys[j].length;
  let rowBound = predBound;
  for (let j = 0; j < inputs.length; j++) rowBound += keys[j].length + (echo[j] ? 32 : 0);
  const rows: RowsToWrite = {
    n,
    keys,
    values,
    texts,
    echo,
    body,
    cell,
    serviceKey,
    mindsdbKey,
    rowBound,
    spans: sent ? echoedRows(inputs, sent) : null,
    inputs: inputs.length,
    predBound,
  };
  let buf = Buffer.allocUnsafe(PIECE);
  buf[0] = 0x5b; // [
  let pos = 1;
  let i = 0;
  while (i < n) {
    const done = writeRows(rows, buf, pos, i);
    if (done.i === i && done.pos === pos) {
      // Not one row fits in what is left: a fresh piece, big enough for it.
      if (pos > 0) yield buf.subarray(0, pos);
      buf = Buffer.allocUnsafe(Math.max(PIECE, 2 * done.need));
      pos = 0;
      continue;
    }
    i = done.i;
    pos = done.pos;
    if (i < n) {
      yield buf.subarray(0, pos);
      buf = Buffer.allocUnsafe(PIECE);
      pos = 0;
    }
  }
  if (pos + 1 > buf.length) {
    yield buf.subarray(0, pos);
    buf = Buffer.allocUnsafe(1);
    pos = 0;
  }
  buf[pos++] = 0x5d; // ]
  yield buf.subarray(0, pos);
}

/**
 * The rows whose inputs are copied from the request as it sent them: rows written as the answer
 * echoes them (`InputText.rows`) whose cells the cast left as they were sent, when the model's
 * inputs are among the request's columns in their order (a column the model does not read is
 * skipped). Their keys and cells are then one copy per run of adjacent inputs (a 64-input row was
 * 128 small copies). Null when there are none.
 */
function echoedRows(
  inputs: { name: string; values: ArrayLike<unknown> }[],
  sent: InputText & { input: RowsAsColumns },
): EchoedRows | null {
  const rows = sent.rows;
  const columns = sent.input.columns;
  const names = Object.keys(columns);
  const index = new Map(names.map((c, k) => [c, k]));
  const at = inputs.map((c) => index.get(c.name) ?? -1);
  const m = inputs.length;
  if (!rows || m === 0 || at.some((k, j) => k < 0 || (j > 0 && k <= at[j - 1]))) return null;
  const n = rows.keys.length;
  const ok = new Uint8Array(n);
  let any = false;
  for (let i = 0; i < n; i++) {
    if (rows.keys[i] === names.length) {
      ok[i] = 1;
      any = true;
    }
  }
  if (!any) return null;
  for (const c of inputs) {
    const cast = c.values;
    const given = columns[c.name];
    if (cast === given) continue;
    if (cast instanceof Float64Array && given instanceof Float64Array) sameNumbers(cast, given, ok);
    else for (let i = 0; i < n; i++) if (cast[i] !== given[i]) ok[i] = 0;
  }
  // Runs of inputs that are adjacent columns of the request: each from its first key to the
  // comma before the next column's key, or to the row's `}`.
  const runs: EchoedRows['runs'] = [];
  for (let j = 0; j < m; j++) {
    if (j > 0 && at[j] === at[j - 1] + 1) continue;
    let last = j;
    while (last + 1 < m && at[last + 1] === at[last] + 1) last++;
    const after = at[last] + 1;
    runs.push({
      from: rows.keyAt[names[at[j]]],
      to: after < names.length ? rows.keyAt[names[after]] : null,
    });
  }
  return { ok, runs, close: rows.close };
}

/**
 * Clears `ok` where two columns of numbers differ. Its own function: reading Float64Arrays
 * through the generic loop (cells of any kind) boxed every number read.
 */
function sameNumbers(a: Float64Array, b: Float64Array, ok: Uint8Array): void {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) ok[i] = 0;
}

/** See `echoedRows`. */
interface EchoedRows {
  /** 1 for a row whose inputs are copied. */
  ok: Uint8Array;
  /** Per run, where its text starts in each row, and the key after it (null: the row's end). */
  runs: { from: Int32Array; to: Int32Array | null }[];
  /** Where each row's `}` is. */
  close: Int32Array;
}

/** What `writeRows` writes: see `predictionJsonPieces`. */
interface RowsToWrite {
  n: number;
  keys: Uint8Array[];
  values: ArrayLike<unknown>[];
  texts: (readonly string[] | undefined)[];
  echo: ({ values: ArrayLike<unknown>; at: ArrayLike<number> } | null)[];
  body: Uint8Array | undefined;
  cell: (v: JsonValue) => string;
  serviceKey: Uint8Array;
  mindsdbKey: Uint8Array;
  /** The most bytes a row writes besides its text cells. */
  rowBound: number;
  /** Rows whose inputs are one copy from the request (`echoedRows`). */
  spans: EchoedRows | null;
  /** How many of the columns are the model's inputs (the first ones). */
  inputs: number;
  /** The most bytes a row writes after its inputs, besides its text cells. */
  predBound: number;
}

/**
 * Writes rows from `i` into `buf` from `pos` while they fit: the row and position reached, and
 * when not even the first fits, about how many bytes it needs. A plain function over locals (not
 * the generator, nor a closure sharing `pos`): a byte copied through either cost several times
 * more. A cell's text goes straight in (ASCII copied by hand, anything else by Buffer.write), and
 * an input number the request sent in JavaScript's own text is copied from the request.
 */
function writeRows(
  w: RowsToWrite,
  buf: Buffer,
  pos0: number,
  i0: number,
): { i: number; pos: number; need: number } {
  const { n, keys, values, texts, echo, body, cell, serviceKey, mindsdbKey, rowBound } = w;
  const { spans, inputs, predBound } = w;
  const m = keys.length;
  const cap = buf.length;
  let pos = pos0;
  let i = i0;
  for (; i < n; i++) {
    const rowStart = pos;
    let j = 0;
    if (spans !== null && spans.ok[i] === 1) {
      // `{` and the row's keys and cells as the request wrote them, one copy per run.
      const { runs, close } = spans;
      let need = 1 + predBound;
      for (let k = 0; k < runs.length; k++) {
        const to = runs[k].to;
        need += (to === null ? close[i] : to[i] - 1) - runs[k].from[i] + 1;
      }
      if (pos + need > cap) return { i, pos: rowStart, need };
      if (i > 0) buf[pos++] = 0x2c; // ,
      for (let k = 0; k < runs.length; k++) {
        const s = runs[k].from[i];
        const to = runs[k].to;
        const e = to === null ? close[i] : to[i] - 1;
        buf[pos++] = k === 0 ? 0x7b : 0x2c; // { or ,
        buf.set(body!.subarray(s, e), pos);
        pos += e - s;
      }
      j = inputs;
    } else {
      if (pos + rowBound > cap) return { i, pos: rowStart, need: rowBound };
      if (i > 0) buf[pos++] = 0x2c; // ,
    }
    for (; j < m; j++) {
      const key = keys[j];
      for (let k = 0; k < key.length; k++) buf[pos++] = key[k];
      const e = echo[j];
      const v = values[j][i];
      let at: number;
      if (e !== null && (at = e.at[i]) >= 0 && v === e.values[i]) {
        // A sign, digits and a point: the number's text as the request sent it.
        let c = body![at];
        while ((c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x2d) {
          buf[pos++] = c;
          c = body![++at];
        }
        continue;
      }
      const t = texts[j];
      const s = t ? t[i] : cell(v as JsonValue);
      const len = s.length;
      // Room for the cell as UTF-8 and what the row may still write.
      if (pos + 3 * len + rowBound > cap) {
        return { i, pos: rowStart, need: pos - rowStart + 3 * len + rowBound };
      }
      // Long text (`_explain`, built by joining: a rope that charCodeAt would flatten first) is
      // encoded by Buffer.write; short text (numbers, labels) copied here if it is ASCII.
      if (len > SHORT_TEXT) {
        pos += buf.write(s, pos, 'utf8');
        continue;
      }
      const start = pos;
      for (let k = 0; k < len; k++) {
        const c = s.charCodeAt(k);
        if (c >= 0x80) {
          pos = start + buf.write(s, start, 'utf8');
          break;
        }
        buf[pos++] = c;
      }
    }
    // `,"__service_row_id":i,"select_data_query":null,"when_data":null,"__mindsdb_row_id":i}`
    let digits = 1;
    for (let d = i; d >= 10; d = (d / 10) | 0) digits++;
    for (let r = 0; r < 2; r++) {
      const key = r === 0 ? serviceKey : mindsdbKey;
      for (let k = 0; k < key.length; k++) buf[pos++] = key[k];
      for (let k = digits - 1, q = i; k >= 0; k--, q = (q / 10) | 0) buf[pos + k] = 0x30 + (q % 10);
      pos += digits;
    }
    buf[pos++] = 0x7d; // }
  }
  return { i, pos, need: 0 };
}

/**
 * The object path (names objects would reorder or merge): row objects, with the values of cells
 * kept only as text (PredictOptions.texts: `_explain`) read back from it.
 */
function objectPieces(p: ColumnarPrediction, n: number) {
  const values = p.values.map((v, j) => {
    const t = p.texts?.[j];
    return t ? t.map((x) => JSON.parse(x) as JsonValue) : v;
  });
  return rowObjectPieces(predictionRows({ ...p, values }, n));
}

/**
 * `[row, ...]` of predicted row objects (`predictionRows`, `forecastRows`) in pieces, each row
 * given MindsDB's `__mindsdb_row_id` (its `__service_row_id`) last.
 */
export function* rowObjectPieces(rows: Record<string, JsonValue>[]): Generator<string> {
  let buf = '[';
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    row.__mindsdb_row_id = row.__service_row_id;
    buf += (i === 0 ? '' : ',') + JSON.stringify(row);
    if (buf.length >= PIECE) {
      yield buf;
      buf = '';
    }
  }
  yield `${buf}]`;
}
