import { describe, expect, it } from 'vitest';
import {
  CALIBRATION_BINS,
  REPORT_SAMPLE_ROWS,
  classificationReport,
  majorityClass,
  regressionReport,
} from '../report';

describe('regression report: hand-computed errors beside the mean baseline', () => {
  // actual 1 2 3 4, predicted 1.5 2 2 5: errors 0.5 0 1 1; the baseline always says 2.5.
  const r = regressionReport({
    actual: [1, 2, 3, 4],
    predicted: [1.5, 2, 2, 5],
    baseline: [2.5, 2.5, 2.5, 2.5],
    baselineValue: 2.5,
    seed: 1,
  });

  it('MAE 0.625, RMSE 0.75 and r2 0.55 (SS_res 2.25 of SS_tot 5)', () => {
    expect(r.mae).toBe(0.625);
    expect(r.rmse).toBe(0.75);
    expect(r.r2).toBe(0.55);
  });

  it('the baseline: MAE 1, RMSE sqrt(5/4), r2 0, and the value it predicts', () => {
    expect(r.baseline).toEqual({ kind: 'mean', value: 2.5, mae: 1, rmse: 1.11803, r2: 0 });
  });

  it('keeps every pair of a small validation set, in order', () => {
    expect(r.sample).toEqual({ actual: [1, 2, 3, 4], predicted: [1.5, 2, 2, 5] });
  });

  it(`samples at most ${REPORT_SAMPLE_ROWS} pairs, still aligned, the same for the same seed`, () => {
    const n = 3000;
    const actual = Float64Array.from({ length: n }, (_, i) => i);
    const predicted = Float64Array.from({ length: n }, (_, i) => i + 0.5);
    const a = regressionReport({ actual, predicted, baseline: actual, baselineValue: 0, seed: 7 });
    const b = regressionReport({ actual, predicted, baseline: actual, baselineValue: 0, seed: 7 });
    expect(a.sample.actual).toHaveLength(REPORT_SAMPLE_ROWS);
    a.sample.actual.forEach((v, i) => expect(a.sample.predicted[i]).toBe(v + 0.5));
    expect(b.sample).toEqual(a.sample);
    // Spread over the rows, not the first 500.
    expect(Math.max(...a.sample.actual)).toBeGreaterThan(2000);
  });
});

describe('classification report: hand-computed confusion, per-class scores, calibration', () => {
  // Classes a b c d; d never occurs and is never predicted.
  const r = classificationReport({
    actual: [0, 0, 0, 1, 1, 2],
    predicted: [0, 0, 1, 1, 0, 2],
    confidence: [0.95, 0.85, 0.55, 0.65, 0.52, 0.99],
    labels: ['a', 'b', 'c', 'd'],
    majority: 0,
  });

  it('confusion counts with actual classes as rows and predicted classes as columns', () => {
    expect(r.classes).toEqual(['a', 'b', 'c', 'd']);
    expect(r.confusion).toEqual([
      [2, 1, 0, 0],
      [1, 1, 0, 0],
      [0, 0, 1, 0],
      [0, 0, 0, 0],
    ]);
  });

  it('accuracy 4/6 and balanced accuracy (2/3 + 1/2 + 1) / 3 over the classes present', () => {
    expect(r.accuracy).toBe(0.666667);
    expect(r.balanced_accuracy).toBe(0.722222);
  });

  it('precision and recall per class; null where nothing was predicted or present', () => {
    expect(r.per_class).toEqual([
      { class: 'a', precision: 0.666667, recall: 0.666667, support: 3 },
      { class: 'b', precision: 0.5, recall: 0.5, support: 2 },
      { class: 'c', precision: 1, recall: 1, support: 1 },
      { class: 'd', precision: null, recall: null, support: 0 },
    ]);
  });

  it('the majority baseline: accuracy 3/6, balanced accuracy 1/3', () => {
    expect(r.baseline).toEqual({
      kind: 'majority',
      class: 'a',
      accuracy: 0.5,
      balanced_accuracy: 0.333333,
    });
  });

  it(`calibration: ${CALIBRATION_BINS} equal bins of confidence, empty ones left out`, () => {
    expect(r.calibration).toEqual([
      { confidence: 0.535, observed: 0, count: 2 },
      { confidence: 0.65, observed: 1, count: 1 },
      { confidence: 0.85, observed: 1, count: 1 },
      { confidence: 0.97, observed: 1, count: 2 },
    ]);
  });

  it('a confidence of exactly 1 falls in the last bin', () => {
    const one = classificationReport({
      actual: [1],
      predicted: [1],
      confidence: [1],
      labels: [false, true],
      majority: 0,
    });
    expect(one.calibration).toEqual([{ confidence: 1, observed: 1, count: 1 }]);
    expect(one.baseline.class).toBe(false);
  });

  it('the majority class is the most frequent code, the lowest on a tie', () => {
    expect(majorityClass([2, 1, 2, 0], 3)).toBe(2);
    expect(majorityClass([1, 0], 2)).toBe(0);
  });
});
