// The evaluation computations on pinned values: AUC of perfect, reversed and constant rankings;
// ROC, precision-recall and reliability curves equal to scikit-learn 1.2.1's on fixed data (values
// computed once with it, written here); the profit curve's maximum; the slice finder recovering a
// planted high-error region; group metrics on a table checked by hand.
import { describe, expect, it } from 'vitest';
import { bestThreshold, cumulate, pointAt, profitCurve } from '../../../../contract/threshold';
import type { ColumnarData } from '../../api';
import { Rng } from '../../prng';
import { reliability } from '../calibration';
import { gainsCurve, prCurve, rocCurve } from '../curves';
import { classGroups, regressionGroups } from '../groups';
import { coverageBy, predictedDeciles, rowsOutside } from '../intervals';
import { groupRows } from '../segments';
import { findSlices, sliceOf } from '../slices';
import { thresholdTable } from '../threshold';

// Ties at 0.9, 0.8, 0.5 and 0.3, with mixed classes in some of them.
const y = [1, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 1, 1, 0, 0, 0, 1, 0, 1, 1];
const s = [
  0.9, 0.8, 0.8, 0.7, 0.65, 0.6, 0.55, 0.5, 0.5, 0.45, 0.4, 0.35, 0.3, 0.3, 0.25, 0.2, 0.15, 0.1,
  0.05, 0.9,
];

const close = (a: number[], b: number[]) => {
  expect(a.length).toBe(b.length);
  a.forEach((x, i) => expect(x).toBeCloseTo(b[i], 9));
};

describe('ROC and AUC', () => {
  it('a perfect ranking scores 1, a reversed one 0, a constant one 0.5', () => {
    const truth = [0, 0, 0, 1, 1, 1];
    expect(rocCurve([1, 2, 3, 4, 5, 6], truth).auc).toBe(1);
    expect(rocCurve([6, 5, 4, 3, 2, 1], truth).auc).toBe(0);
    const flat = rocCurve([7, 7, 7, 7, 7, 7], truth);
    expect(flat.auc).toBe(0.5);
    expect(flat.fpr).toEqual([0, 1]);
    expect(flat.tpr).toEqual([0, 1]);
    expect(rocCurve([1, 2], [1, 1]).auc).toBeNaN();
  });

  it("equals scikit-learn's roc_curve and roc_auc_score", () => {
    const r = rocCurve(s, y);
    close(r.fpr, [0, 0, 0.1, 0.1, 0.3, 0.3, 0.4, 0.6, 0.6, 0.7, 0.9, 0.9, 1, 1]);
    close(r.tpr, [0, 0.2, 0.3, 0.4, 0.4, 0.5, 0.6, 0.6, 0.7, 0.8, 0.8, 0.9, 0.9, 1]);
    // scikit-learn 1.2 writes max + 1 for the first threshold, this writes +Infinity.
    expect(r.thresholds[0]).toBe(Infinity);
    close(
      r.thresholds.slice(1),
      [0.9, 0.8, 0.7, 0.6, 0.55, 0.5, 0.4, 0.35, 0.3, 0.2, 0.15, 0.1, 0.05],
    );
    expect(r.auc).toBeCloseTo(0.605, 12);
  });
});

describe('precision-recall', () => {
  it("equals scikit-learn's precision_recall_curve and average_precision_score", () => {
    const r = prCurve(s, y);
    close(
      r.precision,
      [
        0.5, 0.4736842105, 0.5, 0.4705882353, 0.5, 0.5333333333, 0.5384615385, 0.5, 0.5454545455,
        0.6, 0.625, 0.5714285714, 0.6666666667, 0.8, 0.75, 1, 1,
      ],
    );
    close(
      r.recall,
      [1, 0.9, 0.9, 0.8, 0.8, 0.8, 0.7, 0.6, 0.6, 0.6, 0.5, 0.4, 0.4, 0.4, 0.3, 0.2, 0],
    );
    close(
      r.thresholds,
      [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.8, 0.9],
    );
    expect(r.averagePrecision).toBeCloseTo(0.6846794871794871, 12);
  });
});

describe('cumulative gains', () => {
  it('finds positives as the ranking does, and a constant score gains like random order', () => {
    const g = gainsCurve([0.9, 0.8, 0.7, 0.2, 0.1], [1, 1, 0, 0, 0], 5);
    expect(g.map((p) => p.gain)).toEqual([0.5, 1, 1, 1, 1]);
    expect(g[0].lift).toBeCloseTo(2.5, 12);
    expect(g[4].lift).toBe(1);
  });
});

