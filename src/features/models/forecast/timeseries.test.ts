import { describe, expect, it } from 'vitest';
import type { ModelVersion } from '../api';
import {
  chartPoints,
  forecastRows,
  forecastSql,
  groupLabel,
  groupsSql,
  historySql,
  shockHistory,
  timeseriesOf,
  type TsSettings,
} from './timeseries';

const ts: TsSettings = {
  orderBy: 'saledate',
  groupBy: ['type', 'bedrooms'],
  window: 8,
  horizon: 4,
};

const version = (trainingOptions: Record<string, unknown> | null) =>
  ({ trainingOptions }) as unknown as ModelVersion;

describe('timeseriesOf', () => {
  it("reads MindsDB's timeseries_settings from TRAINING_OPTIONS", () => {
    expect(
      timeseriesOf(
        version({
          target: 'ma',
          timeseries_settings: {
            is_timeseries: true,
            order_by: 'saledate',
            group_by: ['type', 'bedrooms'],
            window: 8,
            horizon: 4,
          },
        }),
      ),
    ).toEqual(ts);
  });

  it('is null for other models, and defaults a missing HORIZON / WINDOW to 1', () => {
    expect(timeseriesOf(version({ target: 'x', using: {} }))).toBeNull();
    expect(timeseriesOf(undefined)).toBeNull();
    expect(
      timeseriesOf(version({ timeseries_settings: { order_by: 't', group_by: 'g' } })),
    ).toEqual({ orderBy: 't', groupBy: ['g'], window: 1, horizon: 1 });
  });
});

describe('forecast SQL', () => {
  const base = {
    project: 'mindsdb',
    model: 'house sales',
    relation: 'example_db.demo_data.house_sales',
    ts,
    target: 'ma',
  };

  it("is MindsDB's documented form: the data joined with the model after LATEST, for one group", () => {
    expect(forecastSql({ ...base, group: ['house', 2], horizon: 2 })).toBe(
      'SELECT m.saledate, m.type, m.bedrooms, m.ma, m.ma_min, m.ma_max\n' +
        'FROM example_db.demo_data.house_sales AS t\n' +
        'JOIN mindsdb.`house sales` AS m\n' +
        "WHERE t.saledate > LATEST\n  AND t.type = 'house'\n  AND t.bedrooms = 2\nLIMIT 2;",
    );
  });

  it('leaves out LIMIT at the full horizon and compares NULL groups with IS NULL', () => {
    const sql = forecastSql({ ...base, group: [null, 3], horizon: 4 });
    expect(sql).toContain('t.type IS NULL');
    expect(sql).not.toContain('LIMIT');
  });

  it("reads a group's latest rows oldest first, and the distinct groups sorted", () => {
    expect(historySql('x.t', ts, 'ma', ["it's", 1], 48)).toBe(
      "SELECT * FROM (SELECT saledate, type, bedrooms, ma FROM x.t AS h WHERE saledate IS NOT NULL AND type = 'it''s' AND bedrooms = 1 ORDER BY saledate DESC LIMIT 48) AS h ORDER BY saledate",
    );
    expect(groupsSql('x.t', ts)).toBe(
      'SELECT DISTINCT type, bedrooms FROM x.t AS g ORDER BY 1, 2 LIMIT 500',
    );
    expect(groupLabel(ts, ['house', 2])).toBe('type = house, bedrooms = 2');
  });
});

describe('chart points and what-if', () => {
  it('joins the forecast line to the last history point and bands only the forecast steps', () => {
    const points = chartPoints(
      [
        { time: '2019-06-30', value: 10 },
        { time: '2019-09-30', value: '12' },
      ],
      [
        { time: '2019-12-31', value: 13, lower: 11, upper: 15 },
        { time: '2020-03-31', value: 14, lower: null, upper: 17 },
      ],
    );
    expect(points).toEqual([
      { x: '2019-06-30', history: 10 },
      { x: '2019-09-30', history: 12, forecast: 12 },
      { x: '2019-12-31', forecast: 13, band: [11, 15] },
      { x: '2020-03-31', forecast: 14 },
    ]);
  });

  it('maps forecast columns case-insensitively', () => {
    expect(
      forecastRows(['SALEDATE', 'ma', 'MA_MIN', 'ma_max'], [['2019-12-31', 1, 0, 2]], ts, 'ma'),
    ).toEqual([{ time: '2019-12-31', value: 1, lower: 0, upper: 2 }]);
  });

  it('changes only the latest values of the history by the share', () => {
    const h = [{ ma: 100 }, { ma: 100 }, { ma: 200 }];
    expect(shockHistory(h, 'ma', 10, 2)).toEqual([{ ma: 100 }, { ma: 110 }, { ma: 220 }]);
    expect(shockHistory(h, 'ma', -50, 1).at(-1)).toEqual({ ma: 100 });
  });
});
