// predictRaw's row-blocked walk over packed nodes against the reference walk (leafOf per row and
// tree, the additions in tree order) on random models: scalar and vector leaves, categorical
// splits, the missing bin, batches that do not fill a block, a row stride wider than the features.
import { describe, expect, it } from 'vitest';
import { Rng } from '../../prng';
import { type GBMModel, leafDimOf } from '../model';
import { leafOf, predictRaw } from '../predict';

/** A random ensemble: `nTrees` trees of up to `maxDepth`, some splits categorical. */
function randomModel(
  rng: Rng,
  o: { F: number; K: number; vector: boolean; nTrees: number; maxDepth: number; cats: number[] },
): GBMModel {
  const D = o.vector ? o.K : 1;
  const feat: number[] = [];
  const thr: number[] = [];
  const isCat: number[] = [];
  const left: number[] = [];
  const right: number[] = [];
  const value: number[] = [];
  const bits: number[] = [];
  const roots: number[] = [];
  const grow = (depth: number): number => {
    const id = feat.length;
    feat.push(-1);
    thr.push(0);
    isCat.push(0);
    left.push(-1);
    right.push(-1);
    for (let j = 0; j < D; j++) value.push(0);
    if (depth >= o.maxDepth || (depth > 0 && rng.next() < 0.25)) {
      // Leaf values of mixed magnitudes and signs: any reordered addition would show.
      for (let j = 0; j < D; j++) value[id * D + j] = (rng.next() - 0.5) * 10 ** (rng.int(7) - 3);
      return id;
    }
    const f = rng.int(o.F);
    feat[id] = f;
    if (o.cats.includes(f) && rng.next() < 0.8) {
      isCat[id] = 1;
      thr[id] = bits.length;
      for (let w = 0; w < 8; w++) bits.push((rng.next() * 2 ** 32) >>> 0);
    } else thr[id] = rng.int(256);
    const l = grow(depth + 1);
    const r = grow(depth + 1);
    left[id] = l;
    right[id] = r;
    return id;
  };
  for (let t = 0; t < o.nTrees; t++) roots.push(grow(0));
  return {
    K: o.K,
    base: Float64Array.from({ length: o.K }, () => rng.next() - 0.5),
    nTrees: o.nTrees,
    roots: Int32Array.from(roots),
    feat: Int32Array.from(feat),
    thr: Int32Array.from(thr),
    isCatNode: Uint8Array.from(isCat),
    left: Int32Array.from(left),
    right: Int32Array.from(right),
    value: Float64Array.from(value),
    catBits: Uint32Array.from(bits),
    maxLeaves: 0,
    ...(o.vector ? { leafDim: o.K } : {}),
  };
}

/** Rows of bins at `stride`, about a fifth of the cells in the missing bin (255). */
function randomBins(rng: Rng, n: number, stride: number): Uint8Array {
  const bins = new Uint8Array(n * stride);
  for (let i = 0; i < bins.length; i++) bins[i] = rng.next() < 0.2 ? 255 : rng.int(256);
  return bins;
}

/** The reference: base, then each tree's leaf (leafOf) added in tree order, row by row. */
function referenceRaw(m: GBMModel, bins: Uint8Array, F: number, n: number): Float64Array {
  const K = m.K;
  const D = leafDimOf(m);
  const out = new Float64Array(n * K);
  for (let r = 0; r < n; r++) {
    for (let k = 0; k < K; k++) out[r * K + k] = m.base[k];
    for (let t = 0; t < m.nTrees; t++) {
      const { feat, thr, isCatNode, left, right, catBits } = m;
      const leaf = leafOf(feat, thr, isCatNode, left, right, catBits, bins, r * F, m.roots[t]);
      if (D === 1) out[r * K + (t % K)] += m.value[leaf];
      else for (let j = 0; j < D; j++) out[r * K + j] += m.value[leaf * D + j];
    }
  }
  return out;
}

/** The first index whose bits differ (-0 against 0, a last-place difference), or -1. */
function firstDifference(a: Float64Array, b: Float64Array): number {
  if (a.length !== b.length) return 0;
  const x = new BigUint64Array(a.buffer, a.byteOffset, a.length);
  const y = new BigUint64Array(b.buffer, b.byteOffset, b.length);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return i;
  return -1;
}

describe('predictRaw (row-blocked walk over packed nodes)', () => {
  const cases = [
    { name: 'vector leaves, 10 classes', K: 10, vector: true },
    { name: 'scalar leaves, one tree per class', K: 4, vector: false },
    { name: 'scalar leaves, one score', K: 1, vector: false },
  ];
  for (const c of cases) {
    it(`gives the reference walk's scores bit for bit: ${c.name}`, () => {
      for (let seed = 1; seed <= 4; seed++) {
        const rng = new Rng(seed);
        const F = 3 + rng.int(12);
        const cats = [0, 2].filter((f) => f < F);
        const m = randomModel(rng, { F, K: c.K, vector: c.vector, nTrees: 37, maxDepth: 7, cats });
        expect(m.isCatNode.some((x) => x === 1)).toBe(true);
        // Batches below, at and across the block size; rows wider than the features.
        for (const n of [0, 1, 127, 128, 129, 300]) {
          const stride = F + (seed % 2);
          const bins = randomBins(rng, n, stride);
          const out = new Float64Array(n * c.K);
          predictRaw(m, bins, stride, n, out);
          const ref = referenceRaw(m, bins, stride, n);
          expect(firstDifference(out, ref)).toBe(-1);
        }
      }
    });
  }

  it('predicts the base for a model without trees', () => {
    const m = randomModel(new Rng(9), {
      F: 2,
      K: 3,
      vector: true,
      nTrees: 0,
      maxDepth: 1,
      cats: [],
    });
    const out = new Float64Array(6).fill(7);
    predictRaw(m, new Uint8Array(4), 2, 2, out);
    expect(Array.from(out)).toEqual([...m.base, ...m.base]);
  });
});
