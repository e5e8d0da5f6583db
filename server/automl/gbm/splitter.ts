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

  constructor(L: number) {
    this.start = new Int32Array(L);
    this.end = new Int32Array(L);
    this.hist = new Int32Array(L);
    this.sumG = new Float64Array(L);
    this.sumH = new Float64Array(L);
    this.depth = new Int32Array(L);
    this.node = new Int32Array(L);
    this.gain = new Float64Array(L);
    this.feat = new Int32Array(L);
    this.thr = new Int32Array(L);
    this.GL = new Float64Array(L);
    this.HL = new Float64Array(L);
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
              const mask = out.mask[leaf];
              mask.fill(0);
              for (let j = 0; j <= i; j++) mask[dir === 0 ? order[j] : order[m - 1 - j]] = 1;
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
    // Bins without a training row in this node (missing values or unseen categories when the
    // training data had none here) have no learned direction: they go to the child with the larger
    // hessian sum (row count for squared error). That child's value is the one closer to the
    // node's mean (n_L (m_L - m) = -n_R (m_R - m)), so a missing input approximately keeps the
    // node's average instead of taking whichever extreme branch the threshold put on the right.
    const nb = this.nBins[bestFeat];
    const o = this.off[bestFeat] * 3;
    const emptyLeft = bestHL > H - bestHL;
    const mask = out.mask[leaf];
    if (bestCat) {
      if (emptyLeft) for (let b = 0; b < nb; b++) if (hist[o + b * 3 + 2] === 0) mask[b] = 1;
      out.isSet[leaf] = 1;
    } else if (bestMissLeft || (emptyLeft && hist[o + (nb - 1) * 3 + 2] === 0)) {
      // "bin <= thr, or missing": stored as a bin set (the missing bin is the feature's last).
      mask.fill(0);
      for (let b = 0; b <= bestThr; b++) mask[b] = 1;
      mask[nb - 1] = 1;
      out.isSet[leaf] = 1;
    } else {
      out.isSet[leaf] = 0;
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
