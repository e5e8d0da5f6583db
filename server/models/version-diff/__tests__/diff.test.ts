import { describe, expect, it } from 'vitest';
import type { CellValue } from '../../../automl/index';
import { diffVersions, towardsClass, type DiffInput } from '../diff';

/** 40 rows: age 20..59, city a/b/c in turn, balance 0..3900. */
const n = 40;
const inputs: Record<string, CellValue[]> = {
  age: Array.from({ length: n }, (_, i) => 20 + i),
  city: Array.from({ length: n }, (_, i) => ['a', 'b', 'c'][i % 3]),
  balance: Array.from({ length: n }, (_, i) => i * 100),
};
const kinds = { age: 'number', city: 'category', balance: 'number' } as const;

function regressionDiff(): DiffInput {
  // v2 = v1 + 500 for city 'b' only; v1 = 10 * age. Contributions: balance counts more in v2 on 'b'.
  const before = inputs.age.map((a) => 10 * Number(a));
  const after = before.map((v, i) => (inputs.city[i] === 'b' ? v + 500 + i : v));
  const contrib = (i: number, extra: number) => ({
    age: 10 * Number(inputs.age[i]),
    balance: extra,
    city: 0,
  });
  return {
    task: 'regression',
    inputs,
    kinds,
    n,
    before: { name: 'v1', values: before, contributions: before.map((_, i) => contrib(i, 0)) },
    after: {
      name: 'v2',
      values: after,
      contributions: after.map((_, i) => contrib(i, inputs.city[i] === 'b' ? 500 + i : 0)),
    },
    threshold: 50,
    source: { kind: 'held-out', query: null },
  };
}

describe('version diff', () => {
  it('finds exactly the rows two regressions differ on, largest change first', () => {
    const r = diffVersions(regressionDiff());
    const expected = inputs.city.flatMap((c, i) => (c === 'b' ? [i] : []));
    expect(r.rows).toEqual({ compared: 40, changed: expected.length });
    expect(r.changed_rows.map((x) => x.row).sort((a, b) => a - b)).toEqual(expected);
    // Sorted by |change|: row 37 moved by 537, the most.
    expect(r.changed_rows[0]).toMatchObject({ row: 37, change: 537 });
    expect(r.changed_rows[0].moved[0]).toEqual({ column: 'balance', change: 537 });
    expect(r.segment).toEqual({
      column: 'city',
      label: 'b',
      share_of_changed: 1,
      share_of_rows: 13 / 40,
    });
    expect(r.moved_inputs[0].column).toBe('balance');
    // Average change: (13 x 500 + (1 + 4 + ... + 37)) / 40 = 6747 / 40 = 168.7.
    expect(r.summary).toBe(
      'v2 moves 33% of predictions by more than 50 (average change +169), mostly where city is b, and balance now counts more',
    );
  });

  it('finds exactly the flipped classes and the age range they sit in', () => {
    // v1: yes when age > 45; v2: yes when age > 39. Rows aged 40..45 flip.
    const cls = (t: number) => inputs.age.map((a) => (Number(a) > t ? 'yes' : 'no'));
    const probs = (t: number) =>
      inputs.age.map((a) => (Number(a) > t ? { yes: 0.8, no: 0.2 } : { yes: 0.3, no: 0.7 }));
    const r = diffVersions({
      task: 'binary',
      inputs,
      kinds,
      n,
      before: { name: 'v1', values: cls(45), probabilities: probs(45), contributions: null },
      after: { name: 'v2', values: cls(39), probabilities: probs(39), contributions: null },
      threshold: null,
      source: { kind: 'query', query: 'SELECT * FROM t' },
    });
    expect(r.changed_rows.map((x) => x.inputs.age).sort()).toEqual([40, 41, 42, 43, 44, 45]);
    expect(r.changed_rows.every((x) => x.flipped && x.after === 'yes')).toBe(true);
    expect(r.changed_rows[0].change).toBeCloseTo(0.5, 12);
    expect(r.segment?.column).toMatch(/age|balance/);
    expect(r.summary).toMatch(/^v2 flips 15% of classes, mostly where (age is 4\d – 4\d|balance)/);
  });

  it('says so when nothing changed', () => {
    const d = regressionDiff();
    d.after = d.before;
    const r = diffVersions(d);
    expect(r.rows.changed).toBe(0);
    expect(r.segment).toBeNull();
    expect(r.summary).toBe('v1 moves no prediction by more than 50 (average change +0)');
  });

  it("turns a binary classifier's explanation towards class 1", () => {
    expect(towardsClass({ a: 1, b: -2 }, 'no', 'no')).toEqual({ a: -1, b: 2 });
    expect(towardsClass({ a: 1 }, 'yes', 'no')).toEqual({ a: 1 });
  });
});
