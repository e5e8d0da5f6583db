// Incremental re-scoring of a block: after features change, re-walking only the trees that split
// on them gives the same scores as scoring everything again.
import { describe, expect, it } from 'vitest';
import type { Encoded } from '../../data/encoded';
import { trainGBM } from '../../gbm/boost';
import { type BinnedData, DEFAULT_GBM_PARAMS } from '../../gbm/model';
import { Rng } from '../../prng';
import { BlockScorer, RowBlock } from '../row-block';

function encoded(n: number, F: number, seed: number): Encoded {
  const rng = new Rng(seed);
  const bins = Uint8Array.from({ length: n * F }, () => rng.int(10));
  const binned: BinnedData = {
    n,
    F,
    bins,
    nBins: new Int32Array(F).fill(11),
    isCat: new Uint8Array(F),
  };
  return { n, layout: { features: [], encoderFeatures: [], linDims: 0 }, binned, linear: null };
}

describe('incremental block scoring', () => {
  for (const [K, vector] of [
    [1, false],
    [3, false],
    [3, true],
  ] as const) {
    it(`re-walks only affected trees and matches full scoring (K = ${K}${vector ? ', vector leaves' : ''})`, () => {
      const enc = encoded(600, 6, 3);
      const F = 6;
      const y = Float64Array.from({ length: 600 }, (_, r) =>
        K === 1 ? enc.binned.bins[r * F] + enc.binned.bins[r * F + 1] : enc.binned.bins[r * F] % 3,
      );
      const res = trainGBM({
        data: enc.binned,
        target: { objective: K === 1 ? 'regression' : 'multiclass', K, y, weight: null },
        trainRows: Int32Array.from({ length: 400 }, (_, i) => i),
        valRows: Int32Array.from({ length: 100 }, (_, i) => 400 + i),
        params: {
          ...DEFAULT_GBM_PARAMS,
          maxIterations: 30,
          minSamplesLeaf: 5,
          vectorLeaves: vector,
        },
      });
      const model = { gbm: res.model, linear: null };
      const rows = Int32Array.from({ length: 200 }, (_, i) => 400 + i);
      const block = new RowBlock(enc, rows);
      const parts = [
        { model, start: 0, end: 120 },
        { model, start: 120, end: 200 },
      ];
      const scorer = new BlockScorer(block, parts, K);
      // Each row takes feature 1 of the row at the mirrored position of the block.
      const perm = Int32Array.from({ length: 200 }, (_, i) => 199 - i);
      block.permuteFeature(1, perm);
      expect(block.bins[0 * 6 + 1]).toBe(enc.binned.bins[rows[199] * 6 + 1]);
      const inc = scorer.score([1], new Float64Array(200 * K));
      const full = block.score(parts, K);
      for (let x = 0; x < full.length; x++) expect(inc[x]).toBeCloseTo(full[x], 10);
      block.restoreFeature(1);
      const back = scorer.score([], new Float64Array(200 * K));
      expect(Array.from(back)).toEqual(Array.from(block.score(parts, K)));
    });
  }

  it('re-walks only rows whose path tests a changed feature, also past 32 features (shared mask bits)', () => {
    const F = 40;
    const enc = encoded(500, F, 5);
    // The target depends on features 1, 33 (same mask bit as 1) and 39.
    const b = enc.binned.bins;
    const y = Float64Array.from(
      { length: 500 },
      (_, r) => b[r * F + 1] - b[r * F + 33] + b[r * F + 39],
    );
    const res = trainGBM({
      data: enc.binned,
      target: { objective: 'regression', K: 1, y, weight: null },
      trainRows: Int32Array.from({ length: 350 }, (_, i) => i),
      valRows: new Int32Array(0),
      params: { ...DEFAULT_GBM_PARAMS, maxIterations: 25, minSamplesLeaf: 5 },
    });
    const rows = Int32Array.from({ length: 150 }, (_, i) => 350 + i);
    const block = new RowBlock(enc, rows);
    const parts = [{ model: { gbm: res.model, linear: null }, start: 0, end: 150 }];
    const scorer = new BlockScorer(block, parts, 1);
    const perm = Int32Array.from({ length: 150 }, (_, i) => 149 - i);
    for (const f of [1, 33, 39]) {
      block.permuteFeature(f, perm);
      const inc = scorer.score([f], new Float64Array(150));
      const full = block.score(parts, 1);
      for (let x = 0; x < 150; x++) expect(inc[x]).toBeCloseTo(full[x], 10);
      block.restoreFeature(f);
    }
  });
});
