// Row sampling for large tables: seeded, fixed-size samples per boosting iteration.
import { describe, expect, it } from 'vitest';
import { gauss } from '../../__tests__/helpers';
import { Rng } from '../../prng';
import { RowSampler, trainGBM } from '../boost';
import { type BinnedData, DEFAULT_GBM_PARAMS } from '../model';

describe('row sampling', () => {
  it('draws seeded samples of a fixed size, ascending, the other rows in rest', () => {
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
