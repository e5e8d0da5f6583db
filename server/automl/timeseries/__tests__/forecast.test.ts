import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import {
  type CellValue,
  type ColumnarData,
  type Dataset,
  type Forecaster,
  type TimeSeriesArtifact,
  deserializeArtifact,
  finetune,
  isForecaster,
  loadPredictor,
  serializeArtifact,
  train,
  trainForecaster,
} from '../../index';
import { linearish } from '../../__tests__/helpers';
import { columnsOf, errorOf, monthStart, monthlySales } from './helpers';

const opts = { target: 'sales', orderBy: 'month', groupBy: ['store'], window: 12, horizon: 6 };
const data = monthlySales(['a', 'b', 'c'], 72, 5);
const artifact = trainForecaster(data, opts);
const forecaster = loadPredictor(artifact);

/** The rows of `d` up to (excluding) month index `end`. */
const upTo = (d: Dataset, end: number): Dataset => ({
  columns: d.columns,
  rows: d.rows.filter((r) => String(r[0]) < monthStart(end)),
});

describe('forecast output', () => {
  it('gives HORIZON rows per group after its last row, stepped monthly, with intervals and explain', () => {
    const out = forecaster.forecast(columnsOf(data), data.rows.length);
    expect(out.columns).toEqual([
      'month',
      'store',
      'sales',
      'sales_min',
      'sales_max',
      'sales_confidence',
      'sales_explain',
    ]);
    expect(out.rows).toHaveLength(18);
    expect(out.rows.slice(0, 6).map((r) => [r[0], r[1]])).toEqual(
      [72, 73, 74, 75, 76, 77].map((i) => [monthStart(i), 'a']),
    );
    expect(out.rows.map((r) => r[1])).toEqual([...'aaaaaa', ...'bbbbbb', ...'cccccc']);
    for (const [k, r] of out.rows.entries()) {
      const [, , v, lo, hi, conf, explain] = r as [
        string,
        string,
        number,
        number,
        number,
        number,
        string,
      ];
      expect(lo).toBeLessThan(v);
      expect(hi).toBeGreaterThan(v);
      expect(conf).toBe(0.9);
      expect(JSON.parse(explain)).toEqual({
        predicted_value: v,
        confidence: 0.9,
        confidence_lower_bound: lo,
        confidence_upper_bound: hi,
        horizon_step: (k % 6) + 1,
      });
    }
  });

  it('widens the interval with the step (never narrower than an earlier step)', () => {
    const w = artifact.calibration.halfWidths;
    expect(w).toHaveLength(6);
    for (let k = 1; k < w.length; k++) expect(w[k]).toBeGreaterThanOrEqual(w[k - 1]);
  });

  it('writes forecast timestamps as the input spells them: ISO text without a zone stays without one', () => {
    // Hourly readings as '2010-01-01T01:00:00' (a CSV export, vega's Seattle hourly normals): the
    // forecast steps to '2010-01-03T01:00:00', not '2010-01-03T01:00:00.000Z' (the same instant
    // in another spelling, which a join on the text would miss); text with a zone keeps its 'Z'.
    const hours = Array.from({ length: 48 }, (_, i) => new Date(Date.UTC(2010, 0, 1, 1 + i)));
    const spelled = (f: (d: Date) => string): Dataset => ({
      columns: ['hour', 'temp'],
      rows: hours.map((d, i) => [f(d), 10 + Math.sin((2 * Math.PI * i) / 24)]),
    });
    const o = { target: 'temp', orderBy: 'hour', groupBy: [], window: 4, horizon: 2 };
    const local = spelled((d) => d.toISOString().slice(0, 19));
    const f1 = loadPredictor(trainForecaster(local, o));
    expect(f1.forecast(columnsOf(local), 48).rows.map((r) => r[0])).toEqual([
      '2010-01-03T01:00:00',
      '2010-01-03T02:00:00',
    ]);
    const zoned = spelled((d) => d.toISOString());
    const f2 = loadPredictor(trainForecaster(zoned, o));
    expect(f2.forecast(columnsOf(zoned), 48).rows.map((r) => r[0])).toEqual([
      '2010-01-03T01:00:00.000Z',
      '2010-01-03T02:00:00.000Z',
    ]);
  });

  it('forecasts fewer steps when asked, and only up to the trained HORIZON', () => {
    expect(
      forecaster.forecast(columnsOf(data), data.rows.length, { horizon: 2 }).rows,
    ).toHaveLength(6);
    expect(
      errorOf(() => forecaster.forecast(columnsOf(data), data.rows.length, { horizon: 7 })).message,
    ).toBe("a forecast can reach 1 to 6 steps (the model's HORIZON), not 7");
  });

  it('answers an empty history with no rows', () => {
    expect(forecaster.forecast({ month: [], store: [], sales: [] }, 0).rows).toEqual([]);
  });

  it('forecasts a group never seen in training with the pooled model, from its own history', () => {
    const fresh = monthlySales(['a', 'b', 'c', 'd'], 72, 9).rows.filter((r) => r[1] === 'd');
    const hist = fresh.map((r) => [r[0], 'new-store', r[2]] as CellValue[]);
    const out = forecaster.forecast(columnsOf({ columns: data.columns, rows: hist }), hist.length);
    expect(out.rows).toHaveLength(6);
    const ys = hist.map((r) => Number(r[2]));
    for (const r of out.rows) {
      expect(r[1]).toBe('new-store');
      expect(Number(r[2])).toBeGreaterThan(Math.min(...ys.slice(-24)) - 20);
      expect(Number(r[2])).toBeLessThan(Math.max(...ys.slice(-24)) + 20);
    }
  });
});

