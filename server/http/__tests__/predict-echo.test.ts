/**
 * The REST predict answer written from a body read into columns (./row-columns.ts): the inputs of
 * the rows the request wrote as the answer echoes them are copied from the request, run by run,
 * and the answer is byte for byte JSON.stringify of the row objects the generic path (JSON.parse,
 * columnsOfRows) answers, whatever the rows look like: white space, keys in another order,
 * absent, repeated, escaped or in another case, a column the model does not read, text the cast
 * changes ("823" -> 823), -0, exponents, trailing zeros, huge and tiny floats, escapes and
 * unicode in strings, nulls.
 */
import { describe, expect, it } from 'vitest';
import { loadPredictor, train, type CellValue } from '../../automl/index';
import { Rng } from '../../automl/prng';
import {
  columnsOfRows,
  predictBatch,
  predictionRows,
  type ColumnarPrediction,
  type PredictOptions,
} from '../../models/predict/batch';
import { predictionJsonPieces } from '../../models/predict/json-rows';
import type { ModelVersionRecord } from '../../models/store';
import { RowColumns, readRowColumns } from '../row-columns';

const record = { project: 'mindsdb', name: 'echo', version: 1 } as ModelVersionRecord;

/** A classifier of `y` from a (number), s (text), f (boolean), b (number); k is constant. */
const predictor = loadPredictor(
  train(
    {
      columns: ['a', 'k', 's', 'f', 'b', 'y'],
      rows: Array.from({ length: 120 }, (_, i): CellValue[] => [
        (i % 11) / 2,
        4,
        ['red', 'green', 'blue'][i % 3],
        i % 2 === 0,
        (i * 7) % 13,
        `class ${(i % 11) % 3}`,
      ]),
    },
    { target: 'y', using: { max_iterations: 8 } },
  ),
);

const NUMBERS = [
  '0',
  '-0',
  '1.5',
  '1.50',
  '-2.25',
  '7',
  '1e5',
  '1E-7',
  '0.1',
  '0.30000000000000004',
  '5e-324',
  '1.7976931348623157e308',
  '123456789012345678',
  '0.000001',
  '0.0000001',
  '"823"',
  '" 12 "',
  'null',
];
const TEXTS = ['"red"', '"blue"', '"naïve ☃ 雪"', '"say \\"hi\\""', '"\\u0072ed"', '12', 'null'];
const FLAGS = ['true', 'false', '1', '0', '"yes"', 'null'];

/**
 * Rows of the shape the model's inputs make, `odd` of them in one of the other shapes (`newKeys`:
 * also those that bring a column of their own, which every other row lacks).
 */
function body(n: number, seed: number, odd: number, newKeys = true): string {
  const rng = new Rng(seed);
  const next = () => rng.next();
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)];
  const rows: string[] = [];
  for (let i = 0; i < n; i++) {
    const cells: [string, string][] = [
      ['a', pick(NUMBERS)],
      ['k', '4'],
      ['s', pick(TEXTS)],
      ['f', pick(FLAGS)],
      ['b', next() < 0.5 ? String(i % 13) : pick(NUMBERS)],
    ];
    let sep = ',';
    let colon = ':';
    let [before, after] = ['{', '}'];
    if (next() < odd) {
      const shape = Math.floor(next() * (newKeys ? 12 : 10));
      if (shape === 0) sep = ', ';
      else if (shape === 1) colon = ' :';
      else if (shape === 7) colon = ': ';
      else if (shape === 8) before = '{\n';
      else if (shape === 9) after = '\t}';
      else if (shape === 2) cells.reverse();
      else if (shape === 3) cells.splice(Math.floor(next() * cells.length), 1);
      else if (shape === 4) cells.push(['a', pick(NUMBERS)]);
      else if (shape === 5) cells[0][0] = '\\u0061';
      else if (shape === 6) cells[2][1] = `"${'long '.repeat(20)}"`;
      else if (shape === 10) cells[0][0] = 'A';
      else cells.splice(2, 0, ['extra', '"not read"']);
    }
    rows.push(`${before}${cells.map(([k, v]) => `"${k}"${colon}${v}`).join(sep)}${after}`);
  }
  return `[${rows.join(',')}]`;
}

/** JSON.stringify of the row objects, each given `__mindsdb_row_id` as the route did. */
const viaObjects = (p: ColumnarPrediction, n: number) =>
  JSON.stringify(predictionRows(p, n).map((r, i) => ({ ...r, __mindsdb_row_id: i })));

/** Pieces of UTF-8 (or text, on the object path), decoded as a client reads them. */
const text = (pieces: Iterable<string | Uint8Array>) =>
  Buffer.concat([...pieces].map((x) => (typeof x === 'string' ? Buffer.from(x) : x))).toString(
    'utf8',
  );

