// A validated GBM's iterations come from its training examples alone (gbm-fit.ts): early-stopped
// on the latest stretch of the training examples, so the validation examples score it on windows
// none of its choices saw, as they score the statistical models.
import { describe, expect, it } from 'vitest';
import { gauss } from '../../__tests__/helpers';
import { tableFromDataset } from '../../data/table';
import { DEFAULT_SETTINGS } from '../../options';
import { Rng } from '../../prng';
import {
  type ExampleContext,
  examplesOfOrigins,
  originsFrom,
  timeSplit,
  trainingExamples,
} from '../examples';
import { featureLayout, groupCodes } from '../features';
import { calendarParts } from '../frequency';
import { fitGbm, innerSplit } from '../gbm-fit';
import { tsSettings } from '../options';
import { type Series, buildSeries } from '../series';
import type { FeatureSpec } from '../types';
import { monthStart } from './helpers';

const spec: FeatureSpec = {
  window: 13,
  horizon: 6,
  lookback: 13,
  lags: 12,
  period: 12,
  calendar: calendarParts({ unit: 'month', months: 1, anchor: 'start', day: 1 }),
  groupCats: [['a', 'b', 'c']],
  statLookback: 13,
  scaleRows: 36,
};
const layout = featureLayout(spec);
const rng = new Rng(5);
const rows = ['a', 'b', 'c'].flatMap((store, g) =>
  Array.from({ length: 96 }, (_, i) => [
    monthStart(i),
    store,
    100 + 20 * g + 0.4 * i + 8 * Math.sin((2 * Math.PI * (i % 12)) / 12 + g) + 3 * gauss(rng),
  ]),
);
const set = buildSeries(
  tableFromDataset({ columns: ['month', 'store', 'sales'], rows }),
  { target: 'sales', orderBy: 'month', groupBy: ['store'] },
  'x',
);
const ctxOf = (series: Series[]): ExampleContext => ({
  series,
  spec,
  layout,
  cal: series.map((x) => Float64Array.from(x.t, (t) => new Date(t).getUTCMonth() + 1)),
  codes: series.map((x) => groupCodes(x.key, spec, layout)),
});
const cut = timeSplit(set.series, spec.window, 0.2);
const train = trainingExamples(set.series, cut, spec.window, 6, new Rng(1), 'direct');
const val = examplesOfOrigins(
  set.series,
  originsFrom(set.series, (g) => cut[g] - 1, spec.window, 1e6, 1),
  6,
);
const settings = tsSettings(undefined, DEFAULT_SETTINGS, undefined);

describe('a validated GBM', () => {
  it('is early-stopped on the latest fifth of its training examples, never on their targets after it', () => {
    const inner = innerSplit(train)!;
    expect(inner.train.length + inner.val.length).toBeLessThan(train.n);
    for (let s = 0; s < 3; s++) {
      let first = Infinity;
      let last = -Infinity;
      for (let i = 0; i < train.n; i++) {
        if (train.g[i] !== s) continue;
        first = Math.min(first, train.t[i]);
        last = Math.max(last, train.t[i] + train.k[i]);
      }
      const at = last - 0.2 * (last - first);
      for (const i of inner.train)
        if (train.g[i] === s) expect(train.t[i] + train.k[i]).toBeLessThan(at);
      for (const i of inner.val)
        if (train.g[i] === s) expect(train.t[i]).toBeGreaterThanOrEqual(at - 1);
    }
  });

  it('keeps the same iterations and trees whatever the validation period holds', () => {
    const fit = fitGbm(ctxOf(set.series), train, val, settings, new Rng(1));
    // Every validation-period row moved far off: a GBM stopped on them would stop elsewhere.
    const moved = set.series.map((x, g) => ({
      ...x,
      y: Float64Array.from(x.y, (v, i) => (i >= cut[g] ? v + 40 * Math.sin(i) : v)),
    }));
    const other = fitGbm(ctxOf(moved), train, val, settings, new Rng(1));
    expect(fit.iterations).toBeGreaterThan(0);
    expect(other.iterations).toBe(fit.iterations);
    expect(Array.from(other.part.gbm.value)).toEqual(Array.from(fit.part.gbm.value));
    // ... and its refit (on training + validation examples) learns from them as before.
    expect(Array.from(other.y.subarray(fit.nTrain))).not.toEqual(
      Array.from(fit.y.subarray(fit.nTrain)),
    );
  });
});
