// Determinism: the same data, options and seed give a byte-identical artifact (apart from the
// timings inside it) for every kind of model the pipeline builds, so a retrain is reproducible and
// a refactor that changes a single number anywhere shows up here.
import { describe, expect, it } from 'vitest';
import {
  type CellValue,
  type ColumnarColumn,
  type ColumnarData,
  type Dataset,
  type ModelArtifact,
  finetune,
  finetuneColumns,
  serializeArtifact,
  train,
  trainColumns,
} from '../index';
import { Rng } from '../prng';
import { gauss, linearish } from './helpers';

const strip = (a: ModelArtifact) =>
  serializeArtifact(a).replace(/"(trainingTimeMs|training_time)":[0-9.e+-]+/g, '');

/** Numbers with missing values, a categorical, a datetime, free text, and a dominant column. */
function mixed(n: number, seed: number, kind: 'regression' | 'binary' | 'multiclass'): Dataset {
  const rng = new Rng(seed);
  const words = ['good', 'bad', 'service', 'slow', 'fast', 'friendly', 'staff', 'price'];
  const plans = ['basic', 'plus', 'pro', 'max'];
  const rows: CellValue[][] = [];
  for (let i = 0; i < n; i++) {
    const x = rng.next() * 10;
    const plan = plans[rng.int(4)];
    const day = 1 + rng.int(28);
    const text = Array.from({ length: 4 + rng.int(8) }, () => words[rng.int(8)]).join(' ');
    const z = 2 * x + (plan === 'pro' ? 3 : 0) + day / 10 + gauss(rng);
    const target =
      kind === 'regression'
        ? z
        : kind === 'binary'
          ? z > 12
          : ['lo', 'mid', 'hi'][z < 8 ? 0 : z < 14 ? 1 : 2];
    rows.push([
      i % 17 === 0 ? null : x,
      i % 23 === 0 ? null : plan,
      `2024-02-${String(day).padStart(2, '0')}`,
      text,
      rng.next(),
      target,
    ]);
  }
  return { columns: ['x', 'plan', 'day', 'note', 'noise', 'target'], rows };
}

function twice(f: () => ModelArtifact): string {
  const a = strip(f());
  expect(strip(f())).toBe(a);
  return a;
}

describe('same data, options and seed -> byte-identical artifact', () => {
  it('regression: GBM, linear and their blend, refit with the learning-curve correction', () => {
    const d = linearish(900, 3);
    const a = twice(() => train(d, { target: 'y', seed: 11 }));
    expect(twice(() => train(d, { target: 'y', seed: 12 }))).not.toBe(a);
    twice(() => train(d, { target: 'y', seed: 11, using: { model: 'gbm', refit: false } }));
    twice(() => train(d, { target: 'y', seed: 11, using: { model: 'linear' } }));
  });

  it('every input type with missing values (reduced model, missing-input calibration)', () => {
    const d = mixed(700, 5, 'regression');
    twice(() => train(d, { target: 'target', seed: 3 }));
  });

  it('binary and multiclass classifiers', () => {
    const b = mixed(600, 6, 'binary');
    twice(() => train(b, { target: 'target', seed: 4 }));
    const m = mixed(600, 7, 'multiclass');
    twice(() => train(m, { target: 'target', seed: 4, using: { max_iterations: 80 } }));
  });

  it('finetune of a regressor and of a classifier', () => {
    const base = train(linearish(600, 8), { target: 'y', seed: 2, using: { max_iterations: 60 } });
    const fresh = linearish(300, 9);
    twice(() => finetune(base, fresh, { seed: 2 }));
    const cbase = train(mixed(500, 10, 'binary'), { target: 'target', seed: 2 });
    const cfresh = mixed(200, 11, 'binary');
    twice(() => finetune(cbase, cfresh, { seed: 2 }));
  });
});

/** The columnar form the training worker receives (as server-side builders produce it). */
function columnar(d: Dataset): ColumnarData {
  const data = d.columns.map((_, j): ColumnarColumn => {
    const cells = d.rows.map((r) => r[j]);
    const present = cells.filter((v) => v !== null);
    if (present.length === 0) return { kind: 'null' };
    if (present.every((v) => typeof v === 'number')) {
      const hasNull = present.length < cells.length;
      return {
        kind: 'number',
        values: Float64Array.from(cells, (v) => (v === null ? 0 : (v as number))),
        nulls: hasNull ? Uint8Array.from(cells, (v) => (v === null ? 1 : 0)) : null,
      };
    }
    if (present.every((v) => typeof v === 'boolean'))
      return {
        kind: 'boolean',
        values: Uint8Array.from(cells, (v) => (v === null ? 2 : v ? 1 : 0)),
      };
    if (present.every((v) => typeof v === 'string')) {
      const dict = [...new Set(present)];
      const code = new Map(dict.map((s, i) => [s, i]));
      return {
        kind: 'text',
        codes: Int32Array.from(cells, (v) => (v === null ? -1 : code.get(v as string)!)),
        dict,
      };
    }
    return { kind: 'mixed', values: cells };
  });
  return { columns: d.columns, rowCount: d.rows.length, data };
}

describe('columnar training data', () => {
  it('gives the same artifact as the same rows (numbers with NULLs, booleans, text, dates)', () => {
    const d = mixed(500, 12, 'regression');
    d.rows.forEach((r, i) => (r[4] = i % 7 === 0 ? null : i % 2 === 0));
    const rows = strip(train(d, { target: 'target', seed: 9 }));
    expect(strip(trainColumns(columnar(d), { target: 'target', seed: 9 }))).toBe(rows);
    const b = mixed(400, 13, 'binary');
    expect(strip(trainColumns(columnar(b), { target: 'target', seed: 9 }))).toBe(
      strip(train(b, { target: 'target', seed: 9 })),
    );
  });

  it('finetunes on columns as on rows', () => {
    const base = train(linearish(400, 14), { target: 'y', seed: 1, using: { max_iterations: 40 } });
    const fresh = linearish(200, 15);
    expect(strip(finetuneColumns(base, columnar(fresh), { seed: 1 }))).toBe(
      strip(finetune(base, fresh, { seed: 1 })),
    );
  });

  it('rejects malformed columns with a clear error', () => {
    expect(() =>
      trainColumns(
        {
          columns: ['a'],
          rowCount: 3,
          data: [{ kind: 'number', values: new Float64Array(2), nulls: null }],
        },
        { target: 'a' },
      ),
    ).toThrow("training column 'a' has 2 values for 3 rows");
    expect(() => trainColumns({ columns: ['a'], rowCount: 1, data: [] }, { target: 'a' })).toThrow(
      'training data must have columns and rows',
    );
  });
});
