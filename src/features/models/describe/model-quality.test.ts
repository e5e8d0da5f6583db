import { describe, expect, it } from 'vitest';
import {
  calibrationSummary,
  classificationHeadlines,
  confusionTable,
  countOf,
  explainedShare,
  regressionHeadlines,
  residualDomain,
  residualPoints,
  squareDomain,
} from './model-quality';
import {
  columnFormatter,
  roundedColumnFormatter,
  formatPercent,
  formatRounded,
  formatSigned,
  formatSignedRounded,
} from '../shared';

const regression = {
  mae: 12.3,
  rmse: 18.9,
  r2: 0.9994,
  baseline: { kind: 'mean' as const, value: 2410.2, mae: 930.1, rmse: 1180.4, r2: 0 },
  sample: { actual: [100, 200, 300], predicted: [110, 190, 300] },
};

describe('regressionHeadlines', () => {
  it('states the error in the target’s units beside the baseline of predicting the average', () => {
    const [mae, rmse, r2] = regressionHeadlines(regression, 'rental_price', 1008);
    expect(mae.title).toBe('Typically off by 12.3');
    expect(mae.detail).toBe(
      'In rental_price’s own units on 1,008 rows it did not train on. Predicting the average ' +
        '(2,410) for every row would be off by 930: the model’s error is 76× smaller.',
    );
    expect(rmse).toMatchObject({ name: 'Root mean squared error (RMSE)', value: '18.9' });
    expect(rmse.detail).toContain('Predicting the average: 1,180.');
    expect(r2).toMatchObject({ name: 'R² score', value: '0.9994' });
    expect(r2.title).toBe('Explains 99.94% of the variation in rental_price');
    // A near-perfect fit is not rounded up to 100%.
    expect(explainedShare(0.999951)).toBe('99.99%');
    expect(explainedShare(0.5)).toBe('50%');
  });

  it('says so when the model is worse than the average', () => {
    const bad = { ...regression, mae: 1000, r2: -0.2 };
    const [mae, , r2] = regressionHeadlines(bad, 'y');
    expect(mae.detail).not.toContain('smaller');
    expect(r2.title).toBe('Worse than always predicting the average');
  });
});

describe('classificationHeadlines', () => {
  it('compares accuracy and balanced accuracy with always answering the majority class', () => {
    const [acc, bal] = classificationHeadlines(
      {
        accuracy: 0.86,
        balanced_accuracy: 0.78,
        baseline: { kind: 'majority', class: 'No', accuracy: 0.735, balanced_accuracy: 0.5 },
        classes: ['No', 'Yes'],
        confusion: [],
        per_class: [],
        calibration: [],
      },
      2000,
    );
    expect(acc.title).toBe('Right 86% of the time');
    expect(acc.detail).toBe(
      'Share of correct predictions on 2,000 rows it did not train on. Always answering “No” would be right 73.5%.',
    );
    expect(bal).toMatchObject({ name: 'Balanced accuracy', value: '78%' });
    expect(acc.detail).not.toContain('no better overall');
    expect(bal.detail).toContain('Always answering “No” scores 50%.');
  });
});

describe('a classifier no more accurate than the majority answer', () => {
  it('says it trades overall accuracy for finding the rare class', () => {
    const [acc] = classificationHeadlines({
      accuracy: 0.797,
      balanced_accuracy: 0.78,
      baseline: { kind: 'majority', class: 0, accuracy: 0.7965, balanced_accuracy: 0.5 },
      classes: [0, 1],
      confusion: [],
      per_class: [],
      calibration: [],
    });
    expect(acc.detail).toBe(
      'Share of correct predictions. Always answering “0” would be right 79.7%. It is no better ' +
        'overall because it is tuned to find the rarer class too (balanced accuracy).',
    );
  });
});

