// Row sampling for large tables: seeded samples of about a fixed size per boosting iteration.
import { describe, expect, it } from 'vitest';
import { gauss } from '../../__tests__/helpers';
import { Rng } from '../../prng';
import { RowSampler, trainGBM } from '../boost';
import { type BinnedData, DEFAULT_GBM_PARAMS } from '../model';

describe('row sampling', () => {
  it('draws seeded samples of about the size asked, ascending, the other rows in rest', () => {
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
      // Bernoulli with p = 0.1 on 10,000 rows: 1000 +- 30 (sd); 5 sd either side.
      expect(d.inRows.length).toBeGreaterThan(850);
      expect(d.inRows.length).toBeLessThan(1150);
      expect(d.rest).toHaveLength(10_000 - d.inRows.length);
      // Ascending, and together exactly the training rows.
      expect(d.inRows).toEqual([...d.inRows].sort((x, y) => x - y));
      expect([...d.inRows, ...d.rest].sort((x, y) => x - y)).toEqual(
        Array.from(rows).sort((x, y) => x - y),
      );
    }
  });

  it('samples every row at the asked rate, independently of its position', () => {
    const m = 50_000;
    const rows = Int32Array.from({ length: m }, (_, i) => i);
    const s = new RowSampler(rows, 0.3 * m, 5);
    const hits = new Float64Array(m);
    const draws = 200;
    for (let d = 0; d < draws; d++) for (const r of s.draw()) hits[r]++;
    // Each tenth of the rows (consecutive positions) is sampled at 0.3 (+- 0.002 sd per tenth).
    for (let t = 0; t < 10; t++) {
      let sum = 0;
      for (let i = (t * m) / 10; i < ((t + 1) * m) / 10; i++) sum += hits[i];
      expect(sum / ((m / 10) * draws)).toBeCloseTo(0.3, 2);
    }
    // Consecutive draws are independent: a row in one draw is in the next at the base rate.
    const a = new Set(s.draw());
    let both = 0;
    for (const r of s.draw()) if (a.has(r)) both++;
    expect(both / a.size).toBeCloseTo(0.3, 1);
    // A size of at least the rows takes them all.
    expect(new RowSampler(rows, m, 1).draw()).toHaveLength(m);
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
      trainGBM({
        data,
        target: { objective: 'regression', K: 1, y, weight: null },
        trainRows,
        valRows,
        params: { ...DEFAULT_GBM_PARAMS, subsampleRows: 4000, seed, minRelImprovement: 1e-3 },
      });
    const a = fit(1);
    const b = fit(1);
    expect(b.iterations).toBe(a.iterations);
    expect(Array.from(b.model.value)).toEqual(Array.from(a.model.value));
    expect(Array.from(fit(2).model.value)).not.toEqual(Array.from(a.model.value));
    // The relative threshold stops boosting long before the 1000-iteration default.
    expect(a.iterations).toBeLessThan(300);
  });
});
