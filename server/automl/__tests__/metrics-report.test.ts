// The metrics block of a trained model's description: computed on the same validation rows as
// DESCRIBE's accuracy, in the target's units, beside a baseline, for every task.
import { describe, expect, it } from 'vitest';
import { type CellValue, type Dataset, finetune, train } from '../index';
import { Rng } from '../prng';
import { linearish, xor } from './helpers';

function threeClasses(n: number, seed: number): Dataset {
  const rng = new Rng(seed);
  const rows: CellValue[][] = [];
  for (let i = 0; i < n; i++) {
    const x = rng.next() * 3;
    rows.push([x, rng.next(), ['lo', 'mid', 'hi'][Math.min(2, Math.floor(x + 0.3 * rng.next()))]]);
  }
  return { columns: ['x', 'noise', 'level'], rows };
}

describe('training-time metrics in the description', () => {
  it('regression: errors in target units, far below the mean baseline, on the accuracy rows', () => {
    const d = train(linearish(4000, 3), { target: 'y', seed: 1 }).description;
    const m = d.metrics!;
    expect(m.task).toBe('regression');
    expect(m.target).toBe('y');
    expect(m.primary).toEqual({ name: 'r2_score', label: 'R²', value: d.accuracies.r2_score });
    const r = m.regression!;
    expect(r.r2).toBeCloseTo(d.accuracies.r2_score, 5);
    // y = 3x + 2[red] + N(0, 1), x uniform on 0..10: the error is the noise, about 0.8 MAE.
    expect(r.mae).toBeGreaterThan(0.6);
    expect(r.mae).toBeLessThan(1.1);
    expect(r.rmse).toBeGreaterThanOrEqual(r.mae);
    expect(r.baseline.kind).toBe('mean');
    expect(r.baseline.mae).toBeGreaterThan(6);
    expect(Math.abs(r.baseline.r2)).toBeLessThan(0.05);
    expect(r.baseline.value).toBeGreaterThan(14);
    expect(r.baseline.value).toBeLessThan(18);
    // A 20% validation split; the shipped model is refit on all rows.
    expect(m.rows).toEqual({ train: 4000, validation: 800 });
    expect(m.validation).toBe('split');
    expect(r.sample.actual).toHaveLength(500);
    r.sample.actual.forEach((a, i) => expect(Math.abs(a - r.sample.predicted[i])).toBeLessThan(5));
    expect(m.classification).toBeUndefined();
  });

  it('binary (cross-fitted): confusion matrix, per-class support and calibration count every row', () => {
    const d = train(xor(800, 4), { target: 'label', seed: 2 }).description;
    const m = d.metrics!;
    const c = m.classification!;
    expect(m.task).toBe('binary');
    expect(m.primary).toEqual({
      name: 'balanced_accuracy_score',
      label: 'Balanced accuracy',
      value: d.accuracies.balanced_accuracy_score,
    });
    expect(c.balanced_accuracy).toBeCloseTo(d.accuracies.balanced_accuracy_score, 5);
    expect(c.classes).toEqual(['No', 'Yes']);
    const total = c.confusion.flat().reduce((s, v) => s + v, 0);
    expect(total).toBe(m.rows.validation);
    expect(c.per_class.map((p) => p.support)).toEqual(c.confusion.map((r) => r[0] + r[1]));
    expect(c.calibration.reduce((s, b) => s + b.count, 0)).toBe(total);
    expect(m.rows).toEqual({ train: 800, validation: 800 });
    expect(c.baseline.balanced_accuracy).toBe(0.5);
    expect(c.accuracy).toBeGreaterThan(c.baseline.accuracy);
    expect(m.regression).toBeUndefined();
  });

  it('multiclass on small data: every row judged out of fold', () => {
    const d = train(threeClasses(300, 5), { target: 'level', seed: 3 }).description;
    const m = d.metrics!;
    expect(m.task).toBe('multiclass');
    expect(m.validation).toBe('cross-fitted');
    expect(m.rows).toEqual({ train: 300, validation: 300 });
    expect(m.classification!.confusion).toHaveLength(3);
    expect(m.classification!.baseline.balanced_accuracy).toBeCloseTo(1 / 3, 5);
  });

  it('finetune recomputes the metrics on the new validation rows', () => {
    const base = train(linearish(600, 6), { target: 'y', seed: 1 });
    const more = linearish(300, 7);
    const ft = finetune(base, more).description.metrics!;
    expect(ft.rows.train).toBe(300);
    expect(ft.rows.validation).toBeGreaterThan(0);
    expect(ft.rows.validation).toBeLessThan(300);
    expect(ft.regression!.mae).toBeLessThan(ft.regression!.baseline.mae);
  });
});
