import { describe, expect, it } from 'vitest';
import { tableFromDataset } from '../../data/table';
import { Rng } from '../../prng';
import {
  baselineForecast,
  featureLayout,
  groupCodes,
  originScale,
  scaleFloor,
  writeOriginFeatures,
} from '../features';
import { calendarParts } from '../frequency';
import { type Series, buildSeries } from '../series';
import { type ExampleContext, exampleFeatures, timeSplit, trainingExamples } from '../examples';
import type { FeatureSpec } from '../types';
import { monthlySales } from './helpers';

const spec = (over: Partial<FeatureSpec> = {}): FeatureSpec => ({
  window: 6,
  horizon: 4,
  lookback: 13,
  lags: 5,
  period: 12,
  calendar: calendarParts({ unit: 'month', months: 1, anchor: 'start', day: 1 }),
  groupCats: [null],
  ...over,
});

describe('baselines', () => {
  const y = Float64Array.from({ length: 24 }, (_, i) => (i % 12) * 10 + i);

  it('seasonal-naive repeats the value one season back, naive the last value', () => {
    const s = spec();
    // Origin 23 (month 11 of year 2); step 1 is month 0 of year 3: one season back is row 12.
    expect(baselineForecast('seasonal_naive', y, 0, 23, 1, s)).toBe(y[12]);
    expect(baselineForecast('seasonal_naive', y, 0, 23, 4, s)).toBe(y[15]);
    expect(baselineForecast('naive', y, 0, 23, 4, s)).toBe(y[23]);
    // Without a season of history seasonal-naive falls back to the last value.
    expect(baselineForecast('seasonal_naive', y, 20, 23, 1, s)).toBe(y[23]);
    expect(baselineForecast('seasonal_naive', y, 0, 23, 1, spec({ period: 1 }))).toBe(y[23]);
  });

  it('drift continues the mean step over the lookback', () => {
    const line = Float64Array.from({ length: 30 }, (_, i) => 5 + 2 * i);
    const s = spec({ lookback: 10 });
    expect(baselineForecast('drift', line, 0, 29, 3, s)).toBeCloseTo(line[29] + 6, 12);
    // Only the lookback counts: a jump before it changes nothing.
    const jumped = Float64Array.from(line, (v, i) => (i < 20 ? v - 100 : v));
    expect(baselineForecast('drift', jumped, 0, 29, 3, s)).toBeCloseTo(line[29] + 6, 12);
  });
});

describe('features are scale-free', () => {
  it('give the same row for a series and the series times 1000', () => {
    const s = spec();
    const layout = featureLayout(s);
    const y = Float64Array.from({ length: 20 }, (_, i) => 50 + Math.sin(i) * 7 + i);
    const big = Float64Array.from(y, (v) => v * 1000);
    const a = new Float64Array(layout.F);
    const b = new Float64Array(layout.F);
    const sa = writeOriginFeatures(y, 19, s, a, 0);
    const sb = writeOriginFeatures(big, 19, s, b, 0);
    expect(sb / sa).toBeCloseTo(1000, 9);
    for (let f = 0; f < layout.stepOffset; f++) expect(b[f]).toBeCloseTo(a[f], 9);
  });

  it('scale a flat window by a tiny share of its level instead of dividing by zero', () => {
    const flat = new Float64Array(10).fill(200);
    expect(originScale(flat, 9, 6)).toBeCloseTo(0.02, 9);
  });

  it("floor a calm window's scale at a share of the series' mean step over scaleRows rows", () => {
    // Window 3 at row 9: 50, 50, 51, mean step 0.5 (+ 1e-4 of the mean level 50.33). The last 6
    // rows, 40, 50, 50, 50, 50, 51: mean step 11 / 5 = 2.2 (+ 1e-4 of 48.5); half of it is 1.102425.
    const y = Float64Array.from([0, 10, 20, 30, 40, 50, 50, 50, 50, 51]);
    const s = spec({ window: 3, lags: 2, scaleRows: 6, scaleFloor: 0.5 });
    const out = new Float64Array(featureLayout(s).F);
    const floor = scaleFloor(y, 0, 9, s);
    expect(floor).toBeCloseTo(0.5 * (2.2 + 1e-4 * 48.5), 9);
    expect(writeOriginFeatures(y, 9, s, out, 0, floor)).toBeCloseTo(1.102425, 6);
    expect(out[0]).toBeCloseTo(-1 / 1.102425, 6);
    // Unfloored (older artifacts: no scaleFloor) the window's own, 0.50503.
    expect(scaleFloor(y, 0, 9, spec({ window: 3, lags: 2, scaleRows: 6 }))).toBe(0);
    expect(writeOriginFeatures(y, 9, s, out, 0)).toBeCloseTo(0.5 + (1e-4 * 151) / 3, 9);
    // Never below the window's own: a lively window keeps its scale.
    expect(writeOriginFeatures(y, 5, s, out, 0, scaleFloor(y, 0, 5, s))).toBeCloseTo(10.004, 9);
  });

  it('codes each GROUP BY value by its category, unseen values as the extra code', () => {
    const s = spec({ groupCats: [['a', 'b'], null, ['x', 'y', 'z']] });
    const layout = featureLayout(s);
    expect(layout.names.slice(layout.groupOffset)).toEqual(['group_0', 'group_2']);
    expect(Array.from(groupCodes('b\u00011\u0001z', s, layout))).toEqual([1, 2]);
    expect(Array.from(groupCodes('new\u00011\u0001x', s, layout))).toEqual([2, 0]);
  });
});