describe('quality and intervals', () => {
  it('beats seasonal-naive on validation for trending seasonal series and says which candidate each group uses', () => {
    const d = artifact.description;
    expect(d.accuracies.mase).toBeLessThan(1);
    expect(d.accuracies.bounded_ts_accuracy).toBeGreaterThan(0.5);
    expect(d.candidates.map((c) => c.name)).toEqual([
      'seasonal_naive',
      'naive',
      'drift',
      'theta',
      'ets',
      'arima',
      'combination',
      'gbm_direct',
      'gbm_recursive',
      // The mean of the best candidates the validation windows could not tell apart.
      'ensemble',
    ]);
    const ts = d.timeseries!;
    // The leaderboard: every candidate with its validation MASE, best first; the groups using it.
    const board = ts.leaderboard!;
    expect(board.map((r) => r.name).sort()).toEqual(d.candidates.map((c) => c.name).sort());
    // (A GBM scored on the last fold only is listed last, saying so: not comparable.)
    const comparable = board.filter((r) => !r.label.includes('last validation fold only'));
    for (let i = 1; i < comparable.length; i++)
      expect(comparable[i].mase).toBeGreaterThanOrEqual(comparable[i - 1].mase!);
    expect(board.slice(0, comparable.length)).toEqual(comparable);
    expect(comparable[0].mase).toBeLessThanOrEqual(
      board.find((r) => r.name === ts.selected)!.mase! * 1.01 + 1e-9,
    );
    expect(board.find((r) => r.name === 'seasonal_naive')!.mase).toBe(1);
    expect(board.reduce((a, r) => a + r.groups, 0)).toBe(3);
    // Each group's choice, in the order of the groups, with its own MASE and a reason.
    expect(ts.choices!.map((c) => c.group)).toEqual([['a'], ['b'], ['c']]);
    for (const c of ts.choices!) {
      expect(board.find((r) => r.name === c.candidate)!.selected).toBe(true);
      expect(c.mase).toBeGreaterThan(0);
      expect(c.reason).not.toBe('');
    }
    const used = new Set(ts.choices!.map((c) => c.candidate));
    expect(
      d.candidates
        .filter((c) => c.selected)
        .map((c) => c.name)
        .sort(),
    ).toEqual([...used].sort());
    expect(ts.worseThanSeasonalNaive).toBe(0);
  });

  it('covers about 90 % of future values with its intervals (rolling origins after training)', () => {
    const full = monthlySales(['a', 'b', 'c'], 120, 11);
    const a = trainForecaster(upTo(full, 96), opts);
    const f = loadPredictor(a);
    let inside = 0;
    let total = 0;
    const truth = new Map(full.rows.map((r) => [`${r[1]}@${r[0]}`, Number(r[2])]));
    for (let end = 96; end < 114; end++) {
      const h = upTo(full, end);
      for (const r of f.forecast(columnsOf(h), h.rows.length).rows) {
        const y = truth.get(`${r[1]}@${r[0]}`)!;
        total++;
        if (y >= Number(r[3]) && y <= Number(r[4])) inside++;
      }
    }
    expect(total).toBe(18 * 3 * 6);
    expect(inside / total).toBeGreaterThan(0.8);
    expect(inside / total).toBeLessThan(0.98);
  });
});

