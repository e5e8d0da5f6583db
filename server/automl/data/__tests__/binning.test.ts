import { describe, expect, it } from 'vitest';
import { Rng } from '../../prng';
import { MAX_BINS, binIndex, binOf, fitBinThresholds } from '../binning';

describe('numeric bins', () => {
  it('binIndex finds the first threshold at or above the value, for every table size', () => {
    const rng = new Rng(9);
    for (const m of [0, 1, 2, 3, 7, 8, 64, 253, 254]) {
      const thr = Float64Array.from({ length: m }, (_, i) => i * 2 + 0.5);
      const probes = [-1, 0.5, 1, ...Array.from({ length: 200 }, () => rng.next() * 2 * m + 1), 1e9];
      for (const t of thr) probes.push(t, t - 1e-9, t + 1e-9);
      for (const v of probes) {
        let want = 0;
        while (want < m && !(v <= thr[want])) want++;
        expect(binIndex(thr, m, v)).toBe(want);
      }
    }
  });

  it('gives each distinct value its own bin when there are few', () => {
    const thr = fitBinThresholds(Float64Array.from([1, 2, 2, 3, 10]), new Rng(1));
    expect(thr).toEqual([1.5, 2.5, 6.5]);
    const t = Float64Array.from(thr);
    expect([1, 2, 3, 10].map((v) => binOf(t, v))).toEqual([0, 1, 2, 3]);
  });
  it('uses at most 254 quantile bins, monotone in the value, with NaN in the missing bin', () => {
    const rng = new Rng(7);
    const xs = Float64Array.from({ length: 20000 }, () => rng.next() * 1000);
    const thr = Float64Array.from(fitBinThresholds(xs, new Rng(1)));
    expect(thr.length).toBeLessThanOrEqual(MAX_BINS - 1);
    expect(thr.length).toBeGreaterThan(200);
    for (let i = 1; i < thr.length; i++) expect(thr[i]).toBeGreaterThan(thr[i - 1]);
    const sorted = Float64Array.from(xs).sort();
    let prev = -1;
    let maxCount = 0;
    const counts = new Map<number, number>();
    for (const v of sorted) {
      const b = binOf(thr, v);
      expect(b).toBeGreaterThanOrEqual(prev);
      prev = b;
      counts.set(b, (counts.get(b) ?? 0) + 1);
    }
    for (const c of counts.values()) maxCount = Math.max(maxCount, c);
    // Quantile bins: no bin holds much more than 1/254 of the rows.
    expect(maxCount).toBeLessThan((20000 / 254) * 2);
    expect(binOf(thr, NaN)).toBe(thr.length + 1);
  });
});

