// Histogram gradient-boosted trees (LightGBM / sklearn HistGradientBoosting style) on a binned
// row-major Uint8 matrix. Why this design:
// - bins (<= 255 per feature) turn split finding into scans over small histograms instead of
//   sorting rows, and 1 byte per cell keeps the matrix in cache;
// - leaf-wise growth (split the leaf with the largest gain first, up to `maxLeaves`) reaches a
//   given loss with fewer, better-placed leaves than depth-wise growth;
// - the subtraction trick builds only the smaller child's histogram (the larger one is parent -
//   smaller), roughly halving histogram work;
// - native categorical splits (categories sorted by gradient/hessian ratio, then a prefix scan, as
//   LightGBM does) let one split group e.g. neighbourhoods by price level;
// - trees are stored in flat typed arrays (no node objects) so prediction is a tight loop and the
//   model serialises as a few base64 strings.

import { Rng } from './prng';

export interface GBMParams {
  learningRate: number;
  maxIterations: number;
  maxLeaves: number;
  minSamplesLeaf: number;
  /** L2 penalty on leaf values (lambda in LightGBM / l2_regularization in sklearn). */
  l2: number;
  /** Stop after this many iterations without a better validation loss. */
  earlyStoppingRounds: number;
  /** 0 = unlimited (leaf count is the real limit). */
  maxDepth: number;
  minHessian: number;
  /** Categorical split search: max categories on the left side, ratio smoothing, min rows per category. */
  maxCatThreshold: number;
  catSmooth: number;
  minDataPerCat: number;
  /**
   * Row subsampling (bagging) for large tables: when > 0 and below the number of training rows,
   * each iteration grows its trees on a seeded Bernoulli sample of about this many training rows
   * (histograms and splits see only them; the other rows' scores are updated by walking the new
   * trees). 0 = every tree sees every training row.
   */
  subsampleRows?: number;
  /** Seed of the per-iteration row samples. */
  seed?: number;
  /**
   * Early stopping patience counts iterations since the validation loss last improved by at
   * least this fraction of itself (0 / absent: any improvement counts). The model still keeps
   * the iteration with the lowest validation loss.
   */
  minRelImprovement?: number;
}

export const DEFAULT_GBM_PARAMS: GBMParams = {
  learningRate: 0.1,
  maxIterations: 1000,
  maxLeaves: 31,
  minSamplesLeaf: 20,
  l2: 0,
  earlyStoppingRounds: 20,
  maxDepth: 0,
  minHessian: 1e-3,
  maxCatThreshold: 32,
  catSmooth: 10,
  minDataPerCat: 10,
};

export type Objective = 'regression' | 'binary' | 'multiclass';

/** The binned design matrix: row r, feature f at bins[r * F + f]. */
export interface BinnedData {
  n: number;
  F: number;
  bins: Uint8Array;
  nBins: Int32Array;
  isCat: Uint8Array;
}

export interface GBMTarget {
  objective: Objective;
  /** Scores per row: 1 for regression/binary, number of classes for multiclass. */
  K: number;
  /** Regression: the (standardized) value; classification: the class index. Indexed by absolute row. */
  y: Float64Array;
  /** Per-row weights (class weights), or null for 1. */
  weight: Float64Array | null;
}

/**
 * A trained ensemble. Tree t adds to score t % K. Node arrays are shared by all trees: `feat < 0`
 * marks a leaf holding `value`; numeric nodes send bin <= thr left, categorical nodes send bins whose
 * bit is set in catBits[thr ...] left. Leaf values already include the learning rate.
 */
export interface GBMModel {
  K: number;
  base: Float64Array;
  nTrees: number;
  roots: Int32Array;
  feat: Int32Array;
  thr: Int32Array;
  isCatNode: Uint8Array;
  left: Int32Array;
  right: Int32Array;
  value: Float64Array;
  catBits: Uint32Array;
  /** Leaves per tree (max), for the model summary. */
  maxLeaves: number;
}

// ---------------------------------------------------------------------------------------------
// Growable node store
// ---------------------------------------------------------------------------------------------

class NodeStore {
  n = 0;
  feat = new Int32Array(1024);
  thr = new Int32Array(1024);
  isCat = new Uint8Array(1024);
  left = new Int32Array(1024);
  right = new Int32Array(1024);
  value = new Float64Array(1024);
  bits = new Uint32Array(256);
  nBits = 0;
  roots: number[] = [];

  static from(m: GBMModel): NodeStore {
    const s = new NodeStore();
    const n = m.feat.length;
    s.ensure(n);
    s.feat.set(m.feat);
    s.thr.set(m.thr);
    s.isCat.set(m.isCatNode);
    s.left.set(m.left);
    s.right.set(m.right);
    s.value.set(m.value);
    s.n = n;
    s.ensureBits(m.catBits.length);
    s.bits.set(m.catBits);
    s.nBits = m.catBits.length;
    s.roots = Array.from(m.roots);
    return s;
  }

  ensure(extra: number): void {
    const need = this.n + extra;
    if (need <= this.feat.length) return;
    let cap = this.feat.length;
    while (cap < need) cap *= 2;
    const grow = <T extends Int32Array | Uint8Array | Float64Array>(
      a: T,
      make: (n: number) => T,
    ): T => {
      const b = make(cap);
      b.set(a);
      return b;
    };
    this.feat = grow(this.feat, (c) => new Int32Array(c));
    this.thr = grow(this.thr, (c) => new Int32Array(c));
    this.isCat = grow(this.isCat, (c) => new Uint8Array(c));
    this.left = grow(this.left, (c) => new Int32Array(c));
    this.right = grow(this.right, (c) => new Int32Array(c));
    this.value = grow(this.value, (c) => new Float64Array(c));
  }