/**
 * The answer to `text` both ways: written from the body read into columns (with the cast input
 * columns as predictBatch gives them, and as the prediction thread gives them back: the request's
 * own columns where the cast left them as they were), and JSON.stringify of the generic path's.
 */
function answers(json: string, opts: PredictOptions = { unknownColumns: 'ignore' }) {
  const sent = readRowColumns(Buffer.from(json, 'utf8'), () => undefined);
  expect(sent).toBeInstanceOf(RowColumns);
  const cols = sent as RowColumns;
  const rows = JSON.parse(json) as unknown[];
  const n = rows.length;
  const expected = viaObjects(predictBatch(record, predictor, columnsOfRows(rows), n, opts), n);
  const p = predictBatch(record, predictor, cols.columns, n, { ...opts, texts: true });
  // As the thread's slices come back: the request's own column, or (slices joined) a copy.
  const asThread = { ...p, inputs: { ...p.inputs } };
  const joined = { ...p, inputs: { ...p.inputs } };
  for (const c of Object.keys(asThread.inputs)) {
    const given = cols.columns[c];
    if (given && Array.from(given).every((v, i) => v === p.inputs[c][i])) {
      asThread.inputs[c] = given as CellValue[];
      if (given instanceof Float64Array) joined.inputs[c] = given.slice();
    }
  }
  const written = [p, asThread, joined].map((q) =>
    text(predictionJsonPieces(q, n, { ...cols.text, input: cols })),
  );
  return { expected, written, cols };
}

describe('the predict answer written from the request text', () => {
  it('is JSON.stringify of the generic answer for rows of every shape', () => {
    for (const [seed, odd, newKeys] of [
      [1, 0, false],
      [2, 0.1, false],
      [3, 0.5, false],
      [4, 1, false],
      [5, 0.1, true],
      [6, 1, true],
    ] as const) {
      const a = answers(body(400, seed, odd, newKeys));
      // Rows in the answer's shape (all five columns, in order): copied unless the cast changed them.
      const whole = Array.from(a.cols.text.rows!.keys).filter((k) => k === 5).length;
      expect(whole).toBeGreaterThan(newKeys ? 0 : 5);
      expect(a.written).toEqual([a.expected, a.expected, a.expected]);
    }
  });

  it('copies the inputs of rows written as the answer echoes them, skipping a constant column', () => {
    // Every row exact and every cell as the cast leaves it: `k` (constant, not an input) is
    // left out between runs, the numbers columns are Float64Arrays.
    const rows = Array.from(
      { length: 300 },
      (_, i) =>
        `{"a":${(i % 9) / 4},"k":4,"s":"${['red', 'blue', 'naïve ☃'][i % 3]}","f":${i % 2 === 0},"b":${i % 13}}`,
    );
    const a = answers(`[${rows.join(',')}]`);
    expect(a.cols.columns.a).toBeInstanceOf(Float64Array);
    expect(Array.from(a.cols.text.rows!.keys).every((k) => k === 5)).toBe(true);
    expect(a.written).toEqual([a.expected, a.expected, a.expected]);
    const first = JSON.parse(a.written[0])[1];
    expect(Object.keys(first).slice(0, 4)).toEqual(['a', 's', 'f', 'b']);
    expect(first).toMatchObject({ a: 0.25, s: 'blue', f: false, b: 1 });
  });

  it('writes the answer in many pieces the same way (rows across piece boundaries)', () => {
    const a = answers(body(3_000, 9, 0.2), { unknownColumns: 'ignore', explain: true });
    expect(a.expected.length).toBeGreaterThan(600_000);
    expect(a.written).toEqual([a.expected, a.expected, a.expected]);
  });

  it('marks the rows written as the answer echoes them, and only those', () => {
    const got = readRowColumns(
      Buffer.from(
        '[{"a":1,"b":"x"},{"a":1, "b":"x"},{"b":"x","a":1},{"a":1.0,"b":"x"},{"a":1,"b":"\\u0078"},' +
          '{"a":1},{"a":1,"b":"x","a":2},{"a":-0,"b":"x"},{"a":1e3,"b":"x"},{"a":null,"b":true},' +
          '{ "a":1,"b":"x"},{"a":1,"b":"x" },{"a":1,"b":"é"},{"a": 1,"b":"x"},{"a":1 ,"b":"x"}]',
      ),
      () => undefined,
    ) as RowColumns;
    expect(Array.from(got.text.rows!.keys)).toEqual([
      2, -1, -1, -1, -1, 1, -1, -1, -1, 2, -1, -1, 2, -1, -1,
    ]);
    const { keyAt, close } = got.text.rows!;
    const body = got.text.body as Buffer;
    expect(body.toString('utf8', keyAt.a[12], close[12] + 1)).toBe('"a":1,"b":"é"}');
    expect(body.toString('utf8', keyAt.b[12], close[12])).toBe('"b":"é"');
  });
});
