import { describe, expect, it } from 'vitest';
import { type CellValue, type Dataset, train } from '../../index';
import { Rng } from '../../prng';
import { gauss } from '../../__tests__/helpers';
import {
  DOMINANT_SHARE,
  MIN_ROWS,
  RARE_CLASS_SHARE,
  type WarningFacts,
  modelWarnings,
} from '../warnings';

const facts = (f: Partial<WarningFacts>): WarningFacts => ({
  task: 'regression',
  target: 'y',
  rows: 1000,
  inputs: ['a', 'b'],
  importances: { a: 0.5, b: 0.5 },
  ...f,
});
const kinds = (f: Partial<WarningFacts>) => modelWarnings(facts(f)).map((w) => [w.kind, w.column]);

describe('warning thresholds', () => {
  it(`dominant_input from ${DOMINANT_SHARE} of the importance, naming the column`, () => {
    expect(kinds({ importances: { a: 0.9, b: 0.1 } })).toEqual([['dominant_input', 'a']]);
    expect(kinds({ importances: { a: 0.89, b: 0.11 } })).toEqual([]);
    // A single input carries everything by construction: nothing to point out.
    expect(kinds({ inputs: ['a'], importances: { a: 1 } })).toEqual([]);
  });

  it('the dominant share reads 99.8%, never a rounded 100%', () => {
    const [w] = modelWarnings(facts({ importances: { a: 0.998, b: 0.002 } }));
    expect(w.message).toContain('99.8%');
  });

  it(`too_few_rows below ${MIN_ROWS} rows, or below 10 rows per input`, () => {
    expect(kinds({ rows: 99 })).toEqual([['too_few_rows', null]]);
    expect(kinds({ rows: 100 })).toEqual([]);
    const many = Array.from({ length: 20 }, (_, i) => `c${i}`);
    expect(
      kinds({
        rows: 150,
        inputs: many,
        importances: Object.fromEntries(many.map((c) => [c, 0.05])),
      }),
    ).toEqual([['too_few_rows', null]]);
  });

  it(`rare_class under ${RARE_CLASS_SHARE} of the rows or under 20 rows, once per rare class`, () => {
    const w = modelWarnings(
      facts({
        task: 'multiclass',
        classCounts: [
          { label: 'a', count: 900 },
          { label: 'b', count: 60 },
          { label: 'c', count: 40 },
        ],
      }),
    );
    expect(w.map((x) => x.kind)).toEqual(['rare_class']);
    expect(w[0].message).toContain("'c'");
    expect(w[0].message).toContain('40 of 1000 rows (4%)');
  });

  it('identifier_like for repeated codes and id-named columns, never for measurements', () => {
    const p = (column: string, type: string, nDistinct: number) => ({
      column,
      type,
      rows: 1000,
      nDistinct,
      nMissing: 0,
    });
    expect(
      kinds({
        inputs: ['code', 'order_id', 'price', 'color'],
        importances: { code: 0.25, order_id: 0.25, price: 0.25, color: 0.25 },
        profiles: [
          p('code', 'categorical', 500),
          p('order_id', 'integer', 600),
          p('price', 'float', 1000),
          p('color', 'categorical', 12),
        ],
      }),
    ).toEqual([
      ['identifier_like', 'code'],
      ['identifier_like', 'order_id'],
    ]);
  });

  it('mostly_missing from half the rows missing', () => {
    expect(
      kinds({
        profiles: [{ column: 'a', type: 'float', rows: 1000, nDistinct: 400, nMissing: 500 }],
      }),
    ).toEqual([['mostly_missing', 'a']]);
  });

  it('weak_model below r2 0.1, or balanced accuracy within 0.05 of the majority baseline', () => {
    const reg = (r2: number) => ({
      task: 'regression' as const,
      target: 'y',
      rows: { train: 1000, validation: 200 },
      validation: 'split' as const,
      primary: { name: 'r2_score', label: 'R²', value: r2 },
      regression: {
        mae: 9,
        rmse: 11,
        r2,
        baseline: { kind: 'mean' as const, value: 3, mae: 10, rmse: 12, r2: 0 },
        sample: { actual: [], predicted: [] },
      },
    });
    expect(kinds({ metrics: reg(0.05) })).toEqual([['weak_model', null]]);
    expect(kinds({ metrics: reg(0.2) })).toEqual([]);
  });

  it('narrow_intervals when validation coverage is 5 points under the promise', () => {
    expect(kinds({ intervals: { nominal: 0.9, validation: 0.84 } })).toEqual([
      ['narrow_intervals', null],
    ]);
    expect(kinds({ intervals: { nominal: 0.9, validation: 0.86 } })).toEqual([]);
  });
});

