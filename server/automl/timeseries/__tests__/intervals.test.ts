// Interval calibration per horizon step: the residual sketch the artifact keeps, recalibration on
// outcomes after the training data (weighted conformal plus per-group adaptive tracking), and the
// coverage of held-out future rows on series with known noise.
import { describe, expect, it } from 'vitest';
import type { CellValue, Dataset } from '../../api';
import { gauss } from '../../__tests__/helpers';
import { type Forecaster, loadPredictor, trainForecaster } from '../../index';
import { Rng } from '../../prng';
import {
  TRACKING_RATE,
  calibrationSketch,
  recalibratedHalfWidths,
  trackedHalfWidths,
  weightedConformalQuantile,
} from '../intervals';
import { columnsOf, monthStart } from './helpers';

/**
 * Monthly groups g0..g(n-1): level, trend and season per group plus white noise of sd `sd(g, i)`
 * (i = month index), so the noise each forecast faces is known.
 */
function noisy(groups: number, n: number, sd: (g: number, i: number) => number, seed = 11) {
  const rng = new Rng(seed);
  const rows: CellValue[][] = [];
  for (let g = 0; g < groups; g++) {
    for (let i = 0; i < n; i++) {
      const y =
        200 + 20 * g + 0.4 * i + 8 * Math.sin((2 * Math.PI * i) / 12 + g) + sd(g, i) * gauss(rng);
      rows.push([monthStart(i), `g${g}`, Math.round(y * 1000) / 1000]);
    }
  }
  return { columns: ['month', 'store', 'sales'], rows };
}

const opts = { target: 'sales', orderBy: 'month', groupBy: ['store'], window: 12, horizon: 3 };
const monthsOf = (d: Dataset, upTo: number) => ({
  columns: d.columns,
  rows: d.rows.filter((r) => String(r[0]) < monthStart(upTo)),
});

/**
 * Rolling-origin coverage on held-out rows: from every origin `from`..`to` - 1 (the model fixed,
 * the history growing), the share of true values inside each step's interval.
 */
function coverage(f: Forecaster, d: Dataset, from: number, to: number, H: number) {
  const truth = new Map(d.rows.map((r) => [`${String(r[1])}|${String(r[0])}`, Number(r[2])]));
  const inside = new Array<number>(H).fill(0);
  const count = new Array<number>(H).fill(0);
  for (let o = from; o < to; o++) {
    const hist = monthsOf(d, o + 1);
    const out = f.forecast(columnsOf(hist), hist.rows.length);
    out.rows.forEach((r, i) => {
      const y = truth.get(`${String(r[1])}|${String(r[0])}`);
      if (y === undefined) return;
      const k = i % H;
      count[k]++;
      if (y >= Number(r[3]) && y <= Number(r[4])) inside[k]++;
    });
  }
  return inside.map((x, k) => x / count[k]);
}

/** Half-width of each forecast row's interval, per group (rows: steps of each group in order). */
function halfWidths(f: Forecaster, d: Dataset): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const r of f.forecast(columnsOf(d), d.rows.length).rows) {
    const key = String(r[1]);
    if (!out.has(key)) out.set(key, []);
    out.get(key)!.push((Number(r[4]) - Number(r[3])) / 2);
  }
  return out;
}

