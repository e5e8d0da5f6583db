// What DESCRIBE claims about a forecaster's intervals, as a tester reads it (session 18): per
// forecast step, the coverage, MASE and MAE of the latest validation period. A short series with
// a long HORIZON has validation origins that reach only its first steps (30 monthly rows,
// HORIZON 12: the last fifth is 6 rows); at the other steps nothing was counted, and DESCRIBE
// said 0 % coverage and an MAE of 0 there (over SQL and REST alike), which the model page showed
// as "0% (−90 pts)". Now null, and the page a dash.
import { describe, expect, it } from 'vitest';
import { trainForecaster } from '../../index';
import { monthlySales } from './helpers';

describe('DESCRIBE claims per step only what the validation counted', () => {
  it('is null at the steps no validation origin reaches, a share in [0, 1] at the others', () => {
    // Three monthly series of 30 rows, HORIZON 12 (validation reaches 6 steps), and of 24 rows,
    // HORIZON 8 (5 steps). 0.3 CPU-s in all.
    for (const [n, H, W, seed] of [
      [30, 12, 6, 1],
      [24, 8, 4, 2],
    ]) {
      const data = monthlySales(['a', 'b', 'c'], n, seed);
      const a = trainForecaster(data, {
        target: 'sales',
        orderBy: 'month',
        groupBy: ['store'],
        window: W,
        horizon: H,
      });
      const ts = a.description.timeseries!;
      const reached = ts.horizonAccuracy.map((h) => h.coverage !== null);
      // The reached steps are the first ones; the last ones are not.
      const first = reached.indexOf(false);
      expect(first).toBeGreaterThan(0);
      expect(first).toBeLessThan(H);
      expect(reached.slice(first).every((x) => !x)).toBe(true);
      ts.horizonAccuracy.forEach((h, k) => {
        if (k < first) {
          expect(h.mase).toBeGreaterThan(0);
          expect(h.mae).toBeGreaterThan(0);
        } else {
          expect([h.mase, h.mae]).toEqual([null, null]);
        }
      });
      for (const c of ts.coverage!) {
        expect(c.steps).toHaveLength(H);
        c.steps.forEach((s, k) => {
          if (k >= first) expect(s).toBeNull();
          else {
            expect(s).toBeGreaterThanOrEqual(0);
            expect(s).toBeLessThanOrEqual(1);
          }
        });
      }
    }
  });
});