describe('errors', () => {
  it('refuses a WINDOW larger than the history, at training and at forecast time', () => {
    const short = monthlySales(['a', 'b'], 10, 1);
    expect(errorOf(() => trainForecaster(short, { ...opts, window: 12 })).message).toBe(
      'WINDOW 12 is larger than the history allows: the longest group has 10 rows, and training needs at least WINDOW + 2 rows (WINDOW for the features, one to learn from, one to validate on)',
    );
    const hist = data.rows.filter((r) => r[1] === 'b').slice(-5);
    expect(
      errorOf(() => forecaster.forecast(columnsOf({ columns: data.columns, rows: hist }), 5))
        .message,
    ).toBe(
      'group (store = "b") has 5 rows, fewer than WINDOW 12: a forecast reads the last 12 rows of each group (give more history, leave the group out with a condition on it, or train with a smaller WINDOW)',
    );
  });

  it('refuses bad clauses: WINDOW / HORIZON not positive integers, ORDER BY = target, linear-only USING', () => {
    expect(errorOf(() => trainForecaster(data, { ...opts, window: 0 })).message).toBe(
      'WINDOW must be an integer from 1 to 10000, got 0',
    );
    expect(errorOf(() => trainForecaster(data, { ...opts, horizon: 1.5 })).message).toBe(
      'HORIZON must be an integer from 1 to 10000, got 1.5',
    );
    expect(errorOf(() => trainForecaster(data, { ...opts, orderBy: 'sales' })).message).toMatch(
      /cannot also be the target/,
    );
    expect(errorOf(() => trainForecaster(data, { ...opts, orderBy: '' })).message).toBe(
      'a time-series model needs an ORDER BY column',
    );
    expect(
      errorOf(() => trainForecaster(data, { ...opts, using: { model: 'linear' } })).message,
    ).toMatch(/does not apply to time-series models/);
  });

  it('says so when no row has both an order value and a target', () => {
    const rows = data.rows.map((r) => [r[0], r[1], null]);
    expect(errorOf(() => trainForecaster({ columns: data.columns, rows }, opts)).message).toBe(
      "no training row has both an ORDER BY value ('month') and a target value ('sales')",
    );
  });

  it('names a missing ORDER BY column in the forecast input', () => {
    const e = errorOf(() => forecaster.forecast({ store: ['a'], sales: [1] }, 1));
    expect(e.message).toBe(
      "ORDER BY column 'month' is not in the forecast input; its columns are: store, sales",
    );
  });

  it('refuses single-row predict on a time-series model', () => {
    expect(
      errorOf(() => forecaster.predict([{ month: '2016-01-01', store: 'a' }])).message,
    ).toMatch(/time-series model \(ORDER BY month, WINDOW 12, HORIZON 6\)/);
  });
});

describe('artifact', () => {
  it('round-trips through JSON and loads through loadPredictor as a forecaster', () => {
    const back = deserializeArtifact(serializeArtifact(artifact));
    expect((back as TimeSeriesArtifact).kind).toBe('timeseries');
    const p = loadPredictor(back);
    expect(isForecaster(p)).toBe(true);
    expect((p as Forecaster).orderFormat).toBe('date');
    // 72 rows per group: every row (up to 400) the statistical models filter over.
    expect((p as Forecaster).historyRows).toBe(72);
    expect(isForecaster(loadPredictor(train(linearish(60), { target: 'y' })))).toBe(false);
    const cols = columnsOf(data);
    expect((p as Forecaster).forecast(cols, data.rows.length)).toEqual(
      forecaster.forecast(cols, data.rows.length),
    );
  });

  it('rejects a damaged time-series artifact with a clear error', () => {
    const broken = JSON.parse(serializeArtifact(artifact));
    delete broken.calibration;
    expect(errorOf(() => deserializeArtifact(JSON.stringify(broken))).message).toBe(
      'model artifact is missing: calibration',
    );
  });

  it('is byte-identical for the same data and seed, from rows or from typed columns', () => {
    const strip = (a: TimeSeriesArtifact) =>
      serializeArtifact(a).replace(/"(trainingTimeMs|training_time|trainingTime)":[0-9.e+-]+/g, '');
    const again = trainForecaster(data, opts);
    expect(strip(again)).toBe(strip(artifact));
    const stores = ['a', 'b', 'c'];
    const columnar: ColumnarData = {
      columns: data.columns,
      rowCount: data.rows.length,
      data: [
        {
          kind: 'text',
          codes: Int32Array.from(data.rows, (_, i) => i),
          dict: data.rows.map((r) => String(r[0])),
        },
        {
          kind: 'text',
          codes: Int32Array.from(data.rows, (r) => stores.indexOf(String(r[1]))),
          dict: stores,
        },
        { kind: 'number', values: Float64Array.from(data.rows, (r) => Number(r[2])), nulls: null },
      ],
    };
    expect(strip(trainForecaster(columnar, opts))).toBe(strip(artifact));
  });

  it('describes ORDER BY, GROUP BY, WINDOW, HORIZON, frequency and per-step accuracy', () => {
    const d = artifact.description;
    expect(d.inputs).toEqual(['month', 'store']);
    expect(d.task).toBe('regression');
    expect(d.timeseries).toMatchObject({
      orderBy: 'month',
      groupBy: ['store'],
      window: 12,
      horizon: 6,
      frequency: 'monthly (month-start)',
      seasonality: 12,
      historyRows: 72,
      groups: 3,
      shortGroups: 0,
      duplicateTimestamps: 0,
      droppedRows: 0,
    });
    expect(d.timeseries!.horizonAccuracy.map((h) => h.step)).toEqual([1, 2, 3, 4, 5, 6]);
    for (const h of d.timeseries!.horizonAccuracy) {
      expect(h.mase).toBeGreaterThan(0);
      expect(h.coverage).toBeGreaterThan(0.8);
    }
    expect(Object.keys(d.columnImportances).sort()).toEqual(['month', 'sales', 'store']);
    expect(d.summary).toMatch(
      /^TimeSeries\(monthly \(month-start\), window 12, horizon 6, season 12\)/,
    );
  });

  it('retrains with the base settings on FINETUNE / RETRAIN', () => {
    const tuned = finetune(artifact, monthlySales(['a', 'b', 'c'], 80, 6), { seed: 3 });
    expect((tuned as TimeSeriesArtifact).kind).toBe('timeseries');
    expect((tuned as TimeSeriesArtifact).timeseries).toEqual(artifact.timeseries);
    expect(tuned.description.trainRows).toBe(240);
  });
});