describe('reliability', () => {
  it("equals scikit-learn's calibration_curve (5 uniform bins) and brier_score_loss", () => {
    const r = reliability(s, y, 5);
    close(
      r.bins.map((b) => b.observed),
      [0.5, 0.4, 0.4, 0.5, 1],
    );
    close(
      r.bins.map((b) => b.predicted),
      [0.125, 0.32, 0.52, 0.7375, 0.9],
    );
    expect(r.brier).toBeCloseTo(0.268875, 12);
    expect(r.bins.reduce((n, b) => n + b.rows, 0)).toBe(20);
  });
});

describe('threshold and payoff', () => {
  const table = thresholdTable(s, y);
  const c = cumulate(table);

  it('gives the confusion matrix at a threshold (p >= threshold is flagged)', () => {
    const p = pointAt(c, 500);
    // Scores >= 0.5: 0.9 x2, 0.8 x2, 0.7, 0.65, 0.6, 0.55, 0.5 x2 -> 10 rows, 6 positives.
    expect([p.tp, p.fp, p.tn, p.fn]).toEqual([6, 4, 6, 4]);
    expect(p.precision).toBeCloseTo(0.6, 12);
    expect(p.recall).toBeCloseTo(0.6, 12);
    expect(p.flagged).toBe(0.5);
    // 0.37 is its own step although 0.37 * 1000 is 369.99999999999994.
    expect(pointAt(c, 370).tp + pointAt(c, 370).fp).toBe(12);
  });

  it('finds the threshold of the highest profit', () => {
    // Catching a positive earns 100, flagging a negative costs 100.
    const payoff = { tp: 100, fp: -100, tn: 0, fn: 0 };
    const curve = profitCurve(c, payoff);
    expect(curve).toHaveLength(1001);
    const best = bestThreshold(c, payoff);
    // Above 0.65 up to 0.7 four positives (0.9, 0.9, 0.8, 0.7) and one negative (0.8) are
    // flagged: 300, the most any threshold earns; the plateau is reported by its point nearest 0.5.
    expect(Math.max(...curve.map((x) => x.profit))).toBe(300);
    expect(best.profit).toBe(300);
    expect(best.threshold).toBe(0.651);
    expect([best.tp, best.fp]).toEqual([4, 1]);
    // Flagging everyone: 10 positives, 10 negatives.
    expect(pointAt(c, 0, payoff).profit).toBe(0);
  });
});

describe('interval audit', () => {
  it('coverage and width per group, per predicted decile, and the rows outside', () => {
    const actual = [1, 2, 3, 10, 5];
    const predicted = [1, 2, 3, 4, 5];
    const lower = predicted.map((p) => p - 1);
    const upper = predicted.map((p) => p + 1);
    const r = { actual, predicted, lower, upper };
    const cells = coverageBy(r, [0, 0, 1, 1, 1], ['a', 'b']);
    expect(cells[0]).toMatchObject({ rows: 2, coverage: 1, meanWidth: 2, above: 0 });
    expect(cells[1].coverage).toBeCloseTo(2 / 3, 12);
    expect(cells[1].above).toBe(1);
    expect(rowsOutside(r, 10)).toEqual([3]);
    expect(predictedDeciles(predicted).of).toEqual(Int32Array.from([0, 1, 2, 3, 4]));
  });
});

function table(columns: Record<string, (number | string | null)[]>): ColumnarData {
  const names = Object.keys(columns);
  return {
    columns: names,
    rowCount: columns[names[0]].length,
    data: names.map((n) => ({ kind: 'mixed', values: columns[n] })),
  };
}

describe('where it is wrong', () => {
  it('recovers a planted high-error region as a slice with its SQL', () => {
    const rng = new Rng(7);
    const n = 4000;
    const age: number[] = [];
    const region: string[] = [];
    const noise: number[] = [];
    const err = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      age.push(18 + Math.floor(rng.next() * 60));
      region.push(['north', 'south', 'east', 'west'][Math.floor(rng.next() * 4)]);
      noise.push(rng.next());
      // Wrong 5 % of the time, except 60 % for people of 50 or more in the east.
      const planted = age[i] >= 50 && region[i] === 'east';
      err[i] = rng.next() < (planted ? 0.6 : 0.05) ? 1 : 0;
    }
    const { leaves, root } = findSlices(table({ age, region, noise }), err, { maxDepth: 2 });
    const worst = leaves[0];
    expect(worst.conditions.sort()).toEqual(['age >= 50', "region = 'east'"].sort());
    expect(worst.error).toBeGreaterThan(0.5);
    expect(worst.share).toBeGreaterThan(0.4);
    expect(root.rows).toBe(n);
    // The slice's WHERE selects its rows: judged as a user's WHERE it gives the same numbers.
    const mask = Uint8Array.from({ length: n }, (_, i) =>
      age[i] >= 50 && region[i] === 'east' ? 1 : 0,
    );
    const judged = sliceOf(mask, err);
    expect(judged.rows).toBe(worst.rows);
    expect(judged.error).toBeCloseTo(worst.error, 12);
  });

  it('keeps NULLs in the slice that says so', () => {
    const x = [null, null, null, 1, 2, 3, 4, 5, 6, 7];
    const err = Float64Array.from([1, 1, 1, 0, 0, 0, 0, 0, 0, 0]);
    const { leaves } = findSlices(table({ x }), err, { minRows: 3 });
    expect(leaves[0].where).toBe('x IS NULL');
    expect(leaves[0].error).toBe(1);
  });
});