  ensureBits(extra: number): void {
    const need = this.nBits + extra;
    if (need <= this.bits.length) return;
    let cap = this.bits.length;
    while (cap < need) cap *= 2;
    const b = new Uint32Array(cap);
    b.set(this.bits);
    this.bits = b;
  }

  addLeaf(): number {
    this.ensure(1);
    const id = this.n++;
    this.feat[id] = -1;
    this.left[id] = -1;
    this.right[id] = -1;
    this.value[id] = 0;
    return id;
  }

  /** Drops every tree after the first `nTrees` (early stopping keeps the best iteration). */
  truncate(nTrees: number): void {
    if (nTrees >= this.roots.length) return;
    const cut = this.roots[nTrees];
    this.roots.length = nTrees;
    this.n = cut;
    let maxBit = 0;
    for (let i = 0; i < cut; i++) if (this.isCat[i]) maxBit = Math.max(maxBit, this.thr[i] + 8);
    this.nBits = maxBit;
  }

  toModel(K: number, base: Float64Array, maxLeaves: number): GBMModel {
    return {
      K,
      base: Float64Array.from(base),
      nTrees: this.roots.length,
      roots: Int32Array.from(this.roots),
      feat: this.feat.slice(0, this.n),
      thr: this.thr.slice(0, this.n),
      isCatNode: this.isCat.slice(0, this.n),
      left: this.left.slice(0, this.n),
      right: this.right.slice(0, this.n),
      value: this.value.slice(0, this.n),
      catBits: this.bits.slice(0, this.nBits),
      maxLeaves,
    };
  }
}

// ---------------------------------------------------------------------------------------------
// Tree builder
// ---------------------------------------------------------------------------------------------

/** 8 x 32 bits: one bit per possible bin of a categorical feature. */
const CAT_WORDS = 8;

class TreeBuilder {
  private readonly F: number;
  private readonly bins: Uint8Array;
  private readonly nBins: Int32Array;
  private readonly isCat: Uint8Array;
  private readonly off: Int32Array;
  private readonly histLen: number;
  private readonly pool: Float64Array[] = [];
  private readonly idx: Int32Array;
  private readonly tmp: Int32Array;
  private readonly L: number;
  // Per-leaf state (index = leaf slot).
  private readonly start: Int32Array;
  private readonly end: Int32Array;
  private readonly hist: Int32Array;
  private readonly sumG: Float64Array;
  private readonly sumH: Float64Array;
  private readonly depth: Int32Array;
  private readonly node: Int32Array;
  private readonly bestGain: Float64Array;
  private readonly bestFeat: Int32Array;
  private readonly bestThr: Int32Array;
  private readonly bestGL: Float64Array;
  private readonly bestHL: Float64Array;
  private readonly bestMask: Uint8Array[];
  /** The leaf's best split is stored as a bin set (categorical, or numeric with missing left). */
  private readonly bestIsSet: Uint8Array;
  // Scratch for categorical split search.
  private readonly catOrder = new Int32Array(256);
  private readonly catRatio = new Float64Array(256);

  constructor(
    private readonly data: BinnedData,
    private readonly p: GBMParams,
    maxRows: number,
    private readonly unitHessian: boolean,
  ) {
    this.F = data.F;
    this.bins = data.bins;
    this.nBins = data.nBins;
    this.isCat = data.isCat;
    this.off = new Int32Array(this.F + 1);
    for (let f = 0; f < this.F; f++) this.off[f + 1] = this.off[f] + data.nBins[f];
    this.histLen = this.off[this.F] * 3;
    this.idx = new Int32Array(maxRows);
    this.tmp = new Int32Array(maxRows);
    const L = (this.L = Math.max(2, p.maxLeaves));
    this.start = new Int32Array(L);
    this.end = new Int32Array(L);
    this.hist = new Int32Array(L);
    this.sumG = new Float64Array(L);
    this.sumH = new Float64Array(L);
    this.depth = new Int32Array(L);
    this.node = new Int32Array(L);
    this.bestGain = new Float64Array(L);
    this.bestFeat = new Int32Array(L);
    this.bestThr = new Int32Array(L);
    this.bestGL = new Float64Array(L);
    this.bestHL = new Float64Array(L);
    this.bestMask = Array.from({ length: L }, () => new Uint8Array(256));
    this.bestIsSet = new Uint8Array(L);
  }

  private getHist(slot: number): Float64Array {
    while (this.pool.length <= slot) this.pool.push(new Float64Array(this.histLen));
    return this.pool[slot];
  }

