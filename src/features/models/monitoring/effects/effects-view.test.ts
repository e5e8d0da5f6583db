import { describe, expect, it } from 'vitest';
import { EffectsReport } from '../../../../../contract';
import {
  curvePoints,
  effectSentence,
  formatOutput,
  gridLabel,
  spreadPick,
  yRange,
} from './effects-view';
import { effects } from './effects-fixture';

const [sqft, location] = effects.curves;

describe('effect curves as chart points', () => {
  it('keeps the fixture a valid report', () => {
    expect(EffectsReport.parse(effects)).toEqual(effects);
  });

  it('puts the average, the rows and every ICE line at each grid value', () => {
    const { points, iceKeys } = curvePoints(sqft);
    expect(iceKeys).toEqual(['ice0', 'ice1', 'ice2']);
    expect(points[1]).toEqual({
      x: 800,
      label: '800',
      average: 2500,
      rows: 1,
      ice0: 2000,
      ice1: 2500,
      ice2: 3000,
    });
    expect(curvePoints(location).points.map((p) => p.x)).toEqual(['great', 'good', 'poor']);
  });

  it('draws a spread sample of ICE lines, first and last included', () => {
    expect(spreadPick(3, 20)).toEqual([0, 1, 2]);
    expect(spreadPick(100, 5)).toEqual([0, 25, 50, 74, 99]);
    const { iceKeys, points } = curvePoints(sqft, 2);
    expect(iceKeys).toEqual(['ice0', 'ice1']);
    expect([points[0].ice0, points[0].ice1]).toEqual([1000, 2000]);
  });

  it('fits the y range to what is drawn, padded by 5%', () => {
    const { points, iceKeys } = curvePoints(sqft);
    expect(yRange(points, iceKeys)).toEqual([850, 4150]);
    expect(yRange(points, [])).toEqual([1400, 3600]);
  });
});

describe('words and labels', () => {
  it('labels grid values and outputs in readable numbers', () => {
    expect(gridLabel(1234.5678)).toBe('1,235');
    expect(gridLabel(0.123456)).toBe('0.123');
    expect(gridLabel(null)).toBe('missing');
    expect(gridLabel(true)).toBe('true');
    expect(formatOutput(0.4567, 'binary')).toBe('45.7%');
    expect(formatOutput(2512.4, 'regression')).toBe('2,512');
  });

  it('says how far an input moves the average prediction, in grid order', () => {
    expect(effectSentence(sqft, effects)).toBe(
      'Across its range, sqft moves the average rental_price from 1,500 (at 400) to 3,500 (at 1,200): a spread of 2,000.',
    );
    expect(effectSentence(location, effects)).toBe(
      'Across its categories, location moves the average rental_price from 3,000 (at great) to 2,200 (at poor): a spread of 800.',
    );
  });

  it('speaks of percentage points for a class probability, and of no effect when flat', () => {
    const churn = { output: 'P(churn = Yes)', task: 'binary' as const };
    const tenure = { ...sqft, column: 'tenure', average: [0.5, 0.3, 0.1], range: 0.4 };
    expect(effectSentence(tenure, churn)).toBe(
      'Across its range, tenure moves the average P(churn = Yes) from 50.0% (at 400) to 10.0% (at 1,200): a spread of 40.0 percentage points.',
    );
    const flat = { ...sqft, average: [7, 7, 7], range: 0 };
    expect(effectSentence(flat, effects)).toBe(
      'sqft does not move the average rental_price (7 at every value).',
    );
  });
});
