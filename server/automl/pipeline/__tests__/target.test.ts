import { describe, expect, it } from 'vitest';
import { tableFromDataset } from '../../data/table';
import { analyzeTarget } from '../target';

const table = (values: (string | number | boolean | null)[]) =>
  tableFromDataset({ columns: ['x', 't'], rows: values.map((v, i) => [i, v]) });

describe('target analysis', () => {
  it('numbers are a regression target; rows without a value are left out', () => {
    const values = Array.from({ length: 200 }, (_, i): number | string | null =>
      i === 3 ? null : i === 7 ? 'NaN' : i * 0.5,
    );
    const ti = analyzeTarget(table(values), 't', 1);
    expect(ti.task).toBe('regression');
    expect(ti.keep).toHaveLength(198);
    expect(ti.keep.slice(0, 7)).toEqual([0, 1, 2, 4, 5, 6, 8]);
    expect(Array.from(ti.y.slice(0, 4))).toEqual([0, 0.5, 1, 2]);
  });

  it('two labels are binary, more are multiclass; labels keep their type, numbers sort numerically', () => {
    const b = analyzeTarget(table(['No', 'Yes', 'No', 'No', 'Yes', 'Yes']), 't', 1);
    expect(b.task).toBe('binary');
    expect(b.classLabels).toEqual(['No', 'Yes']);
    const m = analyzeTarget(table([10, 2, 1, 2, 10, 1, 2, 1, 10, 1, 2, 10]), 't', 1);
    expect(m.task).toBe('multiclass');
    expect(m.classLabels).toEqual([1, 2, 10]);
    expect(Array.from(m.y.slice(0, 3))).toEqual([2, 1, 0]);
    const t = analyzeTarget(table([true, false, true, true, false]), 't', 1);
    expect(t.classLabels).toEqual([false, true]);
    // A few small integers are classes as a target (as an input they are a scale).
    const rating = analyzeTarget(table(Array.from({ length: 60 }, (_, i) => 1 + (i % 5))), 't', 1);
    expect(rating.task).toBe('multiclass');
    expect(rating.classLabels).toEqual([1, 2, 3, 4, 5]);
  });
});
