// One-step backtests of history rows (what SQL returns for known timestamps) and the rolling-origin
// interval calibration (weighted conformal quantiles, the half-life chosen on the main split).
import { describe, expect, it } from 'vitest';
import { type CellValue, loadPredictor, trainForecaster } from '../../index';
import { Rng } from '../../prng';
import { buildSeries } from '../series';
import { type Calibration, chooseHalfLife } from '../calibration';
import { weightedConformalQuantile, weightedConformalQuantiles } from '../intervals';
import { timeSplit, trainingExamples } from '../examples';
import { conformalQuantile } from '../../analysis/conformal';
import { tableFromDataset } from '../../data/table';
import { columnsOf, monthStart, monthlySales } from './helpers';

const opts = { target: 'sales', orderBy: 'month', groupBy: ['store'], window: 6, horizon: 3 };
const data = monthlySales(['a', 'b'], 60, 21);
const forecaster = loadPredictor(trainForecaster(data, opts));

describe('history backtest', () => {
  const h = forecaster.history(columnsOf(data), data.rows.length);

  it('answers each history row with the forecast made from the rows of its group before it', () => {
    // Row 40 of store b: the forecast from b's first 40 rows, one step ahead.
    const b = data.rows.filter((r) => r[1] === 'b');
    const idx = data.rows.indexOf(b[40]);
    const before = { columns: data.columns, rows: b.slice(0, 40) };
    const one = forecaster.forecast(columnsOf(before), 40, { horizon: 1 }).rows[0];
    expect(one[0]).toBe(monthStart(40));
    expect(h.value[idx]).toBeCloseTo(one[2] as number, 9);
    expect(h.lower[idx]).toBeCloseTo(one[3] as number, 9);
    expect(h.upper[idx]).toBeCloseTo(one[4] as number, 9);
    expect(h.confidence).toBe(0.9);
  });

  it('has no forecast for the first WINDOW rows of a group (nothing to forecast them from)', () => {
    const a = data.rows.map((r, i) => [r, i] as const).filter(([r]) => r[1] === 'a');
    for (const [, i] of a.slice(0, 6)) expect(h.value[i]).toBeNull();
    for (const [, i] of a.slice(6)) expect(typeof h.value[i]).toBe('number');
  });

  it('gives rows sharing a group and timestamp the same forecast, and dropped rows none', () => {
    const rows: CellValue[][] = [...data.rows, [monthStart(30), 'a', 1], [null, 'a', 5]];
    const cols = columnsOf({ columns: data.columns, rows });
    const hh = forecaster.history(cols, rows.length);
    const twin = data.rows.findIndex((r) => r[1] === 'a' && r[0] === monthStart(30));
    expect(hh.value[rows.length - 2]).toBe(hh.value[twin]);
    expect(hh.value[rows.length - 1]).toBeNull();
  });

  it('names the input row each group continues, and backtests in the same call on request', () => {
    const out = forecaster.forecast(columnsOf(data), data.rows.length, { history: true });
    expect(out.groupRows).toEqual([59, 119]);
    expect(out.history!.value).toEqual(h.value);
    expect(out.history!.group.slice(0, 2)).toEqual([0, 0]);
    expect(out.history!.group.slice(60, 62)).toEqual([1, 1]);
  });

  it('reports groups never seen in training and merged duplicate timestamps of a forecast', () => {
    const rows: CellValue[][] = [
      ...data.rows,
      ...data.rows.filter((r) => r[1] === 'a').map((r) => [r[0], 'z', r[2]]),
      [monthStart(59), 'a', 3],
    ];
    const out = forecaster.forecast(columnsOf({ columns: data.columns, rows }), rows.length);
    expect(out.unseenGroups).toEqual([['z']]);
    expect(out.duplicates).toBe(1);
  });
});

