// Issue 29's known answers as properties, over draws a tester would make (periods, lengths,
// levels, signs, slopes, group counts), not one series each: a pure season (seasonal-naive chosen
// and exact, ETS exact from the fewest rows its seasonal forms admit), a straight line (drift
// chosen and exact on every group, Theta exactly half the slope ahead), an AR(1) (ARIMA at its
// order recovers the coefficient within three standard errors). The sweeps behind the draws, and
// their failure counts before and after, are in docs/forecasting.md ("Session 17 (forecast)").
import { describe, expect, it } from 'vitest';
import type { CellValue, Dataset } from '../../api';
import { gauss } from '../../__tests__/helpers';
import { loadPredictor, trainForecaster } from '../../index';
import { Rng } from '../../prng';
import { advantage } from '../evidence';
import { baselineForecast } from '../features';
import { fitArima } from '../stat/arima';
import { etsForecast, fitEts } from '../stat/ets';
import { fitTheta, thetaForecast } from '../stat/theta';
import type { FeatureSpec } from '../types';
import { columnsOf } from './helpers';

const logUniform = (rng: Rng, lo: number, hi: number) =>
  Math.exp(Math.log(lo) + rng.next() * (Math.log(hi) - Math.log(lo)));

/** A pure season of period m: a level (0.01 .. 1e6, either sign) plus a pattern, or with zeros. */
function season(rng: Rng, m: number): number[] {
  const shape = rng.int(3);
  const level = logUniform(rng, 0.01, 1e6) * (shape === 1 ? -1 : 1);
  const amp = Math.abs(level) * logUniform(rng, 0.01, 1);
  return Array.from({ length: m }, () => {
    const v =
      shape === 2
        ? rng.next() < 0.4
          ? 0
          : Math.abs(level) * rng.next()
        : level + amp * gauss(rng);
    return Number(v.toPrecision(6));
  });
}

/** Relative error of out[k] against the truth, over the pattern's largest size. */
function worst(out: ArrayLike<number>, truth: (k: number) => number, size: number): number {
  let w = 0;
  for (let k = 0; k < out.length; k++) w = Math.max(w, Math.abs(out[k] - truth(k)) / size);
  return w;
}

describe('a pure season: ETS exact from the fewest rows its seasonal forms admit', () => {
  // Two seasons and two rows (the classical decomposition's start), or, from a period of 7 on,
  // more rows than R's ets() asks of the form (its parameters and all m seasonal states, plus 4):
  // 14 days, 19 months, 31 hours, 59 weeks. Before, every period needed 2m + 2 rows and ETS
  // forecast a pure weekly pattern of 14 days (or 59 weeks) flat.
  const least = { 4: 10, 7: 14, 12: 19, 24: 31, 52: 59 } as const;
  for (const [period, rows] of Object.entries(least)) {
    const m = Number(period);
    it(`period ${m}: ${rows} rows, 4 draws (levels 0.01 .. 1e6, negative, with zeros)`, () => {
      const rng = new Rng(m);
      for (let draw = 0; draw < 4; draw++) {
        const p = season(rng, m);
        const n = rows + draw * rng.int(m);
        const y = Float64Array.from({ length: n }, (_, t) => p[t % m]);
        const fit = fitEts(y, 0, n - 1, m)!;
        expect(fit.season).not.toBe('N');
        const out = new Float64Array(m);
        etsForecast(fit, y, 0, n - 1, m, out, 0);
        const size = Math.max(...p.map(Math.abs));
        expect(worst(out, (k) => p[(n + k) % m], size)).toBeLessThan(1e-9);
      }
    });
  }

  it('admits no seasonal form one row short of that', () => {
    for (const [m, rows] of [
      [7, 13],
      [12, 18],
      [52, 58],
    ]) {
      const p = season(new Rng(m), m);
      const y = Float64Array.from({ length: rows }, (_, t) => p[t % m]);
      expect(fitEts(y, 0, rows - 1, m)!.season).toBe('N');
    }
  });

  it('is forecast exactly by ETS forced on 19 days of 2 groups (validated on their first 15)', () => {
    // The engine's own choice on such series, seasonal-naive, was exact on all 869 groups of the
    // sweep before and after (pinned in candidates.test.ts); ETS forced was flat (ETS(A,N,N)).
    const rng = new Rng(7);
    const pats = [season(rng, 7), season(rng, 7)];
    const day = (i: number) =>
      new Date(Date.UTC(2021, 0, 4) + i * 864e5).toISOString().slice(0, 10);
    const n = 19;
    const rows: CellValue[][] = [];
    pats.forEach((p, g) => {
      for (let i = 0; i < n; i++) rows.push([day(i), `g${g}`, p[i % 7]]);
    });
    const d: Dataset = { columns: ['day', 'shop', 'sales'], rows };
    const opts = { target: 'sales', orderBy: 'day', groupBy: ['shop'], window: 3, horizon: 4 };
    const a = trainForecaster(d, { ...opts, using: { model: 'ets' } });
    for (const c of a.description.timeseries!.choices!)
      expect(c.model).toMatch(/^ETS\([AM],N,[AM]\)$/);
    const out = loadPredictor(a).forecast(columnsOf(d), rows.length).rows;
    out.forEach((r, i) => {
      const p = pats[Math.floor(i / 4)];
      const size = Math.max(...p.map(Math.abs));
      expect(Math.abs((r[2] as number) - p[(n + (i % 4)) % 7]) / size).toBeLessThan(1e-9);
    });
  });
});