  /**
   * Grows one tree on `rows` for gradients g / hessians h (indexed by absolute row), appends it to
   * `store`, and adds its leaf values to raw[row * K + k] for the training rows.
   */
  build(
    rows: Int32Array,
    g: Float64Array,
    h: Float64Array,
    store: NodeStore,
    raw: Float64Array,
    K: number,
    k: number,
  ): void {
    const p = this.p;
    const n = rows.length;
    this.idx.set(rows);
    // Histogram buffers come from a pool indexed by slot; the larger child reuses its parent's
    // buffer, so a tree needs one buffer per leaf.
    let nextHist = 0;
    const takeHist = (): number => nextHist++;

    const root = store.addLeaf();
    store.roots.push(root);
    let nLeaves = 1;
    this.start[0] = 0;
    this.end[0] = n;
    this.depth[0] = 0;
    this.node[0] = root;
    this.hist[0] = takeHist();
    let G = 0;
    let H = 0;
    for (let i = 0; i < n; i++) {
      const r = rows[i];
      G += g[r];
      H += h[r];
    }
    this.sumG[0] = G;
    this.sumH[0] = H;
    this.buildHist(this.getHist(this.hist[0]), 0, n, g, h);
    this.findBestSplit(0);

    while (nLeaves < this.L) {
      let best = -1;
      let bestGain = 0;
      for (let l = 0; l < nLeaves; l++) {
        if (this.bestGain[l] > bestGain) {
          bestGain = this.bestGain[l];
          best = l;
        }
      }
      if (best < 0) break;
      // Split leaf `best` into itself (left) and a new slot (right).
      const f = this.bestFeat[best];
      const s = this.start[best];
      const e = this.end[best];
      const isSet = this.bestIsSet[best] === 1;
      const mid = this.partition(best, f, s, e, isSet);
      const nl = nLeaves++;
      const parentNode = this.node[best];
      const leftNode = store.addLeaf();
      const rightNode = store.addLeaf();
      store.feat[parentNode] = f;
      store.left[parentNode] = leftNode;
      store.right[parentNode] = rightNode;
      if (isSet) {
        store.ensureBits(CAT_WORDS);
        const o = store.nBits;
        store.nBits += CAT_WORDS;
        for (let w = 0; w < CAT_WORDS; w++) store.bits[o + w] = 0;
        const mask = this.bestMask[best];
        for (let b = 0; b < 256; b++) if (mask[b]) store.bits[o + (b >> 5)] |= 1 << (b & 31);
        store.isCat[parentNode] = 1;
        store.thr[parentNode] = o;
      } else {
        store.isCat[parentNode] = 0;
        store.thr[parentNode] = this.bestThr[best];
      }
      const GL = this.bestGL[best];
      const HL = this.bestHL[best];
      const GP = this.sumG[best];
      const HP = this.sumH[best];
      const d = this.depth[best] + 1;
      // Left child keeps slot `best`, right child gets slot `nl`.
      this.start[nl] = mid;
      this.end[nl] = e;
      this.end[best] = mid;
      this.sumG[best] = GL;
      this.sumH[best] = HL;
      this.sumG[nl] = GP - GL;
      this.sumH[nl] = HP - HL;
      this.depth[best] = d;
      this.depth[nl] = d;
      this.node[best] = leftNode;
      this.node[nl] = rightNode;
      // Subtraction trick: histogram the smaller child, derive the larger from the parent.
      const parentHist = this.hist[best];
      const small = mid - s <= e - mid ? best : nl;
      const large = small === best ? nl : best;
      const smallHist = takeHist();
      this.hist[small] = smallHist;
      this.hist[large] = parentHist;
      const hs = this.getHist(smallHist);
      const hl = this.getHist(parentHist);
      this.buildHist(hs, this.start[small], this.end[small], g, h);
      for (let j = 0; j < this.histLen; j++) hl[j] -= hs[j];
      const canSplit = p.maxDepth <= 0 || d < p.maxDepth;
      if (canSplit) {
        this.findBestSplit(best);
        this.findBestSplit(nl);
      } else {
        this.bestGain[best] = 0;
        this.bestGain[nl] = 0;
      }
    }

    // Leaf values (Newton step, shrunk by the learning rate) and training-score update.
    const lr = p.learningRate;
    const l2 = p.l2;
    for (let l = 0; l < nLeaves; l++) {
      const den = this.sumH[l] + l2;
      const v = den > 0 ? (-this.sumG[l] / den) * lr : 0;
      store.value[this.node[l]] = v;
      const idx = this.idx;
      for (let i = this.start[l], e = this.end[l]; i < e; i++) raw[idx[i] * K + k] += v;
    }
  }

