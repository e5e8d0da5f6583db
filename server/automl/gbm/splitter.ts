// Split finding: the best split of a leaf from its gradient histogram, for numeric features
// (a threshold scan, trying missing values on both sides) and categorical ones (a prefix scan
// over categories sorted by gradient ratio).

import type { GBMParams } from './model';

/** Per-leaf state of the tree being grown (index = leaf slot) and each leaf's best split. */
export class Leaves {
  /** The leaf's rows are idx[start, end) of the grower's row index. */
  readonly start: Int32Array;
  readonly end: Int32Array;
  /** Histogram pool slot. */
  readonly hist: Int32Array;
  readonly sumG: Float64Array;
  readonly sumH: Float64Array;
  readonly depth: Int32Array;
  /** Node id in the NodeStore. */
  readonly node: Int32Array;
  /** Best split: gain 0 when the leaf cannot be split. */
  readonly gain: Float64Array;
  readonly feat: Int32Array;
  readonly thr: Int32Array;
  /** Gradient / hessian sums of the left child. */
  readonly GL: Float64Array;
  readonly HL: Float64Array;
  /** Bins sent left when `isSet` (categorical, or numeric with missing values left). */
  readonly mask: Uint8Array[];
  readonly isSet: Uint8Array;

  /** `D` values per leaf: the sums and the left child's sums hold D numbers per leaf slot. */
  constructor(L: number, D = 1) {
    this.start = new Int32Array(L);
    this.end = new Int32Array(L);
    this.hist = new Int32Array(L);
    this.sumG = new Float64Array(L * D);
    this.sumH = new Float64Array(L * D);
    this.depth = new Int32Array(L);
    this.node = new Int32Array(L);
    this.gain = new Float64Array(L);
    this.feat = new Int32Array(L);
    this.thr = new Int32Array(L);
    this.GL = new Float64Array(L * D);
    this.HL = new Float64Array(L * D);
    this.mask = Array.from({ length: L }, () => new Uint8Array(256));
    this.isSet = new Uint8Array(L);
  }
}

export class Splitter {
  // Scratch for categorical split search.
  private readonly catOrder = new Int32Array(256);
  private readonly catRatio = new Float64Array(256);

  constructor(
    private readonly F: number,
    private readonly nBins: Int32Array,
    private readonly isCat: Uint8Array,
    /** First histogram bin of each feature (Histograms.off). */
    private readonly off: Int32Array,
    private readonly p: GBMParams,
  ) {}

