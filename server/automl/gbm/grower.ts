// Leaf-wise tree growth: repeatedly split the leaf with the largest gain (up to `maxLeaves`),
// histogramming only the smaller child of each split and deriving the larger one by subtraction.

import { Histograms } from './histogram';
import type { BinnedData, GBMParams } from './model';
import type { TreeOutput } from './node-store';
import { Leaves, Splitter } from './splitter';

/** 8 x 32 bits: one bit per possible bin of a categorical feature. */
const CAT_WORDS = 8;

export class TreeBuilder {
  private readonly F: number;
  private readonly bins: Uint8Array;
  private readonly hists: Histograms;
  private readonly splitter: Splitter;
  private readonly leaves: Leaves;
  private readonly idx: Int32Array;
  private readonly tmp: Int32Array;
  private readonly L: number;

  constructor(
    data: BinnedData,
    private readonly p: GBMParams,
    maxRows: number,
    unitHessian: boolean,
    /** Values per leaf (vector leaves: the number of classes). */
    private readonly D = 1,
  ) {
    this.F = data.F;
    this.bins = data.bins;
    this.hists = new Histograms(data, unitHessian, D);
    this.splitter = new Splitter(data.F, data.nBins, data.isCat, this.hists.off, p);
    this.idx = this.hists.allocRows(maxRows);
    this.tmp = new Int32Array(maxRows);
    this.L = Math.max(2, p.maxLeaves);
    this.leaves = new Leaves(this.L, D);
  }

  /** A zeroed gradient buffer (shared memory when histograms are built by a thread pool). */
  alloc(n: number): Float64Array {
    return this.hists.alloc(n);
  }

  private findSplit(leaf: number): void {
    const hist = this.hists.get(this.leaves.hist[leaf]);
    if (this.D > 1) this.splitter.findVector(this.leaves, leaf, hist, this.D);
    else this.splitter.find(this.leaves, leaf, hist);
  }