describe('other orders and the demo table', () => {
  it('forecasts trading days Monday to Friday with a week of 5 rows, never on a weekend', () => {
    // 8 weeks of weekdays from Monday 2024-01-01 (a stock's or an office's days: no weekend
    // rows), a pure weekly pattern by weekday: the season is 5 rows, and the week after the last
    // Friday is Monday 02-26 to Friday 03-01 (calendar days would give Saturday and Sunday).
    const pattern = [10, 12, 11, 13, 20];
    const rows: CellValue[][] = [];
    for (let d = 0; d < 8 * 7; d++) {
      const t = new Date(Date.UTC(2024, 0, 1 + d));
      const w = t.getUTCDay();
      if (w !== 0 && w !== 6) rows.push([t.toISOString().slice(0, 10), pattern[w - 1]]);
    }
    const f = loadPredictor(
      trainForecaster(
        { columns: ['day', 'v'], rows },
        { target: 'v', orderBy: 'day', window: 5, horizon: 5 },
      ),
    );
    const out = f.forecast(columnsOf({ columns: ['day', 'v'], rows }), rows.length);
    expect(out.rows.map((r) => r[0])).toEqual([
      '2024-02-26',
      '2024-02-27',
      '2024-02-28',
      '2024-02-29',
      '2024-03-01',
    ]);
    out.rows.forEach((r, k) => expect(Number(r[1])).toBeCloseTo(pattern[k], 1));
    expect(f.description.timeseries!.frequency).toBe('business daily (Monday to Friday)');
  });

  it('forecasts a numeric order column (years) in whole steps', () => {
    const rows: CellValue[][] = [];
    for (let y = 1950; y < 2020; y++) rows.push([y, 10 + 0.5 * (y - 1950) + Math.sin(y)]);
    const f = loadPredictor(
      trainForecaster(
        { columns: ['year', 'v'], rows },
        { target: 'v', orderBy: 'year', window: 5, horizon: 3 },
      ),
    );
    const out = f.forecast(columnsOf({ columns: ['year', 'v'], rows }), rows.length);
    expect(out.rows.map((r) => r[0])).toEqual([2020, 2021, 2022]);
    expect(f.description.timeseries!.frequency).toBe('every 1 (numeric order)');
  });

  it("trains on the house_sales demo table as MindsDB's tutorial does and forecasts the next quarter ends", () => {
    const text = readFileSync(join(__dirname, '../../../../data/demo/house_sales.csv'), 'utf8');
    const parsed = Papa.parse<CellValue[]>(text.trim(), { dynamicTyping: true });
    const [header, ...rows] = parsed.data;
    const d: Dataset = { columns: header.map(String), rows };
    // GROUP BY bedrooms only: houses and units with 2 or 3 bedrooms share a quarter (averaged).
    const a = trainForecaster(d, {
      target: 'MA',
      orderBy: 'saledate',
      groupBy: ['bedrooms'],
      window: 8,
      horizon: 4,
    });
    expect(a.description.timeseries).toMatchObject({
      frequency: 'quarterly (month-end)',
      groups: 5,
      duplicateTimestamps: 88,
    });
    expect(a.description.target).toBe('ma');
    const houses = rows.filter((r) => r[2] === 'house');
    const out = loadPredictor(a).forecast(
      columnsOf({ columns: d.columns, rows: houses }),
      houses.length,
    );
    expect(out.columns.slice(0, 3)).toEqual(['saledate', 'bedrooms', 'ma']);
    expect(out.rows.map((r) => `${r[1]}@${r[0]}`)).toEqual(
      [2, 3, 4, 5].flatMap((b) =>
        ['2019-12-31', '2020-03-31', '2020-06-30', '2020-09-30'].map((t) => `${b}@${t}`),
      ),
    );
  });

  it('calibrates a GBM chosen on the last validation fold alone on the earlier folds too', () => {
    // The tutorial's model: the direct GBM, not refitted before the earlier cuts during
    // validation (the recursive one did better on the last fold), beats ARIMA on the last fold's
    // windows and is chosen. Its residuals there alone leave each level's band at its nominal
    // quantile (no earlier forecasts to check the latest period against) and ran narrow; refitted
    // before the earlier cuts, its bands take the level that covered the latest period's share.
    const text = readFileSync(join(__dirname, '../../../../data/demo/house_sales.csv'), 'utf8');
    const [header, ...rows] = Papa.parse<CellValue[]>(text.trim(), { dynamicTyping: true }).data;
    const a = trainForecaster(
      { columns: header.map(String), rows },
      { target: 'ma', orderBy: 'saledate', groupBy: ['type', 'bedrooms'], window: 8, horizon: 4 },
    );
    const ts = a.description.timeseries!;
    expect(ts.selected).toBe('gbm_direct');
    expect(ts.leaderboard!.find((r) => r.name === 'gbm_direct')!.label).toMatch(
      /scored on the last validation fold only/,
    );
    expect(ts.choices![0].reason).toMatch(
      /^the set's choice: on the last validation fold's windows/,
    );
    for (const c of ts.coverage!) {
      expect(c.quantile).toBeDefined();
      expect(Math.abs(c.quantile! - c.level)).toBeGreaterThan(0.005);
    }
  });

  it('beats naive on the demo house_sales clearly: its last year held out, as the tutorial trains', () => {
    // The demo series exists to show a forecaster at work (issue 24): a trend and a selling
    // season, so repeating the last value (naive) is visibly worse than the model's forecast.
    const text = readFileSync(join(__dirname, '../../../../data/demo/house_sales.csv'), 'utf8');
    const [header, ...rows] = Papa.parse<CellValue[]>(text.trim(), { dynamicTyping: true }).data;
    const cut = '2018-12-31';
    const train = rows.filter((r) => String(r[0]) < cut);
    const test = rows.filter((r) => String(r[0]) >= cut);
    const d: Dataset = { columns: header.map(String), rows: train };
    const a = trainForecaster(d, {
      target: 'ma',
      orderBy: 'saledate',
      groupBy: ['type', 'bedrooms'],
      window: 8,
      horizon: 4,
    });
    const ts = a.description.timeseries!;
    expect(['naive', 'seasonal_naive', 'drift']).not.toContain(ts.selected);
    const out = loadPredictor(a).forecast(columnsOf(d), train.length);
    // Naive: each group's latest training value (the CSV lists a group's rows in time order).
    const last = new Map(train.map((r) => [`${r[2]}|${r[3]}`, Number(r[1])]));
    const truth = new Map(test.map((r) => [`${r[2]}|${r[3]}@${r[0]}`, Number(r[1])]));
    const [t, type, beds, ma] = ['saledate', 'type', 'bedrooms', 'ma'].map((c) =>
      out.columns.indexOf(c),
    );
    let model = 0;
    let naive = 0;
    let n = 0;
    for (const r of out.rows) {
      const y = truth.get(`${r[type]}|${r[beds]}@${r[t]}`);
      expect(y).toBeDefined();
      model += Math.abs(y! - Number(r[ma]));
      naive += Math.abs(y! - last.get(`${r[type]}|${r[beds]}`)!);
      n++;
    }
    expect(n).toBe(7 * 4);
    expect(model / naive).toBeLessThan(0.5);
  });
});