  /**
   * Finds the best split of leaf slot `leaf` from its histogram `hist` and records it in `out`
   * (gain 0: no split passes the constraints).
   */
  find(out: Leaves, leaf: number, hist: Float64Array): void {
    const p = this.p;
    const G = out.sumG[leaf];
    const H = out.sumH[leaf];
    const C = out.end[leaf] - out.start[leaf];
    const l2 = p.l2;
    const minLeaf = p.minSamplesLeaf;
    const minH = p.minHessian;
    out.gain[leaf] = 0;
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
              prefixMask(out.mask[leaf], order, m, i, dir);
            }
          }
        }
      }
    }
    if (bestFeat < 0) return;
    out.gain[leaf] = bestGain;
    out.feat[leaf] = bestFeat;
    out.thr[leaf] = bestCat ? 0 : bestThr;
    out.GL[leaf] = bestGL;
    out.HL[leaf] = bestHL;
    this.setDirection(out, leaf, hist, {
      f: bestFeat,
      thr: bestThr,
      cat: bestCat,
      missLeft: bestMissLeft,
      emptyLeft: bestHL > H - bestHL,
      C: 3,
      count: 2,
    });
  }

  /**
   * Bins without a training row in this node (missing values or unseen categories when the
   * training data had none here) have no learned direction: they go to the child with the larger
   * hessian sum (row count for squared error). That child's value is the one closer to the node's
   * mean (n_L (m_L - m) = -n_R (m_R - m)), so a missing input approximately keeps the node's
   * average instead of taking whichever extreme branch the threshold put on the right.
   */
  private setDirection(
    out: Leaves,
    leaf: number,
    hist: Float64Array,
    best: {
      f: number;
      thr: number;
      cat: boolean;
      missLeft: boolean;
      /** The left child has the larger hessian sum. */
      emptyLeft: boolean;
      /** Numbers per histogram bin and the row count's position among them. */
      C: number;
      count: number;
    },
  ): void {
    const { f, thr, cat, missLeft, emptyLeft, C, count } = best;
    const nb = this.nBins[f];
    const o = this.off[f] * C;
    const mask = out.mask[leaf];
    if (cat) {
      if (emptyLeft) for (let b = 0; b < nb; b++) if (hist[o + b * C + count] === 0) mask[b] = 1;
      out.isSet[leaf] = 1;
    } else if (missLeft || (emptyLeft && hist[o + (nb - 1) * C + count] === 0)) {
      // "bin <= thr, or missing": stored as a bin set (the missing bin is the feature's last).
      mask.fill(0);
      for (let b = 0; b <= thr; b++) mask[b] = 1;
      mask[nb - 1] = 1;
      out.isSet[leaf] = 1;
    } else {
      out.isSet[leaf] = 0;
    }
  }

  /**
   * find() for vector leaves (D values per leaf): the gain of a split is the sum of the classes'
   * gains; categories are ordered by the gradient ratio of the class with the largest gradient
   * sum in the node (one order has to be chosen, and that class dominates the gain).
   */
  findVector(out: Leaves, leaf: number, hist: Float64Array, D: number): void {
    const p = this.p;
    const C = 2 * D + 1;
    const l2 = p.l2;
    const minLeaf = p.minSamplesLeaf;
    const minH = p.minHessian;
    const rows = out.end[leaf] - out.start[leaf];
    out.gain[leaf] = 0;
    if (rows < 2 * minLeaf) return;
    const G = out.sumG.subarray(leaf * D, leaf * D + D);
    const H = out.sumH.subarray(leaf * D, leaf * D + D);
    let Hs = 0;
    let parent = 0;
    let dom = 0;
    for (let j = 0; j < D; j++) {
      Hs += H[j];
      parent += (G[j] * G[j]) / (H[j] + l2);
      if (Math.abs(G[j]) > Math.abs(G[dom])) dom = j;
    }
    let bestGain = 1e-10 * Math.abs(parent) + 1e-15;
    let bestFeat = -1;
    let bestThr = 0;
    let bestCat = false;
    let bestMissLeft = false;
    const gl = this.vecGL(D);
    const hl = this.vecHL(D);
    const bGL = out.GL.subarray(leaf * D, leaf * D + D);
    const bHL = out.HL.subarray(leaf * D, leaf * D + D);
    let bestHLs = 0;
    const order = this.catOrder;
    const ratio = this.catRatio;
    // Gain of the left sums in gl / hl (with cl rows), or -1 when a constraint fails.
    const gainOf = (cl: number): number => {
      if (cl < minLeaf || rows - cl < minLeaf) return -1;
      let hls = 0;
      for (let j = 0; j < D; j++) hls += hl[j];
      if (hls < minH || Hs - hls < minH) return -1;
      let g = -parent;
      for (let j = 0; j < D; j++) {
        const gr = G[j] - gl[j];
        g += (gl[j] * gl[j]) / (hl[j] + l2) + (gr * gr) / (H[j] - hl[j] + l2);
      }
      return g;
    };
    const record = (gain: number, f: number): void => {
      bestGain = gain;
      bestFeat = f;
      bGL.set(gl);
      bHL.set(hl);
      bestHLs = 0;
      for (let j = 0; j < D; j++) bestHLs += hl[j];
    };
    for (let f = 0; f < this.F; f++) {
      const nb = this.nBins[f];
      const o = this.off[f] * C;
      if (!this.isCat[f]) {
        const km = o + (nb - 1) * C;
        const passes = hist[km + 2 * D] > 0 ? 2 : 1;
        for (let pass = 0; pass < passes; pass++) {
          for (let j = 0; j < D; j++) {
            gl[j] = pass ? hist[km + j] : 0;
            hl[j] = pass ? hist[km + D + j] : 0;
          }
          let cl = pass ? hist[km + 2 * D] : 0;
          for (let b = 0; b < nb - 1 - pass; b++) {
            const k = o + b * C;
            for (let j = 0; j < D; j++) {
              gl[j] += hist[k + j];
              hl[j] += hist[k + D + j];
            }
            cl += hist[k + 2 * D];
            if (rows - cl < minLeaf) break;
            const gain = gainOf(cl);
            if (gain > bestGain) {
              record(gain, f);
              bestThr = b;
              bestCat = false;
              bestMissLeft = pass === 1;
            }
          }
        }
      } else {
        let m = 0;
        for (let b = 0; b < nb; b++) {
          const k = o + b * C;
          if (hist[k + 2 * D] >= p.minDataPerCat) {
            order[m] = b;
            ratio[b] = hist[k + dom] / (hist[k + D + dom] + p.catSmooth);
            m++;
          }
        }
        if (m < 2) continue;
        sortByRatio(order, m, ratio);
        const maxLeft = Math.min(p.maxCatThreshold, m - 1);
        for (let dir = 0; dir < 2; dir++) {
          gl.fill(0);
          hl.fill(0);
          let cl = 0;
          for (let i = 0; i < maxLeft; i++) {
            const k = o + (dir === 0 ? order[i] : order[m - 1 - i]) * C;
            for (let j = 0; j < D; j++) {
              gl[j] += hist[k + j];
              hl[j] += hist[k + D + j];
            }
            cl += hist[k + 2 * D];
            if (rows - cl < minLeaf) break;
            const gain = gainOf(cl);
            if (gain > bestGain) {
              record(gain, f);
              bestCat = true;
              prefixMask(out.mask[leaf], order, m, i, dir);
            }
          }
        }
      }
    }
    if (bestFeat < 0) return;
    out.gain[leaf] = bestGain;
    out.feat[leaf] = bestFeat;
    out.thr[leaf] = bestCat ? 0 : bestThr;
    this.setDirection(out, leaf, hist, {
      f: bestFeat,
      thr: bestThr,
      cat: bestCat,
      missLeft: bestMissLeft,
      emptyLeft: bestHLs > Hs - bestHLs,
      C,
      count: 2 * D,
    });
  }

  private glBuf: Float64Array | null = null;
  private hlBuf: Float64Array | null = null;
  private vecGL(D: number): Float64Array {
    if (!this.glBuf || this.glBuf.length !== D) this.glBuf = new Float64Array(D);
    return this.glBuf;
  }
  private vecHL(D: number): Float64Array {
    if (!this.hlBuf || this.hlBuf.length !== D) this.hlBuf = new Float64Array(D);
    return this.hlBuf;
  }
}

/** The categories sent left: the first i + 1 of `order` (dir 0) or the last i + 1 (dir 1). */
function prefixMask(mask: Uint8Array, order: Int32Array, m: number, i: number, dir: number): void {
  mask.fill(0);
  for (let j = 0; j <= i; j++) mask[dir === 0 ? order[j] : order[m - 1 - j]] = 1;
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