describe('calibration sketch and recalibration', () => {
  it('keeps evenly spaced weighted quantiles of each step and their total weight', () => {
    const r = Array.from({ length: 1000 }, (_, i) => i / 1000);
    const { sketch, weight } = calibrationSketch([r], [r.map(() => 0.5)]);
    expect(weight).toEqual([500]);
    expect(sketch[0]).toHaveLength(64);
    // Point j sits at the (j + 0.5) / 64 quantile.
    expect(sketch[0][0]).toBeCloseTo(0.5 / 64, 2);
    expect(sketch[0][32]).toBeCloseTo(32.5 / 64, 2);
    expect(sketch[0][63]).toBeCloseTo(63.5 / 64, 2);
  });

  it('answers the sketch quantile without new residuals, the new ones alone when the old weigh 0', () => {
    const r = Array.from({ length: 1000 }, (_, i) => i / 1000);
    const { sketch, weight } = calibrationSketch([r], [r.map(() => 1)]);
    const none = { residuals: [[]], weights: [[]] };
    expect(recalibratedHalfWidths(sketch, weight, 1, none, 0.9)[0]).toBeCloseTo(0.9, 1);
    const fresh = Array.from({ length: 99 }, (_, i) => 5 + i / 100);
    const recent = { residuals: [fresh], weights: [fresh.map(() => 1)] };
    expect(recalibratedHalfWidths(sketch, weight, 0, recent, 0.9)[0]).toBe(
      weightedConformalQuantile(
        fresh,
        fresh.map(() => 1),
        0.9,
      ),
    );
    // Equal weights: 99 residuals around 5 beside the 1,000 of weight 1 move the 90 % quantile
    // only to about the 99th percentile of the old ones.
    const mixed = recalibratedHalfWidths(sketch, weight, 1, recent, 0.9)[0];
    expect(mixed).toBeGreaterThan(0.95);
    expect(mixed).toBeLessThan(1);
  });

  it('widens a step by exp(rate * 0.9) after each miss and narrows it by exp(-rate * 0.1) after each hit', () => {
    const misses = trackedHalfWidths([1], [[2, 2, 2]], 0.9)[0];
    expect(misses).toBeCloseTo(Math.exp(3 * TRACKING_RATE * 0.9), 12);
    const hits = trackedHalfWidths([1], [[0.5, 0.5, 0.5, 0.5]], 0.9)[0];
    expect(hits).toBeCloseTo(Math.exp(-4 * TRACKING_RATE * 0.1), 12);
    // Misses at the target rate (1 in 10) leave the width where it started.
    const steady = trackedHalfWidths([1], [[2, 0, 0, 0, 0, 0, 0, 0, 0, 0]], 0.9)[0];
    expect(steady).toBeCloseTo(1, 12);
    // The fan never narrows with the step.
    expect(
      trackedHalfWidths(
        [1, 1.1],
        [
          [2, 2, 2],
          [0, 0, 0],
        ],
        0.9,
      )[1],
    ).toBeCloseTo(misses, 12);
  });
});

describe('coverage of held-out future rows', () => {
  // 10 groups x 120 months, white noise of sd 3; trained on the first 96 months.
  const d = noisy(10, 120, () => 3);
  const f = loadPredictor(trainForecaster(monthsOf(d, 96), opts));

  it('covers about 90 % of held-out rows at every step on series with known, steady noise', () => {
    const cov = coverage(f, d, 95, 117, 3);
    for (const c of cov) {
      expect(c).toBeGreaterThanOrEqual(0.85);
      expect(c).toBeLessThanOrEqual(0.96);
    }
  });

  it('keeps the trained intervals when the history holds no row after the training data', () => {
    const train = monthsOf(d, 96);
    const a = trainForecaster(train, opts);
    const plain = loadPredictor({ ...a, calibration: { ...a.calibration, online: undefined } });
    expect(halfWidths(loadPredictor(a), train)).toEqual(halfWidths(plain, train));
  });
});