/** Two comparable inputs and a target they both drive, plus whatever `extra` adds per row. */
function table(
  n: number,
  seed: number,
  extra: { columns: string[]; cells: (i: number, y: number, rng: Rng) => CellValue[] } = {
    columns: [],
    cells: () => [],
  },
): Dataset {
  const rng = new Rng(seed);
  const rows: CellValue[][] = [];
  for (let i = 0; i < n; i++) {
    const a = rng.next() * 10;
    const b = rng.next() * 10;
    const y = a + b + 0.3 * gauss(rng);
    rows.push([a, b, ...extra.cells(i, y, rng), y]);
  }
  return { columns: ['a', 'b', ...extra.columns, 'y'], rows };
}

const trained = (d: Dataset, target = 'y') =>
  (train(d, { target, seed: 3 }).description.warnings ?? []).map((w) => [w.kind, w.column]);

describe('warnings of models trained on crafted tables', () => {
  it('a clean table with two inputs of equal weight warns about nothing', () => {
    expect(trained(table(600, 1))).toEqual([]);
  });

  it('an input that is the target plus a little noise is a dominant input (a leak)', () => {
    const d = table(600, 2, {
      columns: ['final_price'],
      cells: (_i, y, rng) => [y + 0.01 * gauss(rng)],
    });
    expect(trained(d)).toEqual([['dominant_input', 'final_price']]);
  });

  it('a code repeated on two rows each is an identifier-like input', () => {
    const d = table(600, 3, { columns: ['customer'], cells: (i) => [`C${Math.floor(i / 2)}`] });
    expect(trained(d)).toContainEqual(['identifier_like', 'customer']);
  });

  it('60 rows are too few', () => {
    expect(trained(table(60, 4))).toContainEqual(['too_few_rows', null]);
  });

  it('an input missing in 70% of the rows is mostly missing', () => {
    const d = table(600, 5, {
      columns: ['note'],
      cells: (i, y) => [i % 10 < 7 ? null : y > 10 ? 'high' : 'low'],
    });
    expect(trained(d)).toContainEqual(['mostly_missing', 'note']);
  });

  it('a class with 3% of the rows is a rare class', () => {
    const rng = new Rng(6);
    const rows: CellValue[][] = [];
    for (let i = 0; i < 1000; i++) {
      const a = rng.next();
      const b = rng.next();
      rows.push([a, b, i % 100 < 3 ? 'fraud' : 'ok']);
    }
    const w = train({ columns: ['a', 'b', 'label'], rows }, { target: 'label', seed: 3 })
      .description.warnings!;
    expect(w.filter((x) => x.kind === 'rare_class').map((x) => x.message)).toEqual([
      "Class 'fraud' of 'label' has only 30 of 1000 rows (3%): too few examples to learn it well, and its precision and recall below are measured on a handful of rows.",
    ]);
  });

  it('a label the inputs know nothing about gives a weak model', () => {
    const rng = new Rng(7);
    const rows: CellValue[][] = [];
    for (let i = 0; i < 800; i++) rows.push([rng.next(), rng.next(), rng.next() < 0.5 ? 'x' : 'z']);
    const w = train({ columns: ['a', 'b', 'label'], rows }, { target: 'label', seed: 3 })
      .description.warnings!;
    expect(w.map((x) => x.kind)).toEqual(['weak_model']);
    expect(w[0].message).toMatch(
      /^The model is barely better than always answering '[xz]' \(balanced accuracy/,
    );
  });
});
