// Large tables: per-tree row sampling, the iteration cap and early stopping keep a 250k-row
// training bounded. Only time-independent properties are checked (no timing assertions).
import { describe, expect, it } from 'vitest';
import type { CellValue, Dataset } from '../index';
import { loadPredictor, train } from '../index';
import { type BinnedData, DEFAULT_GBM_PARAMS, RowSampler, trainGBM } from '../gbm';
import { r2Score } from '../metrics';
import { DEFAULT_SETTINGS } from '../options';
import { Rng } from '../prng';
import { GBM_SAMPLE_MIN_ROWS, GBM_SAMPLE_ROWS, LARGE_MAX_ITERATIONS, gbmParams } from '../train';
import { gauss } from './helpers';

const EFFECT: Record<string, number> = { red: 5, green: -3, blue: 0, black: 8, white: -6 };
const CATS = Object.keys(EFFECT);

/** y = 3a + 2b + effect(cat) + 0.05c + noise, with a noise column `d` (as the 1M-row bench). */
function table(n: number, seed: number): Dataset {
  const rng = new Rng(seed);
  const rows: CellValue[][] = new Array(n);
  for (let i = 0; i < n; i++) {
    const a = rng.next() * 10;
    const b = rng.next() * 10;
    const c = rng.int(101);
    const cat = CATS[i % 5];
    rows[i] = [a, b, c, cat, rng.next(), 3 * a + 2 * b + EFFECT[cat] + 0.05 * c + gauss(rng)];
  }
  return { columns: ['a', 'b', 'c', 'cat', 'd', 'y'], rows };
}

describe('large tables', () => {
  it('sample the rows of each tree only past the threshold, with a seeded sampler', () => {
    const small = gbmParams(DEFAULT_SETTINGS, GBM_SAMPLE_MIN_ROWS);
    expect(small.subsampleRows ?? 0).toBe(0);
    expect(small.maxIterations).toBe(DEFAULT_SETTINGS.maxIterations);
    const big = gbmParams(DEFAULT_SETTINGS, 800_000);
    expect(big.subsampleRows).toBe(GBM_SAMPLE_ROWS);
    expect(big.maxIterations).toBe(LARGE_MAX_ITERATIONS);
    expect(big.minRelImprovement).toBeGreaterThan(0);
    // USING max_iterations lifts the cap.
    expect(
      gbmParams({ ...DEFAULT_SETTINGS, maxIterations: 2000 }, 800_000, true).maxIterations,
    ).toBe(2000);

    const rows = new Rng(3).shuffle(Int32Array.from({ length: 10_000 }, (_, i) => 5 * i));
    const draws = (seed: number) => {
      const s = new RowSampler(rows, 1000, seed);
      return Array.from({ length: 3 }, () => {
        const inRows = Array.from(s.draw());
        return { inRows, rest: Array.from(s.rest) };
      });
    };
    const a = draws(7);
    expect(draws(7)).toEqual(a);
    expect(draws(8)[0].inRows).not.toEqual(a[0].inRows);
    expect(a[1].inRows).not.toEqual(a[0].inRows);
    for (const d of a) {
      expect(d.inRows).toHaveLength(1000);
      expect(d.rest).toHaveLength(9000);
      // Ascending, and together exactly the training rows.
      expect(d.inRows).toEqual([...d.inRows].sort((x, y) => x - y));
      expect([...d.inRows, ...d.rest].sort((x, y) => x - y)).toEqual(
        Array.from(rows).sort((x, y) => x - y),
      );
    }
  });

  it('boosts deterministically on row samples', () => {
    const n = 20_000;
    const rng = new Rng(11);
    const F = 2;
    const bins = new Uint8Array(n * F);
    const y = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      bins[i * F] = rng.int(200);
      bins[i * F + 1] = rng.int(200);
      y[i] = bins[i * F] / 20 - bins[i * F + 1] / 40 + gauss(rng) * 0.5;
    }
    const data: BinnedData = {
      n,
      F,
      bins,
      nBins: Int32Array.of(201, 201),
      isCat: new Uint8Array(2),
    };
    const trainRows = Int32Array.from({ length: 16_000 }, (_, i) => i);
    const valRows = Int32Array.from({ length: 4000 }, (_, i) => 16_000 + i);
    const fit = (seed: number) =>
      trainGBM(data, { objective: 'regression', K: 1, y, weight: null }, trainRows, valRows, {
        ...DEFAULT_GBM_PARAMS,
        subsampleRows: 4000,
        seed,
        minRelImprovement: 1e-3,
      });
    const a = fit(1);
    const b = fit(1);
    expect(b.iterations).toBe(a.iterations);
    expect(Array.from(b.model.value)).toEqual(Array.from(a.model.value));
    expect(Array.from(fit(2).model.value)).not.toEqual(Array.from(a.model.value));
    // The relative threshold stops boosting long before the 1000-iteration default.
    expect(a.iterations).toBeLessThan(300);
  });

  it('trains a 250k-row table with capped trees and r2 >= 0.98', () => {
    const data = table(250_000, 5);
    const art = train(data, { target: 'y' });
    const nTrees = art.model.gbm!.nTrees;
    expect(nTrees).toBeGreaterThan(20);
    // Early stopping on the relative threshold ends well before the large-table cap.
    expect(nTrees).toBeLessThan(LARGE_MAX_ITERATIONS);
    expect(art.description.candidates.map((c) => c.name)).toEqual(['GBM']);
    expect(art.description.accuracies.r2_score).toBeGreaterThanOrEqual(0.98);
    const test = table(20_000, 6);
    const cols = Object.fromEntries(test.columns.map((c, j) => [c, test.rows.map((r) => r[j])]));
    const preds = loadPredictor(art).predictColumns!(cols, test.rows.length);
    const truth = test.rows.map((r) => r[5] as number);
    expect(
      r2Score(
        truth,
        preds.map((p) => p.value as number),
      ),
    ).toBeGreaterThanOrEqual(0.98);
    let inside = 0;
    preds.forEach((p, i) => (inside += truth[i] >= p.lower! && truth[i] <= p.upper! ? 1 : 0));
    expect(inside / preds.length).toBeGreaterThan(0.87);
    expect(inside / preds.length).toBeLessThan(0.93);
  });
});
