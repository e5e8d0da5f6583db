import { describe, expect, it } from 'vitest';
import { brokenPromises, calibrationPoints, coverageVerdict } from './coverage-model';

const cell = (label: string, rows: number, coverage: number | null) => ({
  label,
  rows,
  coverage,
  mean_width: 1,
  above: 0,
  below: 0,
  where: null,
});

describe('coverageVerdict', () => {
  it('judges a cell against the promise with the sampling error of its rows', () => {
    // 90% promised: two standard errors are 6 points at 100 rows, 0.6 at 10,000.
    expect(coverageVerdict({ rows: 100, coverage: 0.85 }, 0.9)).toBe('holds');
    expect(coverageVerdict({ rows: 10_000, coverage: 0.85 }, 0.9)).toBe('below');
    expect(coverageVerdict({ rows: 10_000, coverage: 0.95 }, 0.9)).toBe('above');
    expect(coverageVerdict({ rows: 10_000, coverage: 0.9 }, 0.9)).toBe('holds');
  });

  it('does not judge cells with too few rows', () => {
    expect(coverageVerdict({ rows: 5, coverage: 0 }, 0.9)).toBe('too few rows');
    expect(coverageVerdict({ rows: 500, coverage: null }, 0.9)).toBe('too few rows');
  });
});

it('lists the broken promises worst first', () => {
  const cells = [cell('a', 1000, 0.8), cell('b', 1000, 0.9), cell('c', 1000, 0.6), cell('d', 3, 0)];
  expect(brokenPromises(cells, 0.9).map((c) => c.label)).toEqual(['c', 'a']);
});

it('draws only calibration bins that hold rows', () => {
  const v = {
    kind: 'positive-class' as const,
    positive: 1,
    brier: 0.1,
    ece: 0.02,
    bins: [
      { from: 0, to: 0.5, rows: 10, predicted: 0.2, observed: 0.25 },
      { from: 0.5, to: 1, rows: 0, predicted: 0, observed: 0 },
    ],
  };
  expect(calibrationPoints(v)).toEqual([{ x: 0.2, y: 0.25 }]);
});