describe('for whom', () => {
  // Checked by hand: group a has 4 rows (2 positives), group b 4 rows (2 positives).
  //   a: actual 1 1 0 0, predicted 1 0 1 0 -> TPR 0.5, FPR 0.5, selection 0.5, accuracy 0.5
  //   b: actual 1 1 0 0, predicted 1 1 0 0 -> TPR 1,   FPR 0,   selection 0.5, accuracy 1
  const g = groupRows('g', { kind: 'mixed', values: ['a', 'a', 'a', 'a', 'b', 'b', 'b', 'b'] }, 8);
  const actual = [1, 1, 0, 0, 1, 1, 0, 0];
  const pred = [1, 0, 1, 0, 1, 1, 0, 0];

  it('classifier metrics per group, with ratios and small-group warnings', () => {
    const rows = classGroups(g, actual, pred);
    expect(rows.map((r) => r.label)).toEqual(['a', 'b']);
    expect(rows[0]).toMatchObject({
      rows: 4,
      accuracy: 0.5,
      tpr: 0.5,
      fpr: 0.5,
      selectionRate: 0.5,
    });
    expect(rows[1]).toMatchObject({ rows: 4, accuracy: 1, tpr: 1, fpr: 0, selectionRate: 0.5 });
    // Four rows are too few to judge: no ratio against a best group is claimed.
    expect(rows[0].small).toMatch(/only 4 rows/);
    expect(rows[0].where).toBe("g = 'a'");
  });

  it('the four-fifths ratio on groups large enough to judge', () => {
    const n = 200;
    const big = groupRows(
      'sex',
      { kind: 'mixed', values: Array.from({ length: n }, (_, i) => (i < 100 ? 'F' : 'M')) },
      n,
    );
    // F: 20 of 100 selected; M: 40 of 100 selected -> ratio 0.5 for F. Positives: 30 in each.
    const act = Array.from({ length: n }, (_, i) => (i % 100 < 30 ? 1 : 0));
    const prd = Array.from({ length: n }, (_, i) => (i % 100 < (i < 100 ? 20 : 40) ? 1 : 0));
    const rows = classGroups(big, act, prd);
    expect(rows[0].selectionRate).toBeCloseTo(0.2, 12);
    expect(rows[1].selectionRate).toBeCloseTo(0.4, 12);
    expect(rows[0].selectionRatio).toBeCloseTo(0.5, 12);
    expect(rows[1].selectionRatio).toBe(1);
    expect(rows[0].tpr).toBeCloseTo(20 / 30, 12);
    expect(rows[0].small).toBeNull();
  });

  it('regression MAE and bias per group', () => {
    const rows = regressionGroups(g, [1, 2, 3, 4, 5, 6, 7, 8], [2, 3, 4, 5, 5, 5, 7, 9]);
    expect(rows[0]).toMatchObject({ mae: 1, bias: 1 });
    expect(rows[1].mae).toBeCloseTo(0.5, 12);
    expect(rows[1].bias).toBeCloseTo(0, 12);
  });

  it('numbers with many values become quantile ranges with their SQL', () => {
    const values = Array.from({ length: 100 }, (_, i) => i);
    const r = groupRows(
      'Age',
      { kind: 'number', values: Float64Array.from(values), nulls: null },
      100,
      { bins: 4 },
    );
    expect(r.kind).toBe('range');
    expect(r.segments.map((x) => x.where)).toEqual([
      '`Age` < 25',
      '`Age` >= 25 AND `Age` < 50',
      '`Age` >= 50 AND `Age` < 75',
      '`Age` >= 75',
    ]);
    expect(Array.from(r.of).filter((k) => k === 0)).toHaveLength(25);
  });
});