  private buildHist(
    hist: Float64Array,
    s: number,
    e: number,
    g: Float64Array,
    h: Float64Array,
  ): void {
    hist.fill(0);
    const F = this.F;
    const bins = this.bins;
    const off = this.off;
    const idx = this.idx;
    if (this.unitHessian) {
      // Unweighted squared error: every hessian is 1, so the hessian sum is the row count and a
      // third of the histogram writes can be skipped.
      for (let i = s; i < e; i++) {
        const r = idx[i];
        const gi = g[r];
        const base = r * F;
        for (let f = 0; f < F; f++) {
          const k = (off[f] + bins[base + f]) * 3;
          hist[k] += gi;
          hist[k + 2] += 1;
        }
      }
      for (let k = 0; k < this.histLen; k += 3) hist[k + 1] = hist[k + 2];
      return;
    }
    for (let i = s; i < e; i++) {
      const r = idx[i];
      const gi = g[r];
      const hi = h[r];
      const base = r * F;
      for (let f = 0; f < F; f++) {
        const k = (off[f] + bins[base + f]) * 3;
        hist[k] += gi;
        hist[k + 1] += hi;
        hist[k + 2] += 1;
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
      const mask = this.bestMask[leaf];
      for (let i = s; i < e; i++) {
        const r = idx[i];
        const go = mask[bins[r * F + f]];
        idx[w] = r;
        tmp[t] = r;
        w += go;
        t += go ^ 1;
      }
    } else {
      const thr = this.bestThr[leaf];
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

  private findBestSplit(leaf: number): void {
    const p = this.p;
    const hist = this.getHist(this.hist[leaf]);
    const G = this.sumG[leaf];
    const H = this.sumH[leaf];
    const C = this.end[leaf] - this.start[leaf];
    const l2 = p.l2;
    const minLeaf = p.minSamplesLeaf;
    const minH = p.minHessian;
    this.bestGain[leaf] = 0;
    if (C < 2 * minLeaf) return;
    const parent = (G * G) / (H + l2);
    let bestGain = 1e-10 * Math.abs(parent) + 1e-15;
    let bestFeat = -1;
    let bestThr = 0;
    let bestGL = 0;
    let bestHL = 0;
    let bestCat = false;
    let bestMissLeft = false;
    const order = this.catOrder;
    const ratio = this.catRatio;
    for (let f = 0; f < this.F; f++) {
      const nb = this.nBins[f];
      const o = this.off[f] * 3;
      if (!this.isCat[f]) {
        // The last bin holds the missing values. Pass 0 sends them right (bin <= thr goes left);
        // when this node has missing rows, pass 1 tries sending them left (starting the scan with
        // the missing bin's sums), as LightGBM/XGBoost learn a default direction per split.
        const km = o + (nb - 1) * 3;
        const passes = hist[km + 2] > 0 ? 2 : 1;
        for (let pass = 0; pass < passes; pass++) {
          let gl = pass ? hist[km] : 0;
          let hl = pass ? hist[km + 1] : 0;
          let cl = pass ? hist[km + 2] : 0;
          for (let b = 0; b < nb - 1 - pass; b++) {
            const k = o + b * 3;
            gl += hist[k];
            hl += hist[k + 1];
            cl += hist[k + 2];
            if (cl < minLeaf) continue;
            if (C - cl < minLeaf) break;
            const hr = H - hl;
            if (hl < minH || hr < minH) continue;
            const gr = G - gl;
            const gain = (gl * gl) / (hl + l2) + (gr * gr) / (hr + l2) - parent;
            if (gain > bestGain) {
              bestGain = gain;
              bestFeat = f;
              bestThr = b;
              bestGL = gl;
              bestHL = hl;
              bestCat = false;
              bestMissLeft = pass === 1;
            }
          }
        }
      } else {
        // Categories with enough rows, sorted by their mean gradient ratio: the best binary
        // partition of categories is (nearly always) a prefix of this order.
        let m = 0;
        for (let b = 0; b < nb; b++) {
          const k = o + b * 3;
          if (hist[k + 2] >= p.minDataPerCat) {
            order[m] = b;
            ratio[b] = hist[k] / (hist[k + 1] + p.catSmooth);
            m++;
          }
        }
        if (m < 2) continue;
        sortByRatio(order, m, ratio);
        const maxLeft = Math.min(p.maxCatThreshold, m - 1);
        for (let dir = 0; dir < 2; dir++) {
          let gl = 0;
          let hl = 0;
          let cl = 0;
          for (let i = 0; i < maxLeft; i++) {
            const b = dir === 0 ? order[i] : order[m - 1 - i];
            const k = o + b * 3;
            gl += hist[k];
            hl += hist[k + 1];
            cl += hist[k + 2];
            if (cl < minLeaf) continue;
            if (C - cl < minLeaf) break;
            const hr = H - hl;
            if (hl < minH || hr < minH) continue;
            const gr = G - gl;
            const gain = (gl * gl) / (hl + l2) + (gr * gr) / (hr + l2) - parent;
            if (gain > bestGain) {
              bestGain = gain;
              bestFeat = f;
              bestGL = gl;
              bestHL = hl;
              bestCat = true;
              const mask = this.bestMask[leaf];
              mask.fill(0);
              for (let j = 0; j <= i; j++) mask[dir === 0 ? order[j] : order[m - 1 - j]] = 1;
            }
          }
        }
      }
    }
    if (bestFeat < 0) return;
    this.bestGain[leaf] = bestGain;
    this.bestFeat[leaf] = bestFeat;
    this.bestThr[leaf] = bestCat ? 0 : bestThr;
    this.bestGL[leaf] = bestGL;
    this.bestHL[leaf] = bestHL;
    // Bins without a training row in this node (missing values or unseen categories when the
    // training data had none here) have no learned direction: they go to the child with the larger
    // hessian sum (row count for squared error). That child's value is the one closer to the
    // node's mean (n_L (m_L - m) = -n_R (m_R - m)), so a missing input approximately keeps the
    // node's average instead of taking whichever extreme branch the threshold put on the right.
    const nb = this.nBins[bestFeat];
    const o = this.off[bestFeat] * 3;
    const emptyLeft = bestHL > H - bestHL;
    const mask = this.bestMask[leaf];
    if (bestCat) {
      if (emptyLeft) for (let b = 0; b < nb; b++) if (hist[o + b * 3 + 2] === 0) mask[b] = 1;
      this.bestIsSet[leaf] = 1;
    } else if (bestMissLeft || (emptyLeft && hist[o + (nb - 1) * 3 + 2] === 0)) {
      // "bin <= thr, or missing": stored as a bin set (the missing bin is the feature's last).
      mask.fill(0);
      for (let b = 0; b <= bestThr; b++) mask[b] = 1;
      mask[nb - 1] = 1;
      this.bestIsSet[leaf] = 1;
    } else {
      this.bestIsSet[leaf] = 0;
    }
  }
}

/** Insertion sort of order[0..m) by ratio (m <= 255; avoids allocating a comparator array). */
function sortByRatio(order: Int32Array, m: number, ratio: Float64Array): void {
  for (let i = 1; i < m; i++) {
    const b = order[i];
    const r = ratio[b];
    let j = i - 1;
    while (j >= 0 && ratio[order[j]] > r) {
      order[j + 1] = order[j];
      j--;
    }
    order[j + 1] = b;
  }
}

// ---------------------------------------------------------------------------------------------
// Objectives
// ---------------------------------------------------------------------------------------------

function initialScores(t: GBMTarget, rows: Int32Array): Float64Array {
  const base = new Float64Array(t.K);
  let wsum = 0;
  if (t.objective === 'regression') {
    let s = 0;
    for (const r of rows) {
      const w = t.weight ? t.weight[r] : 1;
      s += w * t.y[r];
      wsum += w;
    }
    base[0] = wsum > 0 ? s / wsum : 0;
  } else if (t.objective === 'binary') {
    let s = 0;
    for (const r of rows) {
      const w = t.weight ? t.weight[r] : 1;
      s += w * t.y[r];
      wsum += w;
    }
    const p = Math.min(1 - 1e-6, Math.max(1e-6, s / wsum));
    base[0] = Math.log(p / (1 - p));
  } else {
    const c = new Float64Array(t.K);
    for (const r of rows) {
      const w = t.weight ? t.weight[r] : 1;
      c[t.y[r]] += w;
      wsum += w;
    }
    for (let k = 0; k < t.K; k++) base[k] = Math.log(Math.max(1e-6, c[k] / wsum));
  }
  return base;
}

function computeGradients(
  t: GBMTarget,
  rows: Int32Array,
  raw: Float64Array,
  g: Float64Array[],
  h: Float64Array[],
): void {
  const K = t.K;
  const y = t.y;
  const wt = t.weight;
  if (t.objective === 'regression') {
    const g0 = g[0];
    const h0 = h[0];
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      const w = wt ? wt[r] : 1;
      g0[r] = w * (raw[r] - y[r]);
      h0[r] = w;
    }
  } else if (t.objective === 'binary') {
    const g0 = g[0];
    const h0 = h[0];
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      const w = wt ? wt[r] : 1;
      const p = 1 / (1 + Math.exp(-raw[r]));
      g0[r] = w * (p - y[r]);
      h0[r] = Math.max(w * p * (1 - p), 1e-16);
    }
  } else {
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      const w = wt ? wt[r] : 1;
      const o = r * K;
      let mx = -Infinity;
      for (let k = 0; k < K; k++) if (raw[o + k] > mx) mx = raw[o + k];
      let z = 0;
      for (let k = 0; k < K; k++) z += Math.exp(raw[o + k] - mx);
      const yk = y[r];
      for (let k = 0; k < K; k++) {
        const p = Math.exp(raw[o + k] - mx) / z;
        g[k][r] = w * (p - (k === yk ? 1 : 0));
        h[k][r] = Math.max(w * p * (1 - p), 1e-16);
      }
    }
  }
}

