// A NULL target between known values of a group is a value missing at a known time: the time
// stays in the series and the value is filled from its season (stat/season.ts fillMissing), so
// the rows around it keep their places in the season. Pure seasons, lines and their sums with
// holes anywhere inside are filled exactly (server/sql/__tests__/forecast-journey.ts forecasts
// such series through SQL; docs/forecasting.md, "Session 18 (forecast)"). A period with
// no row at all is not filled, but counted (missingSteps: DESCRIBE's missing_periods and warning).
import { describe, expect, it } from 'vitest';
import { Rng } from '../../prng';
import { missingSteps } from '../frequency';
import { fillMissing } from '../stat/season';

describe('fillMissing', () => {
  it('fills holes of pure seasons, lines and their sums exactly, from either side of the series', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const rng = new Rng(seed);
      const period = [1, 4, 7, 12, 24][seed % 5];
      const n = period * (2 + Math.floor(rng.next() * 4)) + Math.floor(rng.next() * period) + 2;
      const pattern = Array.from({ length: period }, () => rng.next() * 100 - 50);
      const slope = rng.next() * 10 - 5;
      // A season, a line, or (every third seasonal draw) the two added.
      const line = period === 1 || seed % 3 === 0;
      const truth = Float64Array.from(
        { length: n },
        (_, i) => (period > 1 ? pattern[i % period] : 0) + (line ? 3 + slope * i : 0),
      );
      const y = Float64Array.from(truth);
      // Holes in distinct seasons' positions (each keeps a known value: with every value of a
      // season missing, the neighbours' line is all there is).
      const used = new Set<number>();
      for (let k = 1 + Math.floor(rng.next() * Math.max(1, n / 8)); k > 0; k--) {
        const i = 1 + Math.floor(rng.next() * (n - 2));
        if (period > 1 && used.has(i % period)) continue;
        used.add(i % period);
        y[i] = NaN;
      }
      fillMissing(y, period);
      let worst = 0;
      for (let i = 0; i < n; i++) worst = Math.max(worst, Math.abs(y[i] - truth[i]));
      expect(worst, `seed ${seed}`).toBeLessThan(1e-9);
    }
  });

  it('falls back to the neighbours when no value of the same season is known', () => {
    const y = Float64Array.from([1, 2, NaN, 4, 5]);
    fillMissing(y, 12);
    expect(Array.from(y)).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('missingSteps', () => {
  const at = (...ds: string[]) => Float64Array.from(ds, (d) => Date.parse(`${d}Z`));
  it('counts the calendar steps with no row: month ends, hours, a numeric index', () => {
    const monthEnds = at('2020-01-31T00:00:00', '2020-02-29T00:00:00', '2020-05-31T00:00:00');
    expect(missingSteps(monthEnds, { unit: 'month', months: 1, anchor: 'end', day: 31 })).toEqual({
      count: 2,
      first: [monthEnds[1], monthEnds[2]],
    });
    const hours = at('2021-01-01T00:00:00', '2021-01-01T01:00:00', '2021-01-01T03:00:00');
    expect(missingSteps(hours, { unit: 'ms', ms: 3_600_000 }).count).toBe(1);
    expect(missingSteps(Float64Array.from([0, 5, 10, 25]), { unit: 'number', step: 5 }).count).toBe(
      2,
    );
  });

  it('counts no holiday of business days and no jitter', () => {
    const days = at('2024-01-04T00:00:00', '2024-01-05T00:00:00', '2024-01-09T00:00:00');
    expect(missingSteps(days, { unit: 'ms', ms: 86_400_000, weekdays: true }).count).toBe(0);
    const jitter = at('2024-01-01T00:00:00', '2024-01-02T05:00:00', '2024-01-03T00:00:00');
    expect(missingSteps(jitter, { unit: 'ms', ms: 86_400_000 }).count).toBe(0);
  });
});
