import { describe, expect, it } from 'vitest';
import type { SweepPoint } from './sweep';
import { honestDomain, sweepScale } from './sweep-scale';

const pt = (x: number, prediction: number, band?: [number, number]): SweepPoint => ({
  x,
  label: String(x),
  prediction,
  band: band ?? null,
});

describe('sweepScale for a regression', () => {
  it('says how much the prediction moves, in units and as a share, next to the interval', () => {
    const points = [
      pt(1, 3000, [2850, 3150]),
      pt(2, 3012, [2862, 3162]),
      pt(3, 3006, [2856, 3156]),
    ];
    const s = sweepScale(points, [], { target: 'rental_price', over: 'range' });
    expect(s.change).toBe(12);
    expect(s.share).toBeCloseTo(12 / 3006, 9);
    expect(s.text).toBe(
      'Changes the predicted rental_price by at most 12 (0.4%) across this range: less than the ' +
        'uncertainty of one prediction (its interval is about 300 wide).',
    );
  });

  it('keeps the whole interval band on the axis and does not zoom into a tiny change', () => {
    const flat = [pt(1, 3000), pt(2, 3001), pt(3, 3002)];
    const [lo, hi] = sweepScale(flat, [], { target: 'y', over: 'range' }).domain!;
    // At least 20% of the typical prediction (about 600) is on the axis, around the line.
    expect(hi - lo).toBeGreaterThanOrEqual(0.2 * 3001);
    expect(lo).toBeLessThanOrEqual(3000);
    expect(hi).toBeGreaterThanOrEqual(3002);
    const banded = [pt(1, 100, [20, 180]), pt(2, 110, [30, 190])];
    const d = sweepScale(banded, [], { target: 'y', over: 'range' }).domain!;
    expect(d[0]).toBeLessThanOrEqual(20);
    expect(d[1]).toBeGreaterThanOrEqual(190);
  });

  it('reports a change larger than the interval, and no change at all, plainly', () => {
    const big = [pt(1, 100, [95, 105]), pt(2, 200, [195, 205])];
    expect(sweepScale(big, [], { target: 'y', over: 'categories' }).text).toBe(
      'Changes the predicted y by at most 100 (67%) across these categories; the interval around each prediction is about 10 wide.',
    );
    const none = [pt(1, 5), pt(2, 5)];
    expect(sweepScale(none, [], { target: 'y', over: 'range' }).text).toBe(
      'The predicted y does not change across this range.',
    );
  });
});

describe('sweepScale for a classifier', () => {
  it('gives the largest probability swing in percentage points on a fixed 0-100% axis', () => {
    const points: SweepPoint[] = [
      { x: 1, label: '1', prediction: null, band: null, p_No: 0.8, p_Yes: 0.2 },
      { x: 2, label: '2', prediction: null, band: null, p_No: 0.766, p_Yes: 0.234 },
    ];
    const s = sweepScale(points, ['No', 'Yes'], { target: 'Exited', over: 'range' });
    expect(s.domain).toBeNull();
    // Both classes of a binary model swing alike: the rarer one is named.
    expect(s.text).toBe('Changes P(Yes) by at most 3.4 percentage points across this range.');
  });
});

describe('honestDomain', () => {
  it('rounds outward to round numbers and keeps positive values above zero', () => {
    expect(honestDomain(2281.37, 3590.2, 0)).toEqual([2200, 3800]);
    expect(honestDomain(1, 2, 50)[0]).toBe(0);
    expect(honestDomain(-5, 5, 0)).toEqual([-6, 6]);
  });
});
