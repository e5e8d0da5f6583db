/**
 * Trees compiled in groups add the same leaf values in the same order as the node walk (bit for
 * bit), vector leaves included, and the warm-up's rows reach every leaf of every tree (a branch V8
 * never saw taken sends optimised code back to the unoptimised one the first time it is).
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../../prng';
import { trainGBM } from '../boost';
import { compileTrees, coverageRows, predictRawCompiled, warmCompiled } from '../compile';
import { type BinnedData, DEFAULT_GBM_PARAMS, type GBMModel } from '../model';
import { leafOf, predictRaw } from '../predict';

const range = (a: number, b: number) => Int32Array.from({ length: b - a }, (_, i) => a + i);

/** 3 features: a numeric one of 200 bins, a categorical one of 9 codes, a numeric one of 40. */
function data(n: number, seed: number): BinnedData {
  const rng = new Rng(seed);
  const F = 3;
  const bins = new Uint8Array(n * F);
  for (let i = 0; i < n; i++) {
    bins[i * F] = rng.int(200);
    bins[i * F + 1] = rng.int(9);
    bins[i * F + 2] = rng.int(40);
  }
  return { n, F, bins, nBins: Int32Array.from([201, 11, 41]), isCat: Uint8Array.from([0, 1, 0]) };
}

function model(d: BinnedData, K: number, vectorLeaves: boolean): GBMModel {
  const F = d.F;
  const y = Float64Array.from({ length: d.n }, (_, i) => {
    const a = d.bins[i * F];
    const c = d.bins[i * F + 1];
    const s = (a > 120 ? 2 : 0) + (c % 3 === 0 ? 1 : 0) + (d.bins[i * F + 2] > 20 ? 1 : 0);
    return K === 1 ? s + a / 100 : s % K;
  });
  return trainGBM({
    data: d,
    target: { objective: K === 1 ? 'regression' : 'multiclass', K, y, weight: null },
    trainRows: range(0, Math.floor(d.n * 0.8)),
    valRows: range(Math.floor(d.n * 0.8), d.n),
    params: { ...DEFAULT_GBM_PARAMS, maxIterations: 60, minSamplesLeaf: 5, vectorLeaves },
  }).model;
}

/** Every leaf of every tree, as "tree:node". */
function allLeaves(m: GBMModel): Set<string> {
  const out = new Set<string>();
  for (let t = 0; t < m.nTrees; t++) {
    const end = t + 1 < m.nTrees ? m.roots[t + 1] : m.feat.length;
    for (let i = m.roots[t]; i < end; i++) if (m.feat[i] < 0) out.add(`${t}:${i}`);
  }
  return out;
}

describe('compiled trees', () => {
  const d = data(3000, 7);
  const cases: [string, GBMModel][] = [
    ['one score (regression)', model(d, 1, false)],
    ['vector leaves (multiclass)', model(d, 4, true)],
    ['one tree per class (multiclass)', model(d, 3, false)],
  ];

  for (const [name, m] of cases) {
    it(`${name}: the walk's scores bit for bit, before and after warming`, () => {
      const trees = compileTrees(m);
      expect(trees.length).toBeGreaterThan(0);
      expect(trees.length).toBeLessThan(m.nTrees);
      const fresh = data(1000, 11);
      const walked = new Float64Array(1000 * m.K);
      const compiled = new Float64Array(1000 * m.K);
      predictRaw(m, fresh.bins, fresh.F, 1000, walked);
      predictRawCompiled(m, trees, fresh.bins, fresh.F, 1000, compiled);
      expect(compiled).toEqual(walked);
      warmCompiled(m, trees, d.F, d.nBins);
      compiled.fill(0);
      predictRawCompiled(m, trees, fresh.bins, fresh.F, 1000, compiled);
      expect(compiled).toEqual(walked);
    });

    it(`${name}: the warm-up's rows reach every leaf`, () => {
      const rows = coverageRows(m, d.F, d.nBins);
      const n = rows.length / d.F;
      expect(n).toBeGreaterThan(0);
      expect(n).toBeLessThan(200);
      const reached = new Set<string>();
      for (let t = 0; t < m.nTrees; t++)
        for (let i = 0; i < n; i++) {
          const leaf = leafOf(
            m.feat,
            m.thr,
            m.isCatNode,
            m.left,
            m.right,
            m.catBits,
            rows,
            i * d.F,
            m.roots[t],
          );
          reached.add(`${t}:${leaf}`);
        }
      expect(reached).toEqual(allLeaves(m));
      // Within each feature's bins.
      for (let i = 0; i < n; i++)
        for (let f = 0; f < d.F; f++) expect(rows[i * d.F + f]).toBeLessThan(d.nBins[f]);
    });
  }
});
