// Predictions answer in the user's labels: a boolean target (also with NULLs, also from columnar
// data) predicts true / false, yes / no strings stay strings, numeric classes stay numbers.
import { describe, expect, it } from 'vitest';
import { gauss } from '../../__tests__/helpers';
import { type CellValue, loadPredictor, train, trainColumns } from '../../index';
import { Rng } from '../../prng';

function data(label: (pos: boolean) => CellValue, n = 600) {
  const rng = new Rng(2);
  const rows: CellValue[][] = [];
  for (let i = 0; i < n; i++) {
    const x = gauss(rng);
    const flag = rng.next() < 0.5;
    rows.push([x, flag, i % 37 === 0 ? null : label(x + (flag ? 0.5 : 0) + 0.3 * gauss(rng) > 0)]);
  }
  return { columns: ['x', 'flag', 'label'], rows };
}

describe('labels of predictions', () => {
  it('a boolean target predicts booleans, with boolean inputs given as booleans or text', () => {
    const d = data((p) => p);
    const p = loadPredictor(train(d, { target: 'label', seed: 1 }));
    expect(p.description.classes).toEqual([false, true]);
    const out = p.predict([
      { x: 2, flag: true },
      { x: -2, flag: 'false' },
      // DuckDB reads a Yes/No CSV column as BOOLEAN: users still type Yes / No.
      { x: -2, flag: 'No' },
      { x: 3, flag: 'yes', label: 'Yes' },
    ]);
    expect(out.map((r) => r.value)).toEqual([true, false, false, true]);
    expect(out[2].probabilities).toEqual(p.predict([{ x: -2, flag: false }])[0].probabilities);
    // The truth 'Yes' is the class true (an unknown class would always be an anomaly).
    expect(out[3].anomaly).toBe(false);
    expect(Object.keys(out[0].probabilities!).sort()).toEqual(['false', 'true']);
  });

  it('the columnar path (boolean column with NULLs) keeps boolean labels too', () => {
    const d = data((p) => p);
    const cells = d.rows.map((r) => r[2]);
    const a = trainColumns(
      {
        columns: d.columns,
        rowCount: d.rows.length,
        data: [
          { kind: 'number', values: Float64Array.from(d.rows, (r) => r[0] as number), nulls: null },
          { kind: 'boolean', values: Uint8Array.from(d.rows, (r) => (r[1] ? 1 : 0)) },
          { kind: 'boolean', values: Uint8Array.from(cells, (v) => (v === null ? 2 : v ? 1 : 0)) },
        ],
      },
      { target: 'label', seed: 1 },
    );
    expect(a.classes!.labels).toEqual([false, true]);
    expect(loadPredictor(a).predict([{ x: 3, flag: true }])[0].value).toBe(true);
  });

  it('yes / no text stays text, 0 / 1 numbers stay numbers', () => {
    const yes = loadPredictor(
      train(
        data((p) => (p ? 'Yes' : 'No')),
        { target: 'label' },
      ),
    );
    expect(yes.description.classes).toEqual(['No', 'Yes']);
    expect(yes.predict([{ x: 3, flag: true }])[0].value).toBe('Yes');
    const num = loadPredictor(
      train(
        data((p) => (p ? 1 : 0)),
        { target: 'label' },
      ),
    );
    expect(num.predict([{ x: -3, flag: false }])[0].value).toBe(0);
  });
});
