import { describe, expect, it } from 'vitest';
import { chartPoints, defaultAxes } from './chart-model';
import { toGridColumns } from './grid-model';

describe('defaultAxes', () => {
  it('uses the first text/date column as x and the first numeric as y', () => {
    const cols = toGridColumns(['id', 'location', 'rent'], [[1, 'good', 3000]]);
    expect(defaultAxes(cols)).toEqual({ x: 1, y: 0 });
  });
  it('uses the first column as x when all are numeric', () => {
    const cols = toGridColumns(['a', 'b'], [[1, 2]]);
    expect(defaultAxes(cols)).toEqual({ x: 0, y: 1 });
  });
  it('has no default without a numeric column', () => {
    expect(defaultAxes(toGridColumns(['s'], [['x']]))).toBeUndefined();
  });
});

describe('chartPoints', () => {
  it('skips rows with a non-numeric y and caps the points', () => {
    const rows = [
      ['a', 1],
      ['b', null],
      [null, '2.5'],
      ['d', 4],
    ];
    const { points, skipped, capped } = chartPoints(rows, { x: 0, y: 1 }, 'text', 2);
    expect(points).toEqual([
      { x: 'a', y: 1 },
      { x: 'NULL', y: 2.5 },
    ]);
    expect(skipped).toBe(1);
    expect(capped).toBe(true);
  });
});