describe('interval calibration', () => {
  it('weighs residuals in the conformal quantile; equal weights give the unweighted quantile', () => {
    const rng = new Rng(3);
    const r = Array.from({ length: 57 }, () => rng.next());
    const ones = r.map(() => 1);
    expect(weightedConformalQuantile(r, ones, 0.9)).toBe(conformalQuantile(r, 0.9));
    // Large old residuals with a tiny weight barely move the quantile.
    const old = [...r, ...r.map((x) => 100 + x)];
    const w = [...ones, ...r.map(() => 0.001)];
    expect(weightedConformalQuantile(old, w, 0.9)).toBeLessThan(1);
    expect(weightedConformalQuantile([], [], 0.9)).toBe(Infinity);
  });

  it('answers every level from one sort as the one-level quantile does (ties, zero weights)', () => {
    const rng = new Rng(9);
    const r = Array.from({ length: 301 }, () => Math.round(rng.next() * 40) / 4);
    const w = r.map((_, i) => (i % 17 === 0 ? 0 : 0.2 + rng.next()));
    const levels = [0.01, 0.5, 0.8, 0.9, 0.95, 0.999, 1];
    // The definition, level by level: the smallest score whose cumulative weight in score order
    // reaches the level's share of the total weight plus the forecast's own (1).
    const byDefinition = (level: number) => {
      const order = r.map((_, i) => i).sort((a, b) => r[a] - r[b]);
      const need = level * (w.reduce((a, b) => a + b, 0) + 1);
      let acc = 0;
      for (const i of order) if ((acc += w[i]) >= need - 1e-9) return r[i];
      return r[order[order.length - 1]];
    };
    expect(weightedConformalQuantiles(r, w, levels)).toEqual(levels.map(byDefinition));
    expect(levels.map((l) => weightedConformalQuantile(r, w, l))).toEqual(levels.map(byDefinition));
    expect(weightedConformalQuantiles([], [], [0.5, 0.9])).toEqual([Infinity, Infinity]);
  });

  const calibration = (early: number[], main: number[], ages: number[]): Calibration => ({
    residuals: [[...main, ...early]],
    ages: [[...main.map(() => 0), ...ages]],
    main: [[...main.map(() => true), ...early.map(() => false)]],
  });

  it('weighs all residuals alike when the errors keep their size over the history', () => {
    const rng = new Rng(5);
    const draw = () => Math.abs(rng.next() - 0.5) * 2;
    const early = Array.from({ length: 400 }, draw);
    const ages = early.map((_, i) => 0.1 + (3 * i) / early.length);
    const main = Array.from({ length: 200 }, draw);
    expect(chooseHalfLife(calibration(early, main, ages), 0.9)).toBe(Infinity);
  });

  it('leans on recent residuals when the latest stretch is calmer than the old one', () => {
    const rng = new Rng(7);
    // Old errors (ages 1.5-3) ten times the size of recent ones and of the main split's.
    const early = Array.from({ length: 400 }, (_, i) => rng.next() * (i < 200 ? 1 : 10));
    const ages = early.map((_, i) => (i < 200 ? 0.05 + i / 2000 : 1.5 + (i - 200) / 130));
    const main = Array.from({ length: 200 }, () => rng.next());
    expect(chooseHalfLife(calibration(early, main, ages), 0.9)).toBeLessThanOrEqual(0.5);
  });

  it('puts each calibration fold cut earlier than the main one and trains a fold only before it', () => {
    const set = buildSeries(tableFromDataset(data), opts, 'training data');
    const main = timeSplit(set.series, 6, 0.2);
    const fold = timeSplit(set.series, 6, 0.4);
    set.series.forEach((_, g) => expect(fold[g]).toBeLessThan(main[g]));
    const ex = trainingExamples(set.series, fold, 6, 3, new Rng(1), 'direct', 50);
    expect(ex.n).toBeLessThanOrEqual(60);
    for (let i = 0; i < ex.n; i++) expect(ex.t[i] + ex.k[i]).toBeLessThan(fold[ex.g[i]]);
  });

  it('names the calibration in DESCRIBE (summary stage and the half-life)', () => {
    const d = forecaster.description;
    expect(d.summary).toMatch(/Conformal per step and level\(0\.9, rolling origins, /);
    const hl = d.timeseries!.calibrationHalfLife;
    expect(hl === null || hl > 0).toBe(true);
  });
});
