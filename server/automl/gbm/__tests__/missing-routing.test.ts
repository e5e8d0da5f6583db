// Tree routing of missing values: a learned direction per split when the node's training rows
// have missing values, otherwise the child with more training weight.
import { describe, expect, it } from 'vitest';
import { trainGBM } from '../boost';
import { type BinnedData, DEFAULT_GBM_PARAMS } from '../model';
import { predictRaw } from '../predict';

const range = (a: number, b: number) => Int32Array.from({ length: b - a }, (_, i) => a + i);

describe('missing values in the trees', () => {
  // One numeric feature with 10 bins + the missing bin (index 10).
  const data = (miss: (i: number) => boolean): { d: BinnedData; y: Float64Array } => {
    const n = 1000;
    const bins = new Uint8Array(n);
    const y = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      // 80 % of rows in bins 0-7 (y = 0), 20 % in bins 8-9 (y = 10).
      const b = i % 10;
      bins[i] = miss(i) ? 10 : b;
      y[i] = miss(i) ? 0 : b >= 8 ? 10 : 0;
    }
    return { d: { n, F: 1, bins, nBins: Int32Array.of(11), isCat: Uint8Array.of(0) }, y };
  };
  const fit = (d: BinnedData, y: Float64Array) =>
    trainGBM({
      data: d,
      target: { objective: 'regression', K: 1, y, weight: null },
      trainRows: range(0, d.n),
      valRows: new Int32Array(0),
      params: { ...DEFAULT_GBM_PARAMS, maxIterations: 30, maxLeaves: 2, minSamplesLeaf: 5 },
    }).model;
  const predictMissing = (m: ReturnType<typeof fit>): number => {
    const out = new Float64Array(1);
    predictRaw(m, Uint8Array.of(10), 1, 1, out);
    return out[0];
  };

  it('without missing training values, a missing input follows the larger child', () => {
    const { d, y } = data(() => false);
    // The split is bins 0-7 | 8-9; missing used to go right (y = 10), now to the 80 % side.
    expect(predictMissing(fit(d, y))).toBeLessThan(1);
  });

  it('learns the missing direction from training rows with missing values', () => {
    // Missing rows have y = 10 here (not 0), so the learned direction must send them right.
    const { d } = data((i) => i % 20 === 3);
    const y = new Float64Array(d.n);
    for (let i = 0; i < d.n; i++) y[i] = d.bins[i] === 10 || d.bins[i] >= 8 ? 10 : 0;
    expect(predictMissing(fit(d, y))).toBeGreaterThan(9);
    // ... and left when they look like the low bins.
    const { d: d2, y: y2 } = data((i) => i % 20 === 9);
    expect(predictMissing(fit(d2, y2))).toBeLessThan(1);
  });
});