/** Weighted mean loss on `rows`: squared error, logloss or cross-entropy. */
export function lossOf(t: GBMTarget, rows: ArrayLike<number>, raw: Float64Array): number {
  const K = t.K;
  let s = 0;
  let wsum = 0;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    const w = t.weight ? t.weight[r] : 1;
    wsum += w;
    if (t.objective === 'regression') {
      const d = raw[r] - t.y[r];
      s += w * d * d;
    } else if (t.objective === 'binary') {
      const z = raw[r];
      // log(1 + exp(-z)) for y = 1, log(1 + exp(z)) for y = 0, computed stably.
      const m = t.y[r] === 1 ? -z : z;
      s += w * (m > 0 ? m + Math.log1p(Math.exp(-m)) : Math.log1p(Math.exp(m)));
    } else {
      const o = r * K;
      let mx = -Infinity;
      for (let k = 0; k < K; k++) if (raw[o + k] > mx) mx = raw[o + k];
      let z = 0;
      for (let k = 0; k < K; k++) z += Math.exp(raw[o + k] - mx);
      s += w * (Math.log(z) + mx - raw[o + t.y[r]]);
    }
  }
  return wsum > 0 ? s / wsum : 0;
}

// ---------------------------------------------------------------------------------------------
// Training
// ---------------------------------------------------------------------------------------------

export interface GBMTrainResult {
  model: GBMModel;
  /** Iterations kept (best validation loss), each with K trees. */
  iterations: number;
  /**
   * Raw scores (n x K, absolute rows) of the returned model for the validation rows. (Training
   * rows hold the scores of the last iteration run, which may be past the kept one.)
   */
  raw: Float64Array;
  bestValLoss: number;
}

/**
 * Boosts trees on `trainRows`, early-stopping on `valRows` (when non-empty) after
 * `earlyStoppingRounds` iterations without improvement and keeping the best iteration. With
 * `init` (finetune), boosting continues from that model's scores (plus `offset`, absolute-row
 * scores of a linear base model) and its trees are kept.
 */
