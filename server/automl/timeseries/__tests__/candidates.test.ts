// The forecaster's choice among its candidates on series whose best forecaster is known: a pure
// season (seasonal-naive, exact), random walks (naive), a straight line (drift, exact); USING
// model forcing one candidate; a group never seen in training forecast by the set's statistical
// model fitted on its own history.
import { describe, expect, it } from 'vitest';
import type { CellValue, Dataset } from '../../api';
import { gauss } from '../../__tests__/helpers';
import { type TimeSeriesArtifact, loadPredictor, trainForecaster } from '../../index';
import { Rng } from '../../prng';
import { columnsOf, errorOf, monthStart } from './helpers';

/** Monthly groups of `n` rows each: y(group index, month index). */
function monthly(groups: number, n: number, y: (g: number, i: number) => number): Dataset {
  const rows: CellValue[][] = [];
  for (let g = 0; g < groups; g++) {
    for (let i = 0; i < n; i++) rows.push([monthStart(i), `g${g}`, y(g, i)]);
  }
  return { columns: ['month', 'store', 'sales'], rows };
}

const opts = { target: 'sales', orderBy: 'month', groupBy: ['store'], window: 12, horizon: 6 };
const used = (a: TimeSeriesArtifact) =>
  [...new Set(a.description.timeseries!.choices!.map((c) => c.candidate))].sort();

describe('known answers', () => {
  it('forecasts a pure seasonal series by seasonal-naive, exactly', () => {
    const season = [
      [5, 3, 9, 12, 14, 20, 22, 19, 11, 8, 4, 2],
      [30, 28, 35, 31, 29, 40, 44, 41, 36, 33, 30, 27],
    ];
    const d = monthly(2, 60, (g, i) => 100 + season[g][i % 12]);
    const a = trainForecaster(d, opts);
    expect(used(a)).toEqual(['seasonal_naive']);
    const out = loadPredictor(a);
    const rows = out.forecast(columnsOf(d), d.rows.length).rows;
    rows.forEach((r, i) => {
      const g = Math.floor(i / 6);
      expect(r[2]).toBe(100 + season[g][(60 + (i % 6)) % 12]);
    });
    // ETS forecasts it exactly too: its validation error is seasonal-naive's, 0.
    const ets = a.description.timeseries!.leaderboard!.find((r) => r.name === 'ets')!;
    expect(ets.mae).toBeLessThan(1e-6);
  });

  it('forecasts random walks by naive (the simplest of the candidates that tie with it)', () => {
    const rng = new Rng(17);
    const level = [100, 250, 40];
    const d = monthly(3, 120, (g) => (level[g] += 2 * gauss(rng)));
    const a = trainForecaster(d, opts);
    expect(a.description.timeseries!.selected).toBe('naive');
    expect(used(a)).toEqual(['naive']);
  });

  it('forecasts a straight line by drift, exactly', () => {
    const rows: CellValue[][] = [];
    for (let y = 1950; y < 2010; y++) rows.push([y, 3 + 2.5 * (y - 1950)]);
    const d = { columns: ['year', 'v'], rows };
    const a = trainForecaster(d, { target: 'v', orderBy: 'year', window: 6, horizon: 4 });
    expect(a.description.timeseries!.selected).toBe('drift');
    const out = loadPredictor(a);
    expect(out.forecast(columnsOf(d), rows.length).rows.map((r) => [r[0], r[1]])).toEqual(
      [2010, 2011, 2012, 2013].map((y) => [y, 3 + 2.5 * (y - 1950)]),
    );
  });
});

describe('USING model', () => {
  const rng = new Rng(5);
  const d = monthly(
    3,
    84,
    (g, i) => 50 + 10 * g + 0.3 * i + 6 * Math.sin((2 * Math.PI * i) / 12) + gauss(rng),
  );

  it("forces one candidate on every group ('ets'), and keeps it for RETRAIN", () => {
    const a = trainForecaster(d, { ...opts, using: { model: 'ets' } });
    expect(used(a)).toEqual(['ets']);
    expect(a.timeseries.candidate).toBe('ets');
    for (const c of a.description.timeseries!.choices!) expect(c.model).toMatch(/^ETS\(/);
  });

  it('names the candidates it accepts when given one it does not', () => {
    expect(errorOf(() => trainForecaster(d, { ...opts, using: { model: 'linear' } })).message).toBe(
      "USING model = 'linear' does not apply to time-series models; use 'auto', 'gbm' or one of their candidates: seasonal_naive, naive, drift, theta, ets, arima, combination, gbm_direct, gbm_recursive",
    );
  });

  it("fits a new group's statistical model on its own history when the set's choice is one", () => {
    const a = trainForecaster(d, { ...opts, using: { model: 'theta' } });
    const f = loadPredictor(a);
    // A new group whose level is 10 times the others': its forecast follows its own rows.
    const mine = d.rows.filter((r) => r[1] === 'g0').map((r) => [r[0], 'new', 10 * Number(r[2])]);
    const out = f.forecast(columnsOf({ columns: d.columns, rows: mine }), mine.length);
    expect(out.unseenGroups).toEqual([['new']]);
    const last = Number(mine[mine.length - 1][2]);
    for (const r of out.rows) expect(Math.abs(Number(r[2]) - last) / last).toBeLessThan(0.2);
  });
});
