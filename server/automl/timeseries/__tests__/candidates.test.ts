// The forecaster's choice among its candidates on series whose best forecaster is known: a pure
// season (seasonal-naive, exact), random walks (naive), a straight line (drift, exact); the mean
// of the candidates validation cannot tell apart; USING model forcing one candidate; a group
// never seen in training forecast by the set's statistical model fitted on its own history; one
// validation finished with each candidate forecasting as a training with it forced.
import { describe, expect, it } from 'vitest';
import type { CellValue, Dataset } from '../../api';
import { gauss } from '../../__tests__/helpers';
import { type TimeSeriesArtifact, loadPredictor, trainForecaster } from '../../index';
import { tableFromDataset } from '../../data/table';
import { DEFAULT_SETTINGS } from '../../options';
import { Rng } from '../../prng';
import { checkOptions, tsSettings } from '../options';
import { selectCandidates } from '../selection';
import { finishTraining, validateCandidates } from '../train';
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

describe('WINDOW is the history a forecast reads, not the only lag choice', () => {
  // Daily series with a weekly season, a slow trend and AR(1) noise; the last week held out.
  const day = (i: number) => new Date(Date.UTC(2021, 0, 4) + i * 864e5).toISOString().slice(0, 10);
  const week = [0, 3, 5, 4, 6, -8, -10];
  const rng = new Rng(11);
  const N = 112;
  const H = 7;
  const rows: CellValue[][] = [];
  for (let g = 0; g < 2; g++) {
    let e = 0;
    for (let i = 0; i < N + H; i++) {
      e = 0.6 * e + gauss(rng);
      rows.push([day(i), `g${g}`, 60 + 30 * g + 0.05 * i + (1 + g) * week[i % 7] + e]);
    }
  }
  const train = rows.filter((r) => String(r[0]) < day(N));
  const d = { columns: ['day', 'store', 'sales'], rows: train };

  /** MASE of the held-out week (over each series' in-sample seasonal-naive error). */
  function heldOutMase(window: number): number {
    const a = trainForecaster(d, {
      target: 'sales',
      orderBy: 'day',
      groupBy: ['store'],
      window,
      horizon: H,
    });
    const out = loadPredictor(a).forecast(columnsOf(d), train.length).rows;
    let sum = 0;
    for (const g of ['g0', 'g1']) {
      const y = rows.filter((r) => r[1] === g).map((r) => Number(r[2]));
      let scale = 0;
      for (let i = 7; i < N; i++) scale += Math.abs(y[i] - y[i - 7]) / (N - 7);
      const f = out.filter((r) => r[1] === g).map((r) => Number(r[2]));
      expect(f).toHaveLength(H);
      for (let k = 0; k < H; k++) sum += Math.abs(f[k] - y[N + k]) / scale / (2 * H);
    }
    return sum;
  }

  it('gives about the same accuracy with WINDOW 14, 28 and 56 on a weekly-seasonal daily series', () => {
    const mase = [14, 28, 56].map(heldOutMase);
    for (const m of mase) expect(m).toBeLessThan(1);
    expect(Math.max(...mase) - Math.min(...mase)).toBeLessThan(0.05);
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

  it('forecasts with the mean of the candidates validation could not tell apart (the ensemble)', () => {
    const a = trainForecaster(d, opts);
    const ts = a.description.timeseries!;
    expect(ts.selected).toBe('ensemble');
    const members = a.model.ensemble!;
    expect(members.length).toBeGreaterThanOrEqual(2);
    const board = ts.leaderboard!;
    const row = board.find((r) => r.name === 'ensemble')!;
    expect(row.label).toContain(members.join(', '));
    for (const m of members) {
      expect(row.mase).toBeLessThanOrEqual(board.find((r) => r.name === m)!.mase!);
    }
    // Each group that uses it forecasts the mean of its members' forecasts, each member as the
    // model forced to it forecasts (the same fits: the artifact keeps every member).
    const forecastOf = (x: TimeSeriesArtifact) =>
      loadPredictor(x)
        .forecast(columnsOf(d), d.rows.length)
        .rows.map((r) => Number(r[2]));
    const own = forecastOf(a);
    const theirs = members.map((m) =>
      forecastOf(trainForecaster(d, { ...opts, using: { model: m } })),
    );
    const groups = ts.choices!.map((c) => c.candidate);
    expect(groups.filter((c) => c === 'ensemble').length).toBeGreaterThan(0);
    own.forEach((v, i) => {
      if (groups[Math.floor(i / opts.horizon)] !== 'ensemble') return;
      const mean = theirs.reduce((acc, f) => acc + f[i], 0) / members.length;
      expect(v).toBeCloseTo(mean, 6);
    });
  });

  it('names the candidates it accepts when given one it does not', () => {
    expect(errorOf(() => trainForecaster(d, { ...opts, using: { model: 'linear' } })).message).toBe(
      "USING model = 'linear' does not apply to time-series models; use 'auto', 'gbm' or one of their candidates: seasonal_naive, naive, drift, theta, ets, arima, tsb, combination, gbm_direct, gbm_recursive",
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
    // Its band: the pooled width (no factor of its own) at its own scale, 10 times g0's; it was
    // null, the new group's slot read past the training groups' width factors.
    const g0 = d.rows.filter((r) => r[1] === 'g0');
    const own = f.forecast(columnsOf({ columns: d.columns, rows: g0 }), g0.length).rows;
    const factor = a.model.perSeries!.widthFactor[0];
    out.rows.forEach((r, k) => {
      const half = (Number(r[4]) - Number(r[3])) / 2;
      const theirs = (Number(own[k][4]) - Number(own[k][3])) / 2;
      expect(r[3]).not.toBeNull();
      expect(half / ((10 * theirs) / factor)).toBeCloseTo(1, 9);
    });
  });
});

describe('one validation finished with each candidate in turn', () => {
  it('forecasts as a training with that candidate forced does (bench/timeseries-choices.ts)', () => {
    const rng = new Rng(4);
    const d = monthly(
      2,
      72,
      (g, i) => 50 + 10 * g + 0.2 * i + 4 * Math.sin((i * Math.PI) / 6) + gauss(rng),
    );
    const v = validateCandidates(
      tableFromDataset(d),
      checkOptions(opts),
      tsSettings(undefined, DEFAULT_SETTINGS, undefined),
    );
    const forecast = (a: TimeSeriesArtifact) =>
      loadPredictor(a).forecast(columnsOf(d), d.rows.length, { levels: [0.8] });
    const seen = new Set<string>();
    for (const name of ['ets', 'arima', 'gbm_direct'] as const) {
      const sel = selectCandidates(v.scored, v.folds, 2, v.validation.validated, name);
      const finished = forecast(finishTraining(v, sel));
      const forced = forecast(trainForecaster(d, { ...opts, using: { model: name } }));
      expect(finished.rows).toEqual(forced.rows);
      expect(finished.intervals).toEqual(forced.intervals);
      expect(finished.rows).toHaveLength(12);
      expect(finished.intervals![0].lower).toHaveLength(12);
      seen.add(JSON.stringify(finished.rows));
    }
    // Three candidates, three forecasts.
    expect(seen.size).toBe(3);
  });
});