describe('time-ordered split: no future row leaks into training features', () => {
  const d = monthlySales(['a', 'b', 'c'], 60, 3);
  const set = buildSeries(
    tableFromDataset(d),
    { target: 'sales', orderBy: 'month', groupBy: ['store'] },
    'x',
  );
  const s = spec({ groupCats: [['a', 'b', 'c']] });
  const layout = featureLayout(s);
  const ctxOf = (series: Series[]): ExampleContext => ({
    series,
    spec: s,
    layout,
    cal: series.map((x) => {
      const out = new Float64Array(x.t.length);
      for (let i = 0; i < x.t.length; i++) out[i] = new Date(x.t[i]).getUTCMonth() + 1;
      return out;
    }),
    codes: series.map((x) => groupCodes(x.key, s, layout)),
  });
  const cut = timeSplit(set.series, s.window, 0.2);
  const ex = trainingExamples(set.series, cut, s.window, s.horizon, new Rng(1), 'direct');

  it('cuts every series at one timestamp and trains only on targets before it', () => {
    const tCut = set.series[0].t[cut[0]];
    set.series.forEach((x, g) => expect(x.t[cut[g]]).toBe(tCut));
    expect(ex.n).toBeGreaterThan(100);
    for (let i = 0; i < ex.n; i++) {
      const x = set.series[ex.g[i]];
      expect(x.t[ex.t[i] + ex.k[i]]).toBeLessThan(tCut);
    }
  });

  it('gives identical training features and targets when every validation-period row changes', () => {
    const before = exampleFeatures(ctxOf(set.series), ex);
    const garbled = set.series.map((x, g) => ({
      ...x,
      y: Float64Array.from(x.y, (v, i) => (i >= cut[g] ? v * 1e6 + 12345 : v)),
    }));
    const after = exampleFeatures(ctxOf(garbled), ex);
    expect(Array.from(after.X)).toEqual(Array.from(before.X));
    expect(Array.from(after.z)).toEqual(Array.from(before.z));
  });

  it('builds each example from its origin and earlier rows only (rows after the origin do not matter)', () => {
    const F = layout.F;
    const all = exampleFeatures(ctxOf(set.series), ex);
    for (let i = 0; i < ex.n; i += 7) {
      const g = ex.g[i];
      const t = ex.t[i];
      const future = set.series.map((x, j) =>
        j === g ? { ...x, y: Float64Array.from(x.y, (v, r) => (r > t ? -v * 31 : v)) } : x,
      );
      const one = {
        n: 1,
        g: ex.g.subarray(i, i + 1),
        t: ex.t.subarray(i, i + 1),
        k: ex.k.subarray(i, i + 1),
      };
      const row = exampleFeatures(ctxOf(future), one).X;
      expect(Array.from(row)).toEqual(Array.from(all.X.subarray(i * F, (i + 1) * F)));
    }
  });
});
