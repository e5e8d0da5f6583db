import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DescribeTimeseries } from '../../../../contract';
import { TimeseriesCard } from './TimeseriesCard';

// As DESCRIBE's `timeseries` column arrives, parsed by the contract at the edge.
const base = {
  order_by: 'saledate',
  group_by: ['type'],
  window: 8,
  horizon: 2,
  frequency: 'quarterly (month-end)',
  selected: 'ets',
  horizon_accuracy: [
    { step: 1, mase: 0.5, mae: 1000, coverage: 0.9 },
    { step: 2, mase: 0.7, mae: 1500, coverage: 0.85 },
  ],
};

function cellTexts(table: HTMLElement): string[][] {
  return within(table)
    .getAllByRole('row')
    .map((row) => [...row.querySelectorAll('th, td')].map((c) => c.textContent ?? ''));
}

describe('TimeseriesCard', () => {
  it('shows each band level promised beside the share it held, pooled and per step', () => {
    const ts = DescribeTimeseries.parse({
      ...base,
      coverage: [
        { level: 0.5, coverage: 0.5712, steps: [0.6, 0.5425], quantile: 0.5, outOfFold: true },
        { level: 0.8, coverage: 0.75, steps: [0.8, 0.7], outOfFold: true },
        { level: 0.9, coverage: 0.8933, steps: [0.9, 0.8866], outOfFold: true },
        { level: 0.95, coverage: 0.97, steps: [0.98, 0.96], outOfFold: true },
      ],
    });
    render(<TimeseriesCard ts={ts} />);
    const table = screen.getByRole('table', { name: /^Intervals: does a 90% band hold 90%/ });
    expect(table).toHaveAccessibleName(/data they did not see/);
    expect(cellTexts(table)).toEqual([
      ['Forecast step', '50% band', '80% band', '90% band', '95% band'],
      ['All steps', '57% (+7 pts)', '75% (−5 pts)', '89% (−1 pts)', '97% (+2 pts)'],
      ['Step 1', '60% (+10 pts)', '80% (±0 pts)', '90% (±0 pts)', '98% (+3 pts)'],
      ['Step 2', '54% (+4 pts)', '70% (−10 pts)', '89% (−1 pts)', '96% (+1 pts)'],
    ]);
    expect(within(table).getAllByRole('rowheader')).toHaveLength(3);
  });

  it('says in its name when the shares were counted in sample (no earlier period held out)', () => {
    const ts = DescribeTimeseries.parse({
      ...base,
      coverage: [
        { level: 0.8, coverage: 0.86, steps: [0.9, 0.82], outOfFold: false },
        { level: 0.9, coverage: 0.95, steps: [1, 0.9], outOfFold: false },
      ],
    });
    render(<TimeseriesCard ts={ts} />);
    const table = screen.getByRole('table', { name: /^Intervals: does a 90% band hold 90%/ });
    expect(table).toHaveAccessibleName(/counted in sample: .* the figures flatter the bands/);
    expect(table).not.toHaveAccessibleName(/did not see/);
    expect(cellTexts(table)[1]).toEqual(['All steps', '86% (+6 pts)', '95% (+5 pts)']);
  });

  it('shows no coverage table for a description without it (MindsDB, older models)', () => {
    const ts = DescribeTimeseries.parse(base);
    expect(ts.coverage).toBeUndefined();
    render(<TimeseriesCard ts={ts} />);
    const accuracy = screen.getByRole('table', { name: 'Accuracy per forecast step' });
    // MASE with the same three decimals on every step, so the column reads aligned.
    expect(cellTexts(accuracy).map((r) => r[1])).toEqual([
      'Error vs repeating last season (MASE)',
      '0.500×',
      '0.700×',
    ]);
    // MAE in the target's units, to the column's three significant digits.
    expect(cellTexts(accuracy).map((r) => r[2])).toEqual(['Typical miss (MAE)', '1,000', '1,500']);
    expect(screen.getAllByRole('table')).toHaveLength(1);
  });
});
