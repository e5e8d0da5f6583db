import { describe, expect, it } from 'vitest';
import { chartPoints, defaultAxes, timeAxes } from './chart-model';
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

describe('the one-click line chart over time', () => {
  const cols = [
    { id: 'c0', index: 0, name: 'label', kind: 'text' as const },
    { id: 'c1', index: 1, name: 'saledate', kind: 'date' as const },
    { id: 'c2', index: 2, name: 'ma', kind: 'number' as const },
  ];

  it('puts the first date column on x and the first numeric on y, or nothing without a date', () => {
    expect(timeAxes(cols)).toEqual({ x: 1, y: 2 });
    expect(timeAxes([cols[0], cols[2]])).toBeUndefined();
  });

  it('sorts a line by time when asked, NULL last, and keeps row order otherwise', () => {
    const rows = [
      ['a', '2020-03-31', 2],
      ['b', null, 9],
      ['c', '2019-12-31', 1],
    ];
    expect(chartPoints(rows, { x: 1, y: 2 }, 'date', undefined, true).points).toEqual([
      { x: '2019-12-31', y: 1 },
      { x: '2020-03-31', y: 2 },
      { x: 'NULL', y: 9 },
    ]);
    expect(chartPoints(rows, { x: 1, y: 2 }, 'date').points.map((p) => p.y)).toEqual([2, 9, 1]);
  });
});