describe('a pure season too short to validate a seasonal ETS on', () => {
  it('is forecast exactly by ETS forced: 10-12 quarters, the season chosen again on all rows', () => {
    // The validation rows (the first 8-9 quarters) admit no seasonal form; the forecasting refit
    // on all the rows chooses the season again. Before, such a series was forecast flat.
    const rng = new Rng(4);
    for (const n of [10, 11, 12]) {
      const p = season(rng, 4);
      const rows: CellValue[][] = [];
      for (let i = 0; i < n; i++) {
        rows.push([
          `${2010 + Math.floor(i / 4)}-${String(3 * (i % 4) + 1).padStart(2, '0')}-01`,
          p[i % 4],
        ]);
      }
      const d: Dataset = { columns: ['quarter', 'sales'], rows };
      const opts = { target: 'sales', orderBy: 'quarter', window: 3, horizon: 2 };
      const a = trainForecaster(d, { ...opts, using: { model: 'ets' } });
      expect(a.description.timeseries!.choices![0].reason).toMatch(
        /validated as ETS\([AM],N,N\), forecasts as ETS\([AM],N,[AM]\) \(its form, the validation rows too few for a seasonal form/,
      );
      const out = loadPredictor(a).forecast(columnsOf(d), n).rows;
      const size = Math.max(...p.map(Math.abs));
      out.forEach((r, k) =>
        expect(Math.abs((r[1] as number) - p[(n + k) % 4]) / size).toBeLessThan(1e-9),
      );
    }
  });
});

describe('a straight line: drift chosen and exact on every group, Theta half the slope', () => {
  it('keeps drift on every group where other candidates are exact too (rounding is no evidence)', () => {
    // Yearly lines of 40 rows, a huge and a small slope: ETS and ARIMA continue them exactly too,
    // and their errors of 0 beat drift's 1e-16 of the level by more than the 1 % tie (the set took
    // the mean of ETS and ARIMA), or "by infinitely many standard errors" (with 80 rows a group
    // took ARIMA(3,1,3); the sweep's 60 draws: 26 failed before, none after).
    const lines = [
      [1e6, -3e5],
      [9e4, -0.35],
    ];
    const rows: CellValue[][] = [];
    lines.forEach(([a, b], g) => {
      for (let i = 0; i < 40; i++) rows.push([1940 + i, `g${g}`, a + b * i]);
    });
    const d: Dataset = { columns: ['year', 'grp', 'v'], rows };
    const a = trainForecaster(d, {
      target: 'v',
      orderBy: 'year',
      groupBy: ['grp'],
      window: 6,
      horizon: 3,
    });
    expect(a.description.timeseries!.choices!.map((c) => c.candidate)).toEqual(
      Array(2).fill('drift'),
    );
    const out = loadPredictor(a).forecast(columnsOf(d), rows.length).rows;
    out.forEach((r, i) => {
      const [a0, b] = lines[Math.floor(i / 3)];
      const truth = a0 + b * (40 + (i % 3));
      expect(Math.abs((r[2] as number) - truth)).toBeLessThan(
        1e-9 * Math.max(Math.abs(a0), Math.abs(b) * 43),
      );
    });
  });

  it('continues a line by drift with WINDOW 1 (the last step; a one-row lookback was naive)', () => {
    const spec = { lookback: 1, period: 1 } as FeatureSpec;
    const y = [3, 5.5, 8, 10.5];
    expect([1, 2, 3].map((k) => baselineForecast('drift', y, 0, 3, k, spec))).toEqual([
      13, 15.5, 18,
    ]);
  });

  it('counts no rounding-level difference as evidence', () => {
    const zero = new Float64Array(12);
    const tiny = Float64Array.from({ length: 12 }, (_, i) => 1e-16 * (1 + (i % 3)));
    const idx = Array.from({ length: 12 }, (_, i) => i);
    expect(advantage(zero, tiny, idx, 12)).toBe(0);
    expect(
      advantage(
        zero,
        Float64Array.from(tiny, (v) => v * 1e9),
        idx,
        12,
      ),
    ).toBeGreaterThan(3);
  });

  it('Theta forecasts y_T + b h / 2 exactly: 12 lines (levels 0 .. 1e6, slopes 1e-6 .. 1e6 of either sign, 10 .. 200 rows)', () => {
    const rng = new Rng(2);
    for (let draw = 0; draw < 12; draw++) {
      const level = draw % 4 === 0 ? 0 : logUniform(rng, 0.01, 1e6) * (rng.next() < 0.3 ? -1 : 1);
      const b = logUniform(rng, 1e-6, 1e6) * (rng.next() < 0.4 ? -1 : 1);
      const n = draw < 4 ? 10 : 20 + rng.int(180);
      const y = Float64Array.from({ length: n }, (_, t) => level + b * t);
      const fit = fitTheta(y, 0, n - 1, 1)!;
      expect(fit.alpha).toBe(1);
      const out = new Float64Array(4);
      thetaForecast(fit, y, 0, n - 1, 4, out, 0);
      const size = Math.max(Math.abs(level), Math.abs(b) * n);
      expect(worst(out, (k) => y[n - 1] + (b * (k + 1)) / 2, size)).toBeLessThan(1e-12);
    }
  });
});

describe('an AR(1): ARIMA at its order recovers the coefficient', () => {
  it('within 3 standard errors, sqrt((1 - phi^2) / n), beyond its small-sample bias: 18 draws', () => {
    // phi in {-0.8, -0.4, 0.2, 0.5, 0.8, 0.95}, a mean of 0 or 100, n 60 .. 500, Gaussian noise.
    // Maximum likelihood's estimate sits about (1 + 3 phi) / n below phi with an estimated mean
    // (Kendall 1954; statsmodels' SARIMAX alike: on 40 draws at 0.8 and 0.95 its mean z is ours to
    // 0.02): at phi 0.95 and n 60, 1.6 standard errors. On 200 draws per phi (docs/forecasting.md)
    // the bias-corrected estimate was beyond 3 standard errors on 2, 0, 0, 1, 2 and 7 of 200 for
    // the phis in turn: near the unit circle its spread is 1.34 asymptotic standard errors, so
    // the 3 draws at 0.95 pass together with probability about 0.9 (these are the first seeds
    // tried), the 15 at the others with probability about 0.93.
    const phis = [-0.8, -0.4, 0.2, 0.5, 0.8, 0.95];
    for (let draw = 0; draw < 18; draw++) {
      const phi = phis[draw % 6];
      const rng = new Rng(100 + draw);
      const n = 60 + rng.int(441);
      const mean = draw % 2 ? 0 : 100;
      let v = gauss(rng) / Math.sqrt(1 - phi * phi);
      const y = Float64Array.from({ length: n }, () => {
        const out = mean + v;
        v = phi * v + gauss(rng);
        return out;
      });
      const order = { p: 1, d: 0, q: 0, P: 0, D: 0, Q: 0, m: 1, constant: true };
      const fit = fitArima(y, 0, n - 1, 1, { plan: { d: 0, D: 0, m: 1 }, orders: [order] })!;
      const z = (fit.ar[0] - phi + (1 + 3 * phi) / n) / Math.sqrt((1 - phi * phi) / n);
      expect(Math.abs(z)).toBeLessThan(3);
      expect(Math.abs(fit.mean - mean)).toBeLessThan(4 / (1 - phi) / Math.sqrt(n));
    }
  });
});
