/**
 * The REST predict answer as JSON text written straight from a columnar prediction: the same
 * bytes as JSON.stringify of `predictionRows` with MindsDB's `__mindsdb_row_id` added, without a
 * row object per row. Each row's keys are quoted once per answer, repeated strings (categories,
 * class labels) once per distinct value, and the text comes in pieces of about `PIECE`
 * characters, so a big answer is never one string.
 */
import type { JsonValue } from '../../engine/values';
import { jsonCells, predictionRows, type ColumnarPrediction } from './batch';
import { inputColumns } from './columns';

/** About how many characters one piece holds (a socket write). */
const PIECE = 256 * 1024;

/**
 * Whether objects keep `names` in this order with each key once: JavaScript puts array-index
 * keys ("7", "2020") first and `__proto__` is no key, so such a model's rows take the object
 * path to stay byte for byte what JSON.stringify of the row object gives.
 */
function plainKeys(names: readonly string[]): boolean {
  if (new Set(names).size !== names.length) return false;
  return names.every((k) => k !== '__proto__' && !/^(0|[1-9]\d*)$/.test(k));
}

/**
 * `[row, row, ...]` of a tabular prediction in pieces: each row the model's inputs, the
 * prediction columns, `__service_row_id`, `select_data_query`, `when_data` and
 * `__mindsdb_row_id` (the row's index, as MindsDB names it).
 */
export function* predictionJsonPieces(p: ColumnarPrediction, n: number): Generator<string> {
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
  const keys = cols.map((c, j) => `${j === 0 ? '{' : ','}${JSON.stringify(c.name)}:`);
  const values = cols.map((c) => c.values);
  const cell = jsonCells();
  const m = cols.length;
  let buf = '[';
  for (let i = 0; i < n; i++) {
    let row = i === 0 ? '' : ',';
    for (let j = 0; j < m; j++) {
      const t = texts[j];
      row += keys[j] + (t ? t[i] : cell(values[j][i]));
    }
    row += `${m === 0 ? '{' : ','}"__service_row_id":${i},"select_data_query":null,"when_data":null,"__mindsdb_row_id":${i}}`;
    buf += row;
    if (buf.length >= PIECE) {
      yield buf;
      buf = '';
    }
  }
  yield `${buf}]`;
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