  /**
   * Grows one tree on `rows` for gradients g / hessians h (indexed by absolute row; with D values
   * per leaf interleaved, g[row * D + j]), appends it to `out.store`, and adds its leaf values to
   * the training rows' scores (score k, or all D scores).
   */
  build(rows: Int32Array, g: Float64Array, h: Float64Array, out: TreeOutput): void {
    const { store, raw, K, k } = out;
    const D = this.D;
    const p = this.p;
    const lv = this.leaves;
    const hists = this.hists;
    const n = rows.length;
    this.idx.set(rows);
    // Histogram buffers come from a pool indexed by slot; the larger child reuses its parent's
    // buffer, so a tree needs one buffer per leaf.
    let nextHist = 0;
    const takeHist = (): number => nextHist++;

    const root = store.addLeaf(n);
    store.roots.push(root);
    let nLeaves = 1;
    lv.start[0] = 0;
    lv.end[0] = n;
    lv.depth[0] = 0;
    lv.node[0] = root;
    lv.hist[0] = takeHist();
    for (let j = 0; j < D; j++) {
      let G = 0;
      let H = 0;
      for (let i = 0; i < n; i++) {
        const r = rows[i] * D + j;
        G += g[r];
        H += h[r];
      }
      lv.sumG[j] = G;
      lv.sumH[j] = H;
    }
    hists.build(hists.get(lv.hist[0]), this.idx, 0, n, g, h);
    this.findSplit(0);

    while (nLeaves < this.L) {
      let best = -1;
      let bestGain = 0;
      for (let l = 0; l < nLeaves; l++) {
        if (lv.gain[l] > bestGain) {
          bestGain = lv.gain[l];
          best = l;
        }
      }
      if (best < 0) break;
      // Split leaf `best` into itself (left) and a new slot (right).
      const f = lv.feat[best];
      const s = lv.start[best];
      const e = lv.end[best];
      const isSet = lv.isSet[best] === 1;
      const mid = this.partition(best, f, s, e, isSet);
      const nl = nLeaves++;
      const parentNode = lv.node[best];
      const leftNode = store.addLeaf(mid - s);
      const rightNode = store.addLeaf(e - mid);
      store.feat[parentNode] = f;
      store.left[parentNode] = leftNode;
      store.right[parentNode] = rightNode;
      if (isSet) {
        store.ensureBits(CAT_WORDS);
        const o = store.nBits;
        store.nBits += CAT_WORDS;
        for (let w = 0; w < CAT_WORDS; w++) store.bits[o + w] = 0;
        const mask = lv.mask[best];
        for (let b = 0; b < 256; b++) if (mask[b]) store.bits[o + (b >> 5)] |= 1 << (b & 31);
        store.isCat[parentNode] = 1;
        store.thr[parentNode] = o;
      } else {
        store.isCat[parentNode] = 0;
        store.thr[parentNode] = lv.thr[best];
      }
      const d = lv.depth[best] + 1;
      // Left child keeps slot `best`, right child gets slot `nl`.
      lv.start[nl] = mid;
      lv.end[nl] = e;
      lv.end[best] = mid;
      for (let j = 0; j < D; j++) {
        const GL = lv.GL[best * D + j];
        const HL = lv.HL[best * D + j];
        const GP = lv.sumG[best * D + j];
        const HP = lv.sumH[best * D + j];
        lv.sumG[best * D + j] = GL;
        lv.sumH[best * D + j] = HL;
        lv.sumG[nl * D + j] = GP - GL;
        lv.sumH[nl * D + j] = HP - HL;
      }
      lv.depth[best] = d;
      lv.depth[nl] = d;
      lv.node[best] = leftNode;
      lv.node[nl] = rightNode;
      // Subtraction trick: histogram the smaller child, derive the larger from the parent.
      const parentHist = lv.hist[best];
      const small = mid - s <= e - mid ? best : nl;
      const large = small === best ? nl : best;
      const smallHist = takeHist();
      lv.hist[small] = smallHist;
      lv.hist[large] = parentHist;
      const hs = hists.get(smallHist);
      const hl = hists.get(parentHist);
      hists.build(hs, this.idx, lv.start[small], lv.end[small], g, h);
      hists.subtract(hl, hs);
      const canSplit = p.maxDepth <= 0 || d < p.maxDepth;
      if (canSplit) {
        this.findSplit(best);
        this.findSplit(nl);
      } else {
        lv.gain[best] = 0;
        lv.gain[nl] = 0;
      }
    }

    // Leaf values (Newton step, shrunk by the learning rate) and training-score update.
    const lr = p.learningRate;
    const l2 = p.l2;
    const idx = this.idx;
    for (let l = 0; l < nLeaves; l++) {
      for (let j = 0; j < D; j++) {
        const den = lv.sumH[l * D + j] + l2;
        const v = den > 0 ? (-lv.sumG[l * D + j] / den) * lr : 0;
        store.value[lv.node[l] * D + j] = v;
        // Scalar leaves add to score k; vector leaves to every score (D = K).
        const kk = D > 1 ? j : k;
        for (let i = lv.start[l], e = lv.end[l]; i < e; i++) raw[idx[i] * K + kk] += v;
      }
    }
  }

  /** Stable in-place partition of idx[s, e) by the leaf's best split; returns the first right index. */
  private partition(leaf: number, f: number, s: number, e: number, isSet: boolean): number {
    const idx = this.idx;
    const tmp = this.tmp;
    const bins = this.bins;
    const F = this.F;
    let w = s;
    let t = 0;
    // Branch-free: each row is written to both sides and only one cursor advances (the split
    // direction is a coin flip per row, so a branch would mispredict half of the time).
    if (isSet) {
      const mask = this.leaves.mask[leaf];
      for (let i = s; i < e; i++) {
        const r = idx[i];
        const go = mask[bins[r * F + f]];
        idx[w] = r;
        tmp[t] = r;
        w += go;
        t += go ^ 1;
      }
    } else {
      const thr = this.leaves.thr[leaf];
      for (let i = s; i < e; i++) {
        const r = idx[i];
        // 1 when bin <= thr (both are 0..255, so the sign bit of thr - bin decides).
        const go = ((thr - bins[r * F + f]) >>> 31) ^ 1;
        idx[w] = r;
        tmp[t] = r;
        w += go;
        t += go ^ 1;
      }
    }
    for (let i = 0; i < t; i++) idx[w + i] = tmp[i];
    return w;
  }
}