export function trainGBM(
  data: BinnedData,
  target: GBMTarget,
  trainRows: Int32Array,
  valRows: Int32Array,
  params: GBMParams,
  init?: GBMModel,
  onIteration?: (iteration: number) => void,
  offset?: Float64Array,
): GBMTrainResult {
  const K = target.K;
  const N = data.n;
  let store: NodeStore;
  let base: Float64Array;
  const raw = new Float64Array(N * K);
  if (init) {
    store = NodeStore.from(init);
    base = Float64Array.from(init.base);
    predictRawRows(init, data.bins, data.F, trainRows, raw);
    predictRawRows(init, data.bins, data.F, valRows, raw);
    if (offset) addOffset(raw, offset, trainRows, valRows, K);
  } else {
    store = new NodeStore();
    base = initialScores(target, trainRows);
    for (let r = 0; r < N; r++) for (let k = 0; k < K; k++) raw[r * K + k] = base[k];
  }
  const initTrees = store.roots.length;
  const g = Array.from({ length: K }, () => new Float64Array(N));
  const h = Array.from({ length: K }, () => new Float64Array(N));
  const builder = new TreeBuilder(
    data,
    params,
    trainRows.length,
    target.objective === 'regression' && target.weight === null,
  );
  const sampler =
    params.subsampleRows && params.subsampleRows > 0 && params.subsampleRows < trainRows.length
      ? new RowSampler(trainRows, params.subsampleRows, params.seed ?? 0)
      : null;
  const useVal = valRows.length > 0 && params.earlyStoppingRounds > 0;
  const minRel = params.minRelImprovement ?? 0;
  let bestLoss = useVal ? lossOf(target, valRows, raw) : Infinity;
  let bestIter = 0;
  // Patience is counted from the last iteration that improved the loss by at least `minRel`.
  let refLoss = bestLoss;
  let refIter = 0;
  // Validation scores of the best iteration, restored after early stopping.
  let bestValRaw = useVal ? snapshot(raw, valRows, K) : null;
  let it = 0;
  for (; it < params.maxIterations; it++) {
    let rows = trainRows;
    if (sampler) rows = sampler.draw();
    computeGradients(target, rows, raw, g, h);
    for (let k = 0; k < K; k++) {
      const treeStart = store.roots.length;
      builder.build(rows, g[k], h[k], store, raw, K, k);
      if (sampler)
        addTreeToRowsCompiled(store, treeStart, data.bins, data.F, sampler.rest, raw, K, k);
      addTreeToRows(store, treeStart, data.bins, data.F, valRows, raw, K, k);
    }
    onIteration?.(it + 1);
    if (useVal) {
      const loss = lossOf(target, valRows, raw);
      if (loss < bestLoss - 1e-12 * Math.max(1, Math.abs(bestLoss))) {
        bestLoss = loss;
        bestIter = it + 1;
        bestValRaw = snapshot(raw, valRows, K);
      }
      if (minRel > 0 ? loss <= refLoss * (1 - minRel) : bestIter === it + 1) {
        refLoss = loss;
        refIter = it + 1;
      } else if (it + 1 - refIter >= params.earlyStoppingRounds) {
        break;
      }
    } else {
      bestIter = it + 1;
    }
  }
  if (useVal && bestIter < it + 1) {
    store.truncate(initTrees + bestIter * K);
    // Validation scores of the kept iterations come from the snapshot; training-row scores are
    // left as they were (nobody needs them, and re-scoring would cost a full pass).
    restore(raw, valRows, K, bestValRaw!);
  }
  return {
    model: store.toModel(K, base, params.maxLeaves),
    iterations: bestIter,
    raw,
    bestValLoss: bestLoss,
  };
}

/**
 * Seeded per-iteration row samples of a fixed size, drawn without replacement and returned in
 * ascending row order (sequential reads of the binned matrix). `draw()` returns the sample and
 * leaves the other rows in `rest`.
 */
export class RowSampler {
  private readonly sorted: Int32Array;
  private readonly perm: Int32Array;
  private readonly mark: Uint8Array;
  private readonly inBuf: Int32Array;
  private readonly outBuf: Int32Array;
  private readonly size: number;
  private readonly rng: Rng;
  rest: Int32Array = new Int32Array(0);

  constructor(rows: Int32Array, size: number, seed: number) {
    const m = rows.length;
    this.sorted = Int32Array.from(rows).sort();
    this.perm = Int32Array.from({ length: m }, (_, i) => i);
    this.mark = new Uint8Array(m);
    this.size = Math.max(1, Math.min(m, Math.round(size)));
    this.inBuf = new Int32Array(m + 1);
    this.outBuf = new Int32Array(m + 1);
    this.rng = new Rng(seed ^ 0x6a55);
  }

  /** A fresh sample of exactly `size` rows (partial Fisher-Yates over positions), ascending. */
  draw(): Int32Array {
    const { sorted, perm, mark, inBuf, outBuf, rng } = this;
    const m = sorted.length;
    for (let i = 0; i < this.size; i++) {
      const j = i + rng.int(m - i);
      const t = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
      mark[perm[i]] = 1;
    }
    let a = 0;
    let b = 0;
    // Branch-free split (see TreeBuilder.partition); both buffers have a spare slot at the end.
    for (let i = 0; i < m; i++) {
      const r = sorted[i];
      const s = mark[i];
      inBuf[a] = r;
      outBuf[b] = r;
      a += s;
      b += s ^ 1;
      mark[i] = 0;
    }
    this.rest = outBuf.subarray(0, b);
    return inBuf.subarray(0, a);
  }
}

/** Adds fixed starting scores (a linear base model's outputs, when finetuning one). */
function addOffset(
  raw: Float64Array,
  offset: Float64Array,
  a: Int32Array,
  b: Int32Array,
  K: number,
): void {
  for (const rows of [a, b])
    for (let i = 0; i < rows.length; i++)
      for (let k = 0; k < K; k++) raw[rows[i] * K + k] += offset[rows[i] * K + k];
}

