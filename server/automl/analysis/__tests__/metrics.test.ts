import { describe, expect, it } from 'vitest';
import { accuracyScore, balancedAccuracyScore, meanAbsoluteError, r2Score } from '../metrics';

describe('metrics match scikit-learn on hand-computed examples', () => {
  it('r2_score of the sklearn docs example is 0.9486', () => {
    expect(r2Score([3, -0.5, 2, 7], [2.5, 0.0, 2, 8])).toBeCloseTo(0.9486081370449679, 12);
  });
  it('r2_score is 1 for a perfect fit and 0 for predicting the mean', () => {
    expect(r2Score([1, 2, 3], [1, 2, 3])).toBe(1);
    expect(r2Score([1, 2, 3], [2, 2, 2])).toBe(0);
  });
  it('r2_score of a constant truth is 1 when exact, else 0 (sklearn convention)', () => {
    expect(r2Score([5, 5], [5, 5])).toBe(1);
    expect(r2Score([5, 5], [4, 5])).toBe(0);
  });
  it('balanced_accuracy_score averages per-class recall: 0.625 on the sklearn example', () => {
    // class 0 recall 3/4, class 1 recall 1/2
    expect(balancedAccuracyScore([0, 1, 0, 0, 1, 0], [0, 1, 0, 0, 0, 1])).toBeCloseTo(0.625, 12);
  });
  it('balanced accuracy of always predicting the majority class is 1 / classes', () => {
    expect(balancedAccuracyScore([0, 0, 0, 1], [0, 0, 0, 0])).toBe(0.5);
    expect(balancedAccuracyScore([0, 1, 2], [0, 0, 0], 3)).toBeCloseTo(1 / 3, 12);
  });
  it('accuracy and mean absolute error', () => {
    expect(accuracyScore([0, 1, 0, 0, 1, 0], [0, 1, 0, 0, 0, 1])).toBeCloseTo(4 / 6, 12);
    expect(meanAbsoluteError([3, -0.5, 2, 7], [2.5, 0.0, 2, 8])).toBe(0.5);
  });
});
