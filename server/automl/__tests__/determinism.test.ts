// Determinism: the same data, options and seed give a byte-identical artifact (apart from the
// timings inside it) for every kind of model the pipeline builds, so a retrain is reproducible and
// a refactor that changes a single number anywhere shows up here.
import { describe, expect, it } from 'vitest';
import {
  type CellValue,
  type Dataset,
  type ModelArtifact,
  finetune,
  serializeArtifact,
  train,
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