function snapshot(raw: Float64Array, rows: Int32Array, K: number): Float64Array {
  const s = new Float64Array(rows.length * K);
  for (let i = 0; i < rows.length; i++)
    for (let k = 0; k < K; k++) s[i * K + k] = raw[rows[i] * K + k];
  return s;
}

function restore(raw: Float64Array, rows: Int32Array, K: number, s: Float64Array): void {
  for (let i = 0; i < rows.length; i++)
    for (let k = 0; k < K; k++) raw[rows[i] * K + k] = s[i * K + k];
}

/**
 * The leaf a row of bins (starting at `base`) reaches from `root`: a numeric split sends bins up to
 * its threshold left; a categorical split sends the bins whose bit is set in the node's bitset
 * (starting at `thr`) left. The one tree walk of training, validation and prediction.
 */
function leafOf(
  feat: Int32Array,
  thr: Int32Array,
  isCat: Uint8Array,
  left: Int32Array,
  right: Int32Array,
  bits: Uint32Array,
  bins: Uint8Array,
  base: number,
  root: number,
): number {
  let node = root;
  let f = feat[node];
  while (f >= 0) {
    const b = bins[base + f];
    const t = thr[node];
    const goLeft = isCat[node] ? (bits[t + (b >>> 5)] >>> (b & 31)) & 1 : b <= t ? 1 : 0;
    node = goLeft ? left[node] : right[node];
    f = feat[node];
  }
  return node;
}

function addTreeToRows(
  store: NodeStore,
  treeIndex: number,
  bins: Uint8Array,
  F: number,
  rows: Int32Array,
  raw: Float64Array,
  K: number,
  k: number,
): void {
  const root = store.roots[treeIndex];
  const { feat, thr, isCat, left, right, value, bits } = store;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    const base = r * F;
    raw[r * K + k] += value[leafOf(feat, thr, isCat, left, right, bits, bins, base, root)];
  }
}

// ---------------------------------------------------------------------------------------------
// Prediction
// ---------------------------------------------------------------------------------------------

/**
 * Raw scores for rows 0..n-1 of a row-major binned matrix into out[n * K]. Trees are the outer
 * loop so one tree's nodes stay in cache while all rows pass through it.
 */
export function predictRaw(
  m: GBMModel,
  bins: Uint8Array,
  F: number,
  n: number,
  out: Float64Array,
): void {
  const K = m.K;
  for (let r = 0; r < n; r++) for (let k = 0; k < K; k++) out[r * K + k] = m.base[k];
  const { feat, thr, isCatNode, left, right, value, catBits, roots } = m;
  for (let t = 0; t < m.nTrees; t++) {
    const root = roots[t];
    const k = t % K;
    for (let r = 0; r < n; r++) {
      const base = r * F;
      out[r * K + k] += value[leafOf(feat, thr, isCatNode, left, right, catBits, bins, base, root)];
    }
  }
}

/** Raw scores for selected rows of a binned matrix, written at raw[row * K + k]. */
export function predictRawRows(
  m: GBMModel,
  bins: Uint8Array,
  F: number,
  rows: ArrayLike<number>,
  raw: Float64Array,
): void {
  const K = m.K;
  const { feat, thr, isCatNode, left, right, value, catBits, roots } = m;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    for (let k = 0; k < K; k++) raw[r * K + k] = m.base[k];
  }
  for (let t = 0; t < m.nTrees; t++) {
    const root = roots[t];
    const k = t % K;
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      const base = r * F;
      raw[r * K + k] += value[leafOf(feat, thr, isCatNode, left, right, catBits, bins, base, root)];
    }
  }
}

/** Number of leaves in the largest tree (for the summary string). */
export function countLeaves(m: GBMModel): { trees: number; maxLeaves: number } {
  let maxL = 0;
  for (let t = 0; t < m.nTrees; t++) {
    const s = m.roots[t];
    const e = t + 1 < m.nTrees ? m.roots[t + 1] : m.feat.length;
    let l = 0;
    for (let i = s; i < e; i++) if (m.feat[i] < 0) l++;
    if (l > maxL) maxL = l;
  }
  return { trees: m.nTrees, maxLeaves: maxL };
}

// ---------------------------------------------------------------------------------------------
// Serialization (typed arrays -> base64 so the artifact is plain JSON)
// ---------------------------------------------------------------------------------------------

export interface SerializedGBM {
  K: number;
  base: number[];
  nTrees: number;
  maxLeaves: number;
  roots: string;
  feat: string;
  thr: string;
  isCatNode: string;
  left: string;
  right: string;
  value: string;
  catBits: string;
}

export function toBase64(a: ArrayBufferView): string {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
}

export function fromBase64<T>(s: string, make: (buf: ArrayBuffer) => T): T {
  const b = Buffer.from(s, 'base64');
  // Copy into a fresh, aligned ArrayBuffer (Buffer's pool offset may not be aligned).
  const ab = new ArrayBuffer(b.length);
  new Uint8Array(ab).set(b);
  return make(ab);
}

export function serializeGBM(m: GBMModel): SerializedGBM {
  return {
    K: m.K,
    base: Array.from(m.base),
    nTrees: m.nTrees,
    maxLeaves: m.maxLeaves,
    roots: toBase64(m.roots),
    feat: toBase64(m.feat),
    thr: toBase64(m.thr),
    isCatNode: toBase64(m.isCatNode),
    left: toBase64(m.left),
    right: toBase64(m.right),
    value: toBase64(m.value),
    catBits: toBase64(m.catBits),
  };
}

