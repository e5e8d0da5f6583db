/**
 * The REST predict answer written from the columns (predict/json-rows.ts, with the cells' text
 * kept by predictBatch) is byte for byte what JSON.stringify of the row objects gives: MindsDB's
 * wire shape, key order included, for regression and classification, with explanations, the
 * truth supplied, labels that need escaping, and column names objects would reorder.
 */
import { describe, expect, it } from 'vitest';
import { loadPredictor, train, type CellValue } from '../../automl/index';
import { predictBatch, predictionRows, type PredictOptions } from '../predict/batch';
import { predictionJsonPieces } from '../predict/json-rows';
import type { ModelVersionRecord } from '../store';

const record = { project: 'mindsdb', name: 'wire', version: 1 } as ModelVersionRecord;

/** JSON.stringify of the row objects, each given `__mindsdb_row_id` as the route did. */
function viaObjects(rows: Record<string, unknown>[]): string {
  return JSON.stringify(rows.map((r, i) => ({ ...r, __mindsdb_row_id: i })));
}

function answers(
  columns: string[],
  data: CellValue[][],
  target: string,
  input: Record<string, unknown[]>,
  opts: PredictOptions,
  targetAlias?: string,
) {
  const predictor = loadPredictor(
    train({ columns, rows: data }, { target, using: { max_iterations: 8 } }),
  );
  const rec = { ...record, targetAlias } as ModelVersionRecord;
  const n = Object.values(input)[0].length;
  const plain = predictBatch(rec, predictor, input, n, opts);
  const texts = predictBatch(rec, predictor, input, n, { ...opts, texts: true });
  return {
    expected: viaObjects(predictionRows(plain, n)),
    // Pieces of UTF-8 (or text, on the object path), decoded as a client reads them.
    written: Buffer.concat(
      [...predictionJsonPieces(texts, n)].map((x) => (typeof x === 'string' ? Buffer.from(x) : x)),
    ).toString('utf8'),
    n,
  };
}

describe('predictionJsonPieces', () => {
  const n = 40;
  const reg: CellValue[][] = Array.from({ length: 60 }, (_, i) => [
    i % 7,
    ['a', 'b', 'c'][i % 3],
    (i % 7) * 10 + (i % 3) + 0.123456789,
  ]);

  it('writes a regression answer as JSON.stringify of its rows would, explained or not', () => {
    const input = {
      x: Array.from({ length: n }, (_, i) => (i % 9) + 0.5),
      cat: Array.from({ length: n }, (_, i) => ['a', 'b', 'new "one"', null][i % 4]),
      // The truth: fills _original and _anomaly; one value does not fit the type.
      y: Array.from({ length: n }, (_, i) => (i === 3 ? 'n/a' : i * 1.5)),
    };
    for (const explain of [false, true]) {
      const a = answers(['x', 'cat', 'y'], reg, 'y', input, { explain });
      expect(a.written).toBe(a.expected);
      expect(JSON.parse(a.written)).toHaveLength(n);
    }
  });

  it('writes unread columns as null and a PREDICT ... AS name the same way', () => {
    const input = { x: Array.from({ length: n }, (_, i) => i % 5) };
    const a = answers(['x', 'cat', 'y'], reg, 'y', input, { unread: ['price_explain'] }, 'price');
    expect(a.written).toBe(a.expected);
    const row = JSON.parse(a.written)[1];
    expect(row.price_explain).toBeNull();
    expect(typeof row.price).toBe('number');
  });

  it('writes a classifier whose labels need escaping, with probabilities and explanations', () => {
    const labels = ['plain', 'say "hi"', 'back\\slash', 'naïve ☃', 'line\nbreak'];
    const cls: CellValue[][] = Array.from({ length: 100 }, (_, i) => [
      i % 5,
      (i * 3) % 4,
      labels[i % 5],
    ]);
    const input = {
      a: Array.from({ length: n }, (_, i) => i % 5),
      b: Array.from({ length: n }, (_, i) => (i * 7) % 4),
      label: Array.from({ length: n }, (_, i) => labels[(i + 1) % 5]),
    };
    for (const explain of [false, true]) {
      const a = answers(['a', 'b', 'label'], cls, 'label', input, { explain });
      expect(a.written).toBe(a.expected);
      const rows = JSON.parse(a.written);
      const ex = JSON.parse(rows[2].label_explain);
      expect(ex.predicted_value).toBe(rows[2].label);
      expect(Object.keys(ex).filter((k) => k.startsWith('probability_class_'))).toHaveLength(5);
    }
  });

  it('writes probability classes in the key order of the objects it answered with before', () => {
    // '2' and '10' are array indexes: an object assigned the labels in class order lists them
    // first, ascending; `constructor` is an own key like any other, `__proto__` none.
    const labels = ['zeta', '10', 'constructor', '2', '__proto__'];
    const cls: CellValue[][] = Array.from({ length: 100 }, (_, i) => [i % 5, labels[i % 5]]);
    const input = { a: Array.from({ length: n }, (_, i) => (i * 3) % 5) };
    const a = answers(['a', 'label'], cls, 'label', input, { explain: false });
    expect(a.written).toBe(a.expected);
    const ex = JSON.parse(JSON.parse(a.written)[0].label_explain);
    const inClassOrder: Record<string, number> = {};
    for (const l of [...labels].sort()) inClassOrder[l] = 0;
    expect(Object.keys(ex).filter((k) => k.startsWith('probability_class_'))).toEqual(
      Object.keys(inClassOrder).map((k) => `probability_class_${k}`),
    );
  });

  it('writes an answer of many pieces with long labels in and out of ASCII', () => {
    const long = ['a'.repeat(60), `${'é'.repeat(50)} ☃`, `say "${'x'.repeat(70)}"`];
    const cls: CellValue[][] = Array.from({ length: 90 }, (_, i) => [i % 3, long[i % 3]]);
    const many = 3_000;
    const input = {
      a: Array.from({ length: many }, (_, i) => (i % 5) / 4),
      label: Array.from({ length: many }, (_, i) => long[(i + 1) % 3]),
    };
    const a = answers(['a', 'label'], cls, 'label', input, { explain: true });
    expect(a.written.length).toBeGreaterThan(1_000_000);
    expect(a.written).toBe(a.expected);
  });

  it('keeps the object order of column names objects put first (array indexes)', () => {
    const data: CellValue[][] = Array.from({ length: 60 }, (_, i) => [i % 7, i % 3, i * 2]);
    const input = {
      '2020': Array.from({ length: n }, (_, i) => i % 7),
      b: Array.from({ length: n }, (_, i) => i % 3),
    };
    const a = answers(['2020', 'b', 'y'], data, 'y', input, { explain: true });
    expect(a.written).toBe(a.expected);
    expect(Object.keys(JSON.parse(a.written)[0])[0]).toBe('2020');
  });
});
