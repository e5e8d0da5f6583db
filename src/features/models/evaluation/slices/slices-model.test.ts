import { describe, expect, it } from 'vitest';
import { errorText, sliceTreeRows, whereProblem } from './slices-model';

describe('sliceTreeRows', () => {
  it('walks the tree depth first, worse child first, each with the condition it adds', () => {
    const rows = sliceTreeRows({
      where: '',
      rows: 100,
      error: 0.2,
      share: 1,
      children: [
        { where: 'age < 50', rows: 70, error: 0.1, share: 0.35 },
        {
          where: 'age >= 50',
          rows: 30,
          error: 0.43,
          share: 0.65,
          children: [
            { where: "age >= 50 AND geography = 'Germany'", rows: 10, error: 0.9, share: 0.45 },
          ],
        },
      ],
    });
    expect(rows.map((r) => [r.depth, r.condition])).toEqual([
      [0, 'all rows'],
      [1, 'age >= 50'],
      [2, "geography = 'Germany'"],
      [1, 'age < 50'],
    ]);
    expect(rows[2].where).toBe("age >= 50 AND geography = 'Germany'");
  });
});

it('reads an error rate as a percentage and a mean absolute error as a number', () => {
  expect(errorText('error_rate', 0.1234)).toBe('12.3%');
  expect(errorText('mean_absolute_error', 1234.5678)).toBe('1,234.568');
  expect(errorText('error_rate', null)).toBe('—');
});

describe('whereProblem', () => {
  it('accepts a condition and explains what is wrong with others', () => {
    expect(whereProblem("age > 50 AND geography = 'Germany'")).toBeNull();
    expect(whereProblem('  ')).toMatch(/Write a condition/);
    expect(whereProblem('WHERE age > 50')).toMatch(/Leave out the word WHERE/);
    expect(whereProblem('x'.repeat(4001))).toMatch(/at most 4000/);
  });
});