export function deserializeGBM(s: SerializedGBM): GBMModel {
  return {
    K: s.K,
    base: Float64Array.from(s.base),
    nTrees: s.nTrees,
    maxLeaves: s.maxLeaves,
    roots: fromBase64(s.roots, (b) => new Int32Array(b)),
    feat: fromBase64(s.feat, (b) => new Int32Array(b)),
    thr: fromBase64(s.thr, (b) => new Int32Array(b)),
    isCatNode: fromBase64(s.isCatNode, (b) => new Uint8Array(b)),
    left: fromBase64(s.left, (b) => new Int32Array(b)),
    right: fromBase64(s.right, (b) => new Int32Array(b)),
    value: fromBase64(s.value, (b) => new Float64Array(b)),
    catBits: fromBase64(s.catBits, (b) => new Uint32Array(b)),
  };
}

// ---------------------------------------------------------------------------------------------
// Compiled prediction
// ---------------------------------------------------------------------------------------------

/** A compiled tree: adds its leaf value to out[r * K + k] for rows 0..n-1 of a binned matrix. */
export type CompiledTree = (
  bins: Uint8Array,
  F: number,
  n: number,
  out: Float64Array,
  catBits: Uint32Array,
) => void;

/** Literal for generated code; the model arrays are typed arrays, so this only ever sees numbers. */
function lit(x: number): string {
  if (!Number.isFinite(x)) throw new Error('non-finite number in model');
  return Object.is(x, -0) ? '0' : String(x);
}

/**
 * Compiles each tree to a JS function of nested ifs that loops over the rows (V8 turns it into
 * straight-line compares on constants: no node-array loads), about 3-5x faster than walking the
 * node arrays. Only numbers from typed arrays are written into the source, so a tampered
 * artifact cannot inject code. One function per tree keeps each function small enough for the
 * optimising compiler.
 */
export function compileTrees(m: GBMModel): CompiledTree[] {
  const out: CompiledTree[] = [];
  const K = m.K;
  for (let t = 0; t < m.nTrees; t++) {
    const k = t % K;
    const body = emitNode(m, m.roots[t], '      ');
    const src = `for (let r = 0, b = 0; r < n; r++, b += F) {\n    let v;\n${body}\n    out[r * ${lit(K)} + ${lit(k)}] += v;\n  }`;
    out.push(new Function('bins', 'F', 'n', 'out', 'catBits', src) as CompiledTree);
  }
  return out;
}

/** The node arrays code generation reads (a GBMModel, or a NodeStore while training). */
type TreeArrays = Pick<GBMModel, 'feat' | 'thr' | 'isCatNode' | 'left' | 'right' | 'value'>;

function emitNode(m: TreeArrays, node: number, ind: string): string {
  const f = m.feat[node];
  if (f < 0) return `${ind}v = ${lit(m.value[node])};`;
  const th = m.thr[node];
  const x = `bins[b + ${lit(f)}]`;
  const cond = m.isCatNode[node]
    ? `(catBits[${lit(th)} + (${x} >>> 5)] >>> (${x} & 31)) & 1`
    : `${x} <= ${lit(th)}`;
  const inner = ind + '  ';
  return `${ind}if (${cond}) {\n${emitNode(m, m.left[node], inner)}\n${ind}} else {\n${emitNode(m, m.right[node], inner)}\n${ind}}`;
}

/** A compiled tree adding its leaf value to raw[rows[i] * K + k] for i < n. */
type CompiledRowsTree = (
  bins: Uint8Array,
  F: number,
  rows: Int32Array,
  n: number,
  raw: Float64Array,
  catBits: Uint32Array,
) => void;

/**
 * addTreeToRows for many rows: the tree compiled to nested ifs (see compileTrees). Worth its
 * compile time only from tens of thousands of rows; the additions are the same, bit for bit.
 */
function addTreeToRowsCompiled(
  store: NodeStore,
  treeIndex: number,
  bins: Uint8Array,
  F: number,
  rows: Int32Array,
  raw: Float64Array,
  K: number,
  k: number,
): void {
  const t: TreeArrays = {
    feat: store.feat,
    thr: store.thr,
    isCatNode: store.isCat,
    left: store.left,
    right: store.right,
    value: store.value,
  };
  const body = emitNode(t, store.roots[treeIndex], '    ');
  const src = `for (let i = 0; i < n; i++) {\n    const r = rows[i];\n    const b = r * F;\n    let v;\n${body}\n    raw[r * ${lit(K)} + ${lit(k)}] += v;\n  }`;
  const fn = new Function('bins', 'F', 'rows', 'n', 'raw', 'catBits', src) as CompiledRowsTree;
  fn(bins, F, rows, rows.length, raw, store.bits);
}

/** predictRaw with compiled trees (same results, bit for bit: same additions in the same order). */
export function predictRawCompiled(
  m: GBMModel,
  trees: CompiledTree[],
  bins: Uint8Array,
  F: number,
  n: number,
  out: Float64Array,
): void {
  const K = m.K;
  for (let r = 0; r < n; r++) for (let k = 0; k < K; k++) out[r * K + k] = m.base[k];
  for (let t = 0; t < trees.length; t++) trees[t](bins, F, n, out, m.catBits);
}
