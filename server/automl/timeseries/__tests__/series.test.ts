import { describe, expect, it } from 'vitest';
import type { Dataset } from '../../api';
import { tableFromDataset } from '../../data/table';
import { buildSeries } from '../series';
import { errorOf } from './helpers';

const cols = { target: 'y', orderBy: 't', groupBy: ['g'] };
const build = (d: Dataset, c = cols) => buildSeries(tableFromDataset(d), c, 'training data');

describe('rows -> one sorted series per group', () => {
  it('sorts each group by time and keeps groups in first-appearance order', () => {
    const set = build({
      columns: ['t', 'g', 'y'],
      rows: [
        ['2024-03-01', 'b', 3],
        ['2024-01-01', 'a', 1],
        ['2024-01-01', 'b', 1],
        ['2024-02-01', 'a', 2],
        ['2024-02-01', 'b', 2],
      ],
    });
    expect(set.series.map((s) => s.labels)).toEqual([['b'], ['a']]);
    expect(Array.from(set.series[0].y)).toEqual([1, 2, 3]);
    expect(Array.from(set.series[1].t)).toEqual([Date.UTC(2024, 0, 1), Date.UTC(2024, 1, 1)]);
    expect(set.orderFormat).toBe('date');
  });

  it('averages the targets of rows sharing a timestamp within a group and counts them', () => {
    const set = build({
      columns: ['t', 'g', 'y'],
      rows: [
        ['2024-01-01', 'a', 10],
        ['2024-01-01', 'a', 20],
        ['2024-01-01', 'a', 60],
        ['2024-02-01', 'a', 5],
        ['2024-01-01', 'b', 7],
      ],
    });
    expect(Array.from(set.series[0].y)).toEqual([30, 5]);
    expect(set.duplicates).toBe(2);
    expect(Array.from(set.series[1].y)).toEqual([7]);
  });

  it('drops rows without an order value, fills targets missing between known ones, and counts them', () => {
    const set = build({
      columns: ['t', 'g', 'y'],
      rows: [
        ['2024-01-01', 'a', 1],
        [null, 'a', 2],
        ['2024-02-01', 'a', null],
        ['2024-03-01', 'a', 'NaN'],
        ['2024-04-01', 'a', 4],
      ],
    });
    // The months without a target keep their place, filled from their neighbours (no value of
    // their season is known).
    expect(Array.from(set.series[0].y)).toEqual([1, 2, 3, 4]);
    expect(set.dropped).toBe(3);
    expect(set.interpolated).toBe(2);
  });

  it('puts 2, "2" and 2.0 in one group whichever way the source typed the column', () => {
    const set = build({
      columns: ['t', 'g', 'y'],
      rows: [
        [1, 2, 1],
        [2, '2', 2],
        [3, '2.0', 3],
        [1, null, 9],
      ],
    });
    expect(set.series).toHaveLength(2);
    expect(Array.from(set.series[0].y)).toEqual([1, 2, 3]);
    expect(set.series[1].labels).toEqual([null]);
    expect(set.orderFormat).toBe('number');
  });

  it('matches column names case-insensitively (SQL identifiers)', () => {
    const set = build(
      { columns: ['SaleDate', 'MA'], rows: [['2024-01-01 10:00:00', 1]] },
      { target: 'ma', orderBy: 'saledate', groupBy: [] },
    );
    expect(set.series[0].key).toBe('');
    expect(set.orderFormat).toBe('datetime');
  });
});

describe('clear errors for unusable columns', () => {
  const rows = [['2024-01-01', 'a', 1]];

  it('names a missing ORDER BY, target or GROUP BY column and lists the columns there are', () => {
    const d = { columns: ['t', 'g', 'y'], rows };
    expect(errorOf(() => build(d, { ...cols, orderBy: 'day' })).message).toBe(
      "ORDER BY column 'day' is not in the training data; its columns are: t, g, y",
    );
    expect(errorOf(() => build(d, { ...cols, target: 'sales' })).message).toMatch(
      /^target column 'sales' is not in the training data/,
    );
    expect(errorOf(() => build(d, { ...cols, groupBy: ['shop'] })).message).toMatch(
      /^GROUP BY column 'shop' is not/,
    );
  });

  it('refuses a non-numeric target, naming the value and the row', () => {
    const e = errorOf(() =>
      build({ columns: ['t', 'g', 'y'], rows: [...rows, ['2024-02-01', 'a', 'high']] }),
    );
    expect(e.message).toBe(
      "time-series forecasting predicts numbers, but target 'y' holds high in row 1",
    );
    expect(e.column).toBe('y');
    expect(e.row).toBe(1);
  });

  it('refuses an order column that cannot be sorted: text, booleans, numbers mixed with dates', () => {
    expect(
      errorOf(() => build({ columns: ['t', 'g', 'y'], rows: [['soon', 'a', 1]] })).message,
    ).toBe(
      "ORDER BY column 't' cannot be sorted: soon in row 0 is neither a number nor an ISO date/time (expected e.g. 2024-01-31 or 2024-01-31 12:00:00; convert other spellings in the query, e.g. strptime(col, '%b %d %Y') AS col)",
    );
    // A date with the month's name is a date for tabular inputs, but not as an ORDER BY: SQL
    // would sort and compare it as text ("Apr 1 2000" before "Jan 1 2000").
    expect(
      errorOf(() => build({ columns: ['t', 'g', 'y'], rows: [['Jan 1 2000', 'a', 1]] })).message,
    ).toMatch(/cannot be sorted: Jan 1 2000 in row 0 is neither a number nor an ISO date\/time/);
    expect(
      errorOf(() => build({ columns: ['t', 'g', 'y'], rows: [[true, 'a', 1]] })).message,
    ).toMatch(/cannot be sorted: true in row 0 is a boolean/);
    expect(
      errorOf(() =>
        build({
          columns: ['t', 'g', 'y'],
          rows: [
            [2019, 'a', 1],
            ['2020-01-01', 'a', 2],
          ],
        }),
      ).message,
    ).toMatch(/mixes with values of another kind/);
  });

  it('refuses history whose order values are not of the kind the model was trained on', () => {
    const e = errorOf(() =>
      buildSeries(
        tableFromDataset({ columns: ['t', 'g', 'y'], rows: [[2019, 'a', 1]] }),
        cols,
        'forecast input',
        'date',
      ),
    );
    expect(e.message).toMatch(/2019 in row 0 is not a date\/time like the training data/);
  });
});