describe('recalibration on outcomes inside the bands', () => {
  it('does not widen any level when the month after training is the forecast itself (40 groups)', () => {
    // Forty groups of steady noise calibrate one pooled band. A month after training whose value
    // is each group's own step-1 forecast errs nothing at step 1 and little at the others: no band
    // may widen for it. (Counted as 1 / 40 of the record per group against the forecast's own
    // weight of 1, the record widened every group's 95 % band by 12 % and its 90 % one by 2 %.)
    const G = 40;
    const n = 96;
    const rng = new Rng(3);
    const rows: CellValue[][] = [];
    for (let g = 0; g < G; g++) {
      for (let i = 0; i < n; i++) rows.push([monthStart(i), `g${g}`, 100 + 5 * g + 2 * gauss(rng)]);
    }
    const d = { columns: ['month', 'store', 'sales'], rows };
    const a = trainForecaster(d, { ...opts, window: 12, horizon: 3 });
    const f = loadPredictor(a);
    const frozen = loadPredictor({ ...a, calibration: { ...a.calibration, online: undefined } });
    const levels = [0.8, 0.9, 0.95];
    const first = f.forecast(columnsOf(d), rows.length, { levels });
    const later = [...rows];
    first.rows.forEach((r, i) => {
      if (i % 3 === 0) later.push([monthStart(n), r[1], Number(r[2])]);
    });
    const d2 = { columns: d.columns, rows: later };
    const now = f.forecast(columnsOf(d2), later.length, { levels });
    const fixed = frozen.forecast(columnsOf(d2), later.length, { levels });
    levels.forEach((level, l) => {
      const width = (iv: NonNullable<typeof now.intervals>[number], i: number) =>
        Number(iv.upper[i]) - Number(iv.lower[i]);
      now.rows.forEach((_, i) => {
        const ratio = width(now.intervals![l], i) / width(fixed.intervals![l], i);
        expect(ratio, `${level}, row ${i}`).toBeLessThanOrEqual(1 + 1e-9);
        // Nor narrow much: one hit per step shrinks the tracking by exp(-0.1 x the miss rate),
        // and one small residual among the record's moves its quantile little.
        expect(ratio, `${level}, row ${i}`).toBeGreaterThan(0.95);
      });
    });
  });
});

describe('recalibration when the noise changes after training', () => {
  // Groups g0..g3 keep sd 2; g4..g7 switch to sd 8 after month 96, where training stops.
  const wild = (g: number) => g >= 4;
  const d = noisy(8, 132, (g, i) => (wild(g) && i >= 96 ? 8 : 2), 5);
  const a = trainForecaster(monthsOf(d, 96), opts);
  const f = loadPredictor(a);
  const frozen = loadPredictor({ ...a, calibration: { ...a.calibration, online: undefined } });

  it('widens the intervals of the groups whose errors grew, and not those of the calm ones', () => {
    const later = monthsOf(d, 120);
    const now = halfWidths(f, later);
    const before = halfWidths(frozen, later);
    const calm: number[] = [];
    for (let g = 0; g < 8; g++) {
      const ratio = now.get(`g${g}`)![0] / before.get(`g${g}`)![0];
      if (wild(g)) expect(ratio).toBeGreaterThan(1.5);
      else calm.push(ratio);
    }
    // Each group is recalibrated on its own outcomes: a calm group's width moves with the noise
    // of its own two dozen new residuals, none by much, and on average they stay put.
    expect(calm.reduce((a, b) => a + b, 0) / calm.length).toBeLessThan(1.2);
    for (const r of calm) expect(r).toBeLessThan(1.4);
  });

  it('recalibrates from the last recalibrationRows rows per group exactly as from all of them', () => {
    const rows = a.description.timeseries!.recalibrationRows!;
    // The statistical models' 96 rows (all there are, at most 400) + 2 x 12 recent origins +
    // HORIZON - 1.
    expect(rows).toBe(96 + 24 + 2);
    // 36 months after training: more than the recent origins a forecast backtests.
    const later = monthsOf(d, 132);
    const tail = {
      columns: d.columns,
      rows: later.rows.filter((r) => String(r[0]) >= monthStart(132 - rows)),
    };
    expect(halfWidths(f, tail)).toEqual(halfWidths(f, later));
  });

  it('brings the coverage of the noisier groups back towards 90 %, where the trained widths fail', () => {
    const volatile = {
      columns: d.columns,
      rows: d.rows.filter((r) => wild(Number(String(r[1]).slice(1)))),
    };
    const recal = coverage(f, volatile, 108, 129, 3);
    const fixed = coverage(frozen, volatile, 108, 129, 3);
    for (let k = 0; k < 3; k++) {
      expect(fixed[k]).toBeLessThan(0.75);
      expect(recal[k]).toBeGreaterThan(0.8);
    }
  });
});
