// Gradient histograms: per feature and bin, the sums of gradients, hessians and rows of a leaf's
// rows. Split finding scans these (255 bins at most) instead of sorting rows.

import type { BinnedData } from './model';

/**
 * The histograms of one tree's leaves: a pool of buffers (one per leaf slot; the larger child of
 * a split reuses its parent's) laid out as [feature offset + bin] x (gradient, hessian, count),
 * or with vector leaves (D values per leaf) x (D gradients, D hessians, count).
 */
export class Histograms {
  /** First histogram bin of each feature (off[F] = total bins). */
  readonly off: Int32Array;
  /** Numbers per bin: 3, or 2 D + 1 with vector leaves. */
  readonly C: number;
  /** Numbers in one histogram (C per bin). */
  readonly length: number;
  private readonly pool: Float64Array[] = [];
  private readonly rowBuf: Float64Array;
  private readonly F: number;
  private readonly bins: Uint8Array;

  constructor(
    data: BinnedData,
    /** Unweighted squared error: every hessian is 1 (a third of the writes can be skipped). */
    private readonly unitHessian: boolean,
    /** Values per leaf; gradients and hessians then come interleaved per row (g[r * D + j]). */
    private readonly D = 1,
  ) {
    this.F = data.F;
    this.bins = data.bins;
    this.off = new Int32Array(this.F + 1);
    for (let f = 0; f < this.F; f++) this.off[f + 1] = this.off[f] + data.nBins[f];
    this.C = D > 1 ? 2 * D + 1 : 3;
    this.rowBuf = new Float64Array(2 * D);
    this.length = this.off[this.F] * this.C;
  }

  /** The buffer of pool slot `slot` (allocated on first use). */
  get(slot: number): Float64Array {
    while (this.pool.length <= slot) this.pool.push(new Float64Array(this.length));
    return this.pool[slot];
  }

  /** Fills `hist` from rows idx[s, e) with gradients g / hessians h (indexed by absolute row). */
  build(
    hist: Float64Array,
    idx: Int32Array,
    s: number,
    e: number,
    g: Float64Array,
    h: Float64Array,
  ): void {
    hist.fill(0);
    const F = this.F;
    const bins = this.bins;
    const off = this.off;
    if (this.D > 1) {
      const D = this.D;
      const C = this.C;
      const D2 = 2 * D;
      // The row's gradients then hessians side by side, added to each feature's bin in one run.
      const gh = this.rowBuf;
      for (let i = s; i < e; i++) {
        const r = idx[i];
        const base = r * F;
        const gr = r * D;
        for (let j = 0; j < D; j++) {
          gh[j] = g[gr + j];
          gh[D + j] = h[gr + j];
        }
        for (let f = 0; f < F; f++) {
          const k = (off[f] + bins[base + f]) * C;
          for (let j = 0; j < D2; j++) hist[k + j] += gh[j];
          hist[k + D2] += 1;
        }
      }
      return;
    }
    if (this.unitHessian) {
      // The hessian sum is the row count.
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
      for (let k = 0; k < this.length; k += 3) hist[k + 1] = hist[k + 2];
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

  /** parent -= child: the subtraction trick (the parent's buffer becomes the sibling's). */
  subtract(parent: Float64Array, child: Float64Array): void {
    for (let j = 0; j < this.length; j++) parent[j] -= child[j];
  }
}