describe('confusionTable', () => {
  it('keeps rows = actual, columns = predicted, with each cell’s share of its row', () => {
    const t = confusionTable(
      ['No', 'Yes'],
      [
        [900, 135],
        [100, 274],
      ],
    );
    expect(t.total).toBe(1409);
    expect(t.correct).toBe(1174);
    expect(t.rows[1].actual).toBe('Yes');
    expect(t.rows[1].total).toBe(374);
    expect(t.rows[1].cells[1]).toEqual({
      predicted: 'Yes',
      count: 274,
      share: 274 / 374,
      correct: true,
    });
    expect(t.rows[0].cells[1].correct).toBe(false);
    expect(countOf(274, 374)).toBe('274 of 374 (73.3%)');
  });

  it('labels numeric and boolean classes as text and survives a short matrix', () => {
    const t = confusionTable([0, 1, true], [[1, 0, 0]]);
    expect(t.classes).toEqual(['0', '1', 'true']);
    expect(t.rows[2]).toMatchObject({
      total: 0,
      cells: [{ share: 0 }, { share: 0 }, { share: 0 }],
    });
  });
});

describe('percent and signed formatting', () => {
  it('drops decimals for whole percentages and writes a true minus sign', () => {
    expect(formatPercent(0.8567)).toBe('85.7%');
    expect(formatPercent(1)).toBe('100%');
    expect(formatPercent(0.5)).toBe('50%');
    expect(formatPercent(null)).toBe('—');
    expect(formatSigned(380.12)).toBe('+380.12');
    expect(formatSigned(-95.4)).toBe('−95.4');
    expect(formatSigned(0)).toBe('0');
    expect(formatSignedRounded(-3.279)).toBe('−3.28');
    expect(formatSignedRounded(22.035)).toBe('+22');
    expect(formatSignedRounded(-610.17)).toBe('−610');
    expect(formatRounded(1136.35)).toBe('1,136');
    expect(formatRounded(0.02734)).toBe('0.0273');
  });

  it('gives a column of numbers one number of decimals so they line up', () => {
    const f = columnFormatter([2271, 2277.94, 4123.8]);
    expect([2271, 2277.94, 4123.8].map(f)).toEqual(['2,271.00', '2,277.94', '4,123.80']);
    expect(columnFormatter([1, 2])(2)).toBe('2');
    expect(columnFormatter([0.12345])(0.12345)).toBe('0.1235');
    expect(columnFormatter(['a'])('a')).toBe('a');
  });

  it("rounds a column of errors to its largest value's three significant digits", () => {
    const prices = roundedColumnFormatter([4541.819, 5883.929, 7009.307]);
    expect([4541.819, 5883.929, 7009.307].map(prices)).toEqual(['4,542', '5,884', '7,009']);
    const small = roundedColumnFormatter([9.87, 12.345]);
    expect([9.87, 12.345].map(small)).toEqual(['9.9', '12.3']);
    const tiny = roundedColumnFormatter([0.034, 0.05]);
    expect([0.034, 0.05].map(tiny)).toEqual(['0.0340', '0.0500']);
    expect(roundedColumnFormatter([0])(0)).toBe('0');
    expect(roundedColumnFormatter([1])(null)).toBe('—');
  });
});

describe('calibrationSummary', () => {
  it('reads the busiest bin and says whether confidence can be taken at face value', () => {
    const good = calibrationSummary([
      { confidence: 0.55, observed: 0.52, count: 120 },
      { confidence: 0.85, observed: 0.83, count: 400 },
    ])!;
    expect(good.text).toBe(
      'When it reports about 85% confidence it is right 83% of the time (400 rows). Its ' +
        'confidence can be taken at face value: on average within 2.2 percentage points of how often it is right.',
    );
    const over = calibrationSummary([{ confidence: 0.9, observed: 0.7, count: 10 }])!;
    expect(over.bias).toBeCloseTo(0.2, 9);
    expect(over.text).toContain('overconfident by 20 percentage points');
    expect(calibrationSummary([{ confidence: 0.5, observed: 0.5, count: 0 }])).toBeNull();
  });
});

describe('residuals', () => {
  it('pairs actual and predicted values and signs the residual actual - predicted', () => {
    const pts = residualPoints(regression.sample);
    expect(pts.map((p) => p.residual)).toEqual([-10, 10, 0]);
    // Round bounds on both axes alike, and a symmetric round range for the residuals.
    expect(squareDomain(pts)).toEqual([75, 325]);
    expect(residualDomain(pts)).toEqual([-15, 15]);
  });
});
