// The parts of tree growth: histograms (built and derived by subtraction) and split finding.
import { describe, expect, it } from 'vitest';
import { Rng } from '../../prng';
import { Histograms } from '../histogram';
import { type BinnedData, DEFAULT_GBM_PARAMS } from '../model';
import { Leaves, Splitter } from '../splitter';

function matrix(n: number, F: number, nb: number, seed: number): BinnedData {
  const rng = new Rng(seed);
  const bins = Uint8Array.from({ length: n * F }, () => rng.int(nb));
  return { n, F, bins, nBins: new Int32Array(F).fill(nb), isCat: new Uint8Array(F) };
}

describe('histograms', () => {
  it('sum gradients, hessians and rows per feature bin; subtraction gives the sibling', () => {
    const d = matrix(300, 3, 6, 1);
    const g = Float64Array.from({ length: 300 }, (_, i) => Math.sin(i));
    const h = Float64Array.from({ length: 300 }, (_, i) => 1 + (i % 3));
    const hs = new Histograms(d, false);
    const idx = Int32Array.from({ length: 300 }, (_, i) => i);
    const all = hs.get(0);
    const left = hs.get(1);
    const right = new Float64Array(hs.length);
    hs.build(all, idx, 0, 300, g, h);
    hs.build(left, idx, 0, 120, g, h);
    hs.build(right, idx, 120, 300, g, h);
    // Direct sums for feature 2, bin 4.
    let G = 0;
    let H = 0;
    let C = 0;
    for (let r = 0; r < 300; r++)
      if (d.bins[r * 3 + 2] === 4) {
        G += g[r];
        H += h[r];
        C++;
      }
    const k = (hs.off[2] + 4) * 3;
    expect(all[k]).toBeCloseTo(G, 12);
    expect(all[k + 1]).toBe(H);
    expect(all[k + 2]).toBe(C);
    hs.subtract(all, left);
    for (let j = 0; j < hs.length; j++) expect(all[j]).toBeCloseTo(right[j], 10);
  });

  it('with unit hessians, the hessian sums are the row counts', () => {
    const d = matrix(100, 2, 4, 2);
    const g = Float64Array.from({ length: 100 }, (_, i) => i / 10);
    const hs = new Histograms(d, true);
    const hist = hs.get(0);
    hs.build(
      hist,
      Int32Array.from({ length: 100 }, (_, i) => i),
      0,
      100,
      g,
      g,
    );
    for (let k = 0; k < hs.length; k += 3) expect(hist[k + 1]).toBe(hist[k + 2]);
  });
});

describe('split finding', () => {
  it('finds the threshold that separates two gradient levels, with the left sums', () => {
    // Bins 0-4 carry gradient -1, bins 5-9 +1; feature 1 is noise.
    const n = 400;
    const d = matrix(n, 2, 10, 3);
    for (let r = 0; r < n; r++) d.bins[r * 2] = r % 10;
    const g = Float64Array.from({ length: n }, (_, r) => (r % 10 < 5 ? -1 : 1));
    const h = new Float64Array(n).fill(1);
    const hs = new Histograms(d, false);
    const hist = hs.get(0);
    hs.build(
      hist,
      Int32Array.from({ length: n }, (_, i) => i),
      0,
      n,
      g,
      h,
    );
    const leaves = new Leaves(4);
    leaves.start[0] = 0;
    leaves.end[0] = n;
    leaves.sumG[0] = 0;
    leaves.sumH[0] = n;
    new Splitter(2, d.nBins, d.isCat, hs.off, { ...DEFAULT_GBM_PARAMS, l2: 0 }).find(
      leaves,
      0,
      hist,
    );
    expect(leaves.feat[0]).toBe(0);
    expect(leaves.thr[0]).toBe(4);
    expect(leaves.GL[0]).toBe(-200);
    expect(leaves.HL[0]).toBe(200);
    // Gain = GL^2/HL + GR^2/HR - G^2/H = 200 + 200 - 0.
    expect(leaves.gain[0]).toBeCloseTo(400, 9);
  });

  it('does not split a leaf with fewer than twice the minimum rows per leaf', () => {
    const d = matrix(30, 1, 4, 4);
    const g = Float64Array.from({ length: 30 }, (_, r) => (d.bins[r] < 2 ? -1 : 1));
    const hs = new Histograms(d, false);
    const hist = hs.get(0);
    hs.build(
      hist,
      Int32Array.from({ length: 30 }, (_, i) => i),
      0,
      30,
      g,
      new Float64Array(30).fill(1),
    );
    const leaves = new Leaves(2);
    leaves.end[0] = 30;
    leaves.sumH[0] = 30;
    new Splitter(1, d.nBins, d.isCat, hs.off, { ...DEFAULT_GBM_PARAMS, minSamplesLeaf: 20 }).find(
      leaves,
      0,
      hist,
    );
    expect(leaves.gain[0]).toBe(0);
  });
});
